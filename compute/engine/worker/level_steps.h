// The level-synchronous mode (BFS, CC's seed and spread phases;
// level_synchronous in compute/engine/vertex_program.h): every active vertex
// sends the same message, and a vertex once reached never changes again. So
// the worker keeps, per destination group, the destinations it knows to be
// reached (it sent to them, or they are its own and were active) and sends
// nothing to those, and its dense supersteps are bottom-up steps (each
// unreached destination's pull stops at its first active in-neighbour),
// switched by Beamer's rule (compute/engine/scatter_policy.h, BeamerSwitch).
// The steps are gapbs' (bfs.cc): top-down (push_top_down) and bottom-up
// (pull_bottom_up).
//
// 1 bit per destination index of every group and, for bottom-up steps, a
// list of the destinations still unreached. Owner: the worker.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compute/engine/bitmap.h"
#include "compute/engine/dense_block.h"
#include "compute/engine/frontier.h"
#include "compute/engine/scatter_policy.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/settled_destinations.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

template <VertexProgram Prog>
class LevelSteps {
 public:
  using Message = typename Prog::Message;
  static_assert(!Prog::kTraits.graph.weights,
                "a level-synchronous phase sends one message per superstep, whatever the edge");

  LevelSteps(const LocalGraph& g, const WorkerSlice& slice)
      : beamer_(slice.edges),
        reached_(destination_bitmaps(g)),
        unreached_(g.blocks.size()),
        todo_started_(g.blocks.size(), false) {}

  // Apply: whether this superstep's phase is level-synchronous.
  bool begin(uint32_t phase) { return now_ = level_synchronous<Prog>(phase); }
  bool now() const { return now_; }
  // Apply (apply_pass.h): the reached bitmaps by group, in which an active
  // vertex of this node's domain d is set in group(rank, d); and the message
  // every active vertex sends (each sends the same: no scatter value each).
  Bitmap* reached_by_group() { return reached_.data(); }
  void set_message(Message m) { message_ = m; }

  // After apply: whether this superstep goes bottom-up (Beamer's rule).
  bool bottom_up(uint64_t active, uint64_t active_edges, uint64_t slice_vertices) {
    return beamer_.bottom_up(active, active_edges, slice_vertices);
  }

  // Top-down, source i of block b (group): the superstep's one message to
  // its destinations not known to be reached (prune false,
  // ScatterMode::kSparse: to every one, one record per edge).
  template <class Emit>
  void push_top_down(unsigned group, const EdgeBlock& b, size_t i, bool prune, Emit& emit) {
    const uint32_t* targets = b.targets.data();
    Bitmap& reached = reached_[group];
    for (uint64_t e = b.offsets[i], end = b.offsets[i + 1]; e < end; ++e) {
      if (prune) {
        if (reached.test(targets[e])) continue;
        reached.set(targets[e]);
      }
      emit(targets[e], message_);
    }
  }

  // Bottom-up (Beamer): every destination of db (the group's dense copy)
  // not known to be reached looks for an active in-neighbour among this
  // worker's sources and stops at the first. All of them carry the same
  // message, so the found source's scatter value is not read. The
  // destinations still to look at are kept as a list of positions in the
  // dense copy, compacted as they are reached: a later bottom-up step
  // visits only those (kron20's second one: 20 K of 645 K). The first load
  // of every in-list misses the cache (the lists are tens of MiB), so the
  // list a few destinations ahead is prefetched (13.6 -> 8.5 ms of CPU for
  // the first bottom-up step of kron20 at P=1).
  template <class Emit>
  void pull_bottom_up(unsigned group, const DenseBlock& db, const Frontier& frontier, uint32_t lo, Emit& emit) {
    const uint32_t* sources = db.sources.data();
    const uint64_t* offsets = db.offsets.data();
    const uint32_t* targets = db.targets.data();
    Bitmap& reached = reached_[group];
    std::vector<uint32_t>& todo = unreached_[group];
    const Message m = message_;
    // Position k of the walk is destination at(k): every one of the dense
    // copy in the run's first bottom-up step, then those still unreached.
    auto walk = [&](size_t n, auto at) {
      size_t kept = 0;
      for (size_t k = 0; k < n; ++k) {
        if (k + kPrefetchAhead < n) __builtin_prefetch(sources + offsets[at(k + kPrefetchAhead)]);
        const uint32_t j = at(k);
        const uint32_t t = targets[j];
        if (reached.test(t)) continue;
        uint64_t e = offsets[j];
        const uint64_t end = offsets[j + 1];
        while (e < end && !frontier.contains(sources[e] - lo)) ++e;
        if (e == end) {
          todo[kept++] = j;  // kept <= k: never overwrites what is still to be read
          continue;
        }
        reached.set(t);
        emit(t, m);
      }
      todo.resize(kept);
    };
    if (!todo_started_[group]) {
      todo_started_[group] = true;
      todo.resize(db.targets.size());
      walk(db.targets.size(), [](size_t k) { return static_cast<uint32_t>(k); });
    } else {
      walk(todo.size(), [&todo](size_t k) { return todo[k]; });
    }
  }

 private:
  static constexpr size_t kPrefetchAhead = 16;  // in-lists ahead in a bottom-up pull

  BeamerSwitch beamer_;                           // top-down or bottom-up
  Message message_{};                             // what every active source sends this superstep
  std::vector<Bitmap> reached_;                   // per group, destinations known to be reached
  std::vector<std::vector<uint32_t>> unreached_;  // per group, dense-copy positions a bottom-up step still visits
  std::vector<bool> todo_started_;                // per group, unreached_ filled
  bool now_ = false;                              // this superstep's phase is level-synchronous
};

}  // namespace wg
