#include "tests/reference.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

namespace wg::ref {
namespace {

// Out-neighbour lists with weights. A vector of vectors is slow but plainly
// right, which is all an oracle needs to be.
struct Arc {
  VertexId dst;
  Weight weight;
};
using Adjacency = std::vector<std::vector<Arc>>;

// The oracles index arrays by endpoint: refuse a malformed list up front
// rather than read out of bounds.
void check_edges(const EdgeList& g) {
  for (const Edge& e : g.edges)
    if (e.src >= g.num_vertices || e.dst >= g.num_vertices)
      throw std::invalid_argument("edge " + std::to_string(e.src) + "->" +
                                  std::to_string(e.dst) + " has an endpoint >= V = " +
                                  std::to_string(g.num_vertices));
}

Adjacency out_arcs(const EdgeList& g) {
  check_edges(g);
  Adjacency adj(g.num_vertices);
  for (const Edge& e : g.edges) adj[e.src].push_back(Arc{e.dst, e.weight});
  return adj;
}

void check_source(const EdgeList& g, VertexId source) {
  if (source >= g.num_vertices)
    throw std::invalid_argument("source " + std::to_string(source) +
                                " is not a vertex of a graph with " +
                                std::to_string(g.num_vertices) + " vertices");
}

// Union-find whose root is always the smallest id of its set, so find(v) is
// directly the component label the engine must produce.
class MinRootUnionFind {
 public:
  explicit MinRootUnionFind(VertexId n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), VertexId{0});
  }

  VertexId find(VertexId v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];  // path halving
      v = parent_[v];
    }
    return v;
  }

  void unite(VertexId a, VertexId b) {
    const VertexId ra = find(a);
    const VertexId rb = find(b);
    if (ra < rb) parent_[rb] = ra;
    if (rb < ra) parent_[ra] = rb;
  }

 private:
  std::vector<VertexId> parent_;
};

}  // namespace

std::vector<double> pagerank(const EdgeList& g, unsigned iterations, double damping) {
  check_edges(g);
  const VertexId n = g.num_vertices;
  if (n == 0) return {};
  const double inv_n = 1.0 / n;

  std::vector<uint64_t> outdeg(n, 0);
  for (const Edge& e : g.edges) ++outdeg[e.src];

  std::vector<double> rank(n, inv_n);
  std::vector<double> incoming(n);
  for (unsigned it = 0; it < iterations; ++it) {
    double dangling = 0.0;
    for (VertexId u = 0; u < n; ++u)
      if (outdeg[u] == 0) dangling += rank[u];

    std::fill(incoming.begin(), incoming.end(), 0.0);
    for (const Edge& e : g.edges) incoming[e.dst] += rank[e.src] / outdeg[e.src];

    for (VertexId v = 0; v < n; ++v)
      rank[v] = (1.0 - damping) * inv_n + damping * (incoming[v] + dangling * inv_n);
  }
  return rank;
}

std::vector<uint64_t> sssp(const EdgeList& g, VertexId source) {
  check_source(g, source);
  const Adjacency adj = out_arcs(g);
  std::vector<uint64_t> dist(g.num_vertices, kInfinity);

  // Lazy-deletion Dijkstra: stale heap entries are skipped when popped.
  using Entry = std::pair<uint64_t, VertexId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  dist[source] = 0;
  heap.emplace(0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (const Arc& a : adj[u]) {
      const uint64_t candidate = d + a.weight;  // < 2^32 * 2^32: no overflow
      if (candidate < dist[a.dst]) {
        dist[a.dst] = candidate;
        heap.emplace(candidate, a.dst);
      }
    }
  }
  return dist;
}

std::vector<uint64_t> bfs(const EdgeList& g, VertexId source) {
  check_source(g, source);
  const Adjacency adj = out_arcs(g);
  std::vector<uint64_t> hops(g.num_vertices, kInfinity);

  std::queue<VertexId> frontier;
  hops[source] = 0;
  frontier.push(source);
  while (!frontier.empty()) {
    const VertexId u = frontier.front();
    frontier.pop();
    for (const Arc& a : adj[u]) {
      if (hops[a.dst] != kInfinity) continue;
      hops[a.dst] = hops[u] + 1;
      frontier.push(a.dst);
    }
  }
  return hops;
}

std::vector<VertexId> cc(const EdgeList& g) {
  check_edges(g);
  MinRootUnionFind sets(g.num_vertices);
  for (const Edge& e : g.edges) sets.unite(e.src, e.dst);
  std::vector<VertexId> label(g.num_vertices);
  for (VertexId v = 0; v < g.num_vertices; ++v) label[v] = sets.find(v);
  return label;
}

std::vector<VertexId> label_propagation(const EdgeList& g, unsigned iterations) {
  std::vector<std::vector<VertexId>> neighbours(g.num_vertices);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    neighbours[e.dst].push_back(e.src);
    neighbours[e.src].push_back(e.dst);
  }
  std::vector<VertexId> label(g.num_vertices);
  for (VertexId v = 0; v < g.num_vertices; ++v) label[v] = v;
  for (unsigned it = 0; it < iterations; ++it) {
    std::vector<VertexId> next = label;
    for (VertexId v = 0; v < g.num_vertices; ++v) {
      if (neighbours[v].empty()) continue;
      std::map<VertexId, uint64_t> count;  // ordered: the first maximum is the smallest label
      for (VertexId u : neighbours[v]) ++count[label[u]];
      uint64_t best = 0;
      for (const auto& [l, n] : count)
        if (n > best) {
          best = n;
          next[v] = l;
        }
    }
    label = std::move(next);
  }
  return label;
}

std::vector<uint64_t> kcore(const EdgeList& g) {
  std::vector<std::set<VertexId>> adj(g.num_vertices);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    adj[e.src].insert(e.dst);
    adj[e.dst].insert(e.src);
  }
  std::vector<uint64_t> degree(g.num_vertices), core(g.num_vertices, 0);
  std::set<std::pair<uint64_t, VertexId>> queue;  // (remaining degree, vertex)
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    degree[v] = adj[v].size();
    queue.insert({degree[v], v});
  }
  std::vector<bool> removed(g.num_vertices, false);
  uint64_t k = 0;
  while (!queue.empty()) {
    const auto [d, v] = *queue.begin();
    queue.erase(queue.begin());
    k = std::max(k, d);
    core[v] = k;
    removed[v] = true;
    for (VertexId u : adj[v]) {
      if (removed[u]) continue;
      queue.erase({degree[u], u});
      queue.insert({--degree[u], u});
    }
  }
  return core;
}

std::vector<double> lcc(const EdgeList& g) {
  check_edges(g);
  std::vector<std::set<VertexId>> out(g.num_vertices), both(g.num_vertices);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    out[e.src].insert(e.dst);
    both[e.src].insert(e.dst);
    both[e.dst].insert(e.src);
  }
  std::vector<double> coefficient(g.num_vertices, 0.0);
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    const double d = static_cast<double>(both[v].size());
    if (d < 2) continue;
    uint64_t links = 0;  // directed edges u -> w between neighbours of v
    for (VertexId u : both[v])
      for (VertexId w : out[u]) links += both[v].count(w);
    coefficient[v] = static_cast<double>(links) / (d * (d - 1));
  }
  return coefficient;
}

Expected oracle(std::string_view program, const EdgeList& g, VertexId source, unsigned iterations) {
  using K = Expected::Kind;
  if (program == "pagerank") return {K::kReal, pagerank(g, iterations), {}};
  if (program == "lcc") return {K::kReal, lcc(g), {}};
  if (program == "sssp") return {K::kDistance, {}, sssp(g, source)};
  if (program == "bfs") return {K::kDistance, {}, bfs(g, source)};
  if (program == "kcore") return {K::kExact, {}, kcore(g)};
  auto widen = [](const std::vector<VertexId>& v) { return std::vector<uint64_t>(v.begin(), v.end()); };
  if (program == "cc") return {K::kExact, {}, widen(cc(g))};
  if (program == "cd") return {K::kExact, {}, widen(label_propagation(g, iterations))};
  throw std::invalid_argument("no oracle for program '" + std::string(program) + "' in tests/reference.cc");
}

}  // namespace wg::ref
