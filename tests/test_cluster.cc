// Multi-process tests: scripts/wiregraph-cluster starts P wiregraph node
// processes joined by memif, tap or af_xdp links, and what they write to --out is
// compared with the oracles of tests/reference.h. The first tests check the
// harness and the test graph themselves and need no wiregraph binary.
//
// Matrices run one program per wire class (tests/wire_classes.h) in the fast
// default; their other cases are instantiated under a name that starts with
// Full and run in the full suite (`meson test -C build --suite full`,
// docs/TESTING.md).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "apps/registry.h"
#include "compute/graph/edge_list.h"
#include "compute/graph/graph_reader.h"
#include "tests/cluster_harness.h"
#include "tests/graphs_for_tests.h"
#include "tests/reference.h"
#include "tests/wire_classes.h"

namespace wg::test {
namespace {

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

std::vector<uint64_t> out_degrees(const EdgeList& g) {
  std::vector<uint64_t> deg(g.num_vertices, 0);
  for (const Edge& e : g.edges) ++deg[e.src];
  return deg;
}

std::vector<uint64_t> in_degrees(const EdgeList& g) {
  std::vector<uint64_t> deg(g.num_vertices, 0);
  for (const Edge& e : g.edges) ++deg[e.dst];
  return deg;
}

// ===================================================== the test graph

TEST(CornerCaseGraph, HasTheCasesItClaims) {
  const EdgeList g = corner_case_graph();
  ASSERT_EQ(g.num_vertices, 120u);
  const std::vector<uint64_t> out = out_degrees(g), in = in_degrees(g);

  for (VertexId v : {103u, 104u, 115u}) EXPECT_EQ(out[v] + in[v], 0u) << "not isolated: " << v;
  int dangling_with_in_edges = 0;
  for (VertexId v = 0; v < g.num_vertices; ++v)
    if (out[v] == 0 && in[v] > 0) ++dangling_with_in_edges;
  EXPECT_GE(dangling_with_in_edges, 4);

  const std::vector<uint64_t> hops = ref::bfs(g, 0);
  EXPECT_GE(hops[99], 20u) << "the chain should need many supersteps";
  const auto reached = std::count_if(hops.begin(), hops.end(),
                                     [](uint64_t h) { return h != ref::kInfinity; });
  EXPECT_GE(reached, 70) << "source 0 should reach most of the core";
  for (VertexId v : {100u, 101u, 102u, 105u, 110u, 119u}) EXPECT_EQ(hops[v], ref::kInfinity) << v;

  const std::vector<VertexId> label = ref::cc(g);
  EXPECT_EQ(label[100], 0u) << "100 is unreachable from 0 but in its weak component";
  EXPECT_GE(std::set<VertexId>(label.begin(), label.end()).size(), 6u);

  std::map<std::pair<VertexId, VertexId>, int> copies;
  int self_loops = 0, zero_weights = 0;
  for (const Edge& e : g.edges) {
    ++copies[{e.src, e.dst}];
    self_loops += e.src == e.dst;
    zero_weights += e.weight == 0;
  }
  EXPECT_EQ((copies[{1, 2}]), 3);
  EXPECT_GE(self_loops, 3);
  EXPECT_GE(zero_weights, 3);

  // With round-robin ownership every node must send to every other node.
  for (VertexId p : {2u, 3u}) {
    std::set<std::pair<VertexId, VertexId>> pairs;
    for (const Edge& e : g.edges) pairs.insert({e.src % p, e.dst % p});
    EXPECT_EQ(pairs.size(), p * p) << "P = " << p;
  }
}

TEST(TraversalGraph, HasTheCasesItClaims) {
  const EdgeList g = traversal_graph();
  ASSERT_EQ(g.num_vertices, 2600u);
  const std::vector<uint64_t> from_hub = ref::bfs(g, 0), from_leaf = ref::bfs(g, 5);
  EXPECT_EQ(std::count(from_hub.begin(), from_hub.end(), 1u), 1800) << "one huge frontier after the hub";
  EXPECT_EQ(from_leaf[1], 2u);
  EXPECT_EQ(from_leaf[2099], from_leaf[1800] + 299) << "the chain: 300 levels";
  const std::vector<uint64_t> dist = ref::sssp(g, 0);
  for (VertexId v = 1201; v <= 1800; ++v) EXPECT_LT(dist[v], 1u << 24) << v << ": the heavy edge is not the way";
  int free_edges = 0;
  for (const Edge& e : g.edges) free_edges += e.weight == 0;
  EXPECT_GE(free_edges, 150);
  const std::vector<VertexId> label = ref::cc(g);
  for (VertexId v = 0; v <= 2099; ++v) ASSERT_EQ(label[v], 0u) << v << ": the giant component";
  for (VertexId v = 2100; v <= 2199; ++v) ASSERT_EQ(label[v], 2100u) << v << ": the long path, smallest id last";
  const std::set<VertexId> components(label.begin(), label.end());
  EXPECT_EQ(components.size(), 2u + 40 * 4) << "40 x (isolated, pair, triangle, star)";
  EXPECT_EQ(label[2205], 2203u) << "a triangle is labelled by its smallest id";
}

TEST(LocalRoundsGraph, HasTheCasesItClaims) {
  const EdgeList g = local_rounds_graph();
  ASSERT_EQ(g.num_vertices, 2406u);
  uint64_t sum = 0, zero = 0, heavy = 0;
  for (const Edge& e : g.edges) {
    sum += e.weight;
    zero += e.weight == 0;
    heavy += e.src % 6 == 0 && e.dst == e.src + 6 && e.weight == 100000;
  }
  const uint64_t delta = sum / g.num_edges() / 8;
  EXPECT_GT(delta, 20u) << "the chain's light edges are light";
  EXPECT_LE(delta, 100000u) << "its heavy edges are heavy";
  EXPECT_GE(zero, 100u);
  EXPECT_EQ(heavy, 40u);
  const std::vector<uint64_t> dist = ref::sssp(g, 0);
  EXPECT_LT(dist[1200], 150001u) << "the shortcut or better";
  EXPECT_LT(dist[1200], 20u * 100000) << "not the chain's 20 heavy edges";
  for (VertexId v = 120; v <= 2400; v += 120) EXPECT_LT(dist[v], 10000000u) << v << ": a decoy wins";
  for (VertexId v = 2401; v < 2406; ++v) EXPECT_EQ(dist[v], ref::kInfinity) << v;
  // Past the shortcut the chain is the only way on: 200 edges deep.
  EXPECT_GT(dist[2400], dist[1200]);
}

TEST(CornerCaseGraph, SnapFileLoadsBackUnchanged) {
  // The oracle and the nodes both read the file: if the reader changed the
  // graph, the two would agree on the wrong graph.
  TempDir tmp;
  const EdgeList g = corner_case_graph();
  write_snap(g, tmp.file("corner.txt"));
  const EdgeList loaded = load_graph(tmp.file("corner.txt"), GraphFormat::kEdgeList);
  EXPECT_EQ(loaded.num_vertices, g.num_vertices);
  EXPECT_TRUE(loaded.weighted);
  auto key = [](const Edge& e) { return std::tuple(e.src, e.dst, e.weight); };
  std::vector<std::tuple<VertexId, VertexId, Weight>> want, got;
  for (const Edge& e : g.edges) want.push_back(key(e));
  for (const Edge& e : loaded.edges) got.push_back(key(e));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
}

// ============================================== the harness's own checks

TEST(ClusterHarness, ReadsNodeReportCounters) {
  const std::string text = R"({"rank": 1, "note": "braces {in} \"strings\" [ ]",
    "supersteps": [
      {"superstep": 0, "messages_sent": 12, "messages_accumulated": 7,
       "per_peer": [{"messages_sent": 999}], "gbps": 1.5e-3, "ok": true, "x": null},
      {"messages_accumulated": 5, "superstep": 1, "messages_sent": 18446744073709551615}
    ], "faults": {"rx": {"dropped": 3}}})";
  nlohmann::json j;
  std::string error;
  ASSERT_TRUE(parse_json(text, &j, &error)) << error;
  const nlohmann::json& steps = j.at("supersteps");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(json_counter(steps[0], {"superstep"}, &error), 0u);
  EXPECT_EQ(json_counter(steps[0], {"messages_sent"}, &error), 12u);
  EXPECT_EQ(json_counter(steps[0], {"messages_accumulated"}, &error), 7u);
  EXPECT_EQ(json_counter(steps[1], {"superstep"}, &error), 1u);
  EXPECT_EQ(json_counter(steps[1], {"messages_sent"}, &error), 18446744073709551615u) << "64-bit counters exact";
  EXPECT_EQ(json_counter(steps[1], {"messages_accumulated"}, &error), 5u);
  EXPECT_EQ(json_counter(j, {"faults", "rx", "dropped"}, &error), 3u);
  EXPECT_TRUE(error.empty()) << error;
}

TEST(ClusterHarness, RejectsMalformedNodeReports) {
  for (const char* bad : {
           R"({"supersteps": [{"superstep": 0, "messages_sent": 1, "messages_accumulated": 1})",
           R"({"supersteps": []} trailing)",
           R"({"supersteps": [{"superstep": 0,}]})",
           "",
       }) {
    nlohmann::json j;
    std::string error;
    EXPECT_FALSE(parse_json(bad, &j, &error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
  TempDir tmp;
  nlohmann::json j;
  std::string error;
  EXPECT_FALSE(read_json_file(tmp.file("node0.json"), &j, &error));
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
}

TEST(ClusterHarness, RejectsBadCounters) {
  const nlohmann::json step = nlohmann::json::parse(
      R"({"superstep": 0, "half": 1.5, "negative": -1, "text": "7", "flag": true, "exp": 1e3})");
  for (const char* key : {"missing", "half", "negative", "text", "flag", "exp"}) {
    std::string error;
    EXPECT_EQ(json_counter(step, {key}, &error), 0u) << key;
    EXPECT_NE(error.find(key), std::string::npos) << key << ": " << error;
  }
  std::string error;
  EXPECT_EQ(json_counter(step, {"superstep", "deeper"}, &error), 0u);
  EXPECT_NE(error.find("superstep.deeper"), std::string::npos) << error;
}

TEST(ClusterHarness, MessageBalanceSumsOverNodes) {
  TempDir tmp;
  // Node 0 sends 5 that node 1 accumulates in superstep 0; the reverse in 1.
  write_text(tmp.file("node0.json"),
             R"({"supersteps":[{"superstep":0,"messages_sent":5,"messages_accumulated":0},)"
             R"({"superstep":1,"messages_sent":0,"messages_accumulated":3}]})");
  write_text(tmp.file("node1.json"),
             R"({"supersteps":[{"superstep":0,"messages_sent":0,"messages_accumulated":5},)"
             R"({"superstep":1,"messages_sent":3,"messages_accumulated":0}]})");
  EXPECT_TRUE(check_message_balance(tmp.path(), 2));
  EXPECT_FALSE(check_message_balance(tmp.path(), 1)) << "node 0 alone does not balance";
  EXPECT_FALSE(check_message_balance(tmp.path(), 3)) << "node2.json is missing";
  write_text(tmp.file("node1.json"),
             R"({"supersteps":[{"superstep":0,"messages_sent":0,"messages_accumulated":4},)"
             R"({"superstep":1,"messages_sent":3,"messages_accumulated":0}]})");
  const ::testing::AssertionResult lost = check_message_balance(tmp.path(), 2);
  EXPECT_FALSE(lost);
  EXPECT_NE(std::string(lost.message()).find("MISMATCH in superstep 0: sent 5, accumulated 4"),
            std::string::npos)
      << lost.message();
  write_text(tmp.file("node1.json"),
             R"({"supersteps":[{"superstep":0,"messages_sent":0,"messages_accumulated":5.5},)"
             R"({"superstep":1,"messages_sent":3,"messages_accumulated":0}]})");
  const ::testing::AssertionResult malformed = check_message_balance(tmp.path(), 2);
  EXPECT_FALSE(malformed) << "a counter that is not an integer";
  EXPECT_NE(std::string(malformed.message()).find("not a non-negative integer"), std::string::npos)
      << malformed.message();
}

TEST(ClusterHarness, LauncherVerdictIsRead) {
  LaunchResult r;
  r.exit_code = 0;
  r.output = "cluster superstep 0: messages sent 5, accumulated 5\n"
             "cluster check: every message sent was accumulated\n";
  EXPECT_TRUE(launcher_found_balance(r));
  r.output = "cluster superstep 0: messages sent 5, accumulated 4\n"
             "cluster check: MISMATCH in superstep 0: sent 5, accumulated 4 (-1; sent/accumulated: node0=5/4)\n";
  EXPECT_FALSE(launcher_found_balance(r));
  r.output.clear();  // no --out, or a launcher that skipped the check
  EXPECT_FALSE(launcher_found_balance(r));
}

TEST(ClusterHarness, ReadsResultsSpreadOverFiles) {
  TempDir tmp;
  write_text(tmp.file("result.0.txt"), "0 0.5\n2 inf\n\n");
  write_text(tmp.file("result.1.txt"), "3 7\r\n1 1e-3\n");
  write_text(tmp.file("other.txt"), "garbage\n");  // not a result*.txt file
  std::vector<std::string> values;
  ASSERT_TRUE(read_results(tmp.path(), 4, &values));
  EXPECT_EQ(values, (std::vector<std::string>{"0.5", "1e-3", "inf", "7"}));
}

TEST(ClusterHarness, RejectsBadResults) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0 1\n1 1\n0 2\n", "already given"},
      {"0 1\n", "vertex 1 has no result line"},
      {"0 1\n1 1\n2 1\n", "vertex 2 is not in 0..1"},
      {"0 1\n1\n", "expected"},
      {"0 1\n1 1 1\n", "expected"},
      {"0 1\nx 1\n", "expected"},
      {"0 1\n-1 1\n", "expected"},
  };
  for (const auto& [text, why] : cases) {
    TempDir tmp;
    write_text(tmp.file("result.txt"), text);
    std::vector<std::string> values;
    const ::testing::AssertionResult r = read_results(tmp.path(), 2, &values);
    EXPECT_FALSE(r) << text;
    EXPECT_NE(std::string(r.message()).find(why), std::string::npos) << r.message();
  }
  TempDir empty;
  std::vector<std::string> values;
  EXPECT_FALSE(read_results(empty.path(), 2, &values)) << "no result file at all";
}

TEST(ClusterHarness, ComparesValues) {
  EXPECT_TRUE(check_pagerank({"0.25", "0.7500001"}, {0.25, 0.75}));
  EXPECT_FALSE(check_pagerank({"0.25", "0.7501"}, {0.25, 0.75}));
  EXPECT_TRUE(check_pagerank({"1e-12"}, {0.0}));  // the absolute 1e-9 floor
  EXPECT_FALSE(check_pagerank({"nan"}, {0.5}));
  EXPECT_FALSE(check_pagerank({"0.5x"}, {0.5}));
  EXPECT_TRUE(check_distances({"0", "inf", "42"}, {0, ref::kInfinity, 42}));
  EXPECT_FALSE(check_distances({"0", "18446744073709551615"}, {0, ref::kInfinity}));
  EXPECT_FALSE(check_distances({"0", "-1"}, {0, ref::kInfinity}));
  EXPECT_FALSE(check_distances({"3.0"}, {3}));
  EXPECT_TRUE(check_labels({"0", "0", "2"}, {0, 0, 2}));
  EXPECT_FALSE(check_labels({"0", "1", "2"}, {0, 0, 2}));
  EXPECT_FALSE(check_labels({"0", "inf"}, {0, 1}));
}

// ========================================================= cluster runs

// A program, by name (apps/programs.h); every list of programs below is the
// registry's, so a new program is tested without touching this file.
using App = std::string_view;
enum class GraphKind { kCorner, kKron, kDataset, kTraversal };

std::string app_name(App a) { return std::string(a); }

std::vector<App> program_names() {
  std::vector<App> names;
  for (const ProgramTraits& t : program_traits()) names.push_back(t.name);
  return names;
}

const ProgramTraits& traits_of(App a) {
  for (const ProgramTraits& t : program_traits())
    if (t.name == a) return t;
  throw std::invalid_argument("no program " + std::string(a));
}

const char* graph_name(GraphKind g) {
  switch (g) {
    case GraphKind::kCorner: return "corner";
    case GraphKind::kKron: return "kron10";
    case GraphKind::kDataset: return "dataset";
    case GraphKind::kTraversal: return "traversal";
  }
  return "?";
}

constexpr int kRunTimeoutSec = 120;

// A graph as the nodes are told about it and as the oracle sees it.
struct TestGraph {
  std::vector<std::string> args;  // --graph SPEC [--format FMT]
  EdgeList edges;
  VertexId source = 0;
  VertexId first_id = 0;  // 1: the file numbers its vertices from 1 (DIMACS), and so do --source and the results
};

// GAP-style: start where there is something to traverse. The corner-case
// graph is built around source 0 instead.
VertexId busiest_vertex(const EdgeList& g) {
  const std::vector<uint64_t> deg = out_degrees(g);
  return static_cast<VertexId>(std::max_element(deg.begin(), deg.end()) - deg.begin());
}

// A graph of tests/graphs_for_tests.h, written as a SNAP file the nodes read.
void snap_graph(const EdgeList& g, const std::string& path, VertexId source, TestGraph* graph) {
  write_snap(g, path);
  // The oracles number the vertices 0..largest id: dense ids, whatever --ids
  // auto would make of a graph with many isolated vertices (cluster_input
  // tests auto).
  graph->args = {"--graph", path, "--format", "edgelist", "--ids", "dense"};
  graph->edges = load_graph(path, GraphFormat::kEdgeList);
  graph->source = source;
}

// Returns the reason to skip when the graph cannot be had here.
std::optional<std::string> prepare_graph(GraphKind kind, App app, const TempDir& tmp,
                                         TestGraph* graph) {
  switch (kind) {
    case GraphKind::kCorner:
      snap_graph(corner_case_graph(), tmp.file("corner.txt"), 0, graph);
      return std::nullopt;
    case GraphKind::kTraversal:  // from a leaf of the star: top-down, bottom-up, then down the chain
      snap_graph(traversal_graph(), tmp.file("traversal.txt"), 5, graph);
      return std::nullopt;
    case GraphKind::kKron:
      graph->args = {"--graph", "kron:10:8"};
      graph->edges = load_graph("kron:10:8");
      break;
    case GraphKind::kDataset: {
      // rome99: real weights for weighted programs; email-Eu-core:
      // self-loops, dangling and isolated vertices, several components,
      // weights all 1.0.
      const std::string path =
          datasets_dir() + (traits_of(app).graph.weights ? "/rome99.gr" : "/email-Eu-core.csv");
      if (!std::filesystem::exists(path)) return "dataset not found: " + path;
      graph->args = {"--graph", path};
      graph->edges = load_graph(path);
      graph->first_id = traits_of(app).graph.weights ? 1 : 0;
      break;
    }
  }
  graph->source = busiest_vertex(graph->edges);
  return std::nullopt;
}

::testing::AssertionResult compare_with_oracle(App app, const EdgeList& g, VertexId source,
                                               unsigned iterations,
                                               const std::vector<std::string>& values) {
  return check_expected(values, ref::oracle(app, g, source, iterations));
}

struct RunSpec {
  std::string link = "memif";
  int nodes = 1;
  App app = "pagerank";
  std::optional<unsigned> iterations;  // unset: rely on the program's default
  bool undirected = false;
  unsigned domains = 0;  // --domains K (0: not passed: the machine's NUMA domains)
  bool even_split = false;
  int lcores = 0;                      // launcher --lcores-per-node N (0: not passed, 1)
  std::vector<std::string> extra;      // more node options (--scatter dense, --segment-kib 1 ...)
  int timeout_sec = kRunTimeoutSec;    // the launcher's --timeout
};

// `spec` running `program`: its app, and its options after those already in spec.extra.
RunSpec& with_program(RunSpec& spec, const ProgramRun& program) {
  spec.app = program.app;
  spec.extra.insert(spec.extra.end(), program.args.begin(), program.args.end());
  return spec;
}

// Launches one cluster run on `graph` and checks exit code, results and
// message counts. Fatal failures end only this function; callers stop too.
void run_and_check(const RunSpec& spec, const TestGraph& graph, const TempDir& tmp) {
  ASSERT_FALSE(source_dir().empty() || build_dir().empty())
      << "WG_SOURCE_DIR and WG_BUILD_DIR are not set: run through `meson test`";
  ASSERT_TRUE(std::filesystem::exists(launcher_path())) << "no launcher at " << launcher_path();
  ASSERT_TRUE(std::filesystem::exists(binary_path())) << "no node binary at " << binary_path();

  const std::string out_dir = tmp.file("out");
  ASSERT_EQ(::mkdir(out_dir.c_str(), 0755), 0) << "mkdir " << out_dir;

  LaunchOptions opts;
  opts.nodes = spec.nodes;
  opts.link = spec.link;
  opts.timeout_sec = spec.timeout_sec;
  const ProgramTraits& traits = traits_of(spec.app);
  if (spec.lcores != 0) opts.launcher_flags = {"--lcores-per-node", std::to_string(spec.lcores)};
  opts.app_args = {"--app", app_name(spec.app)};
  opts.app_args.insert(opts.app_args.end(), graph.args.begin(), graph.args.end());
  if (traits.uses_source)
    opts.app_args.insert(opts.app_args.end(), {"--source", std::to_string(uint64_t{graph.source} + graph.first_id)});
  if (spec.iterations && traits.uses_iterations)  // a program refuses --iterations it does not read
    opts.app_args.insert(opts.app_args.end(), {"--iterations", std::to_string(*spec.iterations)});
  if (spec.undirected) opts.app_args.push_back("--undirected");
  if (spec.domains != 0) opts.app_args.insert(opts.app_args.end(), {"--domains", std::to_string(spec.domains)});
  if (spec.even_split) opts.app_args.insert(opts.app_args.end(), {"--domain-split", "even"});
  opts.app_args.insert(opts.app_args.end(), spec.extra.begin(), spec.extra.end());
  opts.app_args.insert(opts.app_args.end(), {"--out", out_dir});

  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(run.exit_code, 0) << describe(run);

  EdgeList oracle_graph = graph.edges;
  if (spec.undirected) add_reverse_edges(oracle_graph);
  std::vector<std::string> values;
  ASSERT_TRUE(read_results(out_dir, oracle_graph.num_vertices, &values, graph.first_id)) << describe(run);
  if (traits.value_kind == ValueKind::kLabel) labels_from(graph.first_id, &values);
  EXPECT_TRUE(compare_with_oracle(spec.app, oracle_graph, graph.source,
                                  spec.iterations.value_or(traits.default_iterations),
                                  values))
      << "command: " << run.command;
  EXPECT_TRUE(launcher_found_balance(run));
}

struct ClusterCase {
  std::string link;
  int nodes;
  ProgramRun program;
  GraphKind graph;
  bool operator==(const ClusterCase&) const = default;
};

// The corner-case graph everywhere; the bigger graphs on one node and on
// the largest cluster of each link, to keep the suite to a few minutes; the
// traversal graph (its switches) for the traversals, everywhere.
std::vector<ClusterCase> all_cases() {
  std::vector<ClusterCase> cases;
  for (GraphKind graph : {GraphKind::kCorner, GraphKind::kKron, GraphKind::kDataset, GraphKind::kTraversal})
    for (const ProgramTraits& program : program_traits()) {
      const App app = program.name;
      const bool everywhere = graph == GraphKind::kCorner || graph == GraphKind::kTraversal;
      if (graph == GraphKind::kTraversal && app != "bfs" && app != "sssp" && app != "cc") continue;
      cases.push_back({"memif", 1, plain_run(app), graph});  // one node: no link at all
      for (const char* link : {"memif", "tap", "af_xdp"})
        for (int nodes : {2, 3})
          if (everywhere || nodes == 3) cases.push_back({link, nodes, plain_run(app), graph});
    }
  return cases;
}

// The fast default's share: no P = 1 run (one node is the engine alone, which
// tests/test_engine.cc checks in-process on the same graphs); on the
// corner-case graph every class on memif and tap and at P = 2 and 3 (two
// complementary clusters each); on kron and the datasets at P = 3 every class
// once; a traversal on the traversal graph on two clusters. Each class's
// members take turns (tests/wire_classes.h).
std::vector<ClusterCase> fast_cluster_cases() {
  struct Cell {
    const char* link;
    int nodes;
    GraphKind graph;
    size_t first_class;  // this cell runs classes first_class and first_class + 1
  };
  const Cell cells[] = {
      {"memif", 2, GraphKind::kCorner, 0}, {"tap", 3, GraphKind::kCorner, 0},   {"memif", 3, GraphKind::kCorner, 2},
      {"tap", 2, GraphKind::kCorner, 2},   {"memif", 3, GraphKind::kKron, 0},   {"tap", 3, GraphKind::kKron, 2},
      {"memif", 3, GraphKind::kDataset, 2}, {"tap", 3, GraphKind::kDataset, 0},
      // af_xdp (net_af_xdp on veths, copy mode): every class at P = 2 and 3.
      {"af_xdp", 2, GraphKind::kCorner, 0}, {"af_xdp", 3, GraphKind::kCorner, 2},
      {"af_xdp", 3, GraphKind::kCorner, 0}, {"af_xdp", 2, GraphKind::kCorner, 2},
  };
  std::vector<ClusterCase> cases;
  size_t turns[std::size(kWireClasses)] = {};
  for (const Cell& cell : cells)
    for (size_t k : {cell.first_class, cell.first_class + 1})
      cases.push_back({cell.link, cell.nodes, representative(kWireClasses[k], turns[k]++), cell.graph});
  cases.push_back({"memif", 2, traversal_representative(0), GraphKind::kTraversal});
  cases.push_back({"tap", 3, traversal_representative(1), GraphKind::kTraversal});
  return cases;
}

// What gtest shows for a parameter (instead of its bytes).
void PrintTo(const ClusterCase& c, std::ostream* os) {
  *os << c.link << " P=" << c.nodes << " " << c.program.label << " " << graph_name(c.graph);
}

std::string case_name(const ::testing::TestParamInfo<ClusterCase>& info) {
  const ClusterCase& c = info.param;
  const std::string link = c.nodes == 1 ? "single" : c.link;
  return link + "_P" + std::to_string(c.nodes) + "_" + c.program.label + "_" + graph_name(c.graph);
}

class ClusterTest : public ::testing::TestWithParam<ClusterCase> {};

TEST_P(ClusterTest, MatchesOracle) {
  const ClusterCase& c = GetParam();
  if (c.link != "memif" && c.nodes > 1) {  // tap and af_xdp: root, `ip`, a bridge
    const std::string why = tap_unavailable_reason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
  TempDir tmp;
  TestGraph graph;
  if (auto why = prepare_graph(c.graph, c.program.app, tmp, &graph)) GTEST_SKIP() << *why;

  RunSpec spec;
  spec.link = c.link;
  spec.nodes = c.nodes;
  with_program(spec, c.program);
  // The corner case graph checks the default iteration count; the others
  // check that --iterations is obeyed (and run shorter).
  if (c.graph != GraphKind::kCorner) spec.iterations = 10;
  run_and_check(spec, graph, tmp);
}

INSTANTIATE_TEST_SUITE_P(Links, ClusterTest, ::testing::ValuesIn(fast_cluster_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(FullLinks, ClusterTest, ::testing::ValuesIn(without(all_cases(), fast_cluster_cases())),
                         case_name);

// Many nodes on one machine, with the launcher's defaults (-m from the
// node's own estimate for P nodes, every node started at once): 16 and 32
// on memif, 16 on tap, every wire class on kron against the oracle (what one
// node computes). Full suite only: 32 EAL starts share the 2 CPUs.
struct ManyNodesCase {
  std::string link;
  int nodes;
  ProgramRun program;
};

std::vector<ManyNodesCase> many_nodes_cases() {
  std::vector<ManyNodesCase> cases;
  size_t turn = 0;
  for (const auto& [link, nodes] : {std::pair{"memif", 16}, std::pair{"tap", 16}, std::pair{"memif", 32}}) {
    for (WireClass k : kWireClasses) cases.push_back({link, nodes, representative(k, turn)});
    ++turn;
  }
  return cases;
}

void PrintTo(const ManyNodesCase& c, std::ostream* os) {
  *os << c.link << " P=" << c.nodes << " " << c.program.label;
}

std::string many_nodes_name(const ::testing::TestParamInfo<ManyNodesCase>& info) {
  return info.param.link + "_P" + std::to_string(info.param.nodes) + "_" + info.param.program.label;
}

class ManyNodesTest : public ::testing::TestWithParam<ManyNodesCase> {};

TEST_P(ManyNodesTest, MatchesOracle) {
  const ManyNodesCase& c = GetParam();
  if (c.link == "tap") {
    const std::string why = tap_unavailable_reason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
  TempDir tmp;
  TestGraph graph;
  if (auto why = prepare_graph(GraphKind::kKron, c.program.app, tmp, &graph)) GTEST_SKIP() << *why;
  RunSpec spec;
  spec.link = c.link;
  spec.nodes = c.nodes;
  spec.iterations = 10;
  spec.timeout_sec = 600;  // the nodes' EAL starts take most of it, oversubscribed 16:1 on 2 CPUs
  with_program(spec, c.program);
  run_and_check(spec, graph, tmp);
}

INSTANTIATE_TEST_SUITE_P(FullManyNodes, ManyNodesTest, ::testing::ValuesIn(many_nodes_cases()), many_nodes_name);

// The second-level partition (numa/): k logical NUMA domains per node, each
// with its own accumulators and same-node queue, vertices renumbered by a
// METIS-refined split. Every app must still match the oracle.
struct DomainCase {
  int nodes;
  unsigned domains;
  ProgramRun program;
  bool operator==(const DomainCase&) const = default;
};

std::vector<DomainCase> domain_cases() {
  std::vector<DomainCase> cases;
  for (int nodes : {1, 2})
    for (unsigned k : {2u, 3u})
      for (const ProgramTraits& program : program_traits()) cases.push_back({nodes, k, plain_run(program.name)});
  return cases;
}

// The fast default's share: P = 2, every class, two with k = 2 and two with 3.
std::vector<DomainCase> fast_domain_cases() {
  return {{2, 2, representative(WireClass::kScalar4, 0)}, {2, 2, representative(WireClass::kSlot, 0)},
          {2, 3, representative(WireClass::kScalar8, 0)}, {2, 3, representative(WireClass::kOwnDriver, 0)}};
}

class DomainTest : public ::testing::TestWithParam<DomainCase> {};

TEST_P(DomainTest, MatchesOracle) {
  const DomainCase& c = GetParam();
  TempDir tmp;
  TestGraph graph;
  if (auto why = prepare_graph(GraphKind::kCorner, c.program.app, tmp, &graph)) GTEST_SKIP() << *why;
  RunSpec spec;
  spec.nodes = c.nodes;
  with_program(spec, c.program);
  spec.domains = c.domains;
  run_and_check(spec, graph, tmp);
}

std::string domain_case_name(const ::testing::TestParamInfo<DomainCase>& p) {
  std::string name = "P";  // appended piece by piece: GCC 12 misreports "P" + to_string (-Wrestrict)
  name += std::to_string(p.param.nodes);
  name += "_k";
  name += std::to_string(p.param.domains);
  name += "_";
  name += p.param.program.label;
  return name;
}

INSTANTIATE_TEST_SUITE_P(Numa, DomainTest, ::testing::ValuesIn(fast_domain_cases()), domain_case_name);
INSTANTIATE_TEST_SUITE_P(FullNuma, DomainTest, ::testing::ValuesIn(without(domain_cases(), fast_domain_cases())),
                         domain_case_name);

// Several workers and a separate network lcore over real links: 3 lcores per
// node (2 workers scattering concurrently, each folding into the shared
// accumulators through the network lcore), every app, P = 2 and 3.
struct LcoreCase {
  int nodes;
  ProgramRun program;
  bool operator==(const LcoreCase&) const = default;
};

std::vector<LcoreCase> lcore_cases() {
  std::vector<LcoreCase> cases;
  for (int nodes : {2, 3})
    for (const ProgramTraits& program : program_traits()) cases.push_back({nodes, plain_run(program.name)});
  return cases;
}

// The fast default's share: every class once, two at P = 2 and two at P = 3.
std::vector<LcoreCase> fast_lcore_cases() {
  return {{2, representative(WireClass::kScalar4, 1)}, {2, representative(WireClass::kSlot, 1)},
          {3, representative(WireClass::kScalar8, 1)}, {3, representative(WireClass::kOwnDriver, 1)}};
}

class LcoresTest : public ::testing::TestWithParam<LcoreCase> {};

TEST_P(LcoresTest, ThreeLcoresPerNodeMatchOracle) {
  const LcoreCase& c = GetParam();
  TempDir tmp;
  TestGraph graph;
  if (auto why = prepare_graph(GraphKind::kCorner, c.program.app, tmp, &graph)) GTEST_SKIP() << *why;
  RunSpec spec;
  spec.nodes = c.nodes;
  with_program(spec, c.program);
  spec.iterations = traits_of(c.program.app).uses_iterations ? std::optional<unsigned>(5) : std::nullopt;
  spec.lcores = 3;
  run_and_check(spec, graph, tmp);
}

std::string lcore_case_name(const ::testing::TestParamInfo<LcoreCase>& p) {
  std::string name = "P";
  name += std::to_string(p.param.nodes);
  name += "_lcores3_";
  name += p.param.program.label;
  return name;
}

INSTANTIATE_TEST_SUITE_P(Memif, LcoresTest, ::testing::ValuesIn(fast_lcore_cases()), lcore_case_name);
INSTANTIATE_TEST_SUITE_P(FullMemif, LcoresTest, ::testing::ValuesIn(without(lcore_cases(), fast_lcore_cases())),
                         lcore_case_name);

// Receive queues (--rx-queues K, issue #12): K accumulator roles per node,
// one flow per (peer, queue), each queue owning a contiguous share of the
// node's vertices. On kron:10:8 (341-512 vertices per node, so that every
// queue owns a non-empty range: range boundaries are multiples of 64 slots),
// every node with several lcores on the 2 CPUs (8 to 12 lcores per cluster:
// oversubscribed, the pollers yield). The lcores and roles follow (K, P), so
// that each layout runs on both links:
//   K = 1:        4 lcores, default roles (2 workers, a dedicated sender
//                 lcore, one accumulator lcore)
//   K = 2, P = 2: 4 lcores, --roles w=1,s=1,a=2 (an accumulator lcore per queue)
//   K = 2, P = 3: 3 lcores, --roles w=1,s=0,a=2 (each queue's sender beside
//                 its accumulator)
//   K = 3, P = 2: 5 lcores, --roles w=1,s=1,a=3 (an accumulator lcore per queue)
//   K = 3, P = 3: 4 lcores, --roles w=2,s=0,a=2 (two workers; queues 0 and 2
//                 share an accumulator lcore, senders beside them)
//   K = 4:        3 lcores, --roles w=1,s=0,a=2 (two queues per accumulator lcore)
// Coverage, every program against its oracle (28 + 14 runs instead of the
// full 8 x 7 + 2 x 4 x 7, to keep the suite's time):
//   - K in {2, 3} x P in {2, 3} x {memif, tap}: all 8 configurations, 3 or 4
//     programs each; every program runs on 4 of them, a configuration and
//     its complement twice over (queue_cases), so each program meets K = 2
//     and K = 3, P = 2 and P = 3, memif and tap, twice each;
//   - K = 1 and K = 4: every program once each, on the link and P the other
//     does not use, alternating over the programs.
struct QueueCase {
  std::string link;
  int nodes;
  unsigned queues;
  ProgramRun program;
  bool operator==(const QueueCase&) const = default;
};

struct QueueRoles {
  int lcores;
  std::vector<std::string> args;
};

QueueRoles roles_for(unsigned queues, int nodes) {
  switch (queues) {
    case 1: return {4, {}};
    case 2: return nodes == 2 ? QueueRoles{4, {"--roles", "w=1,s=1,a=2"}} : QueueRoles{3, {"--roles", "w=1,s=0,a=2"}};
    case 3: return nodes == 2 ? QueueRoles{5, {"--roles", "w=1,s=1,a=3"}} : QueueRoles{4, {"--roles", "w=2,s=0,a=2"}};
    default: return {3, {"--roles", "w=1,s=0,a=2"}};
  }
}

// Configuration c = 0..7 of K in {2, 3}, P in {2, 3}, {memif, tap}: bit 2
// K = 3, bit 1 P = 3, bit 0 tap. Program i runs configurations i mod 4 and
// (i + 1) mod 4 and their complements (7 - c): with two complementary
// configurations a program sees both values of every dimension.
std::vector<QueueCase> queue_cases() {
  std::vector<QueueCase> cases;
  const std::vector<App> apps = program_names();
  auto add = [&](unsigned c, App app) {
    cases.push_back({c & 1 ? "tap" : "memif", c & 2 ? 3 : 2, c & 4 ? 3u : 2u, plain_run(app)});
  };
  for (size_t i = 0; i < apps.size(); ++i)
    for (unsigned c : {i % 4, (i + 1) % 4}) {
      add(static_cast<unsigned>(c), apps[i]);
      add(7 - static_cast<unsigned>(c), apps[i]);
    }
  for (size_t i = 0; i < apps.size(); ++i) {
    const bool tap = i % 2 == 1;
    const int nodes = i / 2 % 2 == 0 ? 2 : 3;
    cases.push_back({tap ? "tap" : "memif", nodes, 4, plain_run(apps[i])});
    cases.push_back({tap ? "memif" : "tap", 5 - nodes, 1, plain_run(apps[i])});
  }
  return cases;
}

// The fast default's share: class i on configuration i and its complement
// 7 - i (same bits as queue_cases), so that all 8 run once and every class
// meets K = 2 and 3, P = 2 and 3, memif and tap; K = 4 and K = 1 once each.
std::vector<QueueCase> fast_queue_cases() {
  std::vector<QueueCase> cases;
  for (unsigned i = 0; i < std::size(kWireClasses); ++i)
    for (unsigned c : {i, 7 - i})
      cases.push_back({c & 1 ? "tap" : "memif", c & 2 ? 3 : 2, c & 4 ? 3u : 2u, representative(kWireClasses[i], c)});
  cases.push_back({"memif", 2, 4, representative(WireClass::kScalar8, 0)});
  cases.push_back({"tap", 3, 1, representative(WireClass::kSlot, 1)});
  return cases;
}

void PrintTo(const QueueCase& c, std::ostream* os) {
  *os << c.link << " P=" << c.nodes << " K=" << c.queues << " " << c.program.label;
}

// "memif_P3_K2", appended piece by piece (GCC 12's -Wrestrict, as above).
std::string queues_name(const std::string& link, int nodes, unsigned queues) {
  std::string name = link;
  name += "_P";
  name += std::to_string(nodes);
  name += "_K";
  name += std::to_string(queues);
  return name;
}

std::string queue_case_name(const ::testing::TestParamInfo<QueueCase>& p) {
  return queues_name(p.param.link, p.param.nodes, p.param.queues) + "_" + p.param.program.label;
}

RunSpec queue_spec(const std::string& link, int nodes, App app, unsigned queues) {
  RunSpec spec;
  spec.link = link;
  spec.nodes = nodes;
  spec.app = app;
  spec.extra = {"--rx-queues", std::to_string(queues)};
  return spec;
}

// Why a cluster on `link` cannot run here (tap needs root and `ip`), or "".
std::string link_unavailable_reason(const std::string& link, int nodes) {
  return link == "tap" && nodes > 1 ? tap_unavailable_reason() : std::string();
}

// DIR/node<R>.json of a run_and_check run in `tmp`, with one entry per
// receive queue in "rx_queues".
void read_queue_report(const TempDir& tmp, int rank, unsigned queues, nlohmann::json* report) {
  std::string error;
  const std::string path = tmp.file("out") + "/node" + std::to_string(rank) + ".json";
  ASSERT_TRUE(read_json_file(path, report, &error)) << error;
  ASSERT_TRUE(report->contains("rx_queues") && (*report)["rx_queues"].is_array()) << path;
  ASSERT_EQ((*report)["rx_queues"].size(), queues) << path;
}

class RxQueuesTest : public ::testing::TestWithParam<QueueCase> {};

TEST_P(RxQueuesTest, MatchesOracle) {
  const QueueCase& c = GetParam();
  if (const std::string why = link_unavailable_reason(c.link, c.nodes); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  TestGraph graph;
  ASSERT_FALSE(prepare_graph(GraphKind::kKron, c.program.app, tmp, &graph).has_value());
  const QueueRoles roles = roles_for(c.queues, c.nodes);
  RunSpec spec = queue_spec(c.link, c.nodes, c.program.app, c.queues);
  with_program(spec, c.program);
  spec.iterations = traits_of(c.program.app).uses_iterations ? std::optional<unsigned>(5) : std::nullopt;
  spec.lcores = roles.lcores;
  spec.extra.insert(spec.extra.end(), roles.args.begin(), roles.args.end());
  run_and_check(spec, graph, tmp);
  if (HasFatalFailure()) return;
  // Every node reports one entry per queue.
  for (int r = 0; r < c.nodes; ++r) {
    nlohmann::json report;
    read_queue_report(tmp, r, c.queues, &report);
  }
}

INSTANTIATE_TEST_SUITE_P(Kron10, RxQueuesTest, ::testing::ValuesIn(fast_queue_cases()), queue_case_name);
INSTANTIATE_TEST_SUITE_P(FullKron10, RxQueuesTest, ::testing::ValuesIn(without(queue_cases(), fast_queue_cases())),
                         queue_case_name);

// Steering: every record lands in the queue that owns its destination's
// range. Sparse PageRank sends one record per edge and iteration, so in
// every superstep node p's queue q must fold exactly the edges u -> v with
// owner(v) = v mod P = p whose slot v div P lies in queue q's range: with
// one NUMA domain and a node's n_p vertices fewer than a range holds, queue
// q owns slots [b(q), b(q+1)), b(q) = floor(q n_p / K) rounded down to a
// multiple of 64, b(K) = n_p (compute/engine/range_plan.h). Of those, the ones with
// owner(u) != p come through the network, on that queue's flows: over the
// run, iterations x as many records (queue 0 also carries the loader's edge
// shuffle, so it is checked per superstep only). Counted independently here
// from the edge list. memif's queue pairs steer exactly (nothing handed to
// another queue); tap's kernel flow steering may miss, and the receiving
// queue hands such frames to their owner, which still folds them (how many
// is up to the kernel: tests/test_hand_over.cc forces hand-overs and checks
// them exactly).
struct SteeringCase {
  std::string link;
  int nodes;
  unsigned queues;
};

class SteeringTest : public ::testing::TestWithParam<SteeringCase> {};

TEST_P(SteeringTest, EveryRecordLandsInItsQueue) {
  constexpr unsigned kIterations = 3;
  const SteeringCase& c = GetParam();
  if (const std::string why = link_unavailable_reason(c.link, c.nodes); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  TestGraph graph;
  ASSERT_FALSE(prepare_graph(GraphKind::kKron, "pagerank", tmp, &graph).has_value());
  RunSpec spec = queue_spec(c.link, c.nodes, "pagerank", c.queues);
  spec.iterations = kIterations;
  spec.domains = 1;
  spec.lcores = 4;
  // Slots in id order (slot = id / P), so that the queue of each record is
  // known here from the edge list alone.
  spec.extra.insert(spec.extra.end(), {"--roles", "w=1,s=1,a=2", "--scatter", "sparse", "--vertex-order", "input"});
  run_and_check(spec, graph, tmp);
  if (HasFatalFailure()) return;

  const unsigned P = static_cast<unsigned>(c.nodes), K = c.queues;
  const VertexId n = graph.edges.num_vertices;
  // [p][q]: records node p's queue q folds in a superstep, all and remote.
  std::vector<std::vector<uint64_t>> all(P, std::vector<uint64_t>(K, 0)), remote = all;
  auto queue_of = [&](unsigned p, uint64_t slot) {
    const uint64_t n_p = (n - p + P - 1) / P;
    unsigned q = 0;
    while (q + 1 < K && slot >= (q + 1) * n_p / K / 64 * 64) ++q;
    return q;
  };
  for (const Edge& e : graph.edges.edges) {
    const unsigned to = e.dst % P, q = queue_of(to, e.dst / P);
    ++all[to][q];
    if (e.src % P != to) ++remote[to][q];
  }
  for (unsigned p = 0; p < P; ++p) {
    nlohmann::json report;
    read_queue_report(tmp, static_cast<int>(p), K, &report);
    if (HasFatalFailure()) return;
    std::string error;
    ASSERT_TRUE(report.contains("supersteps") && report["supersteps"].size() >= kIterations) << "node " << p;
    for (unsigned s = 0; s < kIterations; ++s) {
      const nlohmann::json& by_queue = report["supersteps"][s]["accumulated_by_queue"];
      ASSERT_TRUE(by_queue.is_array() && by_queue.size() == K) << "node " << p << " superstep " << s;
      for (unsigned q = 0; q < K; ++q)
        EXPECT_EQ(by_queue[q].get<uint64_t>(), all[p][q]) << "node " << p << " superstep " << s << " queue " << q;
    }
    uint64_t handed = 0;
    for (unsigned q = 0; q < K; ++q) {
      const nlohmann::json& queue = report["rx_queues"][q];
      EXPECT_GT(remote[p][q], 0u) << "node " << p << " queue " << q << ": the test graph leaves it empty";
      if (q > 0) {
        EXPECT_EQ(json_counter(queue, {"records"}, &error), kIterations * remote[p][q])
            << "node " << p << " queue " << q;
      }
      handed += json_counter(queue, {"handed_over"}, &error);
    }
    EXPECT_TRUE(error.empty()) << error;
    if (c.link == "memif") {
      EXPECT_EQ(handed, 0u) << "node " << p << ": memif queue pairs should steer exactly";
    }
    std::printf("node %u: %llu frames handed to another queue\n", p, static_cast<unsigned long long>(handed));
  }
}

std::string steering_case_name(const ::testing::TestParamInfo<SteeringCase>& p) {
  return queues_name(p.param.link, p.param.nodes, p.param.queues);
}

INSTANTIATE_TEST_SUITE_P(Links, SteeringTest,
                         ::testing::Values(SteeringCase{"memif", 3, 4}, SteeringCase{"tap", 2, 3}),
                         steering_case_name);
INSTANTIATE_TEST_SUITE_P(FullLinks, SteeringTest,
                         ::testing::Values(SteeringCase{"memif", 2, 2}, SteeringCase{"tap", 3, 2}),
                         steering_case_name);

// --mtu 9000 on memif: exact results with buckets six times larger, so fewer
// frames than the same run at 1500. kron:16:16 (1 M edges) sends thousands of
// jumbo buckets: enough to catch frames that memif mangles when they are
// chained over several of its buffers (dataplane/memif_quirks.h, workaround
// 6: the launcher gives the vdevs bsize=9216; before, this run stalled).
TEST(ClusterMtu, JumboFramesAreExactAndFewer) {
  uint64_t frames[2] = {0, 0};
  const unsigned mtus[2] = {1500, 9000};
  TestGraph graph;
  graph.args = {"--graph", "kron:16:16"};
  graph.edges = load_graph("kron:16:16");
  for (int i = 0; i < 2; ++i) {
    TempDir tmp;
    RunSpec spec = queue_spec("memif", 2, "pagerank", 2);
    spec.iterations = 3;
    spec.extra.insert(spec.extra.end(), {"--mtu", std::to_string(mtus[i]), "--scatter", "sparse"});
    run_and_check(spec, graph, tmp);
    if (HasFatalFailure()) return;
    for (int r = 0; r < 2; ++r) {
      nlohmann::json report;
      std::string error;
      ASSERT_TRUE(read_json_file(tmp.file("out") + "/node" + std::to_string(r) + ".json", &report, &error)) << error;
      for (const nlohmann::json& step : report["supersteps"]) frames[i] += json_counter(step, {"frames_sent"}, &error);
      EXPECT_TRUE(error.empty()) << error;
    }
  }
  // ~260 K records a superstep each way: ~1470 frames of 177 records at
  // 1500, ~230 of 1114 at 9000 (plus acks and ENDs alike).
  EXPECT_LT(frames[1] * 2, frames[0]) << "frames sent: " << frames[0] << " at MTU 1500, " << frames[1] << " at 9000";
}

// Delta-stepping's local rounds across nodes (compute/engine/worker.h): SSSP on the
// local-rounds graph, whose 400-edge chain lies on node 0 (light stretches
// with zero-weight edges between heavy edges, detours through the other
// nodes), exact at P = 1, 2, 3 on memif and tap, with one lcore per node
// (the worker folds its own records) and with three (two workers, the
// chain crossing their slices; records for the other worker go by the
// local queue), with --local-rounds on (off by default). Node 0 ran local
// rounds, and the run took fewer supersteps
// than the 200 a superstep per chain edge past the shortcut would need.
struct RoundsCase {
  std::string link;
  int nodes;
  int lcores;
};

class LocalRoundsTest : public ::testing::TestWithParam<RoundsCase> {};

TEST_P(LocalRoundsTest, DeepChainsExactInFewSupersteps) {
  const RoundsCase& c = GetParam();
  if (const std::string why = link_unavailable_reason(c.link, c.nodes); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  TestGraph graph;
  snap_graph(local_rounds_graph(), tmp.file("rounds.txt"), 0, &graph);
  RunSpec spec;
  spec.link = c.link;
  spec.nodes = c.nodes;
  spec.app = "sssp";
  spec.lcores = c.lcores;
  spec.extra = {"--local-rounds", "on"};
  run_and_check(spec, graph, tmp);
  if (HasFatalFailure()) return;
  std::string error;
  nlohmann::json summary, node0;
  ASSERT_TRUE(read_json_file(tmp.file("out") + "/summary.json", &summary, &error)) << error;
  ASSERT_TRUE(read_json_file(tmp.file("out") + "/node0.json", &node0, &error)) << error;
  uint64_t rounds = 0;
  for (const nlohmann::json& step : node0["supersteps"]) rounds += json_counter(step, {"local_rounds"}, &error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_GE(rounds, 20u) << "at least a round per light stretch of the chain";
  EXPECT_LT(summary["supersteps_run"].get<uint64_t>(), 200u);
}

std::string rounds_case_name(const ::testing::TestParamInfo<RoundsCase>& p) {
  return (p.param.nodes == 1 ? std::string("single") : p.param.link) + "_P" + std::to_string(p.param.nodes) +
         "_lcores" + std::to_string(p.param.lcores);
}

INSTANTIATE_TEST_SUITE_P(Links, LocalRoundsTest,
                         ::testing::Values(RoundsCase{"memif", 2, 3}, RoundsCase{"tap", 3, 1}), rounds_case_name);
INSTANTIATE_TEST_SUITE_P(FullLinks, LocalRoundsTest,
                         ::testing::Values(RoundsCase{"memif", 1, 1}, RoundsCase{"memif", 1, 3},
                                           RoundsCase{"memif", 2, 1}, RoundsCase{"memif", 3, 1},
                                           RoundsCase{"tap", 2, 1}, RoundsCase{"tap", 2, 3}),
                         rounds_case_name);

// Delta-stepping combines a big superstep's records to another node at the
// sender (compute/engine/worker.h, scatter_combined): exact on both links, and with
// fewer records than the same run forced sparse (one record per edge sent),
// which is also exact.
class SenderCombiningTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SenderCombiningTest, ExactWithFewerRecordsThanSparse) {
  if (const std::string why = link_unavailable_reason(GetParam(), 2); !why.empty()) GTEST_SKIP() << why;
  uint64_t records[2] = {0, 0};
  for (int sparse = 0; sparse < 2; ++sparse) {
    SCOPED_TRACE(sparse ? "--scatter sparse" : "auto");
    TempDir tmp;
    TestGraph graph;
    ASSERT_FALSE(prepare_graph(GraphKind::kKron, "sssp", tmp, &graph).has_value());
    RunSpec spec;
    spec.link = GetParam();
    spec.nodes = 2;
    spec.app = "sssp";
    if (sparse) spec.extra = {"--scatter", "sparse"};
    run_and_check(spec, graph, tmp);
    if (HasFatalFailure()) return;
    std::string error;
    for (int node = 0; node < 2; ++node) {
      nlohmann::json report;
      ASSERT_TRUE(read_json_file(tmp.file("out") + "/node" + std::to_string(node) + ".json", &report, &error)) << error;
      for (const nlohmann::json& step : report["supersteps"]) records[sparse] += json_counter(step, {"messages_sent"}, &error);
    }
    EXPECT_TRUE(error.empty()) << error;
  }
  EXPECT_LT(records[0], records[1]) << "combined at the sender: fewer records than one per edge";
}

std::string link_case_name(const ::testing::TestParamInfo<std::string>& p) { return p.param; }

INSTANTIATE_TEST_SUITE_P(Links, SenderCombiningTest, ::testing::Values(std::string("memif")), link_case_name);
INSTANTIATE_TEST_SUITE_P(FullLinks, SenderCombiningTest, ::testing::Values(std::string("tap")), link_case_name);

// Multi-segment dense pulls across nodes: 1 KiB segments (256 scatter values)
// on kron:10:8 at P = 2 (512 vertices per node) with 2 domains, so every
// dense superstep pulls several segments per destination domain of another
// node. Programs without a scalar ⊕ (cd, kcore) have no dense mode and run
// sparse whatever --scatter says; they run here all the same.
class SegmentedDenseTest : public ::testing::TestWithParam<ProgramRun> {};

// `spec` (its program set here) on the test's kron graph, 5 iterations, exact
// against the oracle.
void kron_matches_oracle(const ProgramRun& program, RunSpec spec) {
  TempDir tmp;
  TestGraph graph;
  ASSERT_FALSE(prepare_graph(GraphKind::kKron, program.app, tmp, &graph).has_value());
  with_program(spec, program);
  spec.iterations = 5;
  run_and_check(spec, graph, tmp);
}

// Every program, as the full suite runs these tests.
std::vector<ProgramRun> every_program() {
  std::vector<ProgramRun> runs;
  for (App app : program_names()) runs.push_back(plain_run(app));
  return runs;
}

std::string program_case_name(const ::testing::TestParamInfo<ProgramRun>& p) { return p.param.label; }

TEST_P(SegmentedDenseTest, MatchesOracle) {
  RunSpec spec;
  spec.nodes = 2;
  spec.domains = 2;
  spec.extra = {"--segment-kib", "1", "--scatter", "dense"};
  kron_matches_oracle(GetParam(), spec);
}

// Fast: the two scalar widths (the slot programs and lcc have no dense mode).
const std::vector<ProgramRun> kFastDense = {plain_run("cc"), double_run("pagerank")};
INSTANTIATE_TEST_SUITE_P(P2Domains2Segment1KiB, SegmentedDenseTest, ::testing::ValuesIn(kFastDense),
                         program_case_name);
INSTANTIATE_TEST_SUITE_P(FullP2Domains2Segment1KiB, SegmentedDenseTest,
                         ::testing::ValuesIn(without(every_program(), kFastDense)), program_case_name);

// Slots in id order (--vertex-order input: slot = id / P, no slot tables),
// the numbering every other test replaced by the default degree order:
// every program exact at P = 3, whose nodes hold unequal shares.
class InputOrderTest : public ::testing::TestWithParam<ProgramRun> {};

TEST_P(InputOrderTest, MatchesOracle) {
  RunSpec spec;
  spec.nodes = 3;
  spec.extra = {"--vertex-order", "input"};
  kron_matches_oracle(GetParam(), spec);
}

// Fast: a scalar and a slot program (slot programs read the peers' slot tables).
const std::vector<ProgramRun> kFastInputOrder = {representative(WireClass::kScalar8, 1),
                                                 representative(WireClass::kSlot, 1)};
INSTANTIATE_TEST_SUITE_P(P3, InputOrderTest, ::testing::ValuesIn(kFastInputOrder), program_case_name);
INSTANTIATE_TEST_SUITE_P(FullP3, InputOrderTest, ::testing::ValuesIn(without(every_program(), kFastInputOrder)),
                         program_case_name);

// The README's own first command, as written there: exit 0 and PageRank's top
// vertices in the summary.
TEST(ClusterReadme, MainCommandRuns) {
  ASSERT_TRUE(std::filesystem::exists(launcher_path())) << "no launcher at " << launcher_path();
  TempDir tmp;
  LaunchOptions opts;
  opts.nodes = 2;
  opts.link = "memif";
  opts.timeout_sec = kRunTimeoutSec;
  opts.app_args = {"--app", "pagerank", "--graph", "kron:16:16"};
  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  // In the summary, under its answer line: the launcher prints it without "[node 0] ".
  EXPECT_NE(run.output.find("\n  top       1. vertex"), std::string::npos) << describe(run);
  EXPECT_NE(run.output.find("\n           10. vertex"), std::string::npos) << describe(run);
  EXPECT_EQ(run.output.find("[node 0]    1. vertex"), std::string::npos) << describe(run);
}

TEST(ClusterFlags, EvenDomainSplitOnAKroneckerGraph) {
  TempDir tmp;
  TestGraph graph;
  ASSERT_FALSE(prepare_graph(GraphKind::kKron, "pagerank", tmp, &graph).has_value());
  RunSpec spec;
  spec.nodes = 2;
  spec.app = "pagerank";
  spec.iterations = 10;
  spec.domains = 4;
  spec.even_split = true;
  run_and_check(spec, graph, tmp);
}

TEST(ClusterFlags, UndirectedSssp) {
  TempDir tmp;
  TestGraph graph;
  const std::optional<std::string> why = prepare_graph(GraphKind::kCorner, "sssp", tmp, &graph);
  ASSERT_FALSE(why.has_value()) << *why;
  RunSpec spec;
  spec.nodes = 2;
  spec.app = "sssp";
  spec.undirected = true;
  run_and_check(spec, graph, tmp);
}

// ================================================================ errors

// The launcher and the binary must both exist, or a run fails for the wrong
// reason and the test passes without testing anything.
::testing::AssertionResult cluster_available() {
  for (const std::string& path : {launcher_path(), binary_path()})
    if (!std::filesystem::exists(path)) return ::testing::AssertionFailure() << "missing " << path;
  return ::testing::AssertionSuccess();
}

LaunchResult run_expecting_failure(int nodes, const std::vector<std::string>& app_args,
                                   const TempDir& tmp) {
  LaunchOptions opts;
  opts.nodes = nodes;
  opts.timeout_sec = 60;
  opts.app_args = app_args;
  // A directory of its own: a run refuses an --out holding files of no run (the log).
  opts.app_args.insert(opts.app_args.end(), {"--out", tmp.file("out")});
  return run_launcher(opts, tmp.file("cluster.log"));
}

TEST(ClusterErrors, MissingGraphFileIsNamed) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::string missing = tmp.file("no-such-graph.txt");
  const LaunchResult run = run_expecting_failure(2, {"--app", "bfs", "--graph", missing}, tmp);
  EXPECT_FALSE(run.timed_out) << describe(run);
  EXPECT_NE(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.output.find("no-such-graph.txt"), std::string::npos) << describe(run);
}

TEST(ClusterErrors, UnknownAppIsRejected) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::string path = tmp.file("corner.txt");
  write_snap(corner_case_graph(), path);
  const LaunchResult run =
      run_expecting_failure(1, {"--app", "no-such-app", "--graph", path}, tmp);
  EXPECT_FALSE(run.timed_out) << describe(run);
  EXPECT_NE(run.exit_code, 0) << describe(run);
}

// A graph with no edges (issue #14: it ran without a word): every node
// warns, exits 0 and writes every vertex with its initial value. Five
// vertices declared by a Matrix Market header, none with an edge: all
// dangling, so each PageRank is 1/5; and a file with no vertex at all.
TEST(ClusterErrors, EmptyGraphsRunWithAWarning) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::string no_edges = tmp.file("five.mtx"), nothing = tmp.file("nothing.el");
  std::ofstream(no_edges) << "%%MatrixMarket matrix coordinate pattern general\n5 5 0\n";
  std::ofstream(nothing) << "# no edge here\n";
  LaunchOptions opts;
  opts.nodes = 2;
  opts.app_args = {"--app", "pagerank", "--graph", no_edges, "--quiet", "--out", tmp.file("five")};
  LaunchResult run = run_launcher(opts, tmp.file("five.log"));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.output.find("[node 0] wiregraph: warning: " + no_edges + " has no edges"), std::string::npos)
      << describe(run);
  EXPECT_NE(run.output.find("[node 1] wiregraph: warning: " + no_edges + " has no edges"), std::string::npos)
      << describe(run);
  std::vector<std::string> values;
  ASSERT_TRUE(read_results(tmp.file("five"), 5, &values, 1)) << describe(run);  // the file's ids, 1..5
  for (const std::string& v : values) EXPECT_NEAR(std::stod(v), 0.2, 1e-6);

  opts.app_args = {"--app", "pagerank", "--graph", nothing, "--quiet", "--out", tmp.file("nothing")};
  run = run_launcher(opts, tmp.file("nothing.log"));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.output.find("wiregraph: warning: " + nothing + " has no vertices"), std::string::npos)
      << describe(run);
  // A program that starts from a vertex has none to start from: refused by name.
  opts.app_args = {"--app", "bfs", "--graph", nothing, "--quiet"};
  run = run_launcher(opts, tmp.file("bfs.log"));
  EXPECT_NE(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.output.find("--source 0 is not a vertex of " + nothing + " (it has no vertices)"), std::string::npos)
      << describe(run);
}

// ------------------------------------------------ exit status of one node

// Runs the node binary alone (no launcher), with an EAL of its own that needs
// no hugepages, and the given node options; removes the EAL's runtime
// directory after it (--in-memory would leave none, but the EAL refuses it
// with --no-huge). Returns the exit status (-1 if it did not exit normally);
// its output goes to *output.
int run_node(const TempDir& tmp, const std::vector<std::string>& node_args, std::string* output) {
  auto quote = [](const std::string& a) {
    std::string q = "'";
    for (char ch : a) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  };
  const std::string log = tmp.file("node.log");
  const std::string prefix = "wg_exit_" + std::to_string(::getpid());
  std::string cmd = quote(binary_path()) + " --no-pci --no-huge -m 256 --log-level lib.eal:error --lcores 0";
  cmd += " --file-prefix ";
  cmd += prefix;
  cmd += " --";
  // Appended piece by piece: GCC 12 misreports " " + string (-Wrestrict).
  for (const std::string& a : node_args) {
    cmd += ' ';
    cmd += quote(a);
  }
  cmd += " > ";
  cmd += quote(log);
  cmd += " 2>&1 < /dev/null";
  const int status = std::system(cmd.c_str());
  std::error_code ec;  // where the EAL puts it: root, XDG_RUNTIME_DIR, /tmp
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  for (const std::string& dir : {std::string("/var/run/dpdk/"), std::string(xdg ? xdg : "/tmp") + "/dpdk/",
                                 std::string("/tmp/dpdk/")})
    std::filesystem::remove_all(dir + prefix, ec);
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  *output = "$ ";
  *output += cmd;
  *output += '\n';
  *output += text.str();
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Command-line errors exit 2 (apps/main.cc, docs/RUNNING.md), after
// naming the option; a runtime error (a missing graph file) exits 1.
TEST(NodeExitStatus, CommandLineErrorsExitTwo) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::string graph = tmp.file("corner.txt");
  write_snap(corner_case_graph(), graph);
  unsetenv("WIREGRAPH_KEY");  // the nodes read it: a key in the test's environment would hide the missing one
  const std::string key = write_key_file(tmp);
  const std::string open_key = tmp.file("open.key");
  std::filesystem::copy_file(key, open_key);
  std::filesystem::permissions(open_key, std::filesystem::perms::others_read | std::filesystem::perms::group_read |
                                             std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--app", "nope", "--graph", graph}, "nope"},
      {{"--graph", graph}, "--app"},
      {{"--app", "bfs"}, "--graph"},
      {{"--app", "bfs", "--graph", graph, "--no-such-option"}, "--no-such-option"},
      {{"--app", "bfs", "--graph", graph, "--domains", "0"}, "--domains"},
      {{"--app", "bfs", "--graph", graph, "--domain-split", "half"}, "half"},
      {{"--app", "bfs", "--graph", graph, "--window", "0"}, "--window"},
      {{"--app", "bfs", "--graph", graph, "--fault-rx", "drop=2"}, "--fault-rx"},
      // A generator's range is known before loading (an edge list's
      // vertices once loaded: exit 1, tests/test_input_rules.cc).
      {{"--app", "bfs", "--graph", "kron:6:4", "--source", "100000"}, "--source 100000"},
      // Hardening (#14): bounded timers, a bad generator spec, an unusable
      // or empty --out, all found before anything is loaded or computed.
      {{"--app", "bfs", "--graph", graph, "--rto-min-us", "1e30"}, "--rto-min-us"},
      {{"--app", "bfs", "--graph", "kron:x:8"}, "kron:x:8"},
      {{"--app", "bfs", "--graph", graph, "--out", "/proc/wiregraph-cannot-be-here"}, "--out /proc/"},
      {{"--app", "bfs", "--graph", graph, "--out", graph}, "a directory"},
      {{"--app", "bfs", "--graph", graph, "--out", ""}, "--out"},
      // Authenticated frames (#14): several nodes need a key; a key file
      // must be one and private.
      {{"--app", "bfs", "--graph", graph, "--nodes", "2"}, "head -c 32 /dev/urandom | xxd -p -c 64 > key"},
      {{"--app", "bfs", "--graph", graph, "--nodes", "2", "--key-file", tmp.file("no.key")}, "--key-file"},
      {{"--app", "bfs", "--graph", graph, "--nodes", "2", "--key-file", open_key}, "mode 0644"},
      {{"--app", "bfs", "--graph", graph, "--nodes", "2", "--key-file", key, "--checksum", "on"}, "--checksum"},
  };
  for (const auto& [args, named] : bad) {
    std::string output;
    EXPECT_EQ(run_node(tmp, args, &output), 2) << output;
    EXPECT_NE(output.find("wiregraph: error: "), std::string::npos) << output;
    EXPECT_NE(output.find(named), std::string::npos) << "the error does not name " << named << ":\n" << output;
  }
  std::string output;
  EXPECT_EQ(run_node(tmp, {"--app", "bfs", "--graph", tmp.file("missing.txt")}, &output), 1) << output;
  EXPECT_EQ(run_node(tmp, {"--app", "bfs", "--graph", graph, "--quiet"}, &output), 0) << output;
}

// A graph whose vertex arrays cannot fit is refused before they are
// allocated (it used to allocate until the machine ran out of memory): from
// the ids an edge list holds, and from what a header declares before the
// file is read. Exit 1 (a runtime error), naming the file, the need and the limit.
// (--ids dense: under --ids auto the edge list's two ids are sparse, and fit.)
TEST(NodeExitStatus, MemoryIsCheckedBeforeItIsSpent) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::vector<std::pair<std::string, std::string>> files = {
      {"huge-id.txt", "0 4294967294\n"},
      {"huge.mtx", "%%MatrixMarket matrix coordinate pattern general\n4294967295 4294967295 1\n1 2\n"},
      {"huge.gr", "p sp 4294967295 1\na 1 2 3\n"},
      {"huge.graph", "4294967294 1\n2\n1\n"},
  };
  for (const auto& [name, text] : files) {
    std::ofstream(tmp.file(name)) << text;
    std::string output;
    EXPECT_EQ(run_node(tmp, {"--app", "bfs", "--graph", tmp.file(name), "--ids", "dense"}, &output), 1) << output;
    for (const std::string& want : {"wiregraph: error: node 0: " + tmp.file(name) + ": ", std::string("this node would need about "),
                                    std::string(" but may use ")})
      EXPECT_NE(output.find(want), std::string::npos) << "no '" << want << "' in:\n" << output;
    EXPECT_TRUE(output.find("(MemAvailable in /proc/meminfo") != std::string::npos ||
                output.find("(cgroup ") != std::string::npos)
        << output;
  }
}

// Nodes that run different programs stop at the hello exchange, naming both
// programs (not their ids).
TEST(ClusterErrors, HelloNamesTheMismatchedPrograms) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::string path = tmp.file("corner.txt");
  write_snap(corner_case_graph(), path);
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = 60;
  opts.launcher_flags = {"--binary", write_rank_wrapper(tmp, 1, "exec '" + binary_path() + "' \"$@\" --app cc")};
  opts.app_args = {"--app", "bfs", "--graph", path, "--format", "edgelist", "--hello-timeout", "20"};
  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  EXPECT_FALSE(run.timed_out) << describe(run);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_TRUE(run.output.find("runs a different job: --app 'cc' there, 'bfs' here") != std::string::npos ||
              run.output.find("runs a different job: --app 'bfs' there, 'cc' here") != std::string::npos)
      << describe(run);
}

// Two nodes that disagree on a job parameter stop at the hello exchange,
// naming the node and what differs. The launcher gives every node the same
// options, so node 1 gets --source 5 through a wrapper (last one wins).
TEST(ClusterErrors, HelloNamesTheMismatchedParameter) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::string path = tmp.file("corner.txt");
  write_snap(corner_case_graph(), path);
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = 60;
  opts.launcher_flags = {"--binary",
                         write_rank_wrapper(tmp, 1, "exec '" + binary_path() + "' \"$@\" --source 5")};
  opts.app_args = {"--app", "bfs", "--graph", path, "--format", "edgelist", "--source", "0", "--hello-timeout", "20"};
  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  EXPECT_FALSE(run.timed_out) << describe(run);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.output.find("runs a different job: parameters"), std::string::npos) << describe(run);
  EXPECT_NE(run.output.find("--source"), std::string::npos) << describe(run);
  EXPECT_TRUE(run.output.find("[node 0] ") != std::string::npos &&
              (run.output.find("node 1 runs a different job") != std::string::npos ||
               run.output.find("node 0 runs a different job") != std::string::npos))
      << describe(run);
}

// A node whose peer never starts gives up after --hello-timeout, naming it.
TEST(ClusterErrors, HelloTimeoutNamesTheMissingNode) {
  ASSERT_TRUE(cluster_available());
  TempDir tmp;
  const std::string path = tmp.file("corner.txt");
  write_snap(corner_case_graph(), path);
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = 60;
  opts.launcher_flags = {"--binary", write_rank_wrapper(tmp, 1, "exec sleep 50")};
  opts.app_args = {"--app", "bfs", "--graph", path, "--format", "edgelist", "--hello-timeout", "2"};
  const auto t0 = std::chrono::steady_clock::now();
  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(run.timed_out) << describe(run);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.output.find("no hello from node(s) 1 within 2"), std::string::npos) << describe(run);
  EXPECT_LT(seconds, 40) << "node 0 waited far beyond its --hello-timeout: " << describe(run);
}

}  // namespace
}  // namespace wg::test
