#include "compute/graph/edge_list.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace wg {

void add_reverse_edges(EdgeList& g) {
  const size_t n = g.edges.size();
  const bool real = !g.real_weights.empty();
  g.edges.reserve(2 * n);
  if (real) g.real_weights.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const Edge e = g.edges[i];
    if (e.src == e.dst) continue;
    g.edges.push_back(Edge{e.dst, e.src, e.weight});
    if (real) g.real_weights.push_back(g.real_weights[i]);
  }
}

namespace {

// Keeps the edges (and their real weights) whose index `keep` accepts, in order.
template <class Keep>
void keep_edges(EdgeList& g, Keep&& keep) {
  const bool real = !g.real_weights.empty();
  size_t kept = 0;
  for (size_t i = 0; i < g.edges.size(); ++i) {
    if (!keep(i)) continue;
    g.edges[kept] = g.edges[i];
    if (real) g.real_weights[kept] = g.real_weights[i];
    ++kept;
  }
  g.edges.resize(kept);
  if (real) g.real_weights.resize(kept);
}

}  // namespace

void remove_self_loops(EdgeList& g) {
  keep_edges(g, [&g](size_t i) { return g.edges[i].src != g.edges[i].dst; });
}

void remove_duplicate_edges(EdgeList& g) {
  const bool real = !g.real_weights.empty();
  auto weight = [&g, real](size_t i) { return real ? g.real_weights[i] : static_cast<double>(g.edges[i].weight); };
  std::vector<size_t> order(g.edges.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Edge& x = g.edges[a];
    const Edge& y = g.edges[b];
    return x.src != y.src ? x.src < y.src : x.dst != y.dst ? x.dst < y.dst : weight(a) < weight(b);
  });
  EdgeList sorted;
  sorted.num_vertices = g.num_vertices;
  sorted.weighted = g.weighted;
  for (size_t i : order) {
    const Edge& e = g.edges[i];
    if (!sorted.edges.empty() && sorted.edges.back().src == e.src && sorted.edges.back().dst == e.dst) continue;
    sorted.edges.push_back(e);
    if (real) sorted.real_weights.push_back(g.real_weights[i]);
  }
  g = std::move(sorted);
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
