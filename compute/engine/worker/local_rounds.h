// The early mode (delta-stepping SSSP with --local-rounds; applies_early in
// compute/engine/vertex_program.h): the records for the worker's own
// vertices are applied by the worker as it writes them, never sent; a
// vertex that improves into a bucket the worker took this superstep is
// taken again in a local round, which sends along its light edges (to every
// destination), until no own vertex improves into those buckets. A light
// path within the worker's slice then costs one superstep, not one per
// edge. Off by default: fewer supersteps and records, but slower on every
// configuration measured but one (compute/engine/engine_options.h).
//
// The records are folded with ⊕ into an accumulator per own vertex
// (compute/engine/own_messages.h) and applied once the pass over the blocks
// is done (apply_own), each vertex once and in slot order.
//
// Steps: begin (apply), produce_own (per own-node group, while writing),
// apply_own (after each pass; the worker then takes the bucket again,
// DeltaSteps::take_again). Owner: the worker.
#pragma once

#include <rte_branch_prediction.h>

#include <cstdint>

#include "compute/engine/own_messages.h"
#include "compute/engine/vertex_info.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"
#include "compute/report/run_report.h"
#include "dataplane/wire.h"

namespace wg {

template <VertexProgram Prog>
class LocalRounds {
 public:
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Aggregate = typename Prog::Aggregate;
  using Record = wire::RecordOf<Message>;

  // enabled: --local-rounds.
  LocalRounds(const WorkerSlice& slice, bool enabled) : enabled_(enabled), own_(enabled ? slice.size() : 0) {}

  // Apply: the engine's values (this worker writes its slice) and the
  // superstep, for apply_own; whether this superstep's phase applies early.
  bool begin(Value* values, const StepInfo<Aggregate>& info) {
    values_ = values;
    info_ = info;
    return now_ = enabled_ && applies_early<Prog>(info.phase);
  }
  bool now() const { return now_; }
  Value* values() const { return values_; }

  // A group of this node's: produce(emit)'s records, except that those for
  // the slice's own vertices are folded into own_ (counted in
  // stats.relaxed_locally) instead of emitted.
  template <class Produce, class Emit>
  void produce_own(const LocalGraph& g, unsigned group, const WorkerSlice& slice, StepStats& stats, Produce&& produce,
                   Emit& emit) {
    const uint32_t base = g.domain_offset[group % g.domains];
    const uint32_t lo = slice.lo, span = slice.hi - slice.lo;
    Record batch[kOwnBatch];  // index: the own vertex, relative to the slice
    unsigned n = 0;
    auto flush = [&] {
      own_.fold(batch, n);
      stats.relaxed_locally += n;
      n = 0;
    };
    produce([&](uint32_t target, Message m) {
      const uint32_t rel = base + target - lo;
      if (rel < span) {  // unsigned: also false below lo
        batch[n++] = Record{rel, m};
        if (unlikely(n == kOwnBatch)) flush();
      } else {
        emit(target, m);
      }
    });
    flush();
  }

  // Applies the messages own vertices received in the pass just done: an
  // improved vertex waits for its bucket, maybe this superstep's (the next
  // local round): wait(rel, bucket).
  template <class Wait>
  void apply_own(const Prog& prog, const LocalGraph& g, uint32_t lo, Wait&& wait) {
    Value* const value = values_;
    own_.drain([&](uint32_t rel, Message m) {
      const uint32_t i = lo + rel;
      if (prog.apply(value[i], m, vertex_info<Prog>(g, i), info_))
        wait(rel, prog.bucket(value[i]));
    });
  }

  // Local rounds between calls to the stall hook (the network roles of a
  // shared lcore keep running).
  static constexpr uint64_t kRoundsPerStall = 64;

 private:
  static constexpr unsigned kOwnBatch = 256;  // records folded into own_ at once (in L1)

  const bool enabled_;
  bool now_ = false;          // this superstep's phase applies early
  Value* values_ = nullptr;   // the engine's values
  StepInfo<Aggregate> info_{};  // this superstep's, for apply
  OwnMessages<Prog> own_;     // records to own vertices in the pass at hand
};

}  // namespace wg
