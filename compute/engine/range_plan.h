// Accumulation ranges: every node's slots (its vertices, NUMA domain by
// domain: compute/partition/slot_map.h) are cut into ranges, each a contiguous part
// of one NUMA domain whose Σ fits a cache (`range_entries` accumulators),
// and the ranges into K contiguous sets, one per receive queue: accumulator
// role q folds only the ranges of queue q, so no two lcores ever write the
// same accumulator (no atomics) and a queue's Σ stays on its NUMA node.
//
// Workers group their out-edges by (destination node, range)
// (split_into_ranges: the range is the destination "domain" of an edge
// block, the unit LocalGraph, the workers' buckets and the wire already know),
// so each bucket holds one range's records, and a worker writes one range's
// records after the other: the receiving accumulator folds a range's buckets
// while its Σ is in the cache ("blocked" accumulation), instead of one
// record at random in a Σ much larger than the caches.
//
// Every node computes every node's plan alike from the NUMA domain sizes of
// all nodes (the loader's slot tables), K and the range size, which every
// node of a job shares (the hello checks --rx-queues and --range-kib); the
// number of ranges is the same on every node (a smaller node has smaller, or
// empty, ranges), so a range index means the same on every node.
//
// Queues and domains: with K <= k NUMA domains, queue q owns whole domains
// q*k/K .. (q+1)*k/K - 1; with K > k, domain d is owned by the queues q with
// q*k/K == d, which share its ranges in contiguous runs (each domain has at
// least as many ranges as queues). Range boundaries are multiples of 64
// accumulators from the domain's start (no cache line of Σ is written by two
// queues, for accumulators of up to 16 bytes at 64-byte alignment).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/partition/partition.h"

namespace wg {

struct RangePlan {
  unsigned nodes = 1;
  unsigned queues = 1;
  unsigned ranges = 1;                          // per node
  std::vector<std::vector<uint32_t>> offset;    // [node][r]: ranges + 1 slot boundaries
  std::vector<uint8_t> numa;                    // [r]: the NUMA domain range r lies in (every node)
  std::vector<uint8_t> queue;                   // [r]: the receive queue that owns range r (every node)

  uint32_t size(unsigned node, unsigned r) const { return offset[node][r + 1] - offset[node][r]; }
};

// numa_offsets[node]: k + 1 slot boundaries of that node's NUMA domains (the
// same k for every node). range_entries >= 1.
RangePlan plan_ranges(const std::vector<std::vector<uint32_t>>& numa_offsets, unsigned queues,
                      uint32_t range_entries);

// plan_ranges' rules, which the memory estimate (compute/engine/memory_budget.h)
// counts ranges with: the queues that own each of k NUMA domains, and the
// ranges a domain is cut into on every node when its largest instance holds
// `largest` slots (enough ranges of range_entries, at least one per owner, a
// whole number per owner).
std::vector<std::vector<unsigned>> domain_owners(unsigned k, unsigned queues);
uint64_t ranges_in_domain(uint64_t largest, unsigned owners, uint32_t range_entries);

// Regroups g's out-edges by (destination node, range of plan): the blocks of
// (node, NUMA domain d) become blocks (node, r) for d's ranges, with targets
// relative to their range, and g's own domains become its ranges
// (g.numa_domains / g.numa_offset keep the NUMA domains, g.range_numa the
// domain of each range). Slots and everything indexed by slot are unchanged.
// One block at a time, each discarded behind its reader: memory grows by a
// block's sources and offsets and kSplitDiscardEdges of its edges at most.
// The edges a block being split is read by before the pages behind go.
inline constexpr uint64_t kSplitDiscardEdges = uint64_t{1} << 20;
// `discard_every`: kSplitDiscardEdges but in tests.
void split_into_ranges(LocalGraph& g, const RangePlan& plan, uint64_t discard_every = kSplitDiscardEdges);

// The range size in accumulators for `range_bytes` of Σ with `accumulator_bytes` each.
inline uint32_t range_entries_for(uint64_t range_bytes, unsigned accumulator_bytes) {
  const uint64_t n = range_bytes / (accumulator_bytes ? accumulator_bytes : 1);
  return n < 64 ? 64 : n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n);
}

// The range size in accumulators of the job: --range-kib's (range_bytes != 0);
// else, for a program whose every superstep pulls (`pulls_only`: the
// program's capability, WorkerModes::kPullsOnly), or
// when the largest node's Σ (largest_node_slots accumulators of
// accumulator_bytes) fits kWholeSigmaBytes, the whole node (one range per
// NUMA domain and queue); else kDefaultRangeBytes (compute/engine/engine_options.h).
// A pull sends one record per destination and segment, destinations
// ascending (worker/dense_pull.h), so the receiver folds a segment's records
// in one sweep of Σ, not at random: ranges only cut the CSR into more
// blocks, and the split into them held a copy of each. PageRank on GAP's
// kron24, 10 iterations: at P=2 (3 alternating pairs), 128 ranges a node
// computed in 3.64-4.11 s and peaked at 1950 MB a node, whole Σ in
// 3.41-3.71 s and 1868 MB; at P=1 with 2 lcores (2 pairs), 6.96-7.24 s and
// 6.21-6.37 s. The capability alone decides, not --scatter: a node that
// cannot hold the dense copy pushes only (fit_to_memory, per node), and
// every node must derive the same plan; pushing, such a program folds at
// random into the whole Σ unless --range-kib cuts it.
inline uint32_t range_entries_of(uint64_t range_bytes, uint64_t largest_node_slots, unsigned accumulator_bytes,
                                 bool pulls_only = false) {
  if (range_bytes != 0) return range_entries_for(range_bytes, accumulator_bytes);
  if (pulls_only || largest_node_slots * accumulator_bytes <= kWholeSigmaBytes) return UINT32_MAX;
  return range_entries_for(kDefaultRangeBytes, accumulator_bytes);
}
// The slots of the job's largest node (the largest last domain boundary).
inline uint64_t largest_node_slots(const std::vector<std::vector<uint32_t>>& numa_offsets) {
  uint64_t most = 0;
  for (const auto& o : numa_offsets)
    if (!o.empty()) most = std::max<uint64_t>(most, o.back());
  return most;
}

}  // namespace wg
