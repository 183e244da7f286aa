// The figures of the loading phase that every node needs of every other
// node's share, carried in END aggregates (64 bytes at most) and merged in
// rank order (workers first, in worker order, within a node), so every node
// gets the same totals (compute/engine/superstep_runtime.h). Internal to compute/.
#pragma once

#include <cstdint>

#include "dataplane/wire.h"

namespace wg::load {

// The edge superstep's END aggregate: what every node needs of every other
// node's share, merged in rank order (identical on every node). 64 bytes.
struct LoadAggregate {
  uint64_t max_id_plus1;  // largest vertex id + 1 (or the declared count)
  uint64_t entries;       // input entries (lines, records, METIS neighbour entries)
  uint64_t edges;         // directed edges after the per-edge rules
  uint64_t head_hash;     // text: the first range's bytes up to its first line break
  uint64_t tail_hash;     // text: the last line's bytes past the last range's end
  uint64_t degree_balance;  // Σ degree_balance_term over the edges: 0 when in-degrees are out-degrees
  uint64_t spare;
  uint8_t origin;         // the node this aggregate (or its last part) came from
  uint8_t tail_rank;      // the node whose tail tail_hash is
  uint8_t columns;        // edge lists: fields per data line, 0 if none
  uint8_t other_columns;  // a different count seen later (kColumnsDiffer)
  uint8_t flags;
  uint8_t mismatch_rank;  // the node where a difference showed
  uint8_t pad[2];
};
static_assert(sizeof(LoadAggregate) <= wire::kMaxAggregateBytes);
// An edge's part of LoadAggregate::degree_balance: mix(src) - mix(dst)
// (mod 2^64), so the sum over the edges is Σ_v mix(v) (out(v) - in(v)),
// zero when every vertex has as many in-edges as out-edges (a symmetric
// graph: GAP's kron files, an undirected SNAP graph listed both ways) and,
// for a mix that is far from linear, not zero otherwise but by chance. The
// memory estimate then takes the in-degrees from the out-degrees it counts
// (compute/engine/memory_budget.h, NodeShape::degrees_alike). 0.75 ns an
// edge (a loop over kron22.bin's pairs alone; 4% of parsing them).
inline uint64_t degree_mix(uint64_t v) {
  v = (v + 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
  return v ^ (v >> 31);
}
inline uint64_t degree_balance_term(uint32_t src, uint32_t dst) { return degree_mix(src) - degree_mix(dst); }

enum : uint8_t { kSeen = 1, kHasHead = 2, kHasTail = 4, kColumnsDiffer = 8, kBoundaryDiffers = 16 };

// The count superstep's aggregate (METIS files): vertex lines, and the lines
// before this node's share, found while merging in rank order.
struct LineCount {
  uint64_t lines;
  uint64_t before_me;
  uint8_t origin;
  uint8_t seen_me;
};

// Merges the edge superstep's figures of `from` (the next part in rank and
// worker order) into `into`: sums, maxima, the first column count and the
// first differing one, and the check that the tail of node r and the head of
// node r + 1 (the same bytes of one file) agree.
void merge_edges(LoadAggregate& into, const LoadAggregate& from);
// The count superstep's: vertex lines, and into.before_me the lines before
// the first part that comes from `my_rank`.
void merge_line_counts(LineCount& into, const LineCount& from, unsigned my_rank);

}  // namespace wg::load
