// A destination-major view of one worker's edges in one EdgeBlock, for dense
// supersteps (Gemini's dense mode, DIGEST 6): when most vertices are active,
// the worker pulls, for every destination, the messages of its own sources
// and sends their ⊕ as one record, instead of one record per edge. On a
// skewed graph that cuts the records on the wire and folded on receipt by the
// average number of this worker's edges per destination.
//
// Segmented by source (CSR segmenting, as in Cagra): the pull reads the
// scatter value of every in-edge's source, at random, and once those values
// outgrow the caches most reads go to memory. So the sources are cut into
// segments whose scatter values fit in `segment_vertices` entries, and the
// pull runs segment by segment: one record per (segment, destination), folded
// on receipt like any other. The segment holds a quarter of the L3 by
// default (default_segment_bytes(), docs/DESIGN-NOTES.md).
//
// Built once, at start-up, from the source-major block: a counting sort by
// destination per segment (O(edges + largest destination index) each).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "compute/partition/partition.h"

namespace wg {

struct DenseBlock {
  std::vector<uint32_t> targets;  // per segment: distinct destinations (indices within the destination domain), ascending
  std::vector<uint64_t> offsets;  // targets.size() + 1 entries into sources/weights
  EdgeArray<uint32_t> sources;    // local vertex of each in-edge, ascending per destination
  EdgeArray<uint32_t> weights;    // empty unless the program needs weights

  uint64_t num_edges() const { return sources.size(); }
};

// A quarter of the last-level (L3) cache, or the L2 where sysfs names no
// L3 of at least 4 MiB, else 2 MiB. Segments first held the L2, which timed the pull
// alone best; end to end every segment is one more record per destination,
// folded and, across nodes, sent, and random reads from the L3 cost less
// than those records. PageRank on GAP's graphs (1 MiB L2, 32 MiB L3;
// bench/ab.py, alternating trials): kron20 P=2 2 MiB segments against
// 1 MiB 0.82x the time (0.84 against 1.02 s, 21.9 M against 35.7 M records);
// kron22 P=2 8 MiB against 2 MiB 0.74x (80 M against 204 M records), 4 MiB
// and 8 MiB alike; kron22 P=1 8 MiB against 16 MiB (one segment, half the
// L3) 0.85x. The sysfs L3 is read because glibc's sysconf reports 320 MiB
// for it in this VM.
inline size_t cache_bytes_from_sysfs(int level) {
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream lf(dir + "level"), sf(dir + "size");
    int l = 0;
    std::string size;
    if (!(lf >> l) || l != level || !(sf >> size) || size.empty()) continue;
    const char unit = size.back();
    const unsigned long long n = std::strtoull(size.c_str(), nullptr, 10);
    const unsigned long long scale = unit == 'K' ? 1ull << 10 : unit == 'M' ? 1ull << 20 : unit == 'G' ? 1ull << 30 : 1;
    return static_cast<size_t>(n * scale);
  }
  return 0;
}

inline size_t default_segment_bytes() {
  static const size_t bytes = [] {
    if (const size_t l3 = cache_bytes_from_sysfs(3); l3 >= (size_t{4} << 20)) return l3 / 4;
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l2 > 0 ? static_cast<size_t>(l2) : size_t{2} << 20;
  }();
  return bytes;
}

// Passes of a copy built from a block it consumes (detail::append_dense_consuming).
inline constexpr unsigned kDenseCopyPasses = 4;

namespace detail {

// The destinations of targets[e0, e1) appended to d's (segment, destination)
// list, ascending; returns, per target t up to the largest, the first slot
// of its in-edges in d's sources (then one past the last).
inline std::vector<uint64_t> destination_slots(DenseBlock& d, const uint32_t* targets, uint64_t e0, uint64_t e1) {
  uint32_t max_target = 0;
  for (uint64_t e = e0; e < e1; ++e) max_target = std::max(max_target, targets[e]);
  std::vector<uint64_t> count(uint64_t{max_target} + 2, 0);
  for (uint64_t e = e0; e < e1; ++e) ++count[targets[e] + 1];
  for (uint64_t t = 0; t + 1 < count.size(); ++t) {
    if (count[t + 1] == 0) continue;
    d.targets.push_back(static_cast<uint32_t>(t));
    d.offsets.push_back(d.offsets.back() + count[t + 1]);
  }
  count[0] = d.sources.size();
  for (uint64_t t = 1; t < count.size(); ++t) count[t] += count[t - 1];
  return count;
}

// Appends the edges of sources [first, last) of block b, destination-major.
inline void append_dense(DenseBlock& d, const EdgeBlock& b, size_t first, size_t last, bool with_weights) {
  const uint64_t e0 = b.offsets[first], e1 = b.offsets[last];
  if (e0 == e1) return;
  const uint64_t base = d.sources.size();
  std::vector<uint64_t> count = destination_slots(d, b.targets.data(), e0, e1);
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

// The same from a block the caller reads no more (build_dense_block's
// `spent`), in kPasses passes over what is left of the range, each placing
// the in-edges of a run of destinations that holds about an equal share of
// the edges. After each pass the edges left move to the front of the range
// and the pages behind them go back to the kernel (discard_pages), while
// the copy's pages become resident as a pass writes them (its arrays are not
// zeroed first): the block and its copy hold a pass's edges twice, not the
// whole range's. PageRank on kron:22:16 --undirected at P=2, one segment a
// block: a node's RSS peaked at 544 MB while the copies were built, 446 now,
// and 415 through the run. The copy is append_dense's; b's offsets inside
// the range are left meaningless (offsets[last], where the next segment or
// worker starts, is kept).
inline void append_dense_consuming(DenseBlock& d, EdgeBlock& b, size_t first, size_t last, bool with_weights) {
  constexpr unsigned kPasses = kDenseCopyPasses;
  const uint64_t e0 = b.offsets[first], e1 = b.offsets[last], n = e1 - e0;
  if (n == 0) return;
  uint32_t* targets = b.targets.data();
  uint32_t* weights = with_weights ? b.weights.data() : nullptr;
  const uint64_t base = d.sources.size();
  std::vector<uint64_t> count = destination_slots(d, targets, e0, e1);
  // Pass k places targets [bound[k], bound[k + 1]).
  uint64_t bound[kPasses + 1];
  bound[0] = 0;
  bound[kPasses] = count.size() - 1;
  for (unsigned k = 1; k < kPasses; ++k)
    bound[k] = std::lower_bound(count.begin(), count.end() - 1, base + k * n / kPasses) - count.begin();
  d.sources.resize(base + n);
  if (with_weights) d.weights.resize(base + n);
  for (unsigned k = 0; k < kPasses; ++k) {
    const uint64_t hi = bound[k + 1];
    uint64_t read = e0, kept = e0;
    for (size_t i = first; i < last; ++i) {  // sources ascend, so each destination's list does too
      const uint64_t end = b.offsets[i + 1];
      for (uint64_t e = read; e < end; ++e) {
        const uint32_t t = targets[e];
        if (t < hi) {
          const uint64_t at = count[t]++;
          d.sources[at] = b.sources[i];
          if (with_weights) d.weights[at] = weights[e];
        } else {
          targets[kept] = t;
          if (with_weights) weights[kept] = weights[e];
          ++kept;
        }
      }
      b.offsets[i + 1] = kept;
      read = end;
    }
    discard_pages(b.targets, kept, e1);
    if (with_weights) discard_pages(b.weights, kept, e1);
  }
  b.offsets[last] = e1;
}

}  // namespace detail

// The edges of sources [first, last) of block b (indices into b.sources),
// segmented: a segment holds the sources u with the same
// (u - lo) / segment_vertices. With `spent` (b itself, which the caller reads
// no more: compute/engine/engine.h), b's targets and weights go back to the
// kernel as they are copied (detail::append_dense_consuming).
inline DenseBlock build_dense_block(const EdgeBlock& b, size_t first, size_t last, bool with_weights,
                                    uint32_t lo, uint32_t segment_vertices, EdgeBlock* spent = nullptr) {
  DenseBlock d;
  d.offsets.push_back(0);
  if (first < last) {  // every edge once: growing segment by segment would hold up to twice that while copying
    d.sources.reserve(b.offsets[last] - b.offsets[first]);
    if (with_weights) d.weights.reserve(d.sources.capacity());
  }
  const uint32_t per = std::max<uint32_t>(segment_vertices, 1);
  while (first < last) {  // sources ascend: each segment is a run of them
    const uint64_t segment_end = (uint64_t{b.sources[first] - lo} / per + 1) * per + lo;
    const size_t next = std::lower_bound(b.sources.begin() + first, b.sources.begin() + last, segment_end) -
                        b.sources.begin();
    if (spent != nullptr)
      detail::append_dense_consuming(d, *spent, first, next, with_weights);
    else
      detail::append_dense(d, b, first, next, with_weights);
    first = next;
  }
  // The (segment, destination) pairs grew by doubling: a third of their
  // room was spare, through the run (kron24 at P=2: 13.2 M held for 8.6 M).
  d.targets.shrink_to_fit();
  d.offsets.shrink_to_fit();
  return d;
}

}  // namespace wg
