// The worker role: apply and scatter for one contiguous slice of this node's
// vertex slots (one or more whole NUMA domains, or part of one: domains are
// contiguous in slot order), writing records straight into its own bucket
// ring group, one open bucket per destination (node, domain).
//
// Owner: one lcore. A worker writes only its slice of the vertex values and
// its own frontier, reads (and resets) only its slice of the input accumulator,
// and produces into the per-peer descriptor queues and the local queue
// (multi-producer rings when several workers run). Records are (index,
// Message) pairs of the program's own size (dataplane/wire.h).
//
// Worker only composes. What it does lives in small policies, each with its
// own state, in compute/engine/worker/ (docs/ENGINE.md has the whole
// picture): the parts every program uses, and one policy per mode, turned on
// at compile time by what the program declares (worker/modes.h), as DPDK's
// l3fwd picks its lookup mode; a mode that is off is an empty member.
//   slice.h           WorkerSlice: the slice and where its sources lie
//   active_sources.h  ActiveSources: frontier, scatter values, grouping by block
//   bucket_output.h   BucketOutput: buckets, the same-node fold, stall pacing
//   apply_pass.h      the apply step, in the phase's mode: every vertex, only
//                     those with messages (SkipIdle), or uniform (PageRank,
//                     CDLP); one function, so that its figures stay in registers
//   sparse_push.h     SparseEdges, write_runs: the sparse step
//   dense_pull.h      DensePull: the dense step (scalar ⊕)
//   level_steps.h     LevelSteps: level-synchronous (BFS, CC): top-down,
//                     bottom-up, Beamer's switch
//   settled_destinations.h  SettledDestinations: settling phases (BC's
//                     seed and forward): no records to destinations known
//                     to have taken their messages
//   own_takers.h      OwnTakers: dense pulls skip own vertices whose value
//                     says they take nothing (BC: reached ones, and those
//                     not one level up on the way back)
//   delta_steps.h     DeltaSteps: prioritized (SSSP): buckets, light/heavy edges
//   sender_combine.h  SenderCombine: SSSP's big sparse supersteps combined
//   local_rounds.h    LocalRounds: early (SSSP with --local-rounds)
//   in_edges.h        InEdges: phases that scatter along in-edges (SCC)
//
// A superstep, in named steps as gapbs writes its BFS:
//   apply():   begin_apply, apply_pass (uniform, only where messages
//              arrived, or every vertex), take (prioritized: the lowest
//              bucket), choose_scatter (dense or sparse, combined at the
//              sender or not)
//   scatter(): group_frontier, write_blocks (per destination group:
//              fold it here or scatter_block, both through produce),
//              local_rounds (early), count_sent
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "compute/engine/accumulator.h"
#include "compute/engine/blocked_frontier.h"
#include "compute/engine/dense_block.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/scatter_mode.h"
#include "compute/engine/scatter_policy.h"
#include "compute/engine/vertex_info.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/active_sources.h"
#include "compute/engine/worker/apply_pass.h"
#include "compute/engine/worker/bucket_output.h"
#include "compute/engine/worker/delta_steps.h"
#include "compute/engine/worker/dense_pull.h"
#include "compute/engine/worker/in_edges.h"
#include "compute/engine/worker/level_steps.h"
#include "compute/engine/worker/local_rounds.h"
#include "compute/engine/worker/modes.h"
#include "compute/engine/worker/own_takers.h"
#include "compute/engine/worker/sender_combine.h"
#include "compute/engine/worker/settled_destinations.h"
#include "compute/engine/worker/slice.h"
#include "compute/engine/worker/sparse_push.h"
#include "compute/partition/partition.h"
#include "compute/report/run_report.h"
#include "dataplane/dataplane.h"

namespace wg {

template <VertexProgram Prog>
class Worker {
 public:
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Aggregate = typename Prog::Aggregate;
  using Accumulator = typename AccumulatorFor<Prog>::type;
  using Modes = WorkerModes<Prog>;
  using Output = BucketOutput<Message, Accumulator>;
  using Record = typename Output::Record;
  using Ring = typename Output::Ring;
  using Stall = wg::Stall;

  // The same rule for every program (scatter_policy.h).
  static bool dense_pays(uint64_t active_edges, uint64_t slice_edges) { return DensePays::dense(active_edges, slice_edges); }

  // Whether, under --scatter `mode`, every superstep that sends pulls
  // (Modes::kPullsOnly: PageRank, unless sparse). Its worker then needs the
  // source-major targets only to build its dense copy: the engine builds the
  // copies group by group (build_dense) and releases each group's targets
  // after (EdgeBlock::targets_released), so that the two copies of the edges
  // are never whole at once; and every superstep with an active vertex pulls.
  static bool pulls_only(ScatterMode mode) { return Modes::kPullsOnly && mode != ScatterMode::kSparse; }

  // segment_bytes: scatter values per segment of a dense pull (dense_block.h);
  // local_rounds: apply own vertices' records early where the program allows
  // (--local-rounds; worker/local_rounds.h); defer_dense: the dense copies
  // are left to build_dense (pulls_only), and the slice lists no source's
  // groups (a sparse superstep's grouping: a pull never reads them).
  Worker(Dataplane& dp, const LocalGraph& g, const Prog& prog, uint32_t lo, uint32_t hi,
         ScatterMode mode = ScatterMode::kAuto, size_t segment_bytes = default_segment_bytes(),
         bool local_rounds = false, bool defer_dense = false)
      : g_(g), prog_(prog), slice_(g, lo, hi, !defer_dense), mode_(Modes::kPulls ? mode : ScatterMode::kSparse), out_(dp, g),
        active_(slice_), dense_(g, slice_, mode_, segment_bytes, defer_dense), levels_(g, slice_),
        settled_(g, slice_.edges, mode_), takers_(g, slice_), delta_(g, slice_, prog), combine_(g, mode_),
        rounds_(slice_, local_rounds), in_(g, slice_) {}

  // The dense copy of `group`'s edges of the slice (the constructor's, when
  // it was deferred); `spent`: that group's block, whose pages the copy has
  // read go back to the kernel as it is built (dense_block.h).
  void build_dense(unsigned group, EdgeBlock* spent = nullptr) {
    if constexpr (Modes::kPulls) dense_.build(g_, slice_, group, spent);
  }

  // Apply (or init, at s = 0) over the slice (worker/apply_pass.h): reads Σin
  // and resets it to the identity, ready to receive superstep s+1's
  // messages; builds the frontier and decides how it scatters. `in` holds
  // one accumulator per domain, indexed within the domain.
  template <class Acc>
  void apply(const StepInfo<Aggregate>& info, std::vector<Value>& values, std::vector<Acc>& in, const Stall& stall) {
    const bool levels = begin_apply(info, values.data());
    // Qualified: ADL would instantiate the stand-ins' policies (PolicyOff<P>).
    ApplyOutcome<Aggregate> outcome =
        wg::apply_pass<Prog>(prog_, g_, slice_, info, values.data(), in, active_, levels_, settled_, delta_, stall);
    if constexpr (Modes::kPrioritized) {
      const auto taken = delta_.take(prog_, values.data(), g_, slice_.lo, active_);
      outcome.active += taken.vertices;
      outcome.active_edges += taken.edges;
    }
    choose_scatter(info.superstep, outcome, levels);
  }

  // Scatter the slice's active vertices, destination by destination, starting
  // after this node (staggered, so the cluster does not all send to node 0 first).
  // The scatter values are apply's. Buckets carry `epoch`, the
  // runtime's count of supersteps (compute/engine/superstep_runtime.h, "Phases").
  void scatter(uint32_t s, uint32_t epoch, const Stall& stall) {
    out_.start_superstep(epoch);
    stats_.dense = dense_now_;
    stall_ = &stall;
    const bool early = early_now();
    group_frontier();
    write_blocks(s, !early);  // with local rounds to come, buckets stay open
    if constexpr (Modes::kEarly) {
      if (early) {
        local_rounds(s);
        close_blocks();
      }
    }
    count_sent();
  }

  // After a checkpoint was read back (values, the program, Σ): what the
  // worker kept between supersteps is rebuilt from the values. Only delta-
  // stepping's schedule matters: every vertex that holds a value init would
  // not have given it, or that init activated, waits for its bucket again
  // (an improved vertex may not have sent yet; sending what others already
  // have changes no distance). The level-synchronous bitmaps of destinations
  // known to be reached, and those of destinations known to have settled,
  // start empty, which only sends more.
  void resumed(const Value* values) {
    if constexpr (Modes::kPrioritized) {
      for (uint32_t rel = 0; rel < slice_.size(); ++rel) {
        const uint32_t i = slice_.lo + rel;
        const VertexInfo v = vertex_info<Prog>(g_, i);
        Value initial{};
        const bool active = prog_.init(initial, v);
        if (active || std::memcmp(&initial, &values[i], sizeof(Value)) != 0) delta_.wait(rel, prog_.bucket(values[i]));
      }
    }
  }

  // Same-node records of superstep s go straight into out[(s+1)&1][domain].
  // Only for a worker on the lcore that owns the accumulators.
  void fold_locally(std::vector<Accumulator>* out0, std::vector<Accumulator>* out1) { out_.fold_locally(out0, out1); }
  // Of stats().messages_local, how many this superstep were folded by the
  // worker itself, and how many of those did not fit (SlotAccumulator).
  uint64_t folded_directly() const { return out_.folded_directly(); }
  uint64_t direct_overflows() const { return out_.direct_overflows(); }

  const StepStats& stats() const { return stats_; }
  // The merge of aggregate() over the slice, in vertex order, this superstep.
  const Aggregate& aggregate() const { return aggregate_; }
  uint64_t buckets_to(unsigned dst) const { return out_.ring().buckets_to(dst); }
  uint64_t records_to(unsigned dst) const { return out_.ring().records_to(dst); }
  // The worker's buckets: counts per receive queue for END (compute/engine/superstep_runtime.h).
  const Ring& ring() const { return out_.ring(); }

 private:
  // ---- apply's steps ------------------------------------------------------------

  // The frontier emptied, the modes told the superstep; whether its phase
  // is level-synchronous.
  bool begin_apply(const StepInfo<Aggregate>& info, Value* values) {
    bool levels = false;
    if constexpr (Modes::kLevels) levels = levels_.begin(info.phase);
    if constexpr (Modes::kSettles) settled_.begin(info.phase);
    if constexpr (Modes::kOwnTakers) takers_.set_values(values);
    active_.frontier().reset();
    if constexpr (Modes::kEarly) rounds_.begin(values, info);
    if constexpr (Modes::kInEdges) in_.begin(info.phase);
    return levels;
  }

  // Dense or sparse (scatter_policy.h), and whether to combine at the sender.
  void choose_scatter(uint32_t s, const ApplyOutcome<Aggregate>& outcome, bool levels) {
    stats_ = StepStats{};
    stats_.superstep = s;
    stats_.active = outcome.active;
    aggregate_ = outcome.aggregate;
    active_.settle();
    bool dense = false;
    if constexpr (Modes::kLevels) {
      if (levels) dense = levels_.bottom_up(outcome.active, outcome.active_edges, slice_.size());
    }
    // Delta-stepping's frontiers are buckets, and its dense pull never paid:
    // kron20's first heavy flush (237 K vertices, 79% of the edges) took
    // 170 ms of CPU as a pull against 92 ms sparse at P=1, and the same CPU
    // at P=2; so it stays sparse unless forced.
    uint64_t weighed_against = slice_.edges;
    if constexpr (Modes::kSettles) {
      if (settled_.now()) weighed_against = settled_.unexplored_edges(outcome.active_edges);
    }
    if (!levels) dense = !Modes::kSplitsEdges && dense_pays(outcome.active_edges, weighed_against);
    dense_now_ = mode_ == ScatterMode::kDense || (mode_ == ScatterMode::kAuto && dense) ||
                 (pulls_only(mode_) && outcome.active > 0);
    if constexpr (Modes::kSplitsEdges)
      combine_.decide(!dense_now_, early_now(), outcome.active_edges, g_.partition.nodes);
  }

  // ---- scatter's steps --------------------------------------------------------

  // A sparse superstep with few (source, block) pairs: the frontier's list
  // grouped by block, each member with what it sends.
  void group_frontier() {
    active_.group(!dense_now_ && !in_edges_now(), slice_.source_blocks, [this](uint32_t rel) { return sending_of(rel); });
  }

  // Every destination group, starting after this node: same-node groups
  // folded here when the worker owns the accumulators, the others written
  // into their buckets, which are closed if `close`.
  void write_blocks(uint32_t s, bool close) {
    const Stall& stall = *stall_;
    Output::for_each_group(g_, [&](unsigned group, unsigned dst, unsigned d) {
      if (dst == g_.rank && out_.folds_locally()) {
        out_.fold(s, d, stall, [&](auto&& emit) { produce_for(group, emit); });
        return;
      }
      scatter_block(group, stall);
      if (close) out_.close(group);
    });
  }
  void close_blocks() {
    Output::for_each_group(g_, [&](unsigned group, unsigned, unsigned) { out_.close(group); });
  }

  // Records into the group's open bucket, rolling to a fresh one when full.
  void scatter_block(unsigned group, const Stall& stall) {
    if constexpr (Modes::kSplitsEdges) {
      if (combine_.now() && group / g_.domains != g_.rank) {
        combine_.write(group, out_, stall, [&](auto&& emit) { produce(group, emit); });
        return;
      }
    }
    if constexpr (!Modes::kWeights && !Modes::kEarly) {
      if (!dense_now_ && !levels_now() && !settles_now()) {
        if (out_edges_now())
          write_runs<Prog>(out_, group, g_.blocks[group], stall, [&](auto&& f) { for_each_active_source(group, f); });
        if constexpr (Modes::kInEdges) {
          if (in_.in_now())
            write_runs<Prog>(out_, group, in_.block(group), stall,
                             [&](auto&& f) { for_each_active_in_source(group, f); });
        }
        return;
      }
    }
    out_.write(group, stall, [&](auto&& emit) { produce_for(group, emit); });
  }

  // Local rounds (worker/local_rounds.h): the records to own vertices of
  // the pass just done are applied; while that improves own vertices into
  // this superstep's lowest bucket, they send along their light edges in a
  // sparse pass over every group (compute/engine/delta_schedule.h, again()).
  void local_rounds(uint32_t s) {
    dense_now_ = false;
    for (;;) {
      rounds_.apply_own(prog_, g_, slice_.lo, [&](uint32_t rel, uint64_t b) { delta_.wait(rel, b); });
      active_.frontier().reset();
      if (delta_.take_again(prog_, rounds_.values(), g_, slice_.lo, active_) == 0) return;
      ++stats_.local_rounds;
      active_.settle();
      group_frontier();
      write_blocks(s, false);
      if (stats_.local_rounds % LocalRounds<Prog>::kRoundsPerStall == 0) (*stall_)(false);
    }
  }

  void count_sent() {
    const Ring& ring = out_.ring();
    const unsigned nodes = g_.partition.nodes;
    for (unsigned d = 0; d < nodes; ++d) {
      stats_.messages_sent += ring.records_to(d);
      if (d == g_.rank)
        stats_.messages_local += ring.records_to(d);
      else
        stats_.buckets_sent += ring.buckets_to(d);
    }
    stats_.messages_sent += out_.folded_directly();
    stats_.messages_local += out_.folded_directly();
  }

  // ---- what a group receives ----------------------------------------------------

  // produce(), except that when the program applies early the records for
  // this worker's own vertices are applied (relax) instead of emitted.
  template <class Emit>
  void produce_for(unsigned group, Emit&& emit) {
    if constexpr (Modes::kEarly) {
      if (rounds_.now() && group / g_.domains == g_.rank) {
        rounds_.produce_own(g_, group, slice_, stats_, [&](auto&& own_emit) { produce(group, own_emit); }, emit);
        return;
      }
    }
    produce(group, emit);
  }

  // Calls emit(target, message) for every record this worker sends to
  // `group` this superstep: one per out-edge of an active source (sparse),
  // or one per destination with the ⊕ of its active sources' messages
  // (dense); for a level-synchronous program none to a destination known to
  // be reached, and a dense pull that stops at the first active source; in
  // a settling phase none to a destination known to have settled; and a
  // dense pull skips the own vertices whose value says they take nothing.
  template <class Emit>
  void produce(unsigned group, Emit&& emit) {
    auto ignores = [this, group](uint32_t t) {
      if constexpr (Modes::kOwnTakers)
        return takers_.ignores(prog_, group, t);
      else
        return false;
    };
    if constexpr (Modes::kSettles) {
      if (settled_.now()) {
        auto pruned = settled_.pruning(group, emit);
        produce_all(group, pruned, [&](uint32_t t) { return settled_.settled(group, t) || ignores(t); });
        return;
      }
    }
    produce_all(group, emit, ignores);
  }
  // produce(), `skip` naming the destinations a dense pull leaves out.
  template <class Emit, class Skip>
  void produce_all(unsigned group, Emit&& emit, Skip&& skip) {
    if constexpr (Modes::kPulls) {
      if (dense_now_) {
        if constexpr (Modes::kLevels) {
          if (levels_.now()) {
            levels_.pull_bottom_up(group, dense_.block(group), active_.frontier(), slice_.lo, emit);
            return;
          }
        }
        dense_.pull(group, active_, slice_.lo,
                    [this](const DenseBlock& db, uint64_t e, uint32_t rel) { return pull_sends(db, e, rel); }, skip,
                    emit);
        return;
      }
    }
    if constexpr (Modes::kInEdges) {
      if (in_.in_now()) {
        const SparseEdges<Prog> in_edges(in_.block(group));
        for_each_active_in_source(group, [&](size_t i, const Sending<Message>& sending) {
          in_edges.push(i, sending.value, emit);
        });
      }
    }
    if (!out_edges_now()) return;
    const EdgeBlock& b = g_.blocks[group];
    const SparseEdges<Prog> edges(b);
    for_each_active_source(group, [&](size_t i, const Sending<Message>& sending) {
      if constexpr (Modes::kLevels) {
        if (levels_.now()) {
          levels_.push_top_down(group, b, i, mode_ != ScatterMode::kSparse, emit);
          return;
        }
      }
      if constexpr (Modes::kSplitsEdges) {
        delta_.push_light_heavy(group, b, i, slice_.ranges[group].first, sending, emit);
        return;
      }
      edges.push(i, sending.value, emit);
    });
  }

  // f(i, sending) for every active source of block `group` in the slice.
  template <class F>
  void for_each_active_source(unsigned group, F&& f) {
    active_.for_each_in(group, g_.blocks[group], slice_.ranges[group], slice_.lo,
                        [this](uint32_t rel) { return sending_of(rel); }, f);
  }

  // ... of block `group` of the in-edges (never grouped: group_frontier).
  template <class F>
  void for_each_active_in_source(unsigned group, F&& f) {
    active_.for_each_in(group, in_.block(group), in_.slice().ranges[group], slice_.lo,
                        [this](uint32_t rel) { return sending_of(rel); }, f);
  }

  // Whether in-edge e of a dense copy, from slice vertex rel, carries a
  // message this superstep: its source is active and, when the program
  // splits light and heavy edges, sends along edges of e's class.
  bool pull_sends(const DenseBlock& db, uint64_t e, uint32_t rel) const {
    if (!active_.frontier().contains(rel)) return false;
    if constexpr (Modes::kSplitsEdges) return delta_.sends_class(db, e, rel);
    return true;
  }

  Sending<Message> sending_of(uint32_t rel) const {
    if constexpr (Modes::kPrioritized)
      return Sending<Message>{active_.value(rel), delta_.edges_of(rel)};
    else
      return Sending<Message>{active_.value(rel), 0};
  }

  bool levels_now() const {
    if constexpr (Modes::kLevels)
      return levels_.now();
    else
      return false;
  }
  bool settles_now() const {
    if constexpr (Modes::kSettles)
      return settled_.now();
    else
      return false;
  }
  // This superstep sends along out-edges (every program but in the phases
  // that declare kIn), or along in-edges (kIn, kBoth).
  bool out_edges_now() const {
    if constexpr (Modes::kInEdges)
      return in_.out_now();
    else
      return true;
  }
  bool in_edges_now() const {
    if constexpr (Modes::kInEdges)
      return in_.in_now();
    else
      return false;
  }
  bool early_now() const {
    if constexpr (Modes::kEarly)
      return rounds_.now();
    else
      return false;
  }

  const LocalGraph& g_;
  const Prog& prog_;
  const WorkerSlice slice_;
  const ScatterMode mode_;  // --scatter, as it holds for this program
  Output out_;
  ActiveSources<Message> active_;
  [[no_unique_address]] PolicyIf<Modes::kPulls, DensePull<Prog>> dense_;
  [[no_unique_address]] PolicyIf<Modes::kLevels, LevelSteps<Prog>> levels_;
  [[no_unique_address]] PolicyIf<Modes::kSettles, SettledDestinations<Prog>> settled_;
  [[no_unique_address]] PolicyIf<Modes::kOwnTakers, OwnTakers<Prog>> takers_;
  [[no_unique_address]] PolicyIf<Modes::kPrioritized, DeltaSteps<Prog>> delta_;
  [[no_unique_address]] PolicyIf<Modes::kSplitsEdges, SenderCombine<Prog>> combine_;
  [[no_unique_address]] PolicyIf<Modes::kEarly, LocalRounds<Prog>> rounds_;
  [[no_unique_address]] PolicyIf<Modes::kInEdges, InEdges<Prog>> in_;
  const Stall* stall_ = nullptr;  // scatter's
  bool dense_now_ = false;        // this superstep (or local round) pulls
  StepStats stats_;
  Aggregate aggregate_{};
};

}  // namespace wg
