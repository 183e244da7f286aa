// A worker's copy of its edges in one block with each source's light edges
// first (compute/engine/delta_schedule.h): a vertex that sends along its light
// edges only reads those, not its whole list. A hub of kron20 is taken
// again and again while its bucket settles; filtering its whole list each
// time cost 35-48 ms of CPU per superstep at P=1 (Δ = 16) for a million
// records. 8 bytes per edge (target and weight) and 4 per source.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/partition/partition.h"

namespace wg {

struct LightFirstBlock {
  uint64_t first_edge = 0;        // block edge index of targets[0]
  std::vector<uint32_t> targets;  // the block's edges of sources [first, last), light first per source
  std::vector<uint32_t> weights;
  std::vector<uint32_t> light;    // per source (index - first): its light edges

  // The block's sources [first, last) (indices into b.sources); edges
  // lighter than light_below are light.
  LightFirstBlock(const EdgeBlock& b, size_t first, size_t last, Weight light_below)
      : first_edge(b.offsets[first]), light(last - first, 0) {
    const uint64_t end = b.offsets[last];
    targets.reserve(end - first_edge);
    weights.reserve(end - first_edge);
    for (size_t i = first; i < last; ++i) {
      for (int pass = 0; pass < 2; ++pass)
        for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
          if ((b.weights[e] < light_below) != (pass == 0)) continue;
          targets.push_back(b.targets[e]);
          weights.push_back(b.weights[e]);
          light[i - first] += pass == 0;
        }
    }
  }
};

}  // namespace wg
