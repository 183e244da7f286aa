// How every node numbers its vertices when they are split over k NUMA
// domains (the second-level partition; the loader builds the map,
// compute/load/graph_loader.h).
//
// Level 1 stays round-robin: v belongs to node v mod P. Inside node r, the
// vertices of domain 0 come first, then those of domain 1, and so on: a
// vertex's *slot* is its position in that order, and its index within its
// domain is slot - domain_offset[d]. Records carry the index within the
// destination domain, so each domain's accumulator owns a dense array of its
// own (on its own NUMA node) and the receiver needs no lookup table. Each
// node splits its own vertices (METIS on its own subgraph) and sends every
// other node its slot table while loading (O(V/P) records each); a node
// keeps the map only to renumber its out-edges, then drops it.
//
// With k = 1 the map is the identity (slot = v div P) and holds no tables.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/graph/edge_list.h"

namespace wg {

struct SlotMap {
  unsigned nodes = 1;
  unsigned domains = 1;
  std::vector<uint32_t> slot_of;    // global vertex -> slot on its owner (empty: v / nodes)
  std::vector<uint8_t> domain_of;   // global vertex -> domain on its owner (empty: 0)
  std::vector<std::vector<uint32_t>> domain_offset;  // per node: k + 1 slot boundaries

  bool identity() const { return slot_of.empty(); }
  uint32_t slot(VertexId v) const { return identity() ? v / nodes : slot_of[v]; }
  unsigned domain(VertexId v) const { return identity() ? 0 : domain_of[v]; }
  uint32_t offset(unsigned node, unsigned d) const { return domain_offset[node][d]; }
};

// The k = 1 map: slot = v div P.
SlotMap identity_slot_map(VertexId num_vertices, unsigned nodes);

}  // namespace wg
