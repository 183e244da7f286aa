// LDBC Graphalytics graphs through real clusters (scripts/wiregraph-cluster):
// hand-written NAME.v / NAME.e / NAME.properties files, directed and
// undirected, with id gaps, negative ids, ids above 2^32, vertices that are
// only in the vertex file, fractional and zero weights. Every node maps the
// sparse ids while loading its share; the results (--output-format
// graphalytics, under the original ids) are judged by
// scripts/wiregraph-validate, Graphalytics' rules, against a reference file
// this test writes from the plain oracles of tests/reference.h run on the
// graph it renumbers itself (ids in ascending order).
//
// One launch per test case: the fast default runs one algorithm per wire
// class (tests/wire_classes.h; Graphalytics runs pr and sssp in double
// precision), the full suite (cases named Full*, `meson test -C build --suite
// full`) every algorithm on both graphs at P = 1, 2 and 3.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tests/cluster_harness.h"
#include "tests/reference.h"
#include "tests/wire_classes.h"

namespace wg::test {
namespace {

constexpr int kTimeoutSec = 120;

struct GaEdge {
  int64_t src, dst;
  const char* weight;  // as written: fractional, zero, integral
};

struct GaGraph {
  std::string name;
  bool directed;
  std::vector<int64_t> vertices;  // ascending, as the .v file lists them
  std::vector<GaEdge> edges;
  int64_t source;
};

// Directed: a cycle through a negative id and ids above 2^32, a vertex only in
// the .v file (4294967302), a small component, zero and fractional weights.
GaGraph directed_graph() {
  return {"dir",
          true,
          {-9000000000, -7, 3, 10, 4294967301, 4294967302, 9000000000, 9000000001, 9000000002},
          {{-7, 3, "0.5"},
           {3, 10, "1.25"},
           {10, -7, "0"},
           {10, 4294967301, "2.5"},
           {4294967301, 3, "0"},
           {-7, 4294967301, "4"},
           {3, -9000000000, "0.75"},
           {-9000000000, 10, "3"},
           {9000000000, 9000000001, "1"},
           {9000000002, 9000000001, "1"}},
          -7};
}

// Undirected: each edge once, the smaller id first; two triangles sharing a
// vertex, a path, an isolated vertex (only in .v).
GaGraph undirected_graph() {
  return {"undir",
          false,
          {-40, -3, 2, 5, 6, 4294967296, 4294967297, 8589934592, 8589934593},
          {{-40, -3, "0.1"},
           {-40, 2, "0"},
           {-3, 2, "2.5"},
           {2, 5, "1"},
           {2, 6, "0.25"},
           {5, 6, "3"},
           {6, 4294967296, "1.5"},
           {4294967296, 4294967297, "0"}},
          2};
}

// The graph's files in `dir`; returns NAME.properties.
std::string write_graph(const TempDir& dir, const GaGraph& g, unsigned cdlp_iterations, unsigned pr_iterations) {
  const std::string base = dir.file(g.name);
  std::ofstream v(base + ".v"), e(base + ".e"), p(base + ".properties");
  for (int64_t id : g.vertices) v << id << "\n";
  for (const GaEdge& x : g.edges) e << x.src << " " << x.dst << " " << x.weight << "\n";
  const std::string k = "graph." + g.name + ".";
  p << "# a test graph\n"
    << k << "vertex-file = " << g.name << ".v\n"
    << k << "edge-file = " << g.name << ".e\n"
    << k << "directed = " << (g.directed ? "true" : "false") << "\n"
    << k << "edge-properties.names = weight\n"
    << k << "edge-properties.types = real\n"
    << k << "bfs.source-vertex = " << g.source << "\n"
    << k << "sssp.weight-property = weight\n"
    << k << "sssp.source-vertex = " << g.source << "\n"
    << k << "cdlp.max-iterations = " << cdlp_iterations << "\n"
    << k << "pr.damping-factor = 0.85\n"
    << k << "pr.num-iterations = " << pr_iterations << "\n";
  return base + ".properties";
}

// The graph renumbered by rank of id (the test's own mapping), directed as
// the programs see it: an undirected graph's edges both ways.
EdgeList dense_graph(const GaGraph& g) {
  std::map<int64_t, VertexId> dense;
  for (int64_t id : g.vertices) dense.emplace(id, static_cast<VertexId>(dense.size()));
  EdgeList el;
  el.num_vertices = static_cast<VertexId>(g.vertices.size());
  for (const GaEdge& e : g.edges) el.edges.push_back({dense.at(e.src), dense.at(e.dst), 1});
  if (!g.directed) add_reverse_edges(el);
  return el;
}

// Dijkstra with the real weights as written (both ways for an undirected
// graph): the distances by rank of id, infinity when unreachable.
std::vector<double> real_distances(const GaGraph& g, VertexId source) {
  const auto rank = [&](int64_t id) {
    return static_cast<size_t>(std::lower_bound(g.vertices.begin(), g.vertices.end(), id) - g.vertices.begin());
  };
  std::vector<std::vector<std::pair<size_t, double>>> out(g.vertices.size());
  for (const GaEdge& e : g.edges) {
    const double w = std::strtod(e.weight, nullptr);
    out[rank(e.src)].emplace_back(rank(e.dst), w);
    if (!g.directed) out[rank(e.dst)].emplace_back(rank(e.src), w);
  }
  std::vector<double> dist(g.vertices.size(), INFINITY);
  std::vector<bool> done(g.vertices.size(), false);
  dist[source] = 0;
  for (;;) {  // O(V^2): a few vertices
    size_t u = g.vertices.size();
    for (size_t v = 0; v < g.vertices.size(); ++v)
      if (!done[v] && dist[v] < INFINITY && (u == g.vertices.size() || dist[v] < dist[u])) u = v;
    if (u == g.vertices.size()) break;
    done[u] = true;
    for (const auto& [v, w] : out[u]) dist[v] = std::min(dist[v], dist[u] + w);
  }
  return dist;
}

// The reference output of `program` in Graphalytics' format (original ids).
std::string write_reference(const TempDir& dir, const GaGraph& g, const std::string& program, unsigned iterations) {
  const EdgeList el = dense_graph(g);
  const auto at = std::lower_bound(g.vertices.begin(), g.vertices.end(), g.source);
  const auto source = static_cast<VertexId>(at - g.vertices.begin());
  const std::string path = dir.file(g.name + "-" + program + ".ref");
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (program == "sssp") {
    const std::vector<double> dist = real_distances(g, source);
    for (size_t v = 0; v < g.vertices.size(); ++v) {
      if (std::isinf(dist[v]))
        std::fprintf(f, "%" PRId64 " infinity\n", g.vertices[v]);
      else
        std::fprintf(f, "%" PRId64 " %.17g\n", g.vertices[v], dist[v]);
    }
    std::fclose(f);
    return path;
  }
  const ref::Expected want = ref::oracle(program, el, source, iterations);
  for (size_t v = 0; v < g.vertices.size(); ++v) {
    std::fprintf(f, "%" PRId64 " ", g.vertices[v]);
    if (want.kind == ref::Expected::Kind::kReal)
      std::fprintf(f, "%.15e\n", want.reals[v]);
    else if (program == "bfs")
      std::fprintf(f, "%" PRId64 "\n", want.integers[v] == ref::kInfinity ? INT64_MAX : static_cast<int64_t>(want.integers[v]));
    else  // labels: dense ids, written as the original ids they stand for
      std::fprintf(f, "%" PRId64 "\n", g.vertices[want.integers[v]]);
  }
  std::fclose(f);
  return path;
}

// Runs `app` on the graph at P nodes and validates the output directory.
// `given`: a reference file to validate against instead of the oracle's.
void run_and_validate(const TempDir& dir, const GaGraph& g, const std::string& properties, const std::string& app,
                      const std::string& algorithm, int nodes, const std::string& link, unsigned iterations,
                      const std::string& given = "") {
  SCOPED_TRACE(g.name + " " + app + " P=" + std::to_string(nodes) + " " + link);
  std::string skip;
  ASSERT_TRUE(prerequisites(link, nodes, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  const std::string out = dir.file("out-" + g.name + "-" + app + "-" + link + std::to_string(nodes));
  ASSERT_EQ(::mkdir(out.c_str(), 0755), 0) << out;
  LaunchOptions opts;
  opts.nodes = nodes;
  opts.link = link;
  opts.timeout_sec = kTimeoutSec;
  opts.app_args = {"--app", app, "--graph", properties, "--quiet", "--out", out};
  const LaunchResult r = run_launcher(opts, dir.file("cluster.log"));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string reference = given.empty() ? write_reference(dir, g, app, iterations) : given;
  const std::string log = dir.file("validate.log");
  const std::string cmd = "python3 '" + source_dir() + "/scripts/wiregraph-validate' --algorithm " + algorithm + " '" +
                          out + "' '" + reference + "' > '" + log + "' 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(log);
  const std::string verdict((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(status, 0) << cmd << "\n" << verdict << "\n" << describe(r);
  EXPECT_NE(verdict.find("VALID:"), std::string::npos) << verdict;
}

struct AlgorithmCase {
  const char* app;        // wiregraph's name
  const char* algorithm;  // Graphalytics' name
};
const AlgorithmCase kAlgorithms[] = {
    {"bfs", "bfs"}, {"pagerank", "pr"}, {"cc", "wcc"}, {"cd", "cdlp"}, {"sssp", "sssp"}, {"lcc", "lcc"}};
constexpr unsigned kCdlpIterations = 3, kPrIterations = 7;

// One run: an algorithm on one of the graphs at P nodes over a link.
struct GaCase {
  AlgorithmCase algorithm;
  bool directed;
  int nodes;
  std::string link;
  bool operator==(const GaCase& o) const {
    return std::string_view(algorithm.app) == o.algorithm.app && directed == o.directed && nodes == o.nodes &&
           link == o.link;
  }
};

void PrintTo(const GaCase& c, std::ostream* os) {
  *os << c.algorithm.algorithm << (c.directed ? " directed" : " undirected") << " P=" << c.nodes << " " << c.link;
}

std::string ga_case_name(const ::testing::TestParamInfo<GaCase>& info) {
  const GaCase& c = info.param;
  return c.link + "_P" + std::to_string(c.nodes) + "_" + c.algorithm.algorithm + (c.directed ? "_dir" : "_undir");
}

AlgorithmCase algorithm(std::string_view app) {
  for (const AlgorithmCase& a : kAlgorithms)
    if (app == a.app) return a;
  throw std::invalid_argument("no Graphalytics algorithm for " + std::string(app));
}

// Every algorithm on both graphs at P = 1, 2 and 3 over memif; four of them
// at P = 2 on tap, on the directed graph.
std::vector<GaCase> every_case() {
  std::vector<GaCase> cases;
  for (bool directed : {true, false})
    for (const AlgorithmCase& a : kAlgorithms)
      for (int nodes : {1, 2, 3}) cases.push_back({a, directed, nodes, "memif"});
  for (const char* app : {"pagerank", "cd", "sssp", "lcc"}) cases.push_back({algorithm(app), true, 2, "tap"});
  return cases;
}

// The fast default's share: one algorithm per wire class, on both graphs,
// P = 2 and 3, memif and tap: bfs (4-byte, scalar), pr and sssp (8-byte),
// cdlp (slots), lcc (its driver).
std::vector<GaCase> fast_cases() {
  return {{algorithm("bfs"), true, 3, "memif"},   {algorithm("pagerank"), false, 2, "memif"},
          {algorithm("sssp"), true, 3, "memif"},  {algorithm("cd"), false, 3, "memif"},
          {algorithm("lcc"), true, 2, "memif"},   {algorithm("pagerank"), true, 2, "tap"},
          {algorithm("cd"), true, 2, "tap"}};
}

class GraphalyticsTest : public ::testing::TestWithParam<GaCase> {};

TEST_P(GraphalyticsTest, ValidAgainstTheOracle) {
  const GaCase& c = GetParam();
  TempDir dir;
  const GaGraph g = c.directed ? directed_graph() : undirected_graph();
  const std::string properties = write_graph(dir, g, kCdlpIterations, kPrIterations);
  const std::string app = c.algorithm.app;
  const unsigned iterations = app == "cd" ? kCdlpIterations : kPrIterations;  // read by pr's and cdlp's oracles
  run_and_validate(dir, g, properties, app, c.algorithm.algorithm, c.nodes, c.link, iterations);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, GraphalyticsTest, ::testing::ValuesIn(fast_cases()), ga_case_name);
INSTANTIATE_TEST_SUITE_P(FullAlgorithms, GraphalyticsTest, ::testing::ValuesIn(without(every_case(), fast_cases())),
                         ga_case_name);

// LDBC Graphalytics' own example graphs and their LCC reference outputs, as
// published in github.com/ldbc/ldbc_graphalytics,
// graphalytics-validation/src/main/resources/validation-graphs/example/
// (example-directed.e, example-directed-LCC, example-undirected.e,
// example-undirected-LCC): values computed by Graphalytics, not by anything
// of wiregraph's.
struct LdbcExample {
  GaGraph graph;
  std::vector<const char*> lcc;  // the reference output's lines, as published
};

LdbcExample ldbc_example(bool directed) {
  if (directed)
    return {{"example-directed",
             true,
             {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
             {{1, 3, "0.5"}, {1, 5, "0.3"}, {2, 4, "0.1"}, {2, 5, "0.3"}, {2, 10, "0.12"}, {3, 1, "0.53"},
              {3, 5, "0.62"}, {3, 8, "0.21"}, {3, 10, "0.52"}, {5, 3, "0.69"}, {5, 4, "0.53"}, {5, 8, "0.1"},
              {6, 3, "0.23"}, {6, 4, "0.39"}, {7, 4, "0.83"}, {8, 1, "0.39"}, {9, 4, "0.69"}},
             1},
            {"1 6.666666666666666e-01", "2 1.666666666666667e-01", "3 1.500000000000000e-01",
             "4 5.000000000000000e-02", "5 2.500000000000000e-01", "6 0.000000000000000e+00",
             "7 0.000000000000000e+00", "8 8.333333333333334e-01", "9 0.000000000000000e+00",
             "10 0.000000000000000e+00"}};
  return {{"example-undirected",
           false,
           {2, 3, 4, 5, 6, 7, 8, 9, 10},
           {{2, 3, "0.9"}, {2, 4, "0.69"}, {3, 4, "0.13"}, {3, 5, "0.5"}, {3, 8, "0.32"}, {5, 6, "0.63"},
            {5, 8, "0.12"}, {6, 7, "0.53"}, {6, 8, "0.64"}, {6, 9, "0.23"}, {6, 10, "0.63"}, {7, 9, "0.36"}},
           2},
          {"2 1.000000000000000e+00", "3 3.333333333333333e-01", "4 1.000000000000000e+00",
           "5 6.666666666666666e-01", "6 2.000000000000000e-01", "7 1.000000000000000e+00",
           "8 6.666666666666666e-01", "9 1.000000000000000e+00", "10 0.000000000000000e+00"}};
}

struct LdbcCase {
  bool directed;
  int nodes;
  std::string link;
};

class LdbcExampleLcc : public ::testing::TestWithParam<LdbcCase> {};

TEST_P(LdbcExampleLcc, ValidAgainstGraphalyticsReferenceOutput) {
  const LdbcCase& c = GetParam();
  TempDir dir;
  const LdbcExample ex = ldbc_example(c.directed);
  const std::string properties = write_graph(dir, ex.graph, kCdlpIterations, kPrIterations);
  const std::string reference = dir.file(ex.graph.name + "-LCC");
  {
    std::ofstream f(reference);
    for (const char* line : ex.lcc) f << line << "\n";
  }
  run_and_validate(dir, ex.graph, properties, "lcc", "lcc", c.nodes, c.link, 0, reference);
}

std::string ldbc_case_name(const ::testing::TestParamInfo<LdbcCase>& info) {
  const LdbcCase& c = info.param;
  return c.link + "_P" + std::to_string(c.nodes) + (c.directed ? "_dir" : "_undir");
}

INSTANTIATE_TEST_SUITE_P(Ldbc, LdbcExampleLcc,
                         ::testing::Values(LdbcCase{true, 2, "memif"}, LdbcCase{false, 3, "tap"}), ldbc_case_name);
INSTANTIATE_TEST_SUITE_P(FullLdbc, LdbcExampleLcc,
                         ::testing::Values(LdbcCase{true, 1, "memif"}, LdbcCase{false, 1, "memif"},
                                           LdbcCase{true, 3, "tap"}, LdbcCase{false, 2, "memif"}),
                         ldbc_case_name);

// An edge naming a vertex that is not in the .v file: every node stops, the
// message names the edge file, the line and the id.
TEST(Graphalytics, EdgeToAVertexNotInTheVertexFile) {
  TempDir dir;
  std::ofstream(dir.file("bad.v")) << "1\n5\n9\n";
  std::ofstream(dir.file("bad.e")) << "1 5\n5 9\n9 77\n1 9\n";
  const LaunchResult r = run_refused(dir, 2, {"--app", "bfs", "--graph", dir.file("bad.e"), "--source", "1"});
  EXPECT_NE(r.output.find(dir.file("bad.e") + ":3: field 2 (dst): vertex 77 is not in " + dir.file("bad.v")),
            std::string::npos)
      << describe(r);
}

// Vertex ids out of order in the .v file (Graphalytics requires ascending):
// refused, naming the file and the line.
TEST(Graphalytics, VertexFileOutOfOrder) {
  TempDir dir;
  std::ofstream(dir.file("unsorted.v")) << "1\n9\n5\n";
  std::ofstream(dir.file("unsorted.e")) << "1 5\n";
  const LaunchResult r = run_refused(dir, 1, {"--app", "cc", "--graph", dir.file("unsorted.v")});
  EXPECT_NE(r.output.find(dir.file("unsorted.v") + ":3: vertex id 5 comes after 9"), std::string::npos) << describe(r);
}

}  // namespace
}  // namespace wg::test
