// The worker role: apply and scatter for one contiguous slice of this node's
// vertex slots (one or more whole NUMA domains, or part of one: domains are
// contiguous in slot order), writing records straight into its own bucket
// ring group, one open bucket per destination (node, domain).
//
// Owner: one lcore. A worker writes only its slice of the vertex values and
// active flags, reads (and resets) only its slice of the input accumulator,
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
// keeps a destination-major copy of its edges (compute/dense_block.h) and,
// when its active sources hold more than 9/10 of its edges (or
// always, with ScatterMode::kDense), pulls per destination and sends one
// record carrying the ⊕ of its sources' messages (Gemini's dense mode), one
// per source segment whose scatter values fit in the L2 cache.
#pragma once

#include <rte_branch_prediction.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "compute/accumulator.h"
#include "compute/dense_block.h"
#include "compute/partition.h"
#include "report/run_report.h"
#include "compute/scatter_mode.h"
#include "compute/vertex_program.h"
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
  // Real (double) weights: sparse supersteps only (the dense copy holds integer weights).
  static constexpr bool kRealWeights = Prog::kTraits.graph.real_weights;
  // Dense when active sources hold more than kDenseTenths/10 of the slice's
  // out-edges. Gemini switches at 1/20, but its dense mode can stop a pull
  // early; here a dense pass reads every edge, and on kron:20:16 (P=2) SSSP
  // and BFS ran 0.72-0.90x as fast with the switch at 1/20 or 1/2, while
  // PageRank and CC (all or nearly all active) ran 1.7-2.5x faster.
  static constexpr uint64_t kDenseTenths = 9;
  static bool dense_pays(uint64_t active_edges, uint64_t slice_edges) {
    return active_edges * 10 > slice_edges * kDenseTenths;
  }
  // Called every few buckets (starved = false: a chance to run the network
  // roles on a shared lcore) and when the pool is empty (starved = true: make
  // an mbuf come back, by running the network roles or waiting for them).
  using Stall = std::function<void(bool starved)>;

  // segment_bytes: scatter values per segment of a dense pull (dense_block.h).
  Worker(Dataplane& dp, const LocalGraph& g, const Prog& prog, uint32_t lo, uint32_t hi,
         ScatterMode mode = ScatterMode::kAuto, size_t segment_bytes = default_segment_bytes())
      : g_(g), prog_(prog), lo_(lo), hi_(hi), ring_(dp, g.partition.nodes, g.domains, g.rank),
        ranges_(g.blocks.size()), mode_(kCombinable && !kRealWeights ? mode : ScatterMode::kSparse), sv_(hi - lo) {
    // This worker's sources in each block: a contiguous run, since sources ascend.
    for (size_t b = 0; b < g.blocks.size(); ++b) {
      const auto& src = g.blocks[b].sources;
      ranges_[b].first = std::lower_bound(src.begin(), src.end(), lo) - src.begin();
      ranges_[b].second = std::lower_bound(src.begin(), src.end(), hi) - src.begin();
    }
    for (uint32_t u = lo; u < hi; ++u) slice_edges_ += g.out_degree[u];
    if (mode_ != ScatterMode::kSparse) {
      dense_.reserve(g.blocks.size());
      for (size_t b = 0; b < g.blocks.size(); ++b)
        dense_.push_back(build_dense_block(g.blocks[b], ranges_[b].first, ranges_[b].second, kWeights,
                                           lo, static_cast<uint32_t>(std::max<size_t>(segment_bytes / sizeof(Message), 1))));
    }
  }

  // Apply (or init, at s = 0) over the slice: reads Σin and resets it to the
  // identity, ready to receive superstep s+1's messages.
  // `in` holds one accumulator per domain, indexed within the domain.
  template <class Acc>
  void apply(const StepInfo<Aggregate>& info, std::vector<Value>& values, std::vector<uint8_t>& active,
             std::vector<Acc>& in, const Stall& stall) {
    const uint32_t s = info.superstep;
    uint64_t n_active = 0, active_edges = 0;
    Aggregate agg{};
    // Locals, so that the loop keeps them in registers: a store to active[]
    // (uint8_t may alias anything) would otherwise reload every pointer and
    // the program's fields from memory for the next vertex.
    static_assert(std::is_trivially_copyable_v<Prog>, "apply works on a copy of the program");
    const Prog prog = prog_;
    Value* const value = values.data();
    uint8_t* const act = active.data();
    const uint32_t* const degree = g_.out_degree.data();
    const uint32_t* const in_degree = g_.in_degree.data();
    // Each active source's scatter value, taken here while the vertex is in
    // registers: once per vertex, not once per destination block (a sparse
    // superstep visits a source in every block it has edges in: up to P x K).
    Message* const sv = sv_.data();  // indexed by i - lo_
    for (unsigned d = 0; d < g_.domains; ++d) {
      Acc& acc = in[d];
      const uint32_t base = g_.domain_offset[d];
      const uint32_t lo = std::max(lo_, base), hi = std::min(hi_, g_.domain_offset[d + 1]);
      for (uint32_t first = lo; first < hi; first += std::min(hi - first, kApplyChunk)) {
        const uint32_t last = first + std::min(hi - first, kApplyChunk);
        for (uint32_t i = first; i < last; ++i) {
          const auto view = acc.take(i - base);  // also resets the vertex for superstep s+1
          const VertexInfo v{g_.global_id(i), degree[i], in_degree[i]};
          const bool a = s == 0 ? prog.init(value[i], v) : prog.apply(value[i], view, v, info);
          act[i] = a;
          n_active += a;
          active_edges += a ? v.out_degree : 0;
          prog.aggregate(value[i], v, agg);
          if (a) sv[i - lo_] = prog.scatter_value(value[i], v);
        }
        // A long apply (cd sorts every vertex's labels) must not starve the
        // network roles on a shared lcore: acks and keepalives keep flowing.
        stall(false);
      }
    }
    stats_ = StepStats{};
    stats_.superstep = s;
    stats_.active = n_active;
    aggregate_ = agg;
    all_active_ = n_active == uint64_t{hi_} - lo_;
    dense_now_ = mode_ == ScatterMode::kDense ||
                 (mode_ == ScatterMode::kAuto && dense_pays(active_edges, slice_edges_));
  }

  // Scatter the slice's active vertices, destination by destination, starting
  // after this node (staggered, so the cluster does not all send to node 0 first).
  // The scatter values are apply's (sv_). Buckets carry `epoch`, the
  // runtime's count of supersteps (compute/runtime.h, "Phases").
  void scatter(uint32_t s, uint32_t epoch, const std::vector<uint8_t>& active, const Stall& stall) {
    ring_.start_superstep(epoch);
    folded_directly_ = direct_overflows_ = 0;
    stats_.dense = dense_now_;
    const unsigned nodes = g_.partition.nodes;
    for (unsigned k = 1; k <= nodes; ++k) {
      const unsigned dst = (g_.rank + k) % nodes;
      for (unsigned d = 0; d < g_.domains; ++d) {
        const unsigned group = g_.group(dst, d);
        if (dst == g_.rank && direct_[0] != nullptr) {
          fold_block(group, (*direct_[(s + 1) & 1])[d], active, stall);
          continue;
        }
        scatter_block(group, active, stall);
        ring_.close(group);
      }
    }
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
  // The worker's buckets: counts per receive queue for END (compute/runtime.h).
  const Ring& ring() const { return ring_; }

 private:
  // Calls emit(target, message) for every record this worker sends to
  // `group` this superstep: one per out-edge of an active source (sparse),
  // or one per destination with the ⊕ of its active sources' messages (dense).
  template <class Emit>
  void produce(unsigned group, const std::vector<uint8_t>& active, Emit&& emit) {
    if (dense_now_) {
      const DenseBlock& db = dense_[group];
      const uint32_t* sources = db.sources.data();
      const Message* sv = sv_.data();  // indexed by u - lo_: every source here is in the slice
      const uint32_t* weights = db.weights.data();
      auto message = [&](uint64_t e, uint32_t u) {
        if constexpr (kWeights)
          return Prog::edge_message(sv[u - lo_], weights[e]);
        else
          return Prog::edge_message(sv[u - lo_], 1);
      };
      for (size_t j = 0; j < db.targets.size(); ++j) {
        uint64_t e = db.offsets[j];
        const uint64_t end = db.offsets[j + 1];
        if (all_active_) {  // no active flag to read per edge (PageRank: every superstep)
          Message acc = message(e, sources[e]);
          for (++e; e < end; ++e) acc = Prog::combine(acc, message(e, sources[e]));
          emit(db.targets[j], acc);
          continue;
        }
        while (e < end && !active[sources[e]]) ++e;
        if (e == end) continue;
        Message acc = message(e, sources[e]);
        for (++e; e < end; ++e)
          if (active[sources[e]]) acc = Prog::combine(acc, message(e, sources[e]));
        emit(db.targets[j], acc);
      }
      return;
    }
    const EdgeBlock& b = g_.blocks[group];
    const uint32_t* targets = b.targets.data();
    const uint32_t* weights = b.weights.data();
    for (size_t i = ranges_[group].first; i < ranges_[group].second; ++i) {
      const uint32_t u = b.sources[i];
      if (!active[u]) continue;
      const Message sv = sv_[u - lo_];
      for (uint64_t e = b.offsets[i], end = b.offsets[i + 1]; e < end; ++e) {
        Message m;
        if constexpr (kRealWeights)
          m = Prog::edge_message(sv, b.real_weights[e]);
        else if constexpr (kWeights)
          m = Prog::edge_message(sv, weights[e]);
        else
          m = Prog::edge_message(sv, 1);
        emit(targets[e], m);
      }
    }
  }

  // Records into the group's open bucket, rolling to a fresh one when full.
  void scatter_block(unsigned group, const std::vector<uint8_t>& active, const Stall& stall) {
    if constexpr (!kWeights) {
      if (!dense_now_) {
        scatter_runs(group, active, stall);
        return;
      }
    }
    typename Ring::Open& o = ring_.open(group);
    produce(group, active, [&](uint32_t target, Message m) { put(group, o, Record{target, m}, stall); });
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
  void scatter_runs(unsigned group, const std::vector<uint8_t>& active, const Stall& stall) {
    typename Ring::Open& o = ring_.open(group);
    const EdgeBlock& b = g_.blocks[group];
    const uint32_t* targets = b.targets.data();
    const uint64_t edges = b.targets.size();
    for (size_t i = ranges_[group].first; i < ranges_[group].second; ++i) {
      const uint32_t u = b.sources[i];
      if (!active[u]) continue;
      const Message value = Prog::edge_message(sv_[u - lo_], 1);
      uint64_t e = b.offsets[i];
      const uint64_t end = b.offsets[i + 1];
      const uint64_t run = end - e;
      const uint64_t padded = (run + kRun - 1) / kRun * kRun;  // >= run: whole kRun-record stores
      if (likely(e + padded <= edges && static_cast<uint64_t>(o.end - o.cursor) >= padded)) {
        Record* c = o.cursor;
        for (uint64_t k = 0; k < padded; k += kRun)
          for (unsigned j = 0; j < kRun; ++j) c[k + j] = Record{targets[e + k + j], value};
        o.cursor = c + run;
        continue;
      }
      for (; e < end; ++e) put(group, o, Record{targets[e], value}, stall);
    }
  }

  // A same-node block folded here: records batch in a small buffer (in L1)
  // and go through the accumulator's own fold, so the result is the one the
  // network role would produce.
  void fold_block(unsigned group, Accumulator& acc, const std::vector<uint8_t>& active, const Stall& stall) {
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
    produce(group, active, [&](uint32_t target, Message m) {
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
  static constexpr uint32_t kApplyChunk = 1u << 16;  // vertices between stalls in apply

  const LocalGraph& g_;
  const Prog& prog_;
  const uint32_t lo_, hi_;
  Ring ring_;
  std::vector<std::pair<size_t, size_t>> ranges_;
  unsigned buckets_since_stall_ = 0;
  unsigned batches_since_stall_ = 0;
  const ScatterMode mode_;
  uint64_t slice_edges_ = 0;                 // out-edges of the slice's vertices
  bool dense_now_ = false;                   // this superstep
  bool all_active_ = false;                  // every vertex of the slice active this superstep
  std::vector<DenseBlock> dense_;            // per group, unless sparse only
  std::vector<Message> sv_;                  // scatter values of the slice's active vertices, from apply
  std::vector<Accumulator>* direct_[2] = {nullptr, nullptr};
  uint64_t folded_directly_ = 0;
  uint64_t direct_overflows_ = 0;
  StepStats stats_;
  Aggregate aggregate_{};
};

}  // namespace wg
