// What a run shows and leaves (docs/OUTPUT.md), through real memif clusters
// started by scripts/wiregraph-cluster:
//   - the end-of-run summary, printed once by rank 0 for the cluster, its
//     answer line against plain BFS and CC computed here;
//   - a warning on a degenerate answer (a source that reaches only itself,
//     a graph whose ids leave most vertices without edges);
//   - per-superstep lines only with --verbose (the launcher's and the nodes');
//   - no DPDK or transport chatter on a clean memif run;
//   - --out owned by one run: a 3-node run then a 2-node run leave exactly
//     the second's files, a stranger's file is refused before any node starts;
//   - scripts/wiregraph-plot's PNGs of the run, removed by the next run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/cluster_harness.h"
#include "tests/graphs_for_tests.h"
#include "tests/reference.h"

namespace wg::test {
namespace {

namespace fs = std::filesystem;

constexpr int kTimeoutSec = 180;

LaunchResult run(const TempDir& tmp, int nodes, std::vector<std::string> app_args,
                 std::vector<std::string> launcher_flags = {}) {
  LaunchOptions o;
  o.nodes = nodes;
  o.link = "memif";
  o.timeout_sec = kTimeoutSec;
  o.app_args = std::move(app_args);
  o.launcher_flags = std::move(launcher_flags);
  static int n = 0;
  return run_launcher(o, tmp.file("launcher-" + std::to_string(++n) + ".log"));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return lines;
}

// The summary's line that starts with `label` ("  answer   "), without it;
// nullopt when there is none.
std::optional<std::string> summary_line(const std::string& output, const std::string& label) {
  for (const std::string& l : lines_of(output))
    if (l.rfind(label, 0) == 0) return l.substr(label.size());
  return std::nullopt;
}

size_t count_lines_starting(const std::string& output, const std::string& prefix) {
  size_t n = 0;
  for (const std::string& l : lines_of(output)) n += l.rfind(prefix, 0) == 0;
  return n;
}

// What a clean run must not show: DPDK's warnings of every healthy memif run,
// the transport's counters (nodeR.json has them), per-superstep lines.
void expect_quiet(const LaunchResult& r) {
  for (const char* noise : {"rte_pmd_memif_probe", "TELEMETRY:", "retransmitted", "dup rx", "dropped:",
                            "] superstep ", "cluster superstep ", "totals:", "load: done"})
    EXPECT_EQ(r.output.find(noise), std::string::npos) << "'" << noise << "' on screen\n" << describe(r);
  EXPECT_EQ(count_lines_starting(r.output, "summary: "), 1u) << "one summary for the cluster\n" << describe(r);
  EXPECT_EQ(r.output.find("] summary: "), std::string::npos) << "printed without a node prefix\n" << describe(r);
}

nlohmann::json summary_json(const std::string& dir) {
  nlohmann::json j;
  std::string error;
  EXPECT_TRUE(read_json_file(dir + "/summary.json", &j, &error)) << error;
  return j;
}

// ---------------------------------------------------------------- summary

TEST(Summary, BfsReachedAndDepthAreTheOracles) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  const EdgeList g = corner_case_graph();
  write_snap(g, tmp.file("g.el"));
  const std::vector<uint64_t> hops = ref::bfs(g, 0);
  uint64_t reached = 0, depth = 0;
  for (uint64_t h : hops)
    if (h != ref::kInfinity) ++reached, depth = std::max(depth, h);
  ASSERT_GT(depth, 10u) << "the corner-case graph has a 20-hop chain";

  const LaunchResult r = run(tmp, 2, {"--app", "bfs", "--graph", tmp.file("g.el"), "--ids", "dense", "--out", tmp.file("out")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string want = std::to_string(reached) + " of " + std::to_string(g.num_vertices) + " vertices reached";
  const std::optional<std::string> answer = summary_line(r.output, "  answer   ");
  ASSERT_TRUE(answer.has_value()) << describe(r);
  EXPECT_EQ(answer->rfind(want, 0), 0u) << *answer;
  EXPECT_NE(answer->find(", depth " + std::to_string(depth)), std::string::npos) << *answer;
  EXPECT_FALSE(summary_line(r.output, "  warning: ").has_value()) << describe(r);
  const std::optional<std::string> graph = summary_line(r.output, "  graph    ");
  ASSERT_TRUE(graph.has_value()) << describe(r);
  EXPECT_EQ(graph->rfind(std::to_string(g.num_vertices) + " vertices, " + std::to_string(g.num_edges()) + " edges"),
            0u)
      << *graph;
  expect_quiet(r);

  const nlohmann::json s = summary_json(tmp.file("out"));
  EXPECT_EQ(s["summary"]["answer"]["reached"], reached);
  EXPECT_EQ(s["summary"]["answer"]["depth"], depth);
  EXPECT_TRUE(s["summary"]["verify"].is_null());
  EXPECT_EQ(s["summary"]["peak_rss_bytes"].size(), 2u);
  EXPECT_FALSE(s.contains("top")) << "BFS ranks nothing";
}

// A program on a driver of its own ranks its vertices too: tc lists the
// vertices in the most triangles (the oracle's counts), largest first, in
// the report and in summary.json.
TEST(Summary, TcTopVerticesAreTheOnesInTheMostTriangles) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  const EdgeList g = corner_case_graph();
  write_snap(g, tmp.file("g.el"));
  const std::vector<uint64_t> want = oracle::triangles(g);
  std::vector<uint64_t> sorted = want;
  std::sort(sorted.rbegin(), sorted.rend());
  ASSERT_GT(sorted.at(0), sorted.at(4)) << "a graph whose top vertices differ from the rest";

  const LaunchResult r =
      run(tmp, 2, {"--app", "tc", "--graph", tmp.file("g.el"), "--ids", "dense", "--top", "5", "--out", tmp.file("out")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.output.find("\n  top       1. vertex"), std::string::npos) << describe(r);
  EXPECT_NE(r.output.find("triangles " + std::to_string(sorted[0])), std::string::npos) << describe(r);
  const nlohmann::json s = summary_json(tmp.file("out"));
  ASSERT_TRUE(s.contains("top")) << "tc ranks its vertices";
  ASSERT_EQ(s["top"].size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    const auto vertex = s["top"][i]["vertex"].get<int64_t>();
    const auto key = s["top"][i]["key"].get<double>();
    ASSERT_GE(vertex, 0);
    ASSERT_LT(vertex, static_cast<int64_t>(g.num_vertices));
    EXPECT_EQ(key, static_cast<double>(want[vertex])) << "entry " << i;
    EXPECT_EQ(key, static_cast<double>(sorted[i])) << "entry " << i;
  }
}

// More small components than a node's census lists (2200..2599 of the
// traversal graph): the count is still exact, the largest proven.
TEST(Summary, CcComponentsAndTheLargestAreTheOracles) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  const EdgeList g = traversal_graph();
  write_snap(g, tmp.file("g.el"));
  std::map<VertexId, uint64_t> size;
  for (VertexId label : ref::cc(g)) ++size[label];
  uint64_t largest = 0;
  for (const auto& [label, n] : size) largest = std::max(largest, n);
  ASSERT_GT(size.size(), 64u) << "more components than two nodes' lists hold";

  const LaunchResult r = run(tmp, 2, {"--app", "cc", "--graph", tmp.file("g.el"), "--ids", "dense", "--out", tmp.file("out")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::optional<std::string> answer = summary_line(r.output, "  answer   ");
  ASSERT_TRUE(answer.has_value()) << describe(r);
  EXPECT_EQ(answer->rfind(std::to_string(size.size()) + " components, the largest of " + std::to_string(largest) +
                              " vertices",
                          0),
            0u)
      << *answer;
  expect_quiet(r);
  const nlohmann::json s = summary_json(tmp.file("out"));
  EXPECT_EQ(s["summary"]["answer"]["components"], size.size());
  EXPECT_EQ(s["summary"]["answer"]["largest_component"], largest);
  EXPECT_EQ(s["summary"]["answer"]["largest_component_exact"], true);
  EXPECT_FALSE(s.contains("top")) << "the smallest labels are no ranking";
}

// ------------------------------------------------------ degenerate answers

TEST(Summary, ASourceThatReachesOnlyItselfIsWarnedAbout) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  const EdgeList g = corner_case_graph();
  write_snap(g, tmp.file("g.el"));
  const std::vector<uint64_t> hops = ref::bfs(g, 103);
  ASSERT_EQ(std::count_if(hops.begin(), hops.end(), [](uint64_t h) { return h != ref::kInfinity; }), 1)
      << "103 is isolated";
  const LaunchResult r = run(tmp, 2, {"--app", "bfs", "--graph", tmp.file("g.el"), "--ids", "dense", "--source", "103"});
  ASSERT_EQ(r.exit_code, 0) << "a degenerate answer is an answer\n" << describe(r);
  const std::optional<std::string> warning = summary_line(r.output, "  warning: ");
  ASSERT_TRUE(warning.has_value()) << describe(r);
  EXPECT_NE(warning->find("the source 103 reaches only itself"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("--source"), std::string::npos) << "says what to check: " << *warning;
}

// Ids far apart in a dense numbering: most "vertices" have no edge at all.
TEST(Summary, AGraphOfMostlyIsolatedIdsIsWarnedAbout) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  std::ofstream(tmp.file("gaps.el")) << "0 1\n1 2\n2 0\n5000 5001\n";
  // Dense on purpose: --ids auto would number only the five ids the edges name.
  const LaunchResult r = run(tmp, 2, {"--app", "cc", "--graph", tmp.file("gaps.el"), "--ids", "dense"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::optional<std::string> answer = summary_line(r.output, "  answer   ");
  ASSERT_TRUE(answer.has_value()) << describe(r);
  EXPECT_EQ(answer->rfind("4999 components, the largest of 3 vertices", 0), 0u) << *answer;  // 5002 - 3 - 2 + 2
  const std::optional<std::string> warning = summary_line(r.output, "  warning: ");
  ASSERT_TRUE(warning.has_value()) << describe(r);
  EXPECT_NE(warning->find("4997 of 5002 vertices (100%) have no edges"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("--ids sparse"), std::string::npos) << *warning;
}

// ----------------------------------------------------------------- verbose

TEST(Verbose, PerSuperstepLinesOnlyWhenAsked) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  write_snap(corner_case_graph(), tmp.file("g.el"));
  const std::vector<std::string> app = {"--app", "bfs", "--graph", tmp.file("g.el"), "--ids", "dense", "--out", tmp.file("out")};
  // The launcher's --verbose goes to the nodes; a node option --verbose makes the launcher verbose.
  for (const bool launcher_flag : {true, false}) {
    SCOPED_TRACE(launcher_flag ? "wiregraph-cluster --verbose" : "-- --verbose");
    std::vector<std::string> a = app;
    if (!launcher_flag) a.push_back("--verbose");
    const LaunchResult r = run(tmp, 2, a, launcher_flag ? std::vector<std::string>{"--verbose"} : std::vector<std::string>{});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    for (int node : {0, 1}) {
      const std::string prefix = "[node " + std::to_string(node) + "] ";
      EXPECT_GT(count_lines_starting(r.output, prefix + "superstep "), 0u) << describe(r);
      EXPECT_GT(count_lines_starting(r.output, prefix + "totals: "), 0u) << describe(r);
    }
    EXPECT_GT(count_lines_starting(r.output, "cluster superstep 0: "), 0u) << describe(r);
    EXPECT_EQ(count_lines_starting(r.output, "summary: "), 1u) << describe(r);
  }
  // The same run without: none of them (expect_quiet), and an old script's --quiet changes nothing.
  std::vector<std::string> quiet = app;
  quiet.push_back("--quiet");
  const LaunchResult r = run(tmp, 2, quiet);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_quiet(r);
}

// ------------------------------------------------------------------ --out

std::set<std::string> visible(const std::string& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().filename().string()[0] != '.') names.insert(e.path().filename().string());
  return names;
}

TEST(OutDir, ARunOwnsItsDirectoryAndItsPictures) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 3, &skip));
  TempDir tmp;
  write_snap(corner_case_graph(), tmp.file("g.el"));
  const std::string out = tmp.file("out");
  const std::vector<std::string> app = {"--app", "cc", "--graph", tmp.file("g.el"), "--ids", "dense", "--out", out};
  const LaunchResult three = run(tmp, 3, app);
  ASSERT_EQ(three.exit_code, 0) << describe(three);
  EXPECT_TRUE(fs::exists(out + "/result-2.txt"));

  // Pictures of it, listed with its files.
  const std::string plot_cmd = "python3 '" + source_dir() + "/scripts/wiregraph-plot' '" + out + "' 2>&1";
  std::FILE* p = ::popen(plot_cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string said;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) said += buf;
  ASSERT_EQ(::pclose(p), 0) << said;
  const std::vector<std::string> pngs = {"throughput", "superstep_time", "time_by_role", "load_split", "memory",
                                         "component_sizes", "degree_ccdf"};
  for (const std::string& name : pngs) {
    const std::string png = out + "/plots/" + name + ".png";
    EXPECT_NE(said.find(png), std::string::npos) << "says where " << name << " is: " << said;
    std::ifstream in(png, std::ios::binary);
    char magic[8] = {};
    in.read(magic, 8);
    EXPECT_EQ(std::string(magic, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << png;
    EXPECT_GT(fs::file_size(png), 2000u) << png << ": a picture, not an empty canvas";
  }

  // A run of 2 nodes into the same directory: exactly its files remain.
  const LaunchResult two = run(tmp, 2, app);
  ASSERT_EQ(two.exit_code, 0) << describe(two);
  EXPECT_EQ(visible(out), (std::set<std::string>{"node0.json", "node1.json", "result-0.txt", "result-1.txt",
                                                  "results.tsv", "summary.json", "wiregraph-run.json"}));
  EXPECT_NE(two.output.find("removed the 29 files of the run before (cc, 3 nodes"), std::string::npos)
      << "7 files, results.tsv and 21 of the pictures, in one line\n"
      << describe(two);

  // A file of nobody's: refused before any node starts, the directory untouched.
  std::ofstream(out + "/notes.txt") << "mine\n";
  const LaunchResult refused = run(tmp, 2, app);
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_NE(refused.output.find("--out " + out + ": holds 1 file its last run's manifest does not list (notes.txt)"),
            std::string::npos)
      << describe(refused);
  EXPECT_EQ(refused.output.find("[node 0]"), std::string::npos) << "no node started\n" << describe(refused);
  EXPECT_EQ(visible(out).size(), 8u);
}

// Every name in DIR, dot files too.
std::set<std::string> all_names(const std::string& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// A run that fails once it has claimed --out (a node killed, the other
// stopped by the launcher) leaves its manifest and no lock file; so does
// one that succeeds.
TEST(OutDir, ARunLeavesNoLockFileHoweverItEnds) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  write_snap(corner_case_graph(), tmp.file("g.el"));
  const std::string out = tmp.file("out");
  const std::vector<std::string> app = {"--app", "bfs", "--graph", tmp.file("g.el"), "--ids", "dense", "--out", out};
  std::vector<std::string> crash = app;
  crash.insert(crash.end(), {"--crash-node", "1:1"});
  const LaunchResult failed = run(tmp, 2, crash);
  ASSERT_EQ(failed.exit_code, 1) << describe(failed);
  EXPECT_EQ(all_names(out), (std::set<std::string>{"wiregraph-run.json"})) << describe(failed);
  const LaunchResult fine = run(tmp, 2, app);
  ASSERT_EQ(fine.exit_code, 0) << describe(fine);
  EXPECT_EQ(all_names(out), (std::set<std::string>{"node0.json", "node1.json", "result-0.txt", "result-1.txt",
                                                    "results.tsv", "summary.json", "wiregraph-run.json"}));
}

}  // namespace
}  // namespace wg::test
