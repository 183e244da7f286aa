// A worker's share of its node: the vertex slots [lo, hi) (one or more whole
// NUMA domains, or part of one: domains are contiguous in slot order), and
// where those vertices lie as sources in each of the node's edge blocks.
// Built once at start-up; every step reads it, none writes it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "compute/engine/source_blocks.h"
#include "compute/partition/partition.h"

namespace wg {

struct WorkerSlice {
  uint32_t lo, hi;
  // Per destination group (edge block): the indices [first, last) of its
  // sources that lie in the slice, a contiguous run since sources ascend.
  std::vector<std::pair<size_t, size_t>> ranges;
  uint64_t edges = 0;          // out-edges of the slice's vertices
  SourceBlocks source_blocks;  // per slice vertex: the groups it has edges in (unless not listed)

  // list_source_blocks: false for a worker that only pulls (its sparse
  // supersteps have no active source to group).
  WorkerSlice(const LocalGraph& g, uint32_t first, uint32_t last, bool list_source_blocks = true)
      : lo(first), hi(last) {
    find_ranges(g.blocks);
    for (uint32_t u = lo; u < hi; ++u) edges += g.out_degree[u];
    if (list_source_blocks) source_blocks = SourceBlocks(g.blocks, ranges, lo, hi);
  }
  // The same slice's sources in other blocks of the node's vertices (the
  // in-edge blocks, LocalGraph::in_blocks: worker/in_edges.h); `edges` counts
  // the slice's edges in them.
  WorkerSlice(const std::vector<EdgeBlock>& blocks, uint32_t first, uint32_t last) : lo(first), hi(last) {
    find_ranges(blocks);
    for (size_t b = 0; b < blocks.size(); ++b)
      edges += blocks[b].offsets[ranges[b].second] - blocks[b].offsets[ranges[b].first];
    source_blocks = SourceBlocks(blocks, ranges, lo, hi);
  }

  uint32_t size() const { return hi - lo; }
  unsigned groups() const { return static_cast<unsigned>(ranges.size()); }

 private:
  void find_ranges(const std::vector<EdgeBlock>& blocks) {
    ranges.resize(blocks.size());
    for (size_t b = 0; b < blocks.size(); ++b) {
      const auto& src = blocks[b].sources;
      ranges[b].first = std::lower_bound(src.begin(), src.end(), lo) - src.begin();
      ranges[b].second = std::lower_bound(src.begin(), src.end(), hi) - src.begin();
    }
  }
};

}  // namespace wg
