// A first run on an ordinary graph file, where the nodes and the wire matter
// (scripts/wiregraph-cluster; the one-node cases are tests/test_input_rules.cc):
//   - --ids auto: every node takes the same decision from the same bytes
//     (P = 2 and 3 on memif, 2 on tap), prints it and reports it in nodeR.json;
//   - a 1-based file's own ids in --source and results across nodes;
//   - the vertices are the ids the file names (wiki-Vote: 7,115, not 8,298);
//   - the default source is the first edge's; a missing one is named with the
//     nearest ids that are vertices;
//   - a source without out-edges is warned about once per job, by its owner;
//   - SNAP's gzip read as it ships, with the plain copy's answer; a truncated
//     gzip stops every node before anything is computed.
// The oracles (tests/reference.h) run on the graph as a plain dense reading
// of the file gives it.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/graph/graph_reader.h"
#include "compute/graph/input_bytes.h"
#include "tests/cluster_harness.h"
#include "tests/reference.h"

namespace wg::test {
namespace {

constexpr int kTimeoutSec = 120;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// cc on a file whose ids have gaps: the ids its edges name are the vertices
// (as networkx counts them), and every vertex carries its component's
// smallest id. `said`: the ids: line every node prints.
struct NamedIds {
  std::string file;
  size_t vertices, components;
  std::string said;
};
const NamedIds kGrQc{"ca-GrQc.csv", 5242, 355,
                     "ids: sparse (auto: the edges name 5,242 ids; 20,955 of 0..26,196 are named by no edge"};
// wiki-Vote names 7,115 ids of 0..8,297 (86%): networkx's 7,115 nodes and
// 24 weakly connected components, not 8,298 vertices and 1,207 components.
const NamedIds kWikiVote{"wiki-Vote.txt", 7115, 24,
                         "ids: sparse (auto: the edges name 7,115 ids; 1,183 of 0..8,297 are named by no edge"};

void check_named_components(const NamedIds& file, const std::string& link, int nodes) {
  SCOPED_TRACE(file.file + " " + link + " P=" + std::to_string(nodes));
  std::string skip;
  ASSERT_TRUE(prerequisites(link, nodes, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  const std::string path = datasets_dir() + "/" + file.file;
  const EdgeList dense = read_graph_file(path);  // ids as written: 0..largest, some unused
  std::set<VertexId> named;
  for (const Edge& e : dense.edges) named.insert({e.src, e.dst});
  EdgeList symmetric = dense;
  add_reverse_edges(symmetric);
  const std::vector<VertexId> label = ref::cc(symmetric);
  LaunchOptions opts;
  opts.nodes = nodes;
  opts.link = link;
  opts.timeout_sec = kTimeoutSec;
  const std::string out = tmp.file("out");  // not beside the log: a run owns its --out
  opts.app_args = {"--app", "cc", "--graph", path, "--quiet", "--out", out};
  const LaunchResult r = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  // The mapped reading of every node: results under the file's ids.
  std::vector<std::string> values;
  EXPECT_FALSE(read_results(out, dense.num_vertices, &values)) << "the unnamed ids of 0..largest are no vertices";
  std::set<VertexId> components;
  size_t lines = 0;
  for (VertexId v = 0; v < dense.num_vertices; ++v) {
    if (values[v].empty()) {
      EXPECT_EQ(named.count(v), 0u) << "vertex " << v << " is named by an edge but has no result";
      continue;
    }
    ++lines;
    EXPECT_EQ(values[v], std::to_string(label[v])) << "vertex " << v;
    components.insert(label[v]);
  }
  EXPECT_EQ(lines, file.vertices);
  EXPECT_EQ(components.size(), file.components);
  EXPECT_TRUE(launcher_found_balance(r)) << describe(r);
  // One decision, said by every node, in the same words.
  EXPECT_EQ(count(r.output, file.said), static_cast<size_t>(nodes)) << describe(r);
  for (int rank = 0; rank < nodes; ++rank) {
    nlohmann::json node;
    std::string error;
    ASSERT_TRUE(read_json_file(out + "/node" + std::to_string(rank) + ".json", &node, &error)) << error;
    EXPECT_EQ(node["config"]["ids"], "sparse");
  }
}

TEST(ClusterInput, IdsAutoAtTwoAndThreeNodesOnMemif) {
  check_named_components(kGrQc, "memif", 2);
  check_named_components(kGrQc, "memif", 3);
}

TEST(ClusterInput, IdsAutoOnTap) { check_named_components(kGrQc, "tap", 2); }

TEST(ClusterInput, TheVerticesAreTheIdsTheFileNames) { check_named_components(kWikiVote, "memif", 2); }

// rome99 numbers its nodes 1..3353: the last one is a source, the results
// are in the file's ids, at P = 2.
TEST(ClusterInput, OneBasedSourceAndResultsAtTwoNodes) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  const std::string path = datasets_dir() + "/rome99.gr";
  const EdgeList g = read_graph_file(path);  // dense ids: the file's id - 1
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = kTimeoutSec;
  const std::string out = tmp.file("out");  // not beside the log: a run owns its --out
  opts.app_args = {"--app", "sssp", "--graph", path, "--source", "3353", "--quiet", "--out", out};
  const LaunchResult r = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::vector<std::string> values;
  ASSERT_TRUE(read_results(out, g.num_vertices, &values, 1)) << describe(r);
  EXPECT_TRUE(check_distances(values, ref::sssp(g, 3352))) << r.command;
  EXPECT_EQ(count(r.output, "ids: the file's own, 1..3353"), 2u) << describe(r);
}

// Without --source a traversal starts from the first edge's source (30 in
// wiki-Vote, whose first edge is 30 -> 1412), said in the banner; an id no
// edge names is refused with the nearest ids that are vertices.
TEST(ClusterInput, TheDefaultSourceIsTheFirstEdgesAndAMissingOneIsNamed) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  const std::string path = datasets_dir() + "/wiki-Vote.txt";
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = kTimeoutSec;
  const std::string out = tmp.file("out");
  opts.app_args = {"--app", "bfs", "--graph", path, "--quiet", "--out", out};
  const LaunchResult r = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(count(r.output, "source: 30 (the first edge's source"), 2u) << describe(r);
  // The depths against a plain BFS over the named vertices from 30.
  const EdgeList written = read_graph_file(path);
  const std::vector<uint64_t> depth = ref::bfs(written, 30);
  std::vector<std::string> values;
  read_results(out, written.num_vertices, &values);  // fails on the unnamed ids: checked above
  ASSERT_EQ(values.size(), written.num_vertices);
  for (VertexId v = 0; v < written.num_vertices; ++v) {
    if (values[v].empty()) continue;
    EXPECT_EQ(values[v], depth[v] == ref::kInfinity ? "inf" : std::to_string(depth[v])) << "vertex " << v;
  }
  EXPECT_EQ(values[30], "0");
  // 0 and 97 are no vertices: the file names 3 first, then 96 and 98.
  for (const auto& [source, nearest] : std::vector<std::pair<std::string, std::string>>{
           {"0", "the nearest id that is a vertex is 3"}, {"97", "the nearest ids that are vertices are 96 and 98"}}) {
    opts.app_args = {"--app", "bfs", "--graph", path, "--quiet", "--source", source};
    const LaunchResult bad = run_launcher(opts, tmp.file("bad" + source + ".log"));
    EXPECT_EQ(bad.exit_code, 1) << describe(bad);
    EXPECT_NE(bad.output.find("the source vertex " + source + " is not a vertex of the graph"), std::string::npos)
        << describe(bad);
    EXPECT_NE(bad.output.find(nearest), std::string::npos) << describe(bad);
  }
}

// A source that is a vertex but has no out-edges (61 in wiki-Vote) is
// warned about once per job, by the node that owns it.
TEST(ClusterInput, ASinkSourceIsWarnedAboutOncePerJob) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = kTimeoutSec;
  opts.app_args = {"--app", "bfs", "--graph", datasets_dir() + "/wiki-Vote.txt", "--source", "61", "--quiet"};
  const LaunchResult r = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  // Once at load, from the owner (the summary's end-of-run warning is another line).
  EXPECT_EQ(count(r.output, "wiregraph: warning: the source, vertex 61 of"), 1u) << describe(r);
}

// SNAP's soc-sign-bitcoinotc.csv.gz, read as it ships, gives the components
// of the plain CSV copy (same edges; SOURCES.md note C) and of the oracle.
TEST(ClusterInput, GzipAsSnapShipsItHasThePlainFilesAnswer) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  // The plain file's edges, its rating column not read (cc reads none).
  EdgeList g;
  FileBytes plain(datasets_dir() + "/soc-sign-bitcoinotc.csv");
  const reader::InputHeader h = reader::read_header(plain, GraphFormat::kAuto);
  const reader::SliceTotals t = reader::parse_slice<reader::SkipWeight>(
      plain, h, reader::slice_of(h, 0, 1), [&g](VertexId s, VertexId d, auto) { g.edges.push_back(Edge{s, d, 1}); });
  g.num_vertices = reader::check_totals(plain.name(), h, t);
  add_reverse_edges(g);
  const std::vector<VertexId> label = ref::cc(g);
  std::vector<std::string> answers;
  for (const char* name : {"soc-sign-bitcoinotc.csv.gz", "soc-sign-bitcoinotc.csv"}) {
    SCOPED_TRACE(name);
    LaunchOptions opts;
    opts.nodes = 2;
    opts.timeout_sec = kTimeoutSec;
    const std::string out = tmp.file(std::string(name) + ".out");
    opts.app_args = {"--app", "cc", "--graph", datasets_dir() + "/" + name, "--quiet", "--out", out};
    const LaunchResult r = run_launcher(opts, tmp.file(std::string(name) + ".log"));
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    // The 5,881 ids the edges name are the vertices (0 and 124 more of
    // 0..6,005 are not): read_results says the rest are missing.
    std::vector<std::string> values;
    EXPECT_FALSE(read_results(out, g.num_vertices, &values)) << describe(r);
    ASSERT_EQ(values.size(), g.num_vertices);
    size_t named = 0;
    for (VertexId v = 0; v < g.num_vertices; ++v) {
      if (values[v].empty()) continue;
      ++named;
      EXPECT_EQ(values[v], std::to_string(label[v])) << "vertex " << v;
    }
    EXPECT_EQ(named, 5881u);
    std::string all;
    for (const std::string& value : values) all += value + "\n";
    answers.push_back(all);
  }
  EXPECT_EQ(answers[0], answers[1]);
}

// A gzip cut short (SNAP's soc-Epinions1, 1,253,376 bytes): every node stops
// with the file and what is wrong, exit status 1, no result written.
TEST(ClusterInput, TruncatedGzipStopsEveryNode) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = kTimeoutSec;
  const std::string path = datasets_dir() + "/fixtures/malformed/soc-Epinions1-truncated.txt.gz";
  const std::string out = tmp.file("out");
  opts.app_args = {"--app", "cc", "--graph", path, "--out", out};
  const LaunchResult r = run_launcher(opts, tmp.file("cluster.log"));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.output.find(path + ": truncated gzip stream: the file ends after 1,253,376 bytes"), std::string::npos)
      << describe(r);
  EXPECT_FALSE(std::filesystem::exists(out + "/result-0.txt")) << describe(r);
  EXPECT_EQ(r.output.find("summary:"), std::string::npos) << describe(r);
}

// --vertices N at P = 2: a graph written from memory whose highest ids are
// isolated (the Python API's case) has all N vertices, each of them a rank
// (the isolated ones dangling: their rank spreads over all N), as the
// oracle computes on 0..N-1; every node says where V came from. Ids 40..49
// are named by no edge.
TEST(ClusterInput, GivenVerticesKeepTheIsolatedHighestIds) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  constexpr VertexId kNamed = 40, kVertices = 50;
  EdgeList g;
  g.num_vertices = kVertices;
  std::string text;
  for (VertexId v = 0; v < kNamed; ++v)
    for (VertexId step : {1u, 7u, 13u}) {
      if (v % 5 == 4 && step != 1) continue;  // uneven out-degrees
      const VertexId to = (v * 3 + step) % kNamed;
      g.edges.push_back(Edge{v, to, 1});
      text += std::to_string(v) + " " + std::to_string(to) + "\n";
    }
  const std::string path = tmp.file("from-memory.txt");
  std::ofstream(path) << text;
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = kTimeoutSec;
  const std::string out = tmp.file("out");
  opts.app_args = {"--app", "pagerank", "--graph", path, "--vertices", std::to_string(kVertices),
                   "--precision", "double", "--quiet", "--out", out};
  const LaunchResult r = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::vector<std::string> values;
  ASSERT_TRUE(read_results(out, kVertices, &values)) << describe(r);
  EXPECT_TRUE(check_pagerank(values, ref::pagerank(g))) << r.command;
  EXPECT_EQ(count(r.output, "ids: dense, 0..49 (--vertices 50"), 2u) << describe(r);
}

}  // namespace
}  // namespace wg::test
