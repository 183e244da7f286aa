// Level-1 partition (round-robin over nodes) and the node-local edge layout.
//
// owner(v) = v mod P and local(v) = v div P, so a message carries a 32-bit
// local index and the receiver needs no lookup table.
//
// Out-edges are stored grouped by destination node ("edge blocks"), each block
// in doubly compressed form: only the sources that have edges to that node are
// listed. The scatter loop then walks one block at a time and writes into one
// open bucket, a tight sequential loop (BlitzG's pre-arranged edges).
#pragma once

#include <cstdint>
#include <vector>

#include "compute/edge_list.h"
#include "compute/slot_map.h"

namespace wg {

struct RoundRobin {
  unsigned nodes = 1;

  unsigned owner(VertexId v) const { return v % nodes; }
  uint32_t local_index(VertexId v) const { return v / nodes; }
  VertexId global_id(unsigned node, uint32_t local) const {
    return static_cast<VertexId>(uint64_t{local} * nodes + node);
  }
  // Vertices node `r` owns out of `num_vertices`.
  uint32_t local_count(unsigned r, VertexId num_vertices) const {
    return num_vertices > r ? static_cast<uint32_t>((uint64_t{num_vertices} - r + nodes - 1) / nodes) : 0;
  }
};

// Edges from this node's vertices to the vertices of one destination node.
struct EdgeBlock {
  std::vector<uint32_t> sources;   // local indices of sources with >= 1 edge here, ascending
  std::vector<uint64_t> offsets;   // sources.size() + 1 entries into targets/weights
  std::vector<uint32_t> targets;   // destination local index (on the destination node)
  std::vector<uint32_t> weights;   // empty unless the program needs weights

  uint64_t num_edges() const { return targets.size(); }
};

struct LocalGraph {
  RoundRobin partition;
  unsigned rank = 0;
  VertexId num_vertices = 0;        // global V
  EdgeCount num_edges = 0;          // global |E| (after symmetrising, if done)
  uint32_t num_local = 0;           // vertices this node owns
  unsigned domains = 1;             // NUMA domains per node (k)
  std::vector<uint32_t> domain_offset;  // k + 1: this node's domain d holds slots [offset[d], offset[d+1])
  std::vector<VertexId> global_of;  // slot -> global id (empty: round-robin arithmetic, k = 1)
  std::vector<uint32_t> out_degree; // per slot, over all destinations
  std::vector<uint32_t> in_degree;  // per slot, from all sources (sizes slot accumulators)
  // One block per destination group (node, domain), index node * domains + domain;
  // targets are indices within the destination domain.
  std::vector<EdgeBlock> blocks;

  unsigned group(unsigned node, unsigned d) const { return node * domains + d; }
  uint32_t domain_size(unsigned d) const { return domain_offset[d + 1] - domain_offset[d]; }
  VertexId global_id(uint32_t slot) const {
    return global_of.empty() ? partition.global_id(rank, slot) : global_of[slot];
  }
};

// Out-edges of this node's vertices, all destinations.
inline uint64_t local_out_edges(const LocalGraph& g) {
  uint64_t n = 0;
  for (const EdgeBlock& b : g.blocks) n += b.num_edges();
  return n;
}

// Builds node `rank`'s part of `g`, numbered by `map` (nullptr: k = 1, slot =
// v div P). Weights are kept only if `keep_weights`. Within a block, edges
// keep their input order per source.
LocalGraph build_local_graph(const EdgeList& g, unsigned nodes, unsigned rank, bool keep_weights,
                             const SlotMap* map = nullptr);

}  // namespace wg
