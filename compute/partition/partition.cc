#include "compute/partition/partition.h"

#include <algorithm>
#include <map>
#include <utility>

namespace wg {

DegreeCounts count_degrees(const uint32_t* degree, size_t n) {
  std::vector<uint64_t> low(1024, 0);
  std::map<uint32_t, uint64_t> high;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t d = degree[i];
    if (d < low.size())
      ++low[d];
    else
      ++high[d];
  }
  DegreeCounts counts;
  for (uint32_t d = 0; d < low.size(); ++d)
    if (low[d] != 0) counts.emplace_back(d, low[d]);
  counts.insert(counts.end(), high.begin(), high.end());
  return counts;
}

SlotMap identity_slot_map(VertexId num_vertices, unsigned nodes) {
  SlotMap m;
  m.nodes = nodes;
  const RoundRobin rr{nodes};
  for (unsigned r = 0; r < nodes; ++r) m.domain_offset.push_back({0, rr.local_count(r, num_vertices)});
  return m;
}

LocalGraph build_local_graph(const EdgeList& g, unsigned nodes, unsigned rank, bool keep_weights,
                             const SlotMap* map) {
  const RoundRobin rr{nodes};
  LocalGraph lg = build_out_edges(
      [&](auto&& f) {
        for (const Edge& e : g.edges)
          if (rr.owner(e.src) == rank) f(e.src, e.dst, e.weight);
      },
      g.num_vertices, g.num_edges(), nodes, rank, keep_weights, map);
  const SlotMap identity = map == nullptr ? identity_slot_map(g.num_vertices, nodes) : SlotMap{};
  const SlotMap& sm = map == nullptr ? identity : *map;
  for (const Edge& e : g.edges)
    if (rr.owner(e.dst) == rank) ++lg.in_degree[sm.slot(e.dst)];
  return lg;
}

namespace {

// One block's repeated (source, target) pairs gone, the smallest weight kept;
// `weights` is the block's integer or real weights (empty: unweighted).
template <class W>
void remove_duplicates_in(EdgeBlock& b, EdgeArray<W>& weights, std::vector<uint32_t>& out_degree) {
  const bool weighted = !weights.empty();
  std::vector<std::pair<uint32_t, W>> run;  // (target, weight) of one source
  uint64_t out = 0;
  std::vector<uint32_t> sources;
  std::vector<uint64_t> offsets{0};
  for (size_t i = 0; i < b.sources.size(); ++i) {
    run.clear();
    for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) run.emplace_back(b.targets[e], weighted ? weights[e] : W{});
    std::sort(run.begin(), run.end());  // by target, then the smallest weight first
    run.erase(std::unique(run.begin(), run.end(), [](const auto& x, const auto& y) { return x.first == y.first; }),
              run.end());
    for (const auto& [t, w] : run) {
      b.targets[out] = t;
      if (weighted) weights[out] = w;
      ++out;
    }
    sources.push_back(b.sources[i]);
    offsets.push_back(out);
    out_degree[b.sources[i]] += static_cast<uint32_t>(run.size());
  }
  b.targets.resize(out);
  b.targets.shrink_to_fit();
  if (weighted) {
    weights.resize(out);
    weights.shrink_to_fit();
  }
  b.sources = std::move(sources);
  b.offsets = std::move(offsets);
}

}  // namespace

void remove_duplicate_targets(LocalGraph& g) {
  std::fill(g.out_degree.begin(), g.out_degree.end(), 0);
  for (EdgeBlock& b : g.blocks) {
    if (!b.real_weights.empty())
      remove_duplicates_in(b, b.real_weights, g.out_degree);
    else
      remove_duplicates_in(b, b.weights, g.out_degree);
  }
}

}  // namespace wg
