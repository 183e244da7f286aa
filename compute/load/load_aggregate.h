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
  uint64_t spare[2];
  uint8_t origin;         // the node this aggregate (or its last part) came from
  uint8_t tail_rank;      // the node whose tail tail_hash is
  uint8_t columns;        // edge lists: fields per data line, 0 if none
  uint8_t other_columns;  // a different count seen later (kColumnsDiffer)
  uint8_t flags;
  uint8_t mismatch_rank;  // the node where a difference showed
  uint8_t pad[2];
};
static_assert(sizeof(LoadAggregate) <= wire::kMaxAggregateBytes);
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
