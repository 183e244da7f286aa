// Edge lists with sparse 64-bit ids through real clusters
// (scripts/wiregraph-cluster, --ids sparse): ids with gaps, negative ids, ids
// above 2^32, ids that appear only as a destination, binary records with the
// largest uint32. The test compacts each graph itself (a vertex is an id some
// edge names; dense id = the id's rank among them), runs the oracles of
// tests/reference.h on the compacted graph and compares every result line,
// read under its original id, with them; labels (cc, cd) must be original
// ids (the smallest of the component or community). Also: the top vertices
// under original ids, the errors of a bad id, of a source no edge names and
// of a format whose header declares its vertices.
//
// One launch per case of the matrices: one program per wire class
// (tests/wire_classes.h) in the fast default, the rest under names that start
// with Full in the full suite (`meson test -C build --suite full`).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "apps/registry.h"
#include "tests/cluster_harness.h"
#include "tests/reference.h"
#include "tests/wire_classes.h"

namespace wg::test {
namespace {

constexpr int kTimeoutSec = 120;

struct SparseEdge {
  int64_t src, dst;
  uint32_t weight;
};

struct SparseGraph {
  std::string name;
  std::vector<SparseEdge> edges;
  int64_t source;  // an original id, for bfs and sssp
};

// Gaps, both signs, ids above 2^32, a multi-edge, a self-loop, a zero weight;
// 77 and 12345678901 appear only as destinations (12345678901 is reached,
// 77 is a sink nobody reaches from the source); -3 only as a source.
SparseGraph hand_graph() {
  return {"hand",
          {{-9000000000, -7, 3},   {-7, 10, 1},           {10, -9000000000, 4},  {10, 4294967301, 2},
           {4294967301, 10, 0},    {-7, 4294967301, 7},   {4294967301, 1000, 1}, {1000, 12345678901, 5},
           {1000, 12345678901, 5}, {1000, 1000, 2},       {-3, 77, 1},           {-3, 10, 9},
           {9000000000, 9000000001, 1}, {9000000002, 9000000001, 2}, {9000000001, 9000000000, 1},
           {0, 1, 1},              {1, 0, 1},             {2, 77, 6}},
          -7};
}

// 5000 vertices, 20000 edges from a fixed generator, ids spread as
// v * 1000003 + 7 around 0 (both signs): more ids than one sample, so the
// directories' ranges come from sampling; every vertex has an out-edge.
SparseGraph scattered_graph() {
  SparseGraph g{"scattered", {}, 0};
  uint64_t x = 0x12345678;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  auto id = [](uint64_t v) { return static_cast<int64_t>(v) * 1000003 + 7 - 2500LL * 1000003; };
  const uint64_t n = 5000;
  for (uint64_t i = 0; i < 20000; ++i) {
    // A skewed source (low vertices have most out-edges), a uniform target,
    // and every tenth edge into one hub (the clear PageRank top).
    const uint64_t a = next() % n, b = i % 10 == 0 ? 4321 : next() % n;
    const uint64_t src = i < n ? i : std::min(a, next() % n);
    g.edges.push_back({id(src), id(b), static_cast<uint32_t>(next() % 20)});
  }
  g.source = id(1);
  return g;
}

// The test's own compaction: the distinct ids in ascending order.
struct Compacted {
  std::map<int64_t, VertexId> dense;
  std::vector<int64_t> original;  // by dense id
  EdgeList graph;
};

Compacted compact(const SparseGraph& g) {
  Compacted c;
  for (const SparseEdge& e : g.edges) c.dense.emplace(e.src, 0), c.dense.emplace(e.dst, 0);
  for (auto& [id, d] : c.dense) {
    d = static_cast<VertexId>(c.original.size());
    c.original.push_back(id);
  }
  c.graph.num_vertices = static_cast<VertexId>(c.original.size());
  c.graph.weighted = true;
  for (const SparseEdge& e : g.edges) c.graph.edges.push_back({c.dense.at(e.src), c.dense.at(e.dst), e.weight});
  return c;
}

std::string write_text(const TempDir& dir, const SparseGraph& g) {
  const std::string path = dir.file(g.name + ".el");
  std::ofstream f(path);
  f << "# " << g.name << ": sparse ids\n";
  for (const SparseEdge& e : g.edges) f << e.src << " " << e.dst << " " << e.weight << "\n";
  return path;
}

// Little-endian uint32 (src, dst, weight) triples; every id must fit.
std::string write_wbin(const TempDir& dir, const SparseGraph& g) {
  const std::string path = dir.file(g.name + ".wbin");
  std::ofstream f(path, std::ios::binary);
  for (const SparseEdge& e : g.edges) {
    const uint32_t rec[3] = {static_cast<uint32_t>(e.src), static_cast<uint32_t>(e.dst), e.weight};
    f.write(reinterpret_cast<const char*>(rec), sizeof rec);
  }
  return path;
}

// Every DIR/result-*.txt line "<original id> <value>", by dense id; labels
// (original ids) turned into dense ids. Fails on an unknown or repeated id,
// a missing vertex, a label that is no vertex's id.
::testing::AssertionResult read_sparse_results(const std::string& dir, const Compacted& c, bool labels,
                                               std::vector<std::string>* values) {
  values->assign(c.original.size(), std::string());
  std::vector<bool> seen(c.original.size(), false);
  unsigned files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("result-", 0) != 0 || entry.path().extension() != ".txt") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string id_text, value;
    while (in >> id_text >> value) {
      int64_t id = 0;
      const auto [p, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
      if (ec != std::errc() || p != id_text.data() + id_text.size())
        return ::testing::AssertionFailure() << name << ": '" << id_text << "' is not an id";
      const auto it = c.dense.find(id);
      if (it == c.dense.end()) return ::testing::AssertionFailure() << name << ": " << id << " is no vertex's id";
      if (seen[it->second]) return ::testing::AssertionFailure() << name << ": vertex " << id << " written twice";
      seen[it->second] = true;
      if (labels) {
        int64_t label = 0;
        const auto [q, ec2] = std::from_chars(value.data(), value.data() + value.size(), label);
        const auto at = c.dense.find(label);
        if (ec2 != std::errc() || q != value.data() + value.size() || at == c.dense.end())
          return ::testing::AssertionFailure() << name << ": vertex " << id << "'s label '" << value
                                               << "' is not an original vertex id";
        value = std::to_string(at->second);
      }
      (*values)[it->second] = value;
    }
  }
  if (files == 0) return ::testing::AssertionFailure() << "no result-*.txt in " << dir;
  for (size_t v = 0; v < seen.size(); ++v)
    if (!seen[v]) return ::testing::AssertionFailure() << "vertex " << c.original[v] << " has no result line";
  return ::testing::AssertionSuccess();
}

struct SparseRun {
  std::string app;
  int nodes = 2;
  std::string link = "memif";
  std::vector<std::string> extra;  // more node options
};

// Runs `run` on `path` with --ids sparse and compares with the oracle on the
// compacted graph. Returns the output directory.
std::string run_and_compare(const TempDir& dir, const std::string& path, const SparseGraph& g, const SparseRun& run) {
  SCOPED_TRACE(g.name + " " + run.app + " P=" + std::to_string(run.nodes) + " " + run.link);
  const ProgramTraits& traits = program_entry(run.app).traits;
  const Compacted c = compact(g);
  const std::string out = dir.file("out-" + g.name + "-" + run.app + "-" + run.link + std::to_string(run.nodes) +
                                   (run.extra.empty() ? "" : "x"));
  EXPECT_EQ(::mkdir(out.c_str(), 0755), 0) << out;
  LaunchOptions opts;
  opts.nodes = run.nodes;
  opts.link = run.link;
  opts.timeout_sec = kTimeoutSec;
  opts.app_args = {"--app", run.app, "--graph", path, "--ids", "sparse", "--quiet", "--out", out};
  if (traits.uses_source) opts.app_args.insert(opts.app_args.end(), {"--source", std::to_string(g.source)});
  opts.app_args.insert(opts.app_args.end(), run.extra.begin(), run.extra.end());
  const LaunchResult r = run_launcher(opts, dir.file("cluster.log"));
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  if (r.exit_code != 0) return out;
  const ref::Expected want = ref::oracle(run.app, c.graph, c.dense.at(g.source), traits.default_iterations);
  const bool labels = traits.value_kind == ValueKind::kLabel;
  std::vector<std::string> values;
  const ::testing::AssertionResult read = read_sparse_results(out, c, labels, &values);
  EXPECT_TRUE(read) << describe(r);
  if (read) {
    EXPECT_TRUE(check_expected(values, want)) << r.command;
  }
  EXPECT_TRUE(launcher_found_balance(r)) << describe(r);
  // V is the number of distinct ids, not the largest id + 1.
  EXPECT_NE(r.output.find("graph: " + std::to_string(c.original.size()) + " vertices"), std::string::npos)
      << describe(r);
  return out;
}

bool skip_without(const std::string& link, int nodes) {
  std::string skip;
  EXPECT_TRUE(prerequisites(link, nodes, &skip));
  return !skip.empty();
}

// A program at P nodes over memif: one case of the matrices below.
struct SparseCase {
  ProgramRun program;
  int nodes;
  bool operator==(const SparseCase&) const = default;
};

void PrintTo(const SparseCase& c, std::ostream* os) { *os << c.program.label << " P=" << c.nodes; }

std::string sparse_case_name(const ::testing::TestParamInfo<SparseCase>& info) {
  return info.param.program.label + "_P" + std::to_string(info.param.nodes);
}

void run_case(const TempDir& dir, const std::string& path, const SparseGraph& g, const SparseCase& c) {
  if (skip_without("memif", c.nodes)) GTEST_SKIP();
  run_and_compare(dir, path, g, SparseRun{std::string(c.program.app), c.nodes, "memif", c.program.args});
}

std::vector<SparseCase> every_program_at(std::initializer_list<int> sizes) {
  std::vector<SparseCase> cases;
  for (const ProgramEntry& p : program_entries())
    // Per-edge results (jaccard) have no per-vertex line to compare: the cluster
    // matrix's per-edge cells and tests/test_jaccard.py check them.
    if (!p.per_edge_results)
      for (int nodes : sizes) cases.push_back({plain_run(p.traits.name), nodes});
  return cases;
}

// Every program at P = 1, 2 and 3 over memif, on the hand-written graph.
class SparseIdsHandGraph : public ::testing::TestWithParam<SparseCase> {};

TEST_P(SparseIdsHandGraph, MatchesTheOracle) {
  TempDir dir;
  const SparseGraph g = hand_graph();
  run_case(dir, write_text(dir, g), g, GetParam());
}

// Fast: every class, at P = 2 and 3.
const std::vector<SparseCase> kFastHand = {{representative(WireClass::kScalar4, 0), 3},
                                           {representative(WireClass::kScalar8, 0), 2},
                                           {representative(WireClass::kSlot, 1), 3},
                                           {representative(WireClass::kOwnDriver, 0), 2}};
INSTANTIATE_TEST_SUITE_P(Memif, SparseIdsHandGraph, ::testing::ValuesIn(kFastHand), sparse_case_name);
INSTANTIATE_TEST_SUITE_P(FullMemif, SparseIdsHandGraph,
                         ::testing::ValuesIn(without(every_program_at({1, 2, 3}), kFastHand)), sparse_case_name);

// More distinct ids than a worker's sample: the directories' ranges come from
// sampling. Every program at P = 3, and the order-sensitive ones at P = 2.
class SparseIdsSampledDirectories : public ::testing::TestWithParam<SparseCase> {};

TEST_P(SparseIdsSampledDirectories, GiveTheSameNumberingAtEveryP) {
  TempDir dir;
  const SparseGraph g = scattered_graph();
  ASSERT_GT(compact(g).original.size(), 4096u);
  run_case(dir, write_text(dir, g), g, GetParam());
}

std::vector<SparseCase> sampled_cases() {
  std::vector<SparseCase> cases = every_program_at({3});
  for (const char* app : {"cd", "cc", "pagerank"}) cases.push_back({plain_run(app), 2});
  return cases;
}
// Fast: an order-sensitive program at each P.
const std::vector<SparseCase> kFastSampled = {{plain_run("cd"), 2}, {plain_run("cc"), 3}};
INSTANTIATE_TEST_SUITE_P(Memif, SparseIdsSampledDirectories, ::testing::ValuesIn(kFastSampled), sparse_case_name);
INSTANTIATE_TEST_SUITE_P(FullMemif, SparseIdsSampledDirectories,
                         ::testing::ValuesIn(without(sampled_cases(), kFastSampled)), sparse_case_name);

// Binary records with gaps, including the largest uint32 (which the dense
// reader reserves): a weighted file at P = 2 and P = 3.
class SparseIdsBinaryRecords : public ::testing::TestWithParam<SparseCase> {};

TEST_P(SparseIdsBinaryRecords, WithGapsAndTheLargestUint32) {
  TempDir dir;
  const SparseGraph g{"bin",
                      {{4294967295, 7, 2}, {7, 100000, 1}, {100000, 4294967295, 3}, {3000000000, 7, 0},
                       {100000, 3000000000, 5}, {12, 13, 1}},
                      7};
  run_case(dir, write_wbin(dir, g), g, GetParam());
}

std::vector<SparseCase> binary_cases() {
  std::vector<SparseCase> cases;
  for (const char* app : {"sssp", "cc", "pagerank", "cd"})
    for (int nodes : {2, 3}) cases.push_back({plain_run(app), nodes});
  return cases;
}
const std::vector<SparseCase> kFastBinary = {{plain_run("sssp"), 3}, {plain_run("cd"), 2}};
INSTANTIATE_TEST_SUITE_P(Memif, SparseIdsBinaryRecords, ::testing::ValuesIn(kFastBinary), sparse_case_name);
INSTANTIATE_TEST_SUITE_P(FullMemif, SparseIdsBinaryRecords, ::testing::ValuesIn(without(binary_cases(), kFastBinary)),
                         sparse_case_name);

// The kernel path: two nodes on tap interfaces plugged into a Linux bridge.
TEST(SparseIds, TapTwoNodes) {
  std::string skip;
  ASSERT_TRUE(prerequisites("tap", 2, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir dir;
  const SparseGraph g = hand_graph();
  const std::string path = write_text(dir, g);
  for (const char* app : {"pagerank", "cd", "bfs"}) run_and_compare(dir, path, g, SparseRun{app, 2, "tap", {}});
}

// NUMA domains renumber each node's slots: the original ids follow them.
TEST(SparseIds, TwoDomainsPerNode) {
  TempDir dir;
  const SparseGraph g = scattered_graph();
  const std::string path = write_text(dir, g);
  for (const char* app : {"cc", "sssp"}) run_and_compare(dir, path, g, SparseRun{app, 2, "memif", {"--domains", "2"}});
}

// --output-format graphalytics writes the same original ids (labels too), and
// the top vertices (banner and summary.json) are original ids.
TEST(SparseIds, GraphalyticsOutputAndTopVerticesUnderOriginalIds) {
  TempDir dir;
  const SparseGraph g = scattered_graph();
  const std::string path = write_text(dir, g);
  run_and_compare(dir, path, g, SparseRun{"cc", 2, "memif", {"--output-format", "graphalytics"}});
  run_and_compare(dir, path, g, SparseRun{"cd", 3, "memif", {"--output-format", "graphalytics"}});
  const std::string out = run_and_compare(dir, path, g, SparseRun{"pagerank", 3, "memif", {}});
  const Compacted c = compact(g);
  const std::vector<double> ranks = ref::pagerank(c.graph);
  std::vector<VertexId> order(ranks.size());
  for (VertexId v = 0; v < order.size(); ++v) order[v] = v;
  std::sort(order.begin(), order.end(), [&](VertexId a, VertexId b) { return ranks[a] > ranks[b]; });
  ASSERT_GT(ranks[order[0]], ranks[order[1]] * (1 + 1e-3)) << "the graph must have one clear top vertex";
  nlohmann::json summary;
  std::string error;
  ASSERT_TRUE(read_json_file(out + "/summary.json", &summary, &error)) << error;
  ASSERT_FALSE(summary["top"].empty());
  EXPECT_EQ(summary["top"][0]["vertex"].get<int64_t>(), c.original[order[0]]);
}

// A bad id: every node stops; the message names the file, the line (its
// number in the whole file, in the second node's part), the field and the value.
TEST(SparseIds, BadIdNamesFileLineFieldAndValue) {
  TempDir dir;
  const std::string path = dir.file("bad.el");
  {
    std::ofstream f(path);
    for (int i = 0; i < 400; ++i) f << -i * 1000003 << " " << i * 7 << "\n";
    f << "5 4x2\n";
    for (int i = 0; i < 10; ++i) f << i << " " << i + 1 << "\n";
  }
  const LaunchResult r = run_refused(dir, 2, {"--app", "cc", "--graph", path, "--ids", "sparse"});
  EXPECT_NE(r.output.find(path + ":401: field 2 (dst): '4x2' is not a vertex id (a signed 64-bit integer)"),
            std::string::npos)
      << describe(r);
}

// --source must be a vertex: an id some edge names.
TEST(SparseIds, SourceThatNoEdgeNames) {
  TempDir dir;
  const std::string path = write_text(dir, hand_graph());
  const LaunchResult r = run_refused(dir, 2, {"--app", "bfs", "--graph", path, "--ids", "sparse", "--source", "5"});
  EXPECT_NE(r.output.find("the source vertex 5 is not a vertex of the graph: no edge names it"), std::string::npos)
      << describe(r);
}

// Formats whose header declares n vertices are dense already: a command-line
// error, so the launcher's option check refuses it (exit 2) before any node starts.
TEST(SparseIds, RefusedForAFormatThatDeclaresItsVertices) {
  TempDir dir;
  const std::string path = dir.file("g.mtx");
  std::ofstream(path) << "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n";
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = 60;
  opts.app_args = {"--app", "cc", "--graph", path, "--ids", "sparse"};
  const LaunchResult r = run_launcher(opts, dir.file("cluster.log"));
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_NE(r.output.find("--ids sparse: " + path + ": a Matrix Market file declares"), std::string::npos)
      << describe(r);
  EXPECT_EQ(r.output.find("[node 0]"), std::string::npos) << "a node started:\n" << describe(r);
}

}  // namespace
}  // namespace wg::test
