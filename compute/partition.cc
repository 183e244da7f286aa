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

LocalGraph build_local_graph(const EdgeList& g, unsigned nodes, unsigned rank, bool keep_weights) {
  LocalGraph lg;
  lg.partition.nodes = nodes;
  lg.rank = rank;
  lg.num_vertices = g.num_vertices;
  lg.num_edges = g.num_edges();
  lg.num_local = lg.partition.local_count(rank, g.num_vertices);
  lg.out_degree.assign(lg.num_local, 0);
  lg.in_degree.assign(lg.num_local, 0);
  lg.blocks.resize(nodes);

  const RoundRobin& rr = lg.partition;
  // Pass 1: per (destination node, local source) edge counts.
  std::vector<std::vector<uint64_t>> count(nodes, std::vector<uint64_t>(lg.num_local, 0));
  for (const Edge& e : g.edges) {
    if (rr.owner(e.dst) == rank) ++lg.in_degree[rr.local_index(e.dst)];
    if (rr.owner(e.src) != rank) continue;
    const uint32_t s = rr.local_index(e.src);
    ++count[rr.owner(e.dst)][s];
    ++lg.out_degree[s];
  }
  // Offsets, then turn the counts into per-source write cursors.
  for (unsigned p = 0; p < nodes; ++p) {
    EdgeBlock& b = lg.blocks[p];
    fill_block(b, count[p]);
    b.targets.resize(b.offsets.back());
    if (keep_weights) b.weights.resize(b.offsets.back());
    for (uint32_t i = 0; i < b.sources.size(); ++i) count[p][b.sources[i]] = b.offsets[i];
  }
  // Pass 2: place.
  for (const Edge& e : g.edges) {
    if (rr.owner(e.src) != rank) continue;
    const uint32_t s = rr.local_index(e.src);
    const unsigned p = rr.owner(e.dst);
    const uint64_t at = count[p][s]++;
    lg.blocks[p].targets[at] = rr.local_index(e.dst);
    if (keep_weights) lg.blocks[p].weights[at] = e.weight;
  }
  return lg;
}

}  // namespace wg
