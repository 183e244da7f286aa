#include "compute/graph/edge_list.h"

#include <algorithm>
#include <vector>

namespace wg {

void add_reverse_edges(EdgeList& g) {
  const size_t n = g.edges.size();
  g.edges.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const Edge e = g.edges[i];
    if (e.src != e.dst) g.edges.push_back(Edge{e.dst, e.src, e.weight});
  }
}

void remove_self_loops(EdgeList& g) {
  std::erase_if(g.edges, [](const Edge& e) { return e.src == e.dst; });
}

void remove_duplicate_edges(EdgeList& g) {
  std::sort(g.edges.begin(), g.edges.end(), [](const Edge& a, const Edge& b) {
    return a.src != b.src ? a.src < b.src : a.dst != b.dst ? a.dst < b.dst : a.weight < b.weight;
  });
  const auto last = std::unique(g.edges.begin(), g.edges.end(),
                                [](const Edge& a, const Edge& b) { return a.src == b.src && a.dst == b.dst; });
  g.edges.erase(last, g.edges.end());
}

uint64_t edge_hash(const Edge& e) { return splitmix64((uint64_t{e.src} << 32 | e.dst) ^ splitmix64(e.weight)); }

uint64_t fingerprint_of(VertexId num_vertices, EdgeCount num_edges, uint64_t edge_hash_sum) {
  return (splitmix64(num_vertices) ^ splitmix64(num_edges + 0x51ed)) + edge_hash_sum;
}

uint64_t fingerprint(const EdgeList& g) {
  // Sum of per-edge hashes: independent of edge order, so nodes that read the
  // same graph in a different order (or generate it in parallel) still agree.
  uint64_t sum = 0;
  for (const Edge& e : g.edges) sum += edge_hash(e);
  return fingerprint_of(g.num_vertices, g.edges.size(), sum);
}

}  // namespace wg
