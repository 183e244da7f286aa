// --verify (apps/node/verify.h) on one node in this process, the EAL in the
// loop: every registered program's correct run is VALID against its oracle
// and exits 0; a result the test hands in wrong (run_program's hook, called
// before the check) is INVALID, naming the first differing vertex by the id
// the result files write, and exits 1; where the graph does not fit
// (--verify-limit), BFS, SSSP and CC check their invariants on the node's
// edges and a program without one says it skipped and why; the verdict is in
// nodeR.json. Also the whole-input reader's numbering (compute/graph/whole_input.h),
// which must be the loader's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/node/node.h"
#include "apps/node/out_dir.h"
#include "apps/node/outputs.h"
#include "apps/node/run_program.h"
#include "apps/programs.h"
#include "apps/registry.h"
#include "compute/graph/whole_input.h"
#include "config/options.h"
#include "tests/eal_test_main.h"
#include "tests/graphs_for_tests.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

// The node's configuration as the binary parses it, one node, one domain.
Config config_for(std::string_view program, const std::string& graph, std::vector<std::string> extra) {
  // The corner graph as written: 0..largest, its isolated vertices too.
  std::vector<std::string> args = {"wiregraph", "--app", std::string(program), "--graph", graph, "--ids", "dense", "--quiet",
                                   "--verify", "--mbufs", "4095", "--domains", "1", "--job-id", "0x5eed0002"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return parse_app_args(static_cast<int>(args.size()), argv.data(), program_traits());
}

template <RunnableProgram Prog>
RunOutcome run_verified(const std::string& graph, std::vector<std::string> extra = {},
                        const ResultHook<Prog>& hook = {}) {
  const Config cfg = config_for(Prog::kTraits.name, graph, std::move(extra));
  if (!cfg.out_dir.empty()) prepare_out_dir(cfg.out_dir, cfg.out_keep_others);  // as apps/main.cc does
  Node node(cfg);
  return run_program<Prog>(node, hook);
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The slot of the vertex whose dense id is `id`.
uint32_t slot_of(const LocalGraph& g, VertexId id) {
  for (uint32_t i = 0; i < g.num_local; ++i)
    if (g.global_id(i) == id) return i;
  ADD_FAILURE() << "vertex " << id << " is not on this node";
  return 0;
}

class Verify : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = dir_.file("corner.txt");
    test::write_snap(test::corner_case_graph(), graph_);
  }
  test::TempDir dir_;
  std::string graph_;
};

// ---- every program, correct: VALID, every vertex checked, exit 0 --------------

// The corner-case graph's edges made undirected, without self-loops, each once:
// what a per-edge program (jaccard) has results for.
uint64_t undirected_simple_edges(const EdgeList& g) {
  std::set<std::pair<VertexId, VertexId>> edges;
  for (const Edge& e : g.edges)
    if (e.src != e.dst) edges.insert({std::min(e.src, e.dst), std::max(e.src, e.dst)});
  return edges.size();
}

template <RunnableProgram Prog>
void expect_valid(const std::string& graph, const std::string& out) {
  SCOPED_TRACE(std::string(Prog::kTraits.name));
  const RunOutcome o = run_verified<Prog>(graph, {"--out", out});
  if constexpr (!HasOracle<Prog>) {  // a program without one is told apart, not passed
    EXPECT_EQ(o.verify.outcome, VerifyVerdict::Outcome::kSkipped) << o.verify.line();
    EXPECT_EQ(o.verify.line(), "verify: skipped: cannot verify " + std::string(Prog::kTraits.name) +
                                   ": it declares no oracle (a static reference(), docs/PROGRAMS.md), so there is "
                                   "nothing to compare with");
    return;
  }
  EXPECT_EQ(o.exit_code, 0) << o.verify.line();
  EXPECT_EQ(o.verify.outcome, VerifyVerdict::Outcome::kValid) << o.verify.line();
  uint64_t checked = 120;  // one node checks every vertex, or every edge
  std::string what = " vertices";
  if constexpr (PerEdgeResults<Prog>) {
    EXPECT_EQ(o.verify.method, VerifyVerdict::Method::kEdgeOracle);
    checked = undirected_simple_edges(test::corner_case_graph()), what = " edges";
  } else {
    EXPECT_EQ(o.verify.method, VerifyVerdict::Method::kOracle);
  }
  EXPECT_EQ(o.verify.checked, checked);
  EXPECT_EQ(o.verify.line(), "verify: VALID (" + std::to_string(checked) + what + " checked against the single-node oracle)");
  const nlohmann::json node = read_json(out + "/node0.json");
  EXPECT_EQ(node["verify"]["outcome"], "valid");
  EXPECT_EQ(node["verify"]["checked"], checked);
  EXPECT_EQ(node["results"]["program"], Prog::kTraits.name);
  EXPECT_EQ(node["results"]["comparison"], comparison_name(Prog::kTraits.comparison));
}

template <RunnableProgram... P>
void expect_all_valid(ProgramList<P...>, const std::string& graph, const test::TempDir& dir) {
  (expect_valid<P>(graph, dir.file(std::string("out-") + std::string(P::kTraits.name))), ...);
}

TEST_F(Verify, EveryRegisteredProgramIsValidAgainstItsOracle) {
  expect_all_valid(AllPrograms{}, graph_, dir_);
}

// ---- wrong results: INVALID, the first differing vertex, exit 1 ---------------

TEST_F(Verify, AWrongDepthIsInvalidAndNamesTheVertex) {
  const std::string out = dir_.file("bad-bfs");
  // Vertex 100 is unreachable from 0 (tests/graphs_for_tests.h); 7 is at depth 2 or so.
  const RunOutcome o = run_verified<Bfs>(graph_, {"--out", out}, [](RunResult<Bfs>& r) {
    r.values[slot_of(r.graph, 100)] = 3;
    r.values[slot_of(r.graph, 119)] = 5;
  });
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.verify.outcome, VerifyVerdict::Outcome::kInvalid);
  EXPECT_EQ(o.verify.differing, 2u);
  EXPECT_EQ(o.verify.first, "vertex 100: got 3, expected inf") << "the smaller id of the two";
  EXPECT_EQ(o.verify.line(),
            "verify: INVALID: vertex 100: got 3, expected inf (2 of 120 vertices differ from the single-node "
            "oracle)");
  const nlohmann::json node = read_json(out + "/node0.json");
  EXPECT_EQ(node["verify"]["outcome"], "invalid");
  EXPECT_EQ(node["verify"]["differing"], 2);
  EXPECT_EQ(node["verify"]["first"], "vertex 100: got 3, expected inf");
}

// Per-edge results (jaccard): a wrong value and an edge that is not one.
TEST_F(Verify, AWrongEdgeResultIsInvalidAndNamesTheEdge) {
  int64_t src = 0, dst = 0;
  using JaccardModel = Completed<Jaccard>;
  const RunOutcome o = run_verified<JaccardModel>(graph_, {}, [&](RunResult<JaccardModel>& r) {
    ASSERT_GE(r.edges.size(), 2u);
    src = r.edges[0].src, dst = r.edges[0].dst;
    r.edges[0].value += 0.5;
    r.edges[1].dst = 1000;  // no vertex
  });
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.verify.outcome, VerifyVerdict::Outcome::kInvalid);
  EXPECT_EQ(o.verify.differing, 2u);
  EXPECT_EQ(o.verify.first.rfind("edge " + std::to_string(src) + " " + std::to_string(dst) + ": got ", 0), 0u)
      << o.verify.first;
}

TEST_F(Verify, ARankOutsideTheToleranceIsInvalid) {
  double want = 0;
  const RunOutcome o = run_verified<PageRank>(graph_, {}, [&want](RunResult<PageRank>& r) {
    want = r.values[slot_of(r.graph, 5)];
    r.values[slot_of(r.graph, 5)] *= 1.001;  // ten times the tolerance
  });
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.verify.differing, 1u);
  EXPECT_EQ(o.verify.first.rfind("vertex 5: got ", 0), 0u) << o.verify.first;
  // Within the tolerance is no difference.
  const RunOutcome near = run_verified<PageRank>(
      graph_, {}, [](RunResult<PageRank>& r) { r.values[slot_of(r.graph, 5)] *= 1 + 1e-6; });
  EXPECT_EQ(near.exit_code, 0) << near.verify.line();
  EXPECT_GT(want, 0.0);
}

// Sparse ids: the vertex and the labels by the file's own ids.
TEST_F(Verify, SparseIdsAreNamedByTheFilesOwnIds) {
  const std::string path = dir_.file("sparse.txt");
  std::ofstream(path) << "-7 1000000000000\n1000000000000 42\n42 -7\n9000 9001\n";
  // Dense ids by rank: -7 -> 0, 42 -> 1, 9000 -> 2, 9001 -> 3, 10^12 -> 4.
  const RunOutcome ok = run_verified<ConnectedComponents>(path, {"--ids", "sparse"});
  EXPECT_EQ(ok.exit_code, 0) << ok.verify.line();
  EXPECT_EQ(ok.verify.checked, 5u);
  const RunOutcome bad = run_verified<ConnectedComponents>(
      path, {"--ids", "sparse"}, [](RunResult<ConnectedComponents>& r) { r.values[slot_of(r.graph, 3)] = 1; });
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.verify.first, "vertex 9001 (the file's own id): got 42, expected 9000");
  // A source given as the file's id.
  const RunOutcome bfs = run_verified<Bfs>(path, {"--ids", "sparse", "--source", "42"});
  EXPECT_EQ(bfs.exit_code, 0) << bfs.verify.line();
}

// DIMACS numbers its vertices 1..n, and so do --source and the result files:
// the verdict names the same ids, vertices and labels alike (it named the
// dense ids, one less, before).
TEST_F(Verify, OneBasedFilesAreNamedByTheFilesOwnIds) {
  const std::string path = dir_.file("chain.gr");
  std::ofstream(path) << "p sp 4 3\na 1 2 1\na 2 3 1\na 3 4 1\n";
  const RunOutcome bfs = run_verified<Bfs>(path, {}, [](RunResult<Bfs>& r) { r.values[slot_of(r.graph, 2)] = 7; });
  EXPECT_EQ(bfs.exit_code, 1);
  EXPECT_EQ(bfs.verify.first, "vertex 3: got 7, expected 2") << "the file's vertex 3 is two hops from its vertex 1";
  const RunOutcome cc = run_verified<ConnectedComponents>(
      path, {}, [](RunResult<ConnectedComponents>& r) { r.values[slot_of(r.graph, 3)] = 1; });
  EXPECT_EQ(cc.exit_code, 1);
  EXPECT_EQ(cc.verify.first, "vertex 4: got 2, expected 1") << "labels are vertex ids: the file's too";
  const RunOutcome edge = run_verified<Bfs>(path, {"--verify-limit", "1"},
                                            [](RunResult<Bfs>& r) { r.values[slot_of(r.graph, 3)] = 9; });
  EXPECT_EQ(edge.exit_code, 1);
  EXPECT_EQ(edge.verify.first.rfind("edge 3 -> 4: ", 0), 0u) << edge.verify.first;
}

// ---- the graph does not fit: invariants, or a skip that says why ---------------

TEST_F(Verify, WithoutRoomForTheOracleTraversalsCheckTheirInvariants) {
  const EdgeList g = test::corner_case_graph();
  uint64_t symmetric = 0;  // CC runs on the symmetrised graph: its edges, self-loops once
  for (const Edge& e : g.edges) symmetric += e.src == e.dst ? 1 : 2;
  const RunOutcome bfs = run_verified<Bfs>(graph_, {"--verify-limit", "1000"});
  EXPECT_EQ(bfs.exit_code, 0) << bfs.verify.line();
  EXPECT_EQ(bfs.verify.method, VerifyVerdict::Method::kInvariant);
  EXPECT_EQ(bfs.verify.outcome, VerifyVerdict::Outcome::kValid);
  EXPECT_EQ(bfs.verify.checked, g.edges.size()) << "one node owns both ends of every edge";
  EXPECT_NE(bfs.verify.line().find("depth(v) <= depth(u) + 1"), std::string::npos) << bfs.verify.line();
  EXPECT_NE(bfs.verify.line().find("this node may use (--verify-limit)"), std::string::npos) << bfs.verify.line();
  const RunOutcome sssp = run_verified<Sssp>(graph_, {"--verify-limit", "1000"});
  EXPECT_EQ(sssp.exit_code, 0) << sssp.verify.line();
  EXPECT_EQ(sssp.verify.checked, g.edges.size());
  const RunOutcome cc = run_verified<ConnectedComponents>(graph_, {"--verify-limit", "1000"});
  EXPECT_EQ(cc.exit_code, 0) << cc.verify.line();
  EXPECT_EQ(cc.verify.checked, symmetric);
}

TEST_F(Verify, ABrokenInvariantNamesTheEdge) {
  // 79 -> 80 is the chain's first edge (tests/graphs_for_tests.h): 80 two
  // hops deeper than 79 cannot be.
  const RunOutcome o = run_verified<Bfs>(graph_, {"--verify-limit", "1000"}, [](RunResult<Bfs>& r) {
    r.values[slot_of(r.graph, 80)] = r.values[slot_of(r.graph, 79)] + 2;
  });
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.verify.method, VerifyVerdict::Method::kInvariant);
  EXPECT_GE(o.verify.differing, 1u);
  EXPECT_NE(o.verify.first.find("edge 79 -> 80: "), std::string::npos) << o.verify.first;
}

TEST_F(Verify, AProgramWithoutAnInvariantSaysItSkipped) {
  const RunOutcome o = run_verified<PageRank>(graph_, {"--verify-limit", "1000"});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.verify.outcome, VerifyVerdict::Outcome::kSkipped);
  EXPECT_NE(o.verify.line().find("verify: skipped: the whole graph and the oracle need up to "), std::string::npos)
      << o.verify.line();
  EXPECT_NE(o.verify.line().find("pagerank declares no invariant"), std::string::npos) << o.verify.line();
}

TEST_F(Verify, NotAskedNotDone) {
  Config cfg = config_for("bfs", graph_, {});
  cfg.verify = false;
  Node node(cfg);
  const RunOutcome o = run_program<Bfs>(node);
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.verify.outcome, VerifyVerdict::Outcome::kNotAsked);
  EXPECT_TRUE(o.verify.json().is_null());
}

// ---- the whole-input reader numbers as the loader does -------------------------

TEST(WholeInput, SparseIdsByRankOfId) {
  test::TempDir dir;
  const std::string path = dir.file("g.txt");
  std::ofstream(path) << "# comment\n50 -3 1\n-3 7 1\n7 50 4\n";
  GraphInput in = GraphInput::from_spec(path, GraphFormat::kAuto);
  in.sparse_ids = true;
  const WholeInput w = read_whole_input(in);
  EXPECT_EQ(w.original_id, (std::vector<int64_t>{-3, 7, 50}));
  ASSERT_EQ(w.graph.num_vertices, 3u);
  ASSERT_EQ(w.graph.edges.size(), 3u);
  EXPECT_EQ(w.graph.edges[0].src, 2u);
  EXPECT_EQ(w.graph.edges[0].dst, 0u);
  EXPECT_EQ(w.graph.edges[2].weight, 4u);
  EXPECT_TRUE(w.graph.real_weights.empty());
}

TEST(WholeInput, GraphalyticsByLineOfTheVertexFileWithRealWeights) {
  test::TempDir dir;
  std::ofstream(dir.file("g.v")) << "-5\n2\n9\n4294967296\n";
  std::ofstream(dir.file("g.e")) << "2 -5 0.5\n4294967296 2 3\n";
  const WholeInput w = read_whole_input(GraphInput::from_spec(dir.file("g.e"), GraphFormat::kAuto));
  EXPECT_EQ(w.original_id, (std::vector<int64_t>{-5, 2, 9, 4294967296}));
  ASSERT_EQ(w.graph.edges.size(), 2u);
  EXPECT_EQ(w.graph.edges[0].src, 1u);
  EXPECT_EQ(w.graph.edges[1].src, 3u);
  EXPECT_EQ(w.graph.real_weights, (std::vector<double>{0.5, 3}));
  EXPECT_EQ(w.graph.edges[1].weight, 3u) << "an integral weight is also the integer weight";
}

TEST(WholeInput, GraphalyticsEdgeToAnUnknownVertexIsRefusedByLine) {
  test::TempDir dir;
  std::ofstream(dir.file("g.v")) << "1\n5\n";
  std::ofstream(dir.file("g.e")) << "1 5\n5 77\n";
  try {
    read_whole_input(GraphInput::from_spec(dir.file("g.e"), GraphFormat::kAuto));
    ADD_FAILURE() << "no error";
  } catch (const GraphError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("g.e") + ":2: field 2 (dst): vertex 77 is not in " + dir.file("g.v"));
  }
}

}  // namespace
}  // namespace wg

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (!wg::test::init_test_eal("test_verify", "wg_test_verify", 512)) return 1;
  const int rc = RUN_ALL_TESTS();
  rte_eal_cleanup();
  return rc;
}
