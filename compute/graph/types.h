// The vocabulary every layer above shares: a vertex's id, an edge's weight,
// an edge. In a header of its own so that the program model, the partition
// and the wire-facing code name them without including any input code.
#pragma once

#include <cstdint>

namespace wg {

using VertexId = uint32_t;   // global id; graphs up to 2^32 - 1 vertices
using Weight = uint32_t;     // non-negative integer edge weight
using EdgeCount = uint64_t;

struct Edge {
  VertexId src;
  VertexId dst;
  Weight weight;  // 1 for unweighted inputs
};

}  // namespace wg
