// The dense step (Gemini's dense mode) for programs with a scalar ⊕ and
// integer weights: the worker keeps a destination-major copy of its edges
// (compute/engine/dense_block.h) and, when its active sources hold most of
// its edges (compute/engine/scatter_policy.h; always, with
// ScatterMode::kDense), pulls per destination and sends one record
// carrying the ⊕ of its sources' messages, one per source segment whose
// scatter values fit in a quarter of the L3 (default_segment_bytes).
// LevelSteps pulls the same copy bottom-up (level_steps.h).
//
// Delta-stepping pulls only when forced (Worker::choose_scatter, "its
// dense pull never paid"): no dense copy otherwise (on GAP's kron20 at P=1
// building it took a fifth of SSSP's load).
// Owner: the worker.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compute/engine/dense_block.h"
#include "compute/engine/scatter_mode.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/active_sources.h"
#include "compute/engine/worker/modes.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

template <VertexProgram Prog>
class DensePull {
 public:
  using Message = typename Prog::Message;
  using Modes = WorkerModes<Prog>;

  // mode: the worker's --scatter, as it holds for this program. Unless
  // `deferred`, every group's copy is built here; else the owner calls
  // build(group) for each (compute/engine/engine.h: a program that only pulls
  // releases each group's source-major targets once its copies exist).
  DensePull(const LocalGraph& g, const WorkerSlice& slice, ScatterMode mode, size_t segment_bytes, bool deferred)
      // A bottom-up pull reads only the frontier's bits, never scatter values:
      // one segment holds the whole slice (a program with level-synchronous
      // phases pulls combined values rarely: CC's other phases have small
      // frontiers).
      : segment_(Modes::kLevels ? UINT32_MAX
                                : static_cast<uint32_t>(std::max<size_t>(segment_bytes / sizeof(Message), 1))) {
    if (!(mode == ScatterMode::kDense || (mode == ScatterMode::kAuto && !Modes::kSplitsEdges))) return;
    blocks_.resize(g.blocks.size());
    if (!deferred)
      for (unsigned b = 0; b < g.blocks.size(); ++b) build(g, slice, b);
  }

  // spent: g.blocks[group], when its targets are read no more once the copy
  // is built (build_dense_block).
  void build(const LocalGraph& g, const WorkerSlice& slice, unsigned group, EdgeBlock* spent = nullptr) {
    blocks_[group] = build_dense_block(g.blocks[group], slice.ranges[group].first, slice.ranges[group].second,
                                       Modes::kWeights, slice.lo, segment_, spent);
  }

  const DenseBlock& block(unsigned group) const { return blocks_[group]; }

  // Per destination of `group`, the ⊕ of its active sources' messages:
  // emit(target, ⊕). sends(db, e, rel): whether in-edge e, from slice
  // vertex rel, carries a message (tested unless every source is active);
  // skip(target): whether the destination needs none (its in-list is not
  // read: SettledDestinations).
  template <class Sends, class Skip, class Emit>
  void pull(unsigned group, const ActiveSources<Message>& active, uint32_t lo, Sends&& sends, Skip&& skip,
            Emit& emit) const {
    const DenseBlock& db = blocks_[group];
    const uint32_t* sources = db.sources.data();
    const Message* sv = active.scatter_values();
    for (size_t j = 0; j < db.targets.size(); ++j) {
      if (skip(db.targets[j])) continue;
      uint64_t e = db.offsets[j];
      const uint64_t end = db.offsets[j + 1];
      if (active.all()) {  // no bit to test per edge (PageRank: every superstep)
        Message acc = message(db, e, sv[sources[e] - lo]);
        for (++e; e < end; ++e) acc = Prog::combine(acc, message(db, e, sv[sources[e] - lo]));
        emit(db.targets[j], acc);
        continue;
      }
      while (e < end && !sends(db, e, sources[e] - lo)) ++e;
      if (e == end) continue;
      Message acc = message(db, e, sv[sources[e] - lo]);
      for (++e; e < end; ++e)
        if (sends(db, e, sources[e] - lo)) acc = Prog::combine(acc, message(db, e, sv[sources[e] - lo]));
      emit(db.targets[j], acc);
    }
  }

 private:
  // The message in-edge e carries from a source with scatter value sv.
  static Message message(const DenseBlock& db, uint64_t e, Message sv) {
    if constexpr (Modes::kWeights)
      return Prog::edge_message(sv, db.weights[e]);
    else
      return Prog::edge_message(sv, 1);
  }

  uint32_t segment_;                // sources per segment
  std::vector<DenseBlock> blocks_;  // per group, unless sparse only
};

}  // namespace wg
