// A sparse superstep's frontier grouped by block: for each destination
// group, the frontier members that are sources in it, each as its index in
// the block's sources and what it sends (its scatter value and, for
// delta-stepping, which of its edges). Built from the members' entries in
// SourceBlocks by a counting sort, two passes over the frontier's (source,
// block) pairs; then the worker still writes one block after the other (one
// range's records after the other, for the receiver's cache:
// compute/engine/range_plan.h), each block visiting only its own active sources.
//
// What a member sends is read once per member, here, and copied into each
// of its items: read per (member, block) while writing the blocks, a
// member's scatter value missed the cache nearly every time (kron:22:16,
// P=2: 41% of the scatter's samples on that load, `perf record -e cpu-clock`).
//
// Room for an eighth of the slice's pairs is allocated once: a
// frontier with more pairs is not grouped (the worker scans each block's
// sources against the frontier's bitmap instead: one sequential bit test
// per pair, cheaper than grouping's two passes and a write per pair once
// a good part of them is active).
// Owner: the worker.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "compute/engine/source_blocks.h"

namespace wg {

// What an active source sends: its scatter value and (delta-stepping) which
// of its edges (DeltaSchedule::EdgeClass).
template <class Message>
struct Sending {
  Message value;
  uint8_t edges;
};

// Items a BlockedFrontier has room for, for a slice with `pairs` (source,
// block) pairs.
inline uint64_t grouped_capacity(uint64_t pairs) { return pairs / 8 + 1; }

template <class Message>
class BlockedFrontier {
 public:
  struct Item {
    uint32_t index;  // in the block's sources
    Sending<Message> sending;
  };

  BlockedFrontier() = default;
  // For a slice whose sources have `pairs` (source, block) pairs in all.
  BlockedFrontier(unsigned groups, uint64_t pairs) : start_(uint64_t{groups} + 1, 0), items_(grouped_capacity(pairs)) {}

  uint64_t capacity() const { return items_.size(); }

  // Groups `members` (slice-relative slots, each at most once) by block,
  // with sending(rel) for each. False, grouping nothing, when their (source,
  // block) pairs outnumber capacity(): the pairs are counted here, in the
  // pass that groups them, and not per activation in apply, where the count
  // was a random read per activated vertex (SSSP) or two per vertex of the
  // slice (PageRank, whose frontier is never grouped).
  template <class SendingOf>
  bool build(std::span<const uint32_t> members, const SourceBlocks& blocks, SendingOf&& sending) {
    std::fill(start_.begin(), start_.end(), 0);
    uint64_t* count = start_.data() + 1;
    uint64_t pairs = 0;
    for (uint32_t rel : members) {
      const std::span<const SourceBlocks::Entry> of = blocks.of(rel);
      pairs += of.size();
      if (pairs > items_.size()) return false;
      for (const SourceBlocks::Entry& e : of) ++count[e.group];
    }
    for (size_t g = 1; g < start_.size(); ++g) start_[g] += start_[g - 1];  // start_[g]: group g's start
    // Shifted by one, start_[g + 1] is group g's cursor: filling moves it
    // from the group's start to its end, which is group g + 1's start.
    for (size_t g = start_.size() - 1; g > 0; --g) start_[g] = start_[g - 1];
    Item* items = items_.data();
    uint64_t* cursor = start_.data() + 1;
    for (uint32_t rel : members) {
      const Sending<Message> what = sending(rel);
      for (const SourceBlocks::Entry& e : blocks.of(rel)) items[cursor[e.group]++] = Item{e.index, what};
    }
    return true;
  }

  // The members that are sources of block `group`, in the order given to build().
  std::span<const Item> in(unsigned group) const {
    return {items_.data() + start_[group], static_cast<size_t>(start_[group + 1] - start_[group])};
  }

 private:
  std::vector<uint64_t> start_;  // groups + 1: group g's items are [start_[g], start_[g + 1])
  std::vector<Item> items_;
};

}  // namespace wg
