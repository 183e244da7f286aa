// A destination-major view of one worker's edges in one EdgeBlock, for dense
// supersteps (Gemini's dense mode, DIGEST 6): when most vertices are active,
// the worker pulls, for every destination, the messages of its own sources
// and sends their ⊕ as one record, instead of one record per edge. On a
// skewed graph that cuts the records on the wire and folded on receipt by the
// average number of this worker's edges per destination.
//
// Segmented by source (CSR segmenting, as in Cagra): the pull reads the
// scatter value of every in-edge's source, at random, and once those values
// outgrow the L2 cache most reads miss it. So the sources are cut into
// segments whose scatter values fit in `segment_vertices` entries, and the
// pull runs segment by segment: one record per (segment, destination), folded
// on receipt like any other. On kron:20:16 --undirected with 1 MiB of values
// per segment (2 MiB L2) the pull ran 1.6x as fast at P=1 for 2.8x the records
// (docs/DESIGN-NOTES.md).
//
// Built once, at start-up, from the source-major block: a counting sort by
// destination per segment (O(edges + largest destination index) each).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/partition.h"

namespace wg {

struct DenseBlock {
  std::vector<uint32_t> targets;  // per segment: distinct destinations (indices within the destination domain), ascending
  std::vector<uint64_t> offsets;  // targets.size() + 1 entries into sources/weights
  std::vector<uint32_t> sources;  // local vertex of each in-edge, ascending per destination
  std::vector<uint32_t> weights;  // empty unless the program needs weights

  uint64_t num_edges() const { return sources.size(); }
};

// The L2 cache, or 2 MiB where the C library cannot tell. Half the L2 pulled
// fastest on its own, but every segment is one record more per destination:
// PageRank on GAP's kron20, P=2, thread CPU per node, 2 MiB segments (one
// per group) against 1 MiB: 530-572 against 586-687 ms, 21.9 M against
// 35.7 M records; at P=1 1071-1095 against 1110-1182 ms.
inline size_t default_segment_bytes() {
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return l2 > 0 ? static_cast<size_t>(l2) : size_t{2} << 20;
}

namespace detail {

// Appends the edges of sources [first, last) of block b, destination-major.
inline void append_dense(DenseBlock& d, const EdgeBlock& b, size_t first, size_t last, bool with_weights) {
  const uint64_t e0 = b.offsets[first], e1 = b.offsets[last];
  if (e0 == e1) return;
  uint32_t max_target = 0;
  for (uint64_t e = e0; e < e1; ++e) max_target = std::max(max_target, b.targets[e]);
  std::vector<uint64_t> count(uint64_t{max_target} + 2, 0);
  for (uint64_t e = e0; e < e1; ++e) ++count[b.targets[e] + 1];
  const uint64_t base = d.sources.size();
  for (uint64_t t = 0; t + 1 < count.size(); ++t) {
    if (count[t + 1] == 0) continue;
    d.targets.push_back(static_cast<uint32_t>(t));
    d.offsets.push_back(d.offsets.back() + count[t + 1]);
  }
  count[0] = base;
  for (uint64_t t = 1; t < count.size(); ++t) count[t] += count[t - 1];  // count[t]: first slot of target t
  d.sources.resize(base + (e1 - e0));
  if (with_weights) d.weights.resize(base + (e1 - e0));
  for (size_t i = first; i < last; ++i) {  // sources ascend, so each destination's list does too
    for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
      const uint64_t at = count[b.targets[e]]++;
      d.sources[at] = b.sources[i];
      if (with_weights) d.weights[at] = b.weights[e];
    }
  }
}

}  // namespace detail

// The edges of sources [first, last) of block b (indices into b.sources),
// segmented: a segment holds the sources u with the same
// (u - lo) / segment_vertices.
inline DenseBlock build_dense_block(const EdgeBlock& b, size_t first, size_t last, bool with_weights,
                                    uint32_t lo, uint32_t segment_vertices) {
  DenseBlock d;
  d.offsets.push_back(0);
  const uint32_t per = std::max<uint32_t>(segment_vertices, 1);
  while (first < last) {  // sources ascend: each segment is a run of them
    const uint64_t segment_end = (uint64_t{b.sources[first] - lo} / per + 1) * per + lo;
    const size_t next = std::lower_bound(b.sources.begin() + first, b.sources.begin() + last, segment_end) -
                        b.sources.begin();
    detail::append_dense(d, b, first, next, with_weights);
    first = next;
  }
  return d;
}

}  // namespace wg
