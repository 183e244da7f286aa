// Every registered program through real 2-node clusters (memif) with
// --verify, in both output formats: every node finds its vertices VALID
// against the oracle (nodeR.json's `verify`), and scripts/wiregraph-validate
// finds the output directory VALID against the oracle's output, which this
// test writes from the program's own reference() (apps/NAME.h) in the plain
// form (`inf` for an unreachable vertex): by the rule the run's report
// states, and for a Graphalytics algorithm also by its Graphalytics rule
// (BFS's 9223372036854775807 against `inf`). A corrupted result line is
// INVALID. Then a Graphalytics graph (sparse 64-bit ids, real weights) with
// --verify, and the invariant check across two nodes (--verify-limit).
// The programs come from the registry: one added to apps/programs.h is run
// here without a line of this file.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/registry.h"
#include "tests/cluster_harness.h"
#include "tests/graphs_for_tests.h"

namespace wg::test {
namespace {

constexpr int kNodes = 2;

// Runs the program on `graph` with --verify into `out`; checks the launch,
// and every node's verdict (the vertices the nodes checked add up to V).
void run_verified(const TempDir& dir, const std::string& app, const std::string& graph, const std::string& out,
                  VertexId num_vertices, std::vector<std::string> extra = {}, const char* method = "oracle") {
  LaunchOptions opts;
  opts.nodes = kNodes;
  opts.timeout_sec = 120;
  opts.app_args = {"--app", app, "--graph", graph, "--ids", "dense", "--quiet", "--verify", "--out", out};
  opts.app_args.insert(opts.app_args.end(), extra.begin(), extra.end());
  const LaunchResult r = run_launcher(opts, dir.file("cluster.log"));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  uint64_t checked = 0;
  for (int rank = 0; rank < kNodes; ++rank) {
    nlohmann::json node;
    std::string error;
    ASSERT_TRUE(read_json_file(out + "/node" + std::to_string(rank) + ".json", &node, &error)) << error;
    EXPECT_EQ(node["verify"]["outcome"], "valid") << node["verify"].dump();
    EXPECT_EQ(node["verify"]["method"], method) << node["verify"].dump();
    checked += node["verify"]["checked"].get<uint64_t>();
  }
  if (std::string(method) == "oracle") {
    EXPECT_EQ(checked, num_vertices);
  }
  EXPECT_NE(r.output.find("verify: VALID ("), std::string::npos) << describe(r);
}

// The oracle's values as plain result lines, ids as the input's.
std::string write_oracle_output(const TempDir& dir, const ProgramEntry& p, const EdgeList& g, VertexId source,
                                const std::vector<int64_t>& ids = {}) {
  const OracleValues v = p.reference(g, ProgramParams{source, p.traits.default_iterations, 0.85});
  const std::string path = dir.file(std::string(p.traits.name) + ".oracle");
  std::FILE* f = std::fopen(path.c_str(), "w");
  for (VertexId x = 0; x < g.num_vertices; ++x) {
    std::fprintf(f, "%" PRId64 " ", ids.empty() ? int64_t{x} : ids[x]);
    if (p.traits.comparison == Comparison::kReal) {
      if (std::isinf(v.reals[x]))
        std::fputs("inf\n", f);
      else
        std::fprintf(f, "%.17g\n", v.reals[x]);
    } else if (v.integers[x] == kUnreachable) {
      std::fputs("inf\n", f);
    } else if (p.traits.value_kind == ValueKind::kLabel && !ids.empty()) {
      std::fprintf(f, "%" PRId64 "\n", ids[v.integers[x]]);
    } else {
      std::fprintf(f, "%" PRIu64 "\n", v.integers[x]);
    }
  }
  std::fclose(f);
  return path;
}

// scripts/wiregraph-validate's exit status and output.
int validate(const TempDir& dir, const std::vector<std::string>& args, std::string* output) {
  std::string cmd = "python3 '" + source_dir() + "/scripts/wiregraph-validate'";
  for (const std::string& a : args) cmd += " '" + a + "'";
  const std::string log = dir.file("validate.log");
  const int status = std::system((cmd + " > '" + log + "' 2>&1").c_str());
  std::ifstream in(log);
  *output = cmd + "\n" + std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The corner-case graph (tests/graphs_for_tests.h) as a SNAP file in a fresh directory.
struct CornerGraph {
  TempDir dir;
  EdgeList g = corner_case_graph();
  std::string path = dir.file("corner.txt");
  CornerGraph() { write_snap(g, path); }
};

class EveryProgram : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryProgram, VerifiedAndValidInBothFormats) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", kNodes, &skip));
  const std::string format = GetParam();
  const CornerGraph c;
  const TempDir& dir = c.dir;
  const EdgeList& g = c.g;
  const std::string& graph = c.path;
  for (const ProgramEntry& p : program_entries()) {
    if (p.reference == nullptr) continue;  // no oracle to validate against (tests/test_minimal_programs.cc)
    // Per-edge results (jaccard): validated edge by edge in tests/test_jaccard.py and tests/test_validate.
    if (p.per_edge_results) continue;
    const std::string app(p.traits.name);
    SCOPED_TRACE(app + ", " + format + " output");
    const std::string out = dir.file("out-" + app);
    run_verified(dir, app, graph, out, g.num_vertices, {"--output-format", format});
    const std::string reference = write_oracle_output(dir, p, g, 0);
    std::string text;
    EXPECT_EQ(validate(dir, {out, reference}, &text), 0) << text;
    EXPECT_NE(text.find("VALID: 120 vertices"), std::string::npos) << text;
    if (!p.traits.graphalytics.algorithm.empty()) {
      EXPECT_EQ(validate(dir, {"--algorithm", std::string(p.traits.graphalytics.algorithm), out, reference}, &text),
                0)
          << text;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FullFormats, EveryProgram, ::testing::Values("plain", "graphalytics"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

// One value changed in a result file: INVALID, naming the vertex.
TEST(ValidateCorrupted, AChangedLineIsInvalid) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", kNodes, &skip));
  const CornerGraph c;
  const TempDir& dir = c.dir;
  const EdgeList& g = c.g;
  const ProgramEntry& p = program_entries().front();
  const std::string out = dir.file("out");
  run_verified(dir, std::string(p.traits.name), c.path, out, g.num_vertices);
  // Rank 0 owns vertex 0 (round-robin): its line gets a value no program writes.
  std::ifstream in(out + "/result-0.txt");
  std::string lines, line;
  while (std::getline(in, line)) lines += (line.rfind("0 ", 0) == 0 ? std::string("0 12345") : line) + "\n";
  in.close();
  std::ofstream(out + "/result-0.txt") << lines;
  std::string text;
  EXPECT_EQ(validate(dir, {out, write_oracle_output(dir, p, g, 0)}, &text), 1) << text;
  EXPECT_NE(text.find("vertex 0: expected"), std::string::npos) << text;
  EXPECT_NE(text.find("INVALID: "), std::string::npos) << text;
}

// A Graphalytics graph: sparse 64-bit ids (negative, above 2^32), a vertex
// only in NAME.v, real and zero weights. Every node reads it whole again for
// the oracle, numbered by the vertex file's lines.
TEST(VerifyGraphalytics, MappedIdsAndRealWeights) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", kNodes, &skip));
  TempDir dir;
  std::ofstream(dir.file("g.v")) << "-9000000000\n-7\n3\n10\n4294967301\n4294967302\n";
  std::ofstream(dir.file("g.e")) << "-7 3 0.5\n3 10 1.25\n10 -7 0\n10 4294967301 2.5\n4294967301 3 0\n"
                                    "3 -9000000000 0.75\n-9000000000 10 3\n";
  std::ofstream(dir.file("g.properties")) << "graph.g.directed = true\n"
                                             "graph.g.edge-properties.names = weight\n"
                                             "graph.g.edge-properties.types = real\n"
                                             "graph.g.bfs.source-vertex = -7\n"
                                             "graph.g.sssp.weight-property = weight\n"
                                             "graph.g.sssp.source-vertex = -7\n"
                                             "graph.g.cdlp.max-iterations = 3\n"
                                             "graph.g.pr.damping-factor = 0.85\n"
                                             "graph.g.pr.num-iterations = 5\n";
  for (const ProgramEntry& p : program_entries()) {
    if (p.traits.graphalytics.algorithm.empty()) continue;  // the graph's properties name Graphalytics' only
    SCOPED_TRACE(std::string(p.traits.name));
    run_verified(dir, std::string(p.traits.name), dir.file("g.properties"),
                 dir.file("out-" + std::string(p.traits.name)), 6);
  }
}

// Without room for the oracle, the programs with an invariant check it on
// the edges each node owns both ends of, across two nodes.
TEST(VerifyInvariant, TwoNodesCheckTheirOwnEdges) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", kNodes, &skip));
  const CornerGraph c;
  for (const ProgramEntry& p : program_entries()) {
    if (p.traits.invariant.empty() || p.reference == nullptr) continue;
    SCOPED_TRACE(std::string(p.traits.name));
    run_verified(c.dir, std::string(p.traits.name), c.path, c.dir.file("out-" + std::string(p.traits.name)),
                 c.g.num_vertices, {"--verify-limit", "1000"}, "invariant");
  }
}

}  // namespace
}  // namespace wg::test
