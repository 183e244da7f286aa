// The worker role: apply and scatter for one contiguous slice of this node's
// vertex slots (one or more whole NUMA domains, or part of one: domains are
// contiguous in slot order), writing records straight into its own bucket
// ring group, one open bucket per destination (node, domain).
//
// Owner: one lcore. A worker writes only its slice of the vertex values and
// its own frontier, reads (and resets) only its slice of the input accumulator,
// and produces into the per-peer descriptor queues and the local queue
// (multi-producer rings when several workers run).
//
// Same-node records skip the buckets when the worker shares its lcore with
// the accumulators (fold_locally): it folds them into the output accumulator
// itself, as the network role would a moment later, without writing each
// record into an mbuf and reading it back. With the roles on separate lcores
// the accumulators have one owner, the network role, and records go by the
// local queue as before.
//
// Records are (index, Message) pairs of the program's own size (dataplane/wire.h).
//
// Sparse and dense supersteps: by default (sparse) every active source sends
// one record per out-edge. For programs with a scalar ⊕ the worker also
// keeps a destination-major copy of its edges (compute/engine/dense_block.h) and,
// when its active sources hold most of its edges (compute/engine/scatter_policy.h;
// always, with ScatterMode::kDense), pulls per destination and sends one
// record carrying the ⊕ of its sources' messages (Gemini's dense mode), one
// per source segment whose scatter values fit in the L2 cache.
//
// The active sources are the worker's frontier (compute/engine/frontier.h): a
// bitmap the pulls test per in-edge, and while it is small a list. A sparse
// superstep whose frontier has few (source, block) pairs groups the list by
// block from each member's list of blocks (compute/engine/source_blocks.h,
// compute/engine/blocked_frontier.h), so it costs the frontier's pairs, not the
// blocks' sources; a bigger one tests each block's sources against the
// bitmap. A program whose apply needs a
// message (compute/engine/vertex_program.h) is applied only where one arrived. A
// level-synchronous program (BFS) also keeps, per destination group, the
// destinations this worker knows to be reached (it sent to them, or they are
// its own and were active): it sends nothing to those, and its dense
// supersteps are bottom-up steps (each unreached destination's pull stops at
// its first active in-neighbour), switched by Beamer's rule.
//
// Local rounds: a program that applies early (delta-stepping SSSP,
// compute/engine/vertex_program.h) has the records for the worker's own vertices
// applied by the worker as it writes them, never sent; a vertex that
// improves into a bucket the worker took this superstep is taken again in
// a local round, which sends along its light edges (to every destination),
// until no own vertex improves into those buckets. A light path within the
// worker's slice then costs one superstep, not one per edge.
#pragma once

#include <rte_branch_prediction.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "compute/engine/accumulator.h"
#include "compute/engine/bitmap.h"
#include "compute/engine/blocked_frontier.h"
#include "compute/engine/delta_schedule.h"
#include "compute/engine/dense_block.h"
#include "compute/engine/frontier.h"
#include "compute/engine/light_first.h"
#include "compute/engine/own_messages.h"
#include "compute/partition/partition.h"
#include "compute/report/run_report.h"
#include "compute/engine/scatter_mode.h"
#include "compute/engine/scatter_policy.h"
#include "compute/engine/source_blocks.h"
#include "compute/engine/vertex_program.h"
#include "dataplane/bucket_ring.h"

namespace wg {

template <VertexProgram Prog>
class Worker {
 public:
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Aggregate = typename Prog::Aggregate;
  using Accumulator = typename AccumulatorFor<Prog>::type;
  using Record = wire::RecordOf<Message>;
  using Ring = BucketRingGroup<Record>;
  // Messages can be combined on the sender: the receiver folds with a scalar ⊕.
  static constexpr bool kCombinable = std::is_same_v<Accumulator, ScalarAccumulator<Prog>>;
  static constexpr bool kWeights = Prog::kTraits.graph.weights;
  // Some phases are applied only where a message arrived (after superstep 0).
  static constexpr bool kSkipIdle = kCombinable && declares_idle_phases<Prog>();
  // Some phases are level-synchronous: reached destinations are skipped,
  // dense supersteps are bottom-up.
  static constexpr bool kLevels = kCombinable && declares_level_phases<Prog>();
  // Improved vertices wait for their bucket (delta-stepping), and send
  // along light and heavy edges at different times.
  static constexpr bool kPrioritized = prioritized<Prog>();
  static constexpr bool kSplitsEdges = splits_light_edges<Prog>();
  // Real (double) weights: sparse supersteps only (the dense copy holds
  // integer weights), never prioritized (the light-first copy holds integer
  // weights too).
  static constexpr bool kRealWeights = Prog::kTraits.graph.real_weights;
  static_assert(!kRealWeights || !kPrioritized, "delta-stepping's light-first copy holds integer weights");
  // Records to the worker's own vertices are applied at once, and the
  // current buckets relaxed in local rounds (see above).
  static constexpr bool kEarly = kCombinable && declares_early_phases<Prog>();
  // A phase in which every vertex scatters or none does (PageRank): apply
  // sets the frontier whole after the pass, and counts nothing per vertex.
  static constexpr bool kUniform = declares_uniform_phases<Prog>() && !kPrioritized && !kLevels;
  static bool dense_pays(uint64_t active_edges, uint64_t slice_edges) {
    return DensePays::dense(active_edges, slice_edges);
  }
  // Called every few buckets (starved = false: a chance to run the network
  // roles on a shared lcore) and when the pool is empty (starved = true: make
  // an mbuf come back, by running the network roles or waiting for them).
  using Stall = std::function<void(bool starved)>;

  // segment_bytes: scatter values per segment of a dense pull (dense_block.h);
  // local_rounds: apply own vertices' records early where the program allows
  // (--local-rounds; see the top of the file).
  Worker(Dataplane& dp, const LocalGraph& g, const Prog& prog, uint32_t lo, uint32_t hi,
         ScatterMode mode = ScatterMode::kAuto, size_t segment_bytes = default_segment_bytes(),
         bool local_rounds = false)
      : g_(g), prog_(prog), lo_(lo), hi_(hi), ring_(dp, g.partition.nodes, g.domains, g.rank),
        ranges_(g.blocks.size()), mode_(kCombinable && !kRealWeights ? mode : ScatterMode::kSparse),
        frontier_(hi - lo, kListFraction), sv_(hi - lo), schedule_(kPrioritized ? hi - lo : 0),
        edge_class_(kSplitsEdges ? hi - lo : 0), local_rounds_(kEarly && local_rounds),
        own_(kEarly && local_rounds ? hi - lo : 0) {
    // This worker's sources in each block: a contiguous run, since sources ascend.
    for (size_t b = 0; b < g.blocks.size(); ++b) {
      const auto& src = g.blocks[b].sources;
      ranges_[b].first = std::lower_bound(src.begin(), src.end(), lo) - src.begin();
      ranges_[b].second = std::lower_bound(src.begin(), src.end(), hi) - src.begin();
    }
    for (uint32_t u = lo; u < hi; ++u) slice_edges_ += g.out_degree[u];
    beamer_ = BeamerSwitch(slice_edges_);
    if constexpr (kSplitsEdges) {
      if (mode_ == ScatterMode::kAuto) {  // room to combine a block to another node (scatter_combined)
        uint64_t size = 0;
        for (size_t b = 0; b < g.blocks.size(); ++b)
          if (b / g.domains != g.rank) size = std::max(size, g.blocks[b].target_span());
        combined_.assign(size, Prog::identity());
        touched_.reserve(size);
      }
      light_first_.reserve(g.blocks.size());
      for (size_t b = 0; b < g.blocks.size(); ++b)
        light_first_.emplace_back(g.blocks[b], ranges_[b].first, ranges_[b].second, prog.light_below());
    }
    source_blocks_ = SourceBlocks(g.blocks, ranges_, lo, hi);
    blocked_ = BlockedFrontier<Message>(static_cast<unsigned>(g.blocks.size()), source_blocks_.pairs());
    // A bottom-up pull reads only the frontier's bits, never scatter values:
    // one segment holds the whole slice (a program with level-synchronous
    // phases pulls combined values rarely: CC's other phases have small
    // frontiers).
    const uint32_t segment = kLevels ? UINT32_MAX
                                     : static_cast<uint32_t>(std::max<size_t>(segment_bytes / sizeof(Message), 1));
    // Delta-stepping pulls only when forced (apply(), "its dense pull never
    // paid"): no dense copy otherwise (on GAP's kron20 at P=1 building it
    // took a fifth of SSSP's load).
    if (mode_ == ScatterMode::kDense || (mode_ == ScatterMode::kAuto && !kSplitsEdges)) {
      dense_.reserve(g.blocks.size());
      for (size_t b = 0; b < g.blocks.size(); ++b)
        dense_.push_back(build_dense_block(g.blocks[b], ranges_[b].first, ranges_[b].second, kWeights, lo, segment));
    }
    if constexpr (kLevels) {
      // Indices up to the block's largest target (EdgeBlock::target_span)
      // and, for this node's own, its domain.
      reached_.reserve(g.blocks.size());
      unreached_.resize(g.blocks.size());
      todo_started_.assign(g.blocks.size(), false);
      for (size_t b = 0; b < g.blocks.size(); ++b) {
        uint64_t size = g.blocks[b].target_span();
        if (b / g.domains == g.rank) size = std::max<uint64_t>(size, g.domain_size(b % g.domains));
        reached_.emplace_back(size);
      }
    }
  }

  // Apply (or init, at s = 0) over the slice: reads Σin and resets it to the
  // identity, ready to receive superstep s+1's messages; builds the frontier.
  // `in` holds one accumulator per domain, indexed within the domain.
  template <class Acc>
  void apply(const StepInfo<Aggregate>& info, std::vector<Value>& values, std::vector<Acc>& in, const Stall& stall) {
    const uint32_t s = info.superstep;
    uint64_t n_active = 0, active_edges = 0;
    Aggregate agg{};
    // Locals, so that the loop keeps them in registers: a store through a
    // pointer that may alias anything would otherwise reload every pointer
    // and the program's fields from memory for the next vertex.
    static_assert(std::is_trivially_copyable_v<Prog>, "apply works on a copy of the program");
    const Prog prog = prog_;
    Value* const value = values.data();
    const uint32_t* const degree = g_.out_degree.data();
    const uint32_t* const in_degree = g_.in_degree.data();
    // Each active source's scatter value, taken here while the vertex is in
    // registers: once per vertex, not once per destination block (a sparse
    // superstep visits a source in every block it has edges in: up to P x K).
    Message* const sv = sv_.data();  // indexed by i - lo_
    const bool levels = kLevels && level_synchronous<Prog>(info.phase);
    levels_now_ = levels;
    frontier_.reset();
    if constexpr (kEarly) {
      values_ = value;
      info_ = info;
      early_now_ = local_rounds_ && applies_early<Prog>(info.phase);
    }
    Bitmap* own_reached = nullptr;  // kLevels: this worker's record of the domain's reached vertices
    uint32_t base = 0;              // the domain's first slot
    // A vertex that scatters this superstep (along edges of class cls, when
    // the program splits them).
    uint8_t classes_any = 0, classes_all = DeltaSchedule::kAll;  // kSplitsEdges: over the frontier
    auto vertex = [&](uint32_t i) { return VertexInfo{g_.global_id(i), degree[i], in_degree[i]}; };
    // Init or apply vertex i, adding it to the aggregate; whether it is active.
    auto applied = [&](uint32_t i, const auto& view, const VertexInfo& v) {
      const bool a = s == 0 ? prog.init(value[i], v) : prog.apply(value[i], view, v, info);
      prog.aggregate(value[i], v, agg);
      return a;
    };
    auto activate = [&](uint32_t i, const VertexInfo& v, uint8_t cls = DeltaSchedule::kAll) {
      if constexpr (kSplitsEdges) {
        classes_any |= cls;
        if (frontier_.contains(i - lo_)) {
          edge_class_[i - lo_] |= cls;
          classes_all = 0;  // two classes for one vertex: not uniform
          return;
        }
        classes_all &= cls;
        edge_class_[i - lo_] = cls;
      }
      frontier_.add(i - lo_);
      ++n_active;
      active_edges += v.out_degree;
      sv[i - lo_] = prog.scatter_value(value[i], v);
    };
    auto one = [&](uint32_t i, const auto& view) {
      const VertexInfo v = vertex(i);
      if (!applied(i, view, v)) return;
      if constexpr (kPrioritized) {  // improved: scatters with its bucket
        schedule_.improved(i - lo_, prog.bucket(value[i]));
        return;
      }
      if constexpr (kLevels) {
        if (levels) {  // every active vertex sends the same: no scatter value each
          frontier_.add(i - lo_);
          ++n_active;
          active_edges += v.out_degree;
          own_reached->set(i - base);
          level_message_ = Prog::edge_message(prog.scatter_value(value[i], v), 1);
          return;
        }
      }
      activate(i, v);
    };
    // A uniform phase: the per-vertex bookkeeping of activate() (a frontier
    // bit, its list, three counters) cost PageRank more than its arithmetic.
    const bool uniform =
        kUniform && activates_uniformly<Prog>(info.phase) && !(s > 0 && applies_only_with_messages<Prog>(info.phase));
    bool uniform_any = false, uniform_all = true;
    auto one_uniform = [&](uint32_t i, const auto& view) {
      const VertexInfo v = vertex(i);
      const bool a = applied(i, view, v);
      uniform_any |= a;
      uniform_all &= a;
      if (a) sv[i - lo_] = prog.scatter_value(value[i], v);
    };
    for (unsigned d = 0; d < g_.domains; ++d) {
      Acc& acc = in[d];
      base = g_.domain_offset[d];
      if constexpr (kLevels) own_reached = &reached_[g_.group(g_.rank, d)];
      const uint32_t lo = std::max(lo_, base), hi = std::min(hi_, g_.domain_offset[d + 1]);
      for (uint32_t first = lo; first < hi; first += std::min(hi - first, kApplyChunk)) {
        const uint32_t last = first + std::min(hi - first, kApplyChunk);
        if constexpr (kSkipIdle) {
          if (s > 0 && applies_only_with_messages<Prog>(info.phase)) {
            acc.take_received(first - base, last - base, [&](uint32_t j, Message m) { one(base + j, m); });
            stall(false);
            continue;
          }
        }
        if constexpr (kUniform) {
          if (uniform) {
            for (uint32_t i = first; i < last; ++i) one_uniform(i, acc.take(i - base));
            stall(false);
            continue;
          }
        }
        for (uint32_t i = first; i < last; ++i) one(i, acc.take(i - base));  // take also resets for s+1
        // A long apply (cd sorts every vertex's labels) must not starve the
        // network roles on a shared lcore: acks and keepalives keep flowing.
        stall(false);
      }
    }
    if constexpr (kUniform) {
      if (uniform && uniform_any) {  // one vertex active: every vertex is
        if (!uniform_all) {           // a program that broke its declaration: still defined
          for (uint32_t i = lo_; i < hi_; ++i)
            sv[i - lo_] = prog.scatter_value(value[i], vertex(i));
        }
        frontier_.add_all();
        n_active = hi_ - lo_;
        active_edges = slice_edges_;
      }
    }
    if constexpr (kPrioritized) {  // the lowest bucket this worker holds scatters
      auto bucket_of = [&](uint32_t rel) { return prog.bucket(value[lo_ + rel]); };
      auto sender = [&](uint8_t cls) {
        return [&, cls](uint32_t rel) {
          const uint32_t i = lo_ + rel;
          activate(i, vertex(i), cls);
        };
      };
      if constexpr (kSplitsEdges) {
        schedule_.next(bucket_of, sender(DeltaSchedule::kLight), sender(DeltaSchedule::kHeavy));
        uniform_class_ = classes_any == classes_all ? classes_any : 0;
        delta_now_ = prog.light_below();
      } else {
        schedule_.next(bucket_of, sender(DeltaSchedule::kAll), [](uint32_t) {});
      }
    }
    stats_ = StepStats{};
    stats_.superstep = s;
    stats_.active = n_active;
    aggregate_ = agg;
    all_active_ = frontier_.all();
    bool dense = false;
    if constexpr (kLevels) {
      static_assert(!kWeights, "a level-synchronous phase sends one message per superstep, whatever the edge");
      if (levels) dense = beamer_.bottom_up(n_active, active_edges, hi_ - lo_);
    }
    // Delta-stepping's frontiers are buckets, and its dense pull never paid:
    // kron20's first heavy flush (237 K vertices, 79% of the edges) took
    // 170 ms of CPU as a pull against 92 ms sparse at P=1, and the same CPU
    // at P=2; so it stays sparse unless forced.
    if (!levels) dense = !kSplitsEdges && dense_pays(active_edges, slice_edges_);
    dense_now_ = mode_ == ScatterMode::kDense || (mode_ == ScatterMode::kAuto && dense);
    // At least one record per destination on average: combine at the sender
    // (not with local rounds, whose buckets stay open through the rounds).
    if constexpr (kSplitsEdges)
      combine_now_ = !combined_.empty() && !dense_now_ && !(kEarly && early_now_) &&
                     active_edges >= uint64_t{g_.partition.nodes} * combined_.size();
  }

  // Scatter the slice's active vertices, destination by destination, starting
  // after this node (staggered, so the cluster does not all send to node 0 first).
  // The scatter values are apply's (sv_). Buckets carry `epoch`, the
  // runtime's count of supersteps (compute/engine/superstep_runtime.h, "Phases").
  void scatter(uint32_t s, uint32_t epoch, const Stall& stall) {
    ring_.start_superstep(epoch);
    folded_directly_ = direct_overflows_ = 0;
    stats_.dense = dense_now_;
    stall_ = &stall;
    const bool early = kEarly && early_now_;
    group_frontier();
    write_blocks(s, !early);  // with local rounds to come, buckets stay open
    if constexpr (kEarly) {
      if (early) {
        local_rounds(s);
        close_blocks();
      }
    }
    const unsigned nodes = g_.partition.nodes;
    for (unsigned d = 0; d < nodes; ++d) {
      stats_.messages_sent += ring_.records_to(d);
      if (d == g_.rank)
        stats_.messages_local += ring_.records_to(d);
      else
        stats_.buckets_sent += ring_.buckets_to(d);
    }
    stats_.messages_sent += folded_directly_;
    stats_.messages_local += folded_directly_;
  }

  // Same-node records of superstep s go straight into out[(s+1)&1][domain].
  // Only for a worker on the lcore that owns the accumulators.
  void fold_locally(std::vector<Accumulator>* out0, std::vector<Accumulator>* out1) {
    direct_[0] = out0;
    direct_[1] = out1;
  }
  // Of stats().messages_local, how many this superstep were folded by the
  // worker itself, and how many of those did not fit (SlotAccumulator).
  uint64_t folded_directly() const { return folded_directly_; }
  uint64_t direct_overflows() const { return direct_overflows_; }

  const StepStats& stats() const { return stats_; }
  // The merge of aggregate() over the slice, in vertex order, this superstep.
  const Aggregate& aggregate() const { return aggregate_; }
  uint64_t buckets_to(unsigned dst) const { return ring_.buckets_to(dst); }
  uint64_t records_to(unsigned dst) const { return ring_.records_to(dst); }
  // The worker's buckets: counts per receive queue for END (compute/engine/superstep_runtime.h).
  const Ring& ring() const { return ring_; }

 private:
  // Every destination group, starting after this node (staggered, so the
  // cluster does not all send to node 0 first): same-node groups folded
  // here when the worker owns the accumulators, the others written into
  // their buckets, which are closed if `close`.
  void write_blocks(uint32_t s, bool close) {
    const Stall& stall = *stall_;
    for_each_group([&](unsigned group, unsigned dst, unsigned d) {
      if (dst == g_.rank && direct_[0] != nullptr) {
        fold_block(group, (*direct_[(s + 1) & 1])[d], stall);
        return;
      }
      scatter_block(group, stall);
      if (close) ring_.close(group);
    });
  }
  void close_blocks() {
    for_each_group([&](unsigned group, unsigned, unsigned) { ring_.close(group); });
  }
  template <class F>
  void for_each_group(F&& f) const {
    const unsigned nodes = g_.partition.nodes;
    for (unsigned k = 1; k <= nodes; ++k) {
      const unsigned dst = (g_.rank + k) % nodes;
      for (unsigned d = 0; d < g_.domains; ++d) f(g_.group(dst, d), dst, d);
    }
  }

  // A sparse superstep with few (source, block) pairs: the frontier's list
  // grouped by block, each member with what it sends.
  void group_frontier() {
    blocked_now_ = !dense_now_ && frontier_.listed() &&
                   blocked_.build(frontier_.list(), source_blocks_, [this](uint32_t rel) { return sending_of(rel); });
  }
  Sending<Message> sending_of(uint32_t rel) const {
    if constexpr (kSplitsEdges)
      return Sending<Message>{sv_[rel], edge_class_[rel]};
    else
      return Sending<Message>{sv_[rel], 0};
  }

  // Local rounds (see the top of the file): the records to own vertices
  // of the pass just done are applied; while that improves own vertices
  // into this superstep's lowest bucket, they send along their light edges
  // in a sparse pass over every group (compute/engine/delta_schedule.h, again()).
  void local_rounds(uint32_t s) {
    dense_now_ = false;
    const Prog& prog = prog_;
    Value* const value = values_;
    auto bucket_of = [&](uint32_t rel) { return prog.bucket(value[lo_ + rel]); };
    for (;;) {
      apply_own();
      frontier_.reset();
      const uint64_t n = schedule_.again(bucket_of, [&](uint32_t rel) {
        const uint32_t i = lo_ + rel;
        frontier_.add(rel);
        sv_[rel] = prog.scatter_value(value[i], VertexInfo{g_.global_id(i), g_.out_degree[i], g_.in_degree[i]});
        if constexpr (kSplitsEdges) edge_class_[rel] = DeltaSchedule::kLight;
      });
      if (n == 0) return;
      ++stats_.local_rounds;
      all_active_ = frontier_.all();
      group_frontier();
      write_blocks(s, false);
      if (stats_.local_rounds % kRoundsPerStall == 0) (*stall_)(false);
    }
  }

  // Applies the messages own vertices received in the pass just done
  // (own_): an improved vertex waits for its bucket, maybe this
  // superstep's (the next local round).
  void apply_own() {
    const Prog& prog = prog_;
    Value* const value = values_;
    own_.drain([&](uint32_t rel, Message m) {
      const uint32_t i = lo_ + rel;
      if (prog.apply(value[i], m, VertexInfo{g_.global_id(i), g_.out_degree[i], g_.in_degree[i]}, info_))
        schedule_.improved(rel, prog.bucket(value[i]));
    });
  }

  // produce(), except that when the program applies early the records for
  // this worker's own vertices are applied (relax) instead of emitted.
  template <class Emit>
  void produce_for(unsigned group, Emit&& emit) {
    if constexpr (kEarly) {
      if (early_now_ && group / g_.domains == g_.rank) {
        const uint32_t base = g_.domain_offset[group % g_.domains];
        const uint32_t lo = lo_, span = hi_ - lo_;
        Record batch[kFoldBatch];  // index: the own vertex, relative to the slice
        unsigned n = 0;
        auto flush = [&] {
          own_.fold(batch, n);
          stats_.relaxed_locally += n;
          n = 0;
        };
        produce(group, [&](uint32_t target, Message m) {
          const uint32_t rel = base + target - lo;
          if (rel < span) {  // unsigned: also false below lo
            batch[n++] = Record{rel, m};
            if (unlikely(n == kFoldBatch)) flush();
          } else {
            emit(target, m);
          }
        });
        flush();
        return;
      }
    }
    produce(group, emit);
  }

  // Calls emit(target, message) for every record this worker sends to
  // `group` this superstep: one per out-edge of an active source (sparse),
  // or one per destination with the ⊕ of its active sources' messages
  // (dense); for a level-synchronous program none to a destination known to
  // be reached, and a dense pull that stops at the first active source.
  template <class Emit>
  void produce(unsigned group, Emit&& emit) {
    if (dense_now_) {
      if constexpr (kLevels) {
        if (levels_now_) {
          pull_bottom_up(group, emit);
          return;
        }
      }
      pull_combined(group, emit);
      return;
    }
    const EdgeBlock& b = g_.blocks[group];
    const uint32_t* targets = b.targets.data();
    const uint32_t* weights = b.weights.data();
    for_each_active_source(group, [&](size_t i, const Sending<Message>& sending) {
      if constexpr (kLevels) {
        // The superstep's one message, to destinations not known to be
        // reached (ScatterMode::kSparse: to every one, one record per edge).
        if (levels_now_) {
          Bitmap& reached = reached_[group];
          const bool prune = mode_ != ScatterMode::kSparse;
          for (uint64_t e = b.offsets[i], end = b.offsets[i + 1]; e < end; ++e) {
            if (prune) {
              if (reached.test(targets[e])) continue;
              reached.set(targets[e]);
            }
            emit(targets[e], level_message_);
          }
          return;
        }
      }
      const Message sv = sending.value;
      if constexpr (kSplitsEdges) {  // the light or heavy part of the source's edges, or both
        const LightFirstBlock& lf = light_first_[group];
        const uint8_t cls = sending.edges;
        const uint64_t start = b.offsets[i] - lf.first_edge, end = b.offsets[i + 1] - lf.first_edge;
        const uint64_t split = start + lf.light[i - ranges_[group].first];
        const uint64_t from = cls & DeltaSchedule::kLight ? start : split;
        const uint64_t to = cls & DeltaSchedule::kHeavy ? end : split;
        for (uint64_t e = from; e < to; ++e) emit(lf.targets[e], Prog::edge_message(sv, lf.weights[e]));
        return;
      }
      for (uint64_t e = b.offsets[i], end = b.offsets[i + 1]; e < end; ++e) {
        if constexpr (kRealWeights)
          emit(targets[e], Prog::edge_message(sv, b.real_weights[e]));
        else if constexpr (kWeights)
          emit(targets[e], Prog::edge_message(sv, weights[e]));
        else
          emit(targets[e], Prog::edge_message(sv, 1));
      }
    });
  }

  // Calls f(i, sending) for every active source of block `group` in this
  // worker's range (i: its index in the block; sending: what it sends). A
  // frontier with few pairs was grouped by block (group_frontier); a larger
  // one is found by testing every source's bit.
  template <class F>
  void for_each_active_source(unsigned group, F&& f) {
    if (blocked_now_) {
      for (const auto& item : blocked_.in(group)) f(item.index, item.sending);
      return;
    }
    const EdgeBlock& b = g_.blocks[group];
    const auto [first, last] = ranges_[group];
    const uint32_t* sources = b.sources.data();
    if (all_active_) {
      for (size_t i = first; i < last; ++i) f(i, sending_of(sources[i] - lo_));
      return;
    }
    for (size_t i = first; i < last; ++i)
      if (frontier_.contains(sources[i] - lo_)) f(i, sending_of(sources[i] - lo_));
  }

  // The message edge e of a dense block carries from source u.
  Message pull_message(const DenseBlock& db, uint64_t e, uint32_t u) const {
    if constexpr (kWeights)
      return Prog::edge_message(sv_[u - lo_], db.weights[e]);
    else
      return Prog::edge_message(sv_[u - lo_], 1);
  }

  // Dense: per destination, the ⊕ of its active sources' messages.
  template <class Emit>
  void pull_combined(unsigned group, Emit& emit) {
    const DenseBlock& db = dense_[group];
    const uint32_t* sources = db.sources.data();
    const uint32_t lo = lo_;
    for (size_t j = 0; j < db.targets.size(); ++j) {
      uint64_t e = db.offsets[j];
      const uint64_t end = db.offsets[j + 1];
      if (all_active_) {  // no bit to test per edge (PageRank: every superstep)
        Message acc = pull_message(db, e, sources[e]);
        for (++e; e < end; ++e) acc = Prog::combine(acc, pull_message(db, e, sources[e]));
        emit(db.targets[j], acc);
        continue;
      }
      while (e < end && !pull_sends(db, e, sources[e] - lo)) ++e;
      if (e == end) continue;
      Message acc = pull_message(db, e, sources[e]);
      for (++e; e < end; ++e)
        if (pull_sends(db, e, sources[e] - lo)) acc = Prog::combine(acc, pull_message(db, e, sources[e]));
      emit(db.targets[j], acc);
    }
  }

  // Whether in-edge e of a dense copy, from slice vertex rel, carries a
  // message this superstep: its source is active and, when the program
  // splits light and heavy edges, sends along edges of e's class.
  // When every active source sends the same class (the usual case: a light
  // superstep, or a bucket's heavy flush), the class is not looked up per
  // edge (a dense flush of kron20's first buckets cost 178 ms with it).
  bool pull_sends(const DenseBlock& db, uint64_t e, uint32_t rel) const {
    if (!frontier_.contains(rel)) return false;
    if constexpr (kSplitsEdges) {
      const uint8_t cls = uniform_class_ ? uniform_class_ : edge_class_[rel];
      if (cls != DeltaSchedule::kAll) return (db.weights[e] < delta_now_) == (cls == DeltaSchedule::kLight);
    }
    return true;
  }

  // Bottom-up (Beamer): every destination not known to be reached looks for
  // an active in-neighbour among this worker's sources and stops at the
  // first. All of them carry the same message (level_message_), so the
  // found source's scatter value is not read. The destinations still to
  // look at are kept as a list of positions in the dense copy, compacted as
  // they are reached: a later bottom-up step visits only those (kron20's
  // second one: 20 K of 645 K). The first load of every in-list misses the
  // cache (the lists are tens of MiB), so the list a few destinations ahead
  // is prefetched (13.6 -> 8.5 ms of CPU for the first bottom-up step of
  // kron20 at P=1).
  template <class Emit>
  void pull_bottom_up(unsigned group, Emit& emit) {
    const DenseBlock& db = dense_[group];
    const uint32_t* sources = db.sources.data();
    const uint64_t* offsets = db.offsets.data();
    const uint32_t* targets = db.targets.data();
    Bitmap& reached = reached_[group];
    std::vector<uint32_t>& todo = unreached_[group];
    const uint32_t lo = lo_;
    const Message m = level_message_;
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
        while (e < end && !frontier_.contains(sources[e] - lo)) ++e;
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

  // Records into the group's open bucket, rolling to a fresh one when full.
  void scatter_block(unsigned group, const Stall& stall) {
    if constexpr (kSplitsEdges) {
      if (combine_now_ && group / g_.domains != g_.rank) {
        scatter_combined(group, stall);
        return;
      }
    }
    if constexpr (!kWeights && !kEarly) {
      if (!dense_now_ && !levels_now_) {
        scatter_runs(group, stall);
        return;
      }
    }
    typename Ring::Open& o = ring_.open(group);
    produce_for(group, [&](uint32_t target, Message m) { put(group, o, Record{target, m}, stall); });
  }

  // A big sparse superstep of delta-stepping (a bucket's heavy flush: on
  // GAP's kron20 at P=2 one superstep sends 25 M of the run's 33 M records,
  // about 12 per destination): its records to another node are folded here
  // with ⊕ first, one per destination, in the order destinations were first
  // reached, so the network and the receiver's fold carry each destination
  // once. Unlike a dense pull this costs the records the superstep makes
  // (a min into combined_ each), not the node's in-edges. A destination
  // whose ⊕ is the identity is not sent: applying the identity changes
  // nothing (compute/engine/vertex_program.h, applies_only_with_messages).
  void scatter_combined(unsigned group, const Stall& stall) {
    Message* const c = combined_.data();
    const Message none = Prog::identity();
    unsigned until_stall = kRecordsPerStall;
    produce(group, [&](uint32_t target, Message m) {
      if (c[target] == none) touched_.push_back(target);
      c[target] = Prog::combine(c[target], m);
      if (unlikely(--until_stall == 0)) {  // as often as scatter_block would stall
        until_stall = kRecordsPerStall;
        stall(false);
      }
    });
    typename Ring::Open& o = ring_.open(group);
    for (const uint32_t t : touched_) {
      put(group, o, Record{t, c[t]}, stall);
      c[t] = none;
    }
    touched_.clear();
  }

  // One record into the group's open bucket o, rolling to a fresh one when full.
  void put(unsigned group, typename Ring::Open& o, Record r, const Stall& stall) {
    if (unlikely(o.cursor == o.end)) roll(group, stall);
    *o.cursor++ = r;
  }

  // Sparse and unweighted: a source's records to one block are its targets
  // there next to one value. Runs are short where sources spread over many
  // blocks (kron:20:16, P=16: 5.3 records per source and block), and a loop
  // per run mispredicts its exit once a run; so a run of at most kRun goes
  // out as kRun records written unconditionally (one vector store), the
  // cursor advancing by the run: the records past it are rewritten by the
  // next run or lie beyond the bucket's count.
  void scatter_runs(unsigned group, const Stall& stall) {
    typename Ring::Open& o = ring_.open(group);
    const EdgeBlock& b = g_.blocks[group];
    const uint32_t* targets = b.targets.data();
    const uint64_t edges = b.targets.size();
    for_each_active_source(group, [&](size_t i, const Sending<Message>& sending) {
      const Message value = Prog::edge_message(sending.value, 1);
      uint64_t e = b.offsets[i];
      const uint64_t end = b.offsets[i + 1];
      const uint64_t run = end - e;
      const uint64_t padded = (run + kRun - 1) / kRun * kRun;  // >= run: whole kRun-record stores
      if (likely(e + padded <= edges && static_cast<uint64_t>(o.end - o.cursor) >= padded)) {
        Record* c = o.cursor;
        for (uint64_t k = 0; k < padded; k += kRun)
          for (unsigned j = 0; j < kRun; ++j) c[k + j] = Record{targets[e + k + j], value};
        o.cursor = c + run;
        return;
      }
      for (; e < end; ++e) put(group, o, Record{targets[e], value}, stall);
    });
  }

  // A same-node block folded here: records batch in a small buffer (in L1)
  // and go through the accumulator's own fold, so the result is the one the
  // network role would produce.
  void fold_block(unsigned group, Accumulator& acc, const Stall& stall) {
    Record batch[kFoldBatch];
    unsigned n = 0;
    auto flush = [&] {
      if (!acc.fold(batch, n)) ++direct_overflows_;
      folded_directly_ += n;
      n = 0;
      // As often as scatter_block would stall: acks and keepalives keep flowing.
      if (++batches_since_stall_ >= kBatchesPerStall) {
        batches_since_stall_ = 0;
        stall(false);
      }
    };
    produce_for(group, [&](uint32_t target, Message m) {
      batch[n++] = Record{target, m};
      if (unlikely(n == kFoldBatch)) flush();
    });
    if (n > 0) flush();
  }

  // The open bucket is full (or none is open yet): hand it on and open another.
  void roll(unsigned group, const Stall& stall) {
    ring_.close(group);
    if (++buckets_since_stall_ >= kBucketsPerStall) {
      // Let the network roles run regularly even when mbufs are plentiful
      // (on a shared lcore nothing else would drain the queues).
      buckets_since_stall_ = 0;
      stall(false);
    }
    while (unlikely(!ring_.reopen(group))) stall(true);
  }

  static constexpr unsigned kBucketsPerStall = 8;
  static constexpr unsigned kRun = 8;  // records written at once by scatter_runs (64 bytes)
  static constexpr unsigned kFoldBatch = 256;
  static constexpr unsigned kBatchesPerStall = kBucketsPerStall * Ring::kRecordsPerBucket / kFoldBatch;
  static constexpr unsigned kRecordsPerStall = kBucketsPerStall * Ring::kRecordsPerBucket;
  static constexpr uint32_t kApplyChunk = 1u << 16;  // vertices between stalls in apply
  // A frontier is listed while it holds at most this share of the slice
  // (1 byte per vertex for the list), so that one with few pairs can be
  // grouped by block (compute/engine/blocked_frontier.h says how few).
  static constexpr uint32_t kListFraction = 4;
  // Local rounds between calls to the stall hook (the network roles of a
  // shared lcore keep running).
  static constexpr uint64_t kRoundsPerStall = 64;
  static constexpr size_t kPrefetchAhead = 16;  // in-lists ahead in a bottom-up pull

  const LocalGraph& g_;
  const Prog& prog_;
  const uint32_t lo_, hi_;
  Ring ring_;
  std::vector<std::pair<size_t, size_t>> ranges_;
  SourceBlocks source_blocks_;               // per slice vertex: the groups it has edges in
  BlockedFrontier<Message> blocked_;          // a small frontier grouped by block
  bool blocked_now_ = false;                 // this superstep (or local round) uses blocked_
  const Stall* stall_ = nullptr;             // scatter's
  bool early_now_ = false;                   // kEarly: this superstep's phase applies early
  Value* values_ = nullptr;                  // kEarly: the engine's values (this worker writes its slice)
  StepInfo<Aggregate> info_{};               // kEarly: this superstep's, for apply
  unsigned buckets_since_stall_ = 0;
  unsigned batches_since_stall_ = 0;
  const ScatterMode mode_;
  uint64_t slice_edges_ = 0;                 // out-edges of the slice's vertices
  bool dense_now_ = false;                   // this superstep
  bool all_active_ = false;                  // every vertex of the slice active this superstep
  bool levels_now_ = false;                  // this superstep's phase is level-synchronous
  BeamerSwitch beamer_;                      // kLevels: top-down or bottom-up
  Message level_message_{};                  // kLevels: what every active source sends this superstep
  std::vector<DenseBlock> dense_;            // per group, unless sparse only
  Frontier frontier_;                        // this superstep's active vertices, by slot - lo_
  std::vector<Message> sv_;                  // scatter values of the slice's active vertices, from apply
  DeltaSchedule schedule_;                   // kPrioritized: improved vertices waiting for their bucket
  std::vector<uint8_t> edge_class_;          // kSplitsEdges: which edges each active vertex sends (DeltaSchedule::EdgeClass)
  const bool local_rounds_;                  // kEarly and --local-rounds on
  OwnMessages<Prog> own_;                    // local_rounds_: records to own vertices in the pass at hand
  std::vector<LightFirstBlock> light_first_;  // kSplitsEdges: per group, this worker's edges, light first
  uint8_t uniform_class_ = 0;                // kSplitsEdges: the class every active source sends this superstep, or 0
  bool combine_now_ = false;                 // kSplitsEdges: this superstep combines records to other nodes
  std::vector<Message> combined_;            // kSplitsEdges: per destination index, the ⊕ so far (identity: none)
  std::vector<uint32_t> touched_;            // destinations in combined_ that hold one, first reached first
  Weight delta_now_ = 0;                     // kSplitsEdges: edges lighter than this are light
  std::vector<Bitmap> reached_;              // kLevels: per group, destinations known to be reached
  std::vector<std::vector<uint32_t>> unreached_;  // kLevels: per group, dense-copy positions a bottom-up step still visits
  std::vector<bool> todo_started_;           // kLevels: per group, unreached_ filled
  std::vector<Accumulator>* direct_[2] = {nullptr, nullptr};
  uint64_t folded_directly_ = 0;
  uint64_t direct_overflows_ = 0;
  StepStats stats_;
  Aggregate aggregate_{};
};

}  // namespace wg
