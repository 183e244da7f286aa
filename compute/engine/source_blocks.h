// Where each of a worker's vertices has out-edges: per vertex of the slice,
// the blocks (destination groups) it is a source in and its index among each
// block's sources, ascending by group. A sparse superstep with a small
// frontier starts from the frontier's members and finds their blocks here
// (compute/engine/blocked_frontier.h), so it costs the frontier's (source, block)
// pairs. Looking every member up in every block (a SourceIndex per block)
// cost blocks x frontier, and since receive queues cut a node into ranges
// of 256 KiB of Σ there are many blocks: 64 per worker on kron:22:16 at P=2,
// where SSSP's scatter went from 2.4 to 7.7 s of lcore time per node
// (docs/design/performance-history.md, "Receive queues").
//
// 8 bytes per (source, block) pair and 8 per vertex of the slice. Built once
// at start-up, one block after the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "compute/partition/partition.h"

namespace wg {

class SourceBlocks {
 public:
  struct Entry {
    uint32_t group;  // the block
    uint32_t index;  // the vertex's index in the block's sources
  };

  SourceBlocks() = default;
  // ranges[g]: the indices [first, last) of blocks[g].sources that lie in
  // the slice [lo, hi) (sources ascend, so they are a run).
  SourceBlocks(const std::vector<EdgeBlock>& blocks, const std::vector<std::pair<size_t, size_t>>& ranges,
               uint32_t lo, uint32_t hi)
      : offset_(uint64_t{hi} - lo + 1, 0) {
    for (size_t g = 0; g < blocks.size(); ++g)
      for (size_t i = ranges[g].first; i < ranges[g].second; ++i) ++offset_[blocks[g].sources[i] - lo + 1];
    for (size_t v = 1; v < offset_.size(); ++v) offset_[v] += offset_[v - 1];
    entries_.resize(offset_.back());
    std::vector<uint64_t> cursor(offset_.begin(), offset_.end() - 1);
    for (size_t g = 0; g < blocks.size(); ++g)  // in group order: each vertex's entries ascend by group
      for (size_t i = ranges[g].first; i < ranges[g].second; ++i)
        entries_[cursor[blocks[g].sources[i] - lo]++] =
            Entry{static_cast<uint32_t>(g), static_cast<uint32_t>(i)};
  }

  // The blocks of slice vertex rel (slot - lo).
  std::span<const Entry> of(uint32_t rel) const {
    return {entries_.data() + offset_[rel], static_cast<size_t>(offset_[rel + 1] - offset_[rel])};
  }
  uint64_t count(uint32_t rel) const { return offset_[rel + 1] - offset_[rel]; }
  // (source, block) pairs of the whole slice.
  uint64_t pairs() const { return entries_.size(); }

 private:
  std::vector<uint64_t> offset_;  // slice vertices + 1
  std::vector<Entry> entries_;
};

}  // namespace wg
