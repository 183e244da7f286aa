#include "tests/graphs_for_tests.h"

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace wg::test {

EdgeList make_graph(VertexId n, std::vector<Edge> edges) {
  EdgeList g;
  g.num_vertices = n;
  g.weighted = true;
  g.edges = std::move(edges);
  return g;
}
namespace {

// A fixed LCG, so the graph is the same on every machine and run (no
// dependence on the standard library's distributions).
class Lcg {
 public:
  uint32_t next(uint32_t bound) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((state_ >> 33) % bound);
  }

 private:
  uint64_t state_ = 0x5eed;
};

void add(EdgeList& g, VertexId src, VertexId dst, Weight w) { g.edges.push_back({src, dst, w}); }

void add_core(EdgeList& g, Lcg& rng) {
  constexpr VertexId kCore = 80;
  for (VertexId v = 0; v < kCore; ++v) {
    if (v == 13 || v == 26 || v == 39) continue;  // dangling inside the core
    for (int i = 0; i < 3; ++i) add(g, v, rng.next(kCore), rng.next(21));
  }
}

void add_special_edges(EdgeList& g) {
  // Multi-edges with different weights (one of them free), self-loops.
  add(g, 1, 2, 5);
  add(g, 1, 2, 0);
  add(g, 1, 2, 9);
  add(g, 0, 0, 3);
  add(g, 3, 3, 0);
  add(g, 2, 4, 0);
  // The long chain, ending in the dangling vertex 99.
  for (VertexId v = 79; v < 99; ++v) add(g, v, v + 1, 1 + v % 4);
  // Into the core only: same weak component as 0, unreachable from it.
  add(g, 100, 0, 2);
  add(g, 101, 5, 1);
  add(g, 101, 100, 4);
  add(g, 102, 102, 1);
  add(g, 102, 7, 6);
  // 103, 104: isolated. A directed cycle with a multi-edge.
  for (VertexId v = 105; v < 110; ++v) add(g, v, v == 109 ? 105 : v + 1, 2);
  add(g, 106, 107, 7);
  // A path, then 115 isolated, then an in-tree rooted at the dangling 117.
  for (VertexId v = 110; v < 114; ++v) add(g, v, v + 1, 3);
  add(g, 116, 117, 1);
  add(g, 118, 117, 0);
  add(g, 119, 118, 5);
}

}  // namespace

EdgeList corner_case_graph() {
  EdgeList g;
  g.num_vertices = 120;
  g.weighted = true;
  Lcg rng;
  add_core(g, rng);
  add_special_edges(g);
  return g;
}

EdgeList traversal_graph() {
  EdgeList g;
  g.num_vertices = 2600;
  g.weighted = true;
  Lcg rng;
  constexpr VertexId kLeaves = 1200, kLevelTwo = 600, kChainEnd = 2099;
  for (VertexId leaf = 1; leaf <= kLeaves; ++leaf) {
    add(g, 0, leaf, 1 + rng.next(255));
    add(g, leaf, 0, rng.next(3));  // some free
    add(g, leaf, kLeaves + 1 + leaf % kLevelTwo, rng.next(256));
  }
  for (VertexId v = kLeaves + 1; v <= kLeaves + kLevelTwo; ++v) add(g, 0, v, Weight{1} << 24);
  for (VertexId v = kLeaves + kLevelTwo; v < kChainEnd; ++v) add(g, v, v + 1, v % 2 ? 0 : 1 + rng.next(255));
  for (VertexId v = 2199; v > 2100; --v) add(g, v, v - 1, 1 + rng.next(9));
  // Small components: a pattern of 10 vertices repeated over 2200..2599:
  // +0 isolated, a pair +2 -> +1, a triangle +5 -> +4 -> +3 -> +5, an
  // out-star +9 -> +6, +7, +8.
  for (VertexId b = 2200; b < 2600; b += 10) {
    add(g, b + 2, b + 1, rng.next(5));
    add(g, b + 5, b + 4, 1);
    add(g, b + 4, b + 3, 0);
    add(g, b + 3, b + 5, 2);
    for (VertexId leaf = b + 6; leaf <= b + 8; ++leaf) add(g, b + 9, leaf, 1 + rng.next(100));
  }
  return g;
}

EdgeList local_rounds_graph() {
  EdgeList g;
  g.num_vertices = 2406;
  g.weighted = true;
  Lcg rng;
  constexpr VertexId kLinks = 400, kStep = 6;
  for (VertexId j = 0; j < kLinks; ++j) {
    const Weight w = (j + 1) % 10 == 0 ? 100000 : j % 3 == 0 ? 0 : 1 + rng.next(20);
    add(g, j * kStep, (j + 1) * kStep, w);
    if (j % 7 == 0) {
      add(g, j * kStep, j * kStep + 1, 1);
      add(g, j * kStep + 1, (j + 1) * kStep, 2);
    }
  }
  add(g, 0, 1200, 150000);
  for (VertexId j = 20; j <= kLinks; j += 20) add(g, 0, j * kStep, 10000000);
  return g;
}

void write_snap(const EdgeList& g, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot create " + path);
  out << "# wiregraph test graph\n# Nodes: " << g.num_vertices << " Edges: " << g.num_edges()
      << "\n";
  for (const Edge& e : g.edges) out << e.src << ' ' << e.dst << ' ' << e.weight << '\n';
  out.flush();
  if (!out) throw std::runtime_error("error writing " + path);
}

EdgeList undirected_corner_case_graph() {
  EdgeList g = corner_case_graph();
  add_reverse_edges(g);
  remove_self_loops(g);
  return g;
}

namespace {
void put_u32(std::ofstream& out, uint32_t v) {
  const char b[4] = {static_cast<char>(v & 0xff), static_cast<char>((v >> 8) & 0xff),
                     static_cast<char>((v >> 16) & 0xff), static_cast<char>((v >> 24) & 0xff)};
  out.write(b, 4);
}
}  // namespace

EdgeList write_graph_file(const EdgeList& g, const std::string& path, GraphFormat format) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot create " + path);
  EdgeList stored = g;
  switch (format) {
    case GraphFormat::kAuto:
    case GraphFormat::kEdgeList:
      out.close();
      write_snap(g, path);
      return stored;
    case GraphFormat::kBinary:
      for (const Edge& e : g.edges) {
        put_u32(out, e.src);
        put_u32(out, e.dst);
      }
      for (Edge& e : stored.edges) e.weight = 1;
      stored.weighted = false;
      break;
    case GraphFormat::kBinaryWeighted:
      for (const Edge& e : g.edges) {
        put_u32(out, e.src);
        put_u32(out, e.dst);
        put_u32(out, e.weight);
      }
      break;
    case GraphFormat::kMatrixMarket:
      out << "%%MatrixMarket matrix coordinate integer general\n% wiregraph test graph\n"
          << g.num_vertices << ' ' << g.num_vertices << ' ' << g.num_edges() << '\n';
      for (const Edge& e : g.edges) out << e.src + 1 << ' ' << e.dst + 1 << ' ' << e.weight << '\n';
      break;
    case GraphFormat::kDimacs:
      out << "c wiregraph test graph\np sp " << g.num_vertices << ' ' << g.num_edges() << '\n';
      for (const Edge& e : g.edges) out << "a " << e.src + 1 << ' ' << e.dst + 1 << ' ' << e.weight << '\n';
      break;
    case GraphFormat::kMetis: {
      std::vector<std::vector<std::pair<VertexId, Weight>>> adj(g.num_vertices);
      for (const Edge& e : g.edges) {
        if (e.src == e.dst) throw std::runtime_error("a METIS file cannot hold the self-loop at " + std::to_string(e.src));
        adj[e.src].emplace_back(e.dst, e.weight);
      }
      if (g.num_edges() % 2 != 0) throw std::runtime_error("a METIS file needs every edge in both directions");
      out << "% wiregraph test graph\n" << g.num_vertices << ' ' << g.num_edges() / 2 << " 1\n";
      stored.edges.clear();
      for (VertexId v = 0; v < g.num_vertices; ++v) {
        for (size_t i = 0; i < adj[v].size(); ++i) {
          out << (i ? " " : "") << adj[v][i].first + 1 << ' ' << adj[v][i].second;
          stored.edges.push_back({v, adj[v][i].first, adj[v][i].second});
        }
        out << '\n';
      }
      break;
    }
  }
  out.flush();
  if (!out) throw std::runtime_error("error writing " + path);
  return stored;
}

}  // namespace wg::test
