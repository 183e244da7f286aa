// What a worker sends in a superstep: its active vertices (the frontier,
// compute/engine/frontier.h) and each one's scatter value, taken by apply
// while the vertex is in registers: once per vertex, not once per
// destination block (a sparse superstep visits a source in every block it
// has edges in: up to P x K).
//
// A sparse superstep whose frontier has few (source, block) pairs groups the
// list by block from each member's list of blocks
// (compute/engine/source_blocks.h, compute/engine/blocked_frontier.h), so it
// costs the frontier's pairs, not the blocks' sources; a bigger one tests
// each block's sources against the bitmap.
//
// Steps: apply fills it (frontier().reset(), then frontier().add and
// scatter_values(), or frontier().add_all()), settle() after; scatter
// groups it (group) and visits each block's active sources (for_each_in).
// Owner: the worker.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "compute/engine/blocked_frontier.h"
#include "compute/engine/frontier.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

template <class Message>
class ActiveSources {
 public:
  explicit ActiveSources(const WorkerSlice& slice)
      : frontier_(slice.size(), kListFraction),
        values_(slice.size()),
        grouped_(slice.groups(), slice.source_blocks.pairs()) {}

  Frontier& frontier() { return frontier_; }
  const Frontier& frontier() const { return frontier_; }
  // Scatter values of the slice's active vertices, indexed by slot - lo.
  Message* scatter_values() { return values_.data(); }
  const Message* scatter_values() const { return values_.data(); }
  Message value(uint32_t rel) const { return values_[rel]; }

  // The frontier is complete for this superstep (or local round).
  void settle() { all_ = frontier_.all(); }
  // Every vertex of the slice is active (PageRank: every superstep).
  bool all() const { return all_; }

  // A sparse superstep with few (source, block) pairs: the frontier's list
  // grouped by block (blocks: the slice's), each member with
  // sending_of(rel), what it sends.
  template <class SendingOf>
  void group(bool sparse, const SourceBlocks& blocks, SendingOf&& sending_of) {
    grouped_now_ = sparse && frontier_.listed() && grouped_.build(frontier_.list(), blocks, sending_of);
  }

  // Calls f(i, sending) for every active source of block `group` in the
  // slice (i: its index in the block; sending: sending_of(rel)). A frontier
  // with few pairs was grouped by block (group); a larger one is found by
  // testing every source's bit.
  template <class SendingOf, class F>
  void for_each_in(unsigned group, const EdgeBlock& b, std::pair<size_t, size_t> range, uint32_t lo,
                   SendingOf&& sending_of, F&& f) const {
    if (grouped_now_) {
      for (const auto& item : grouped_.in(group)) f(item.index, item.sending);
      return;
    }
    // (A worker that only pulls scatters sparse only with nothing active,
    // its blocks' sources released: none is read.)
    if (frontier_.count() == 0) return;
    const auto [first, last] = range;
    const uint32_t* sources = b.sources.data();
    if (all_) {
      for (size_t i = first; i < last; ++i) f(i, sending_of(sources[i] - lo));
      return;
    }
    for (size_t i = first; i < last; ++i)
      if (frontier_.contains(sources[i] - lo)) f(i, sending_of(sources[i] - lo));
  }

 private:
  // A frontier is listed while it holds at most this share of the slice
  // (1 byte per vertex for the list), so that one with few pairs can be
  // grouped by block (compute/engine/blocked_frontier.h says how few).
  static constexpr uint32_t kListFraction = 4;

  Frontier frontier_;                  // this superstep's active vertices, by slot - lo
  std::vector<Message> values_;        // scatter values of the slice's active vertices, from apply
  BlockedFrontier<Message> grouped_;   // a small frontier grouped by block
  bool grouped_now_ = false;           // this superstep (or local round) uses grouped_
  bool all_ = false;                   // every vertex of the slice active this superstep
};

}  // namespace wg
