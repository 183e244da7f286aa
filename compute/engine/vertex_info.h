// What the engine tells a program about one of its vertices (VertexInfo,
// compute/engine/vertex_program.h), read from the node's LocalGraph. The
// out-edges' weight sum exists only for a program whose GraphRules ask for it
// (out_weights: weighted PageRank's W(u)); for every other program it is the
// constant 0, never loaded, so their loops are what they were without it.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/engine/vertex_program.h"
#include "compute/partition/partition.h"

namespace wg {

template <class Prog>
inline constexpr bool kReadsOutWeights = Prog::kTraits.graph.out_weights;

// Slot `slot`'s out-edge weight sum, or 0 for a program that does not read it.
template <class Prog>
inline double out_weight_of(const LocalGraph& g, uint32_t slot) {
  if constexpr (kReadsOutWeights<Prog>)
    return g.out_weight[slot];
  else
    return 0.0;
}

template <class Prog>
inline VertexInfo vertex_info(const LocalGraph& g, uint32_t slot) {
  return VertexInfo{g.global_id(slot), g.out_degree[slot], g.in_degree[slot], out_weight_of<Prog>(g, slot)};
}

// Per slot, the sum of its out-edges' weights over every block: the real
// weights where the blocks hold them, else the integer ones, else 1 an edge.
// Once per run, before superstep 0 (the engine), while the blocks still hold
// their source-major weights.
inline std::vector<double> out_weight_sums(const LocalGraph& g) {
  std::vector<double> sum(g.num_local, 0.0);
  for (const EdgeBlock& b : g.blocks) {
    for (size_t j = 0; j < b.sources.size(); ++j) {
      double& s = sum[b.sources[j]];
      for (uint64_t e = b.offsets[j]; e < b.offsets[j + 1]; ++e)
        s += !b.real_weights.empty() ? b.real_weights[e] : !b.weights.empty() ? static_cast<double>(b.weights[e]) : 1.0;
    }
  }
  return sum;
}

}  // namespace wg
