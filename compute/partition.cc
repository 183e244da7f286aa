#include "compute/partition.h"

namespace wg {

namespace {

// Counting sort of this node's out-edges to one destination node by source,
// in two passes over the edge list (count, then place) to avoid a sort.
void fill_block(EdgeBlock& b, const std::vector<uint64_t>& per_source_count) {
  b.sources.clear();
  b.offsets.assign(1, 0);
  for (uint32_t s = 0; s < per_source_count.size(); ++s) {
    if (per_source_count[s] == 0) continue;
    b.sources.push_back(s);
    b.offsets.push_back(b.offsets.back() + per_source_count[s]);
  }
}

}  // namespace

SlotMap identity_slot_map(VertexId num_vertices, unsigned nodes) {
  SlotMap m;
  m.nodes = nodes;
  const RoundRobin rr{nodes};
  for (unsigned r = 0; r < nodes; ++r) m.domain_offset.push_back({0, rr.local_count(r, num_vertices)});
  return m;
}

LocalGraph build_local_graph(const EdgeList& g, unsigned nodes, unsigned rank, bool keep_weights,
                             const SlotMap* map) {
  const SlotMap identity = map == nullptr ? identity_slot_map(g.num_vertices, nodes) : SlotMap{};
  const SlotMap& sm = map == nullptr ? identity : *map;
  LocalGraph lg;
  lg.partition.nodes = nodes;
  lg.rank = rank;
  lg.num_vertices = g.num_vertices;
  lg.num_edges = g.num_edges();
  lg.num_local = lg.partition.local_count(rank, g.num_vertices);
  lg.domains = sm.domains;
  lg.domain_offset = sm.domain_offset[rank];
  lg.out_degree.assign(lg.num_local, 0);
  lg.in_degree.assign(lg.num_local, 0);
  lg.blocks.resize(size_t{nodes} * sm.domains);
  const RoundRobin& rr = lg.partition;
  if (!sm.identity()) {
    lg.global_of.resize(lg.num_local);
    for (VertexId v = rank; v < g.num_vertices; v += nodes) lg.global_of[sm.slot(v)] = v;
  }
  auto group_of = [&](VertexId v) { return rr.owner(v) * sm.domains + sm.domain(v); };
  auto index_in_domain = [&](VertexId v) {
    const unsigned o = rr.owner(v);
    return sm.slot(v) - sm.offset(o, sm.domain(v));
  };

  // Pass 1: per (destination group, local source) edge counts.
  std::vector<std::vector<uint64_t>> count(lg.blocks.size(), std::vector<uint64_t>(lg.num_local, 0));
  for (const Edge& e : g.edges) {
    if (rr.owner(e.dst) == rank) ++lg.in_degree[sm.slot(e.dst)];
    if (rr.owner(e.src) != rank) continue;
    const uint32_t s = sm.slot(e.src);
    ++count[group_of(e.dst)][s];
    ++lg.out_degree[s];
  }
  // Offsets, then turn the counts into per-source write cursors.
  for (size_t b = 0; b < lg.blocks.size(); ++b) {
    EdgeBlock& blk = lg.blocks[b];
    fill_block(blk, count[b]);
    blk.targets.resize(blk.offsets.back());
    if (keep_weights) blk.weights.resize(blk.offsets.back());
    for (uint32_t i = 0; i < blk.sources.size(); ++i) count[b][blk.sources[i]] = blk.offsets[i];
  }
  // Pass 2: place.
  for (const Edge& e : g.edges) {
    if (rr.owner(e.src) != rank) continue;
    const uint32_t s = sm.slot(e.src);
    const unsigned b = group_of(e.dst);
    const uint64_t at = count[b][s]++;
    lg.blocks[b].targets[at] = index_in_domain(e.dst);
    if (keep_weights) lg.blocks[b].weights[at] = e.weight;
  }
  return lg;
}

}  // namespace wg
