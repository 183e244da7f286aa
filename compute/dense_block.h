// A destination-major view of one worker's edges in one EdgeBlock, for dense
// supersteps (Gemini's dense mode, DIGEST 6): when most vertices are active,
// the worker pulls, for every destination, the messages of its own sources
// and sends their ⊕ as one record, instead of one record per edge. On a
// skewed graph that cuts the records on the wire and folded on receipt by the
// average number of this worker's edges per destination.
//
// Built once, at start-up, from the source-major block: a counting sort by
// destination (O(edges + largest destination index)).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/partition.h"

namespace wg {

struct DenseBlock {
  std::vector<uint32_t> targets;  // distinct destinations (indices within the destination domain), ascending
  std::vector<uint64_t> offsets;  // targets.size() + 1 entries into sources/weights
  std::vector<uint32_t> sources;  // local vertex of each in-edge, ascending per destination
  std::vector<uint32_t> weights;  // empty unless the program needs weights

  uint64_t num_edges() const { return sources.size(); }
};

// The edges of sources [first, last) of block b (indices into b.sources).
inline DenseBlock build_dense_block(const EdgeBlock& b, size_t first, size_t last, bool with_weights) {
  DenseBlock d;
  if (first >= last) {
    d.offsets.push_back(0);
    return d;
  }
  const uint64_t e0 = b.offsets[first], e1 = b.offsets[last];
  uint32_t max_target = 0;
  for (uint64_t e = e0; e < e1; ++e) max_target = std::max(max_target, b.targets[e]);
  std::vector<uint64_t> count(uint64_t{max_target} + 2, 0);
  for (uint64_t e = e0; e < e1; ++e) ++count[b.targets[e] + 1];
  uint64_t distinct = 0;
  for (uint64_t t = 1; t < count.size(); ++t) distinct += count[t] != 0;
  d.targets.reserve(distinct);
  d.offsets.reserve(distinct + 1);
  d.offsets.push_back(0);
  for (uint64_t t = 0; t + 1 < count.size(); ++t) {
    if (count[t + 1] == 0) continue;
    d.targets.push_back(static_cast<uint32_t>(t));
    d.offsets.push_back(d.offsets.back() + count[t + 1]);
  }
  for (uint64_t t = 1; t < count.size(); ++t) count[t] += count[t - 1];  // count[t]: first slot of target t
  d.sources.resize(e1 - e0);
  if (with_weights) d.weights.resize(e1 - e0);
  for (size_t i = first; i < last; ++i) {  // sources ascend, so each destination's list does too
    for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
      const uint64_t at = count[b.targets[e]]++;
      d.sources[at] = b.sources[i];
      if (with_weights) d.weights[at] = b.weights[e];
    }
  }
  return d;
}

}  // namespace wg
