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
#pragma once

#include <rte_branch_prediction.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include "compute/accumulator.h"
#include "compute/partition.h"
#include "compute/run_report.h"
#include "compute/vertex_program.h"
#include "dataplane/bucket_ring.h"

namespace wg {

template <VertexProgram Prog>
class Worker {
 public:
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Accumulator = typename AccumulatorFor<Prog>::type;
  // Called every few buckets (starved = false: a chance to run the network
  // roles on a shared lcore) and when the pool is empty (starved = true: make
  // an mbuf come back, by running the network roles or waiting for them).
  using Stall = std::function<void(bool starved)>;

  Worker(Dataplane& dp, const LocalGraph& g, const Prog& prog, uint32_t lo, uint32_t hi)
      : g_(g), prog_(prog), lo_(lo), hi_(hi), ring_(dp, g.partition.nodes, g.domains, g.rank),
        ranges_(g.blocks.size()) {
    // This worker's sources in each block: a contiguous run, since sources ascend.
    for (size_t b = 0; b < g.blocks.size(); ++b) {
      const auto& src = g.blocks[b].sources;
      ranges_[b].first = std::lower_bound(src.begin(), src.end(), lo) - src.begin();
      ranges_[b].second = std::lower_bound(src.begin(), src.end(), hi) - src.begin();
    }
  }

  // Apply (or init, at s = 0) over the slice: reads Σin and resets it to the
  // identity, ready to receive superstep s+1's messages.
  // `in` holds one accumulator per domain, indexed within the domain.
  template <class Acc>
  void apply(uint32_t s, double aggregate, std::vector<Value>& values, std::vector<uint8_t>& active,
             std::vector<Acc>& in, const Stall& stall) {
    const StepInfo info{s, aggregate, g_.num_vertices};
    uint64_t n_active = 0;
    double agg = 0.0;
    for (unsigned d = 0; d < g_.domains; ++d) {
      const uint32_t base = g_.domain_offset[d];
      const uint32_t lo = std::max(lo_, base), hi = std::min(hi_, g_.domain_offset[d + 1]);
      for (uint32_t i = lo; i < hi; ++i) {
        const auto view = in[d].take(i - base);  // also resets the vertex for superstep s+1
        const bool a = s == 0 ? prog_.init(g_.global_id(i), values[i]) : prog_.apply(values[i], view, info);
        active[i] = a;
        n_active += a;
        agg += prog_.aggregate(values[i], g_.out_degree[i]);
        // A long apply (cd sorts every vertex's labels) must not starve the
        // network roles on a shared lcore: acks and keepalives keep flowing.
        if ((i & kApplyStallMask) == kApplyStallMask) stall(false);
      }
    }
    stats_ = StepStats{};
    stats_.superstep = s;
    stats_.active = n_active;
    stats_.aggregate = agg;
  }

  // Scatter the slice's active vertices, destination by destination, starting
  // after this node (staggered, so the cluster does not all send to node 0 first).
  void scatter(uint32_t s, const std::vector<Value>& values, const std::vector<uint8_t>& active,
               const Stall& stall) {
    ring_.start_superstep(s);
    folded_directly_ = direct_overflows_ = 0;
    const unsigned nodes = g_.partition.nodes;
    for (unsigned k = 1; k <= nodes; ++k) {
      const unsigned dst = (g_.rank + k) % nodes;
      for (unsigned d = 0; d < g_.domains; ++d) {
        const unsigned group = g_.group(dst, d);
        if (dst == g_.rank && direct_[0] != nullptr) {
          fold_block(group, (*direct_[(s + 1) & 1])[d], values, active, stall);
          continue;
        }
        scatter_block(group, values, active, stall);
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
  uint64_t buckets_to(unsigned dst) const { return ring_.buckets_to(dst); }
  uint64_t records_to(unsigned dst) const { return ring_.records_to(dst); }

 private:
  void scatter_block(unsigned group, const std::vector<Value>& values, const std::vector<uint8_t>& active,
                     const Stall& stall) {
    const EdgeBlock& b = g_.blocks[group];
    BucketRingGroup::Open& o = ring_.open(group);
    const uint32_t* targets = b.targets.data();
    const uint32_t* weights = b.weights.data();
    for (size_t i = ranges_[group].first; i < ranges_[group].second; ++i) {
      const uint32_t u = b.sources[i];
      if (!active[u]) continue;
      const Message sv = prog_.scatter_value(values[u], g_.out_degree[u]);
      for (uint64_t e = b.offsets[i], end = b.offsets[i + 1]; e < end; ++e) {
        if (unlikely(o.cursor == o.end)) roll(group, stall);
        Message m;
        if constexpr (Prog::kNeedsWeights)
          m = Prog::edge_message(sv, weights[e]);
        else
          m = Prog::edge_message(sv, 1);
        *o.cursor++ = wire::Record{targets[e], std::bit_cast<uint32_t>(m)};
      }
    }
  }

  // A same-node block folded here: records batch in a small buffer (in L1)
  // and go through the accumulator's own fold, so the result is the one the
  // network role would produce.
  void fold_block(unsigned group, Accumulator& acc, const std::vector<Value>& values,
                  const std::vector<uint8_t>& active, const Stall& stall) {
    const EdgeBlock& b = g_.blocks[group];
    const uint32_t* targets = b.targets.data();
    const uint32_t* weights = b.weights.data();
    wire::Record batch[kFoldBatch];
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
    for (size_t i = ranges_[group].first; i < ranges_[group].second; ++i) {
      const uint32_t u = b.sources[i];
      if (!active[u]) continue;
      const Message sv = prog_.scatter_value(values[u], g_.out_degree[u]);
      for (uint64_t e = b.offsets[i], end = b.offsets[i + 1]; e < end; ++e) {
        Message m;
        if constexpr (Prog::kNeedsWeights)
          m = Prog::edge_message(sv, weights[e]);
        else
          m = Prog::edge_message(sv, 1);
        batch[n++] = wire::Record{targets[e], std::bit_cast<uint32_t>(m)};
        if (unlikely(n == kFoldBatch)) flush();
      }
    }
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
  static constexpr unsigned kFoldBatch = 256;
  static constexpr unsigned kBatchesPerStall = kBucketsPerStall * wire::kMaxRecords / kFoldBatch;
  static constexpr uint32_t kApplyStallMask = (1u << 16) - 1;  // every 64 Ki vertices

  const LocalGraph& g_;
  const Prog& prog_;
  const uint32_t lo_, hi_;
  BucketRingGroup ring_;
  std::vector<std::pair<size_t, size_t>> ranges_;
  unsigned buckets_since_stall_ = 0;
  unsigned batches_since_stall_ = 0;
  std::vector<Accumulator>* direct_[2] = {nullptr, nullptr};
  uint64_t folded_directly_ = 0;
  uint64_t direct_overflows_ = 0;
  StepStats stats_;
};

}  // namespace wg
