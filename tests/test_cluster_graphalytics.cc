// LDBC Graphalytics graphs through real clusters (scripts/wiregraph-cluster):
// hand-written NAME.v / NAME.e / NAME.properties files, directed and
// undirected, with id gaps, negative ids, ids above 2^32, vertices that are
// only in the vertex file, fractional and zero weights. Every node maps the
// sparse ids while loading its share; the results (--output-format
// graphalytics, under the original ids) are judged by
// scripts/wiregraph-validate, Graphalytics' rules, against a reference file
// this test writes from the plain oracles of tests/reference.h run on the
// graph it renumbers itself (ids in ascending order).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "apps/registry.h"
#include "tests/cluster_harness.h"
#include "tests/reference.h"

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
  const ValueKind kind = program_entry(program).traits.value_kind;
  if (kind == ValueKind::kDistance) {  // real weights: the test's own Dijkstra
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
    else if (kind == ValueKind::kHops)
      std::fprintf(f, "%" PRId64 "\n", want.integers[v] == ref::kInfinity ? INT64_MAX : static_cast<int64_t>(want.integers[v]));
    else  // labels: dense ids, written as the original ids they stand for
      std::fprintf(f, "%" PRId64 "\n", g.vertices[want.integers[v]]);
  }
  std::fclose(f);
  return path;
}

// Runs `app` on the graph at P nodes and validates the output directory.
void run_and_validate(const TempDir& dir, const GaGraph& g, const std::string& properties, const std::string& app,
                      const std::string& algorithm, int nodes, const std::string& link, unsigned iterations) {
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
  const std::string reference = write_reference(dir, g, app, iterations);
  const std::string log = dir.file("validate.log");
  const std::string cmd = "python3 '" + source_dir() + "/scripts/wiregraph-validate' --algorithm " + algorithm + " '" +
                          out + "' '" + reference + "' > '" + log + "' 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(log);
  const std::string verdict((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(status, 0) << cmd << "\n" << verdict << "\n" << describe(r);
  EXPECT_NE(verdict.find("VALID:"), std::string::npos) << verdict;
}

constexpr unsigned kCdlpIterations = 3, kPrIterations = 7;
// The iterations write_graph gives an algorithm (keyed by Graphalytics' names, as the properties are).
unsigned iterations_of(const ProgramTraits& t) {
  return t.graphalytics.algorithm == "cdlp" ? kCdlpIterations : kPrIterations;
}

// Every program with a Graphalytics algorithm (apps/programs.h) on both
// graphs at P = 1, 2 and 3 over memif.
TEST(Graphalytics, EveryAlgorithmBothGraphsAtOneTwoThreeNodes) {
  TempDir dir;
  for (const GaGraph& g : {directed_graph(), undirected_graph()}) {
    const std::string properties = write_graph(dir, g, kCdlpIterations, kPrIterations);
    for (const ProgramEntry& p : program_entries()) {
      if (p.traits.graphalytics.algorithm.empty()) continue;
      for (int nodes : {1, 2, 3})
        run_and_validate(dir, g, properties, std::string(p.traits.name), std::string(p.traits.graphalytics.algorithm),
                         nodes, "memif", iterations_of(p.traits));
    }
  }
}

// The real kernel path on tap: two nodes on a Linux bridge.
TEST(Graphalytics, TapTwoNodes) {
  TempDir dir;
  const GaGraph g = directed_graph();
  const std::string properties = write_graph(dir, g, kCdlpIterations, kPrIterations);
  // Named on purpose: the iterating programs (PageRank's 12-byte double
  // records, CDLP's slots), SSSP's 12-byte real distances and LCC's driver.
  run_and_validate(dir, g, properties, "pagerank", "pr", 2, "tap", kPrIterations);
  run_and_validate(dir, g, properties, "cd", "cdlp", 2, "tap", kCdlpIterations);
  run_and_validate(dir, g, properties, "sssp", "sssp", 2, "tap", 0);
  run_and_validate(dir, g, properties, "lcc", "lcc", 2, "tap", 0);
}

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
