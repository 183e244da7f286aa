// Where a worker's records go: its bucket ring group (dataplane/bucket_ring.h,
// one open bucket per destination (node, domain)), or, for same-node
// records when the worker shares its lcore with the accumulators
// (fold_locally), straight into the output accumulator: the worker folds
// them itself, as the network role would a moment later, without writing
// each record into an mbuf and reading it back. With the roles on separate
// lcores the accumulators have one owner, the network role, and records go
// by the local queue.
//
// Both call the stall hook at the same pace (every kBucketsPerStall
// buckets' worth of records), so that on a shared lcore the network roles
// keep running (acks, keepalives) and a starved pool gets its mbufs back.
//
// Steps: start_superstep, then per group write() (or the scatter loops'
// own open/put), close(); fold() for a same-node group.
// Owner: the worker.
#pragma once

#include <rte_branch_prediction.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/program_driver.h"
#include "compute/partition/partition.h"
#include "dataplane/bucket_ring.h"
#include "dataplane/wire.h"

namespace wg {

template <class Message, class Accumulator>
class BucketOutput {
 public:
  using Record = wire::RecordOf<Message>;
  using Ring = BucketRingGroup<Record>;
  using Open = typename Ring::Open;

  static constexpr unsigned kBucketsPerStall = 8;
  static constexpr unsigned kRecordsPerStall = kBucketsPerStall * Ring::kRecordsPerBucket;
  static constexpr unsigned kFoldBatch = 256;  // records folded at once by fold() (in L1)
  // At least one: wide records (68 bytes, 20 to a bucket) make fewer records per stall than a batch.
  static constexpr unsigned kBatchesPerStall = std::max(1u, kBucketsPerStall * Ring::kRecordsPerBucket / kFoldBatch);

  BucketOutput(Dataplane& dp, const LocalGraph& g) : ring_(dp, g.partition.nodes, g.domains, g.rank) {}

  // Same-node records of superstep s go straight into out[(s+1)&1][domain].
  // Only for a worker on the lcore that owns the accumulators.
  void fold_locally(std::vector<Accumulator>* out0, std::vector<Accumulator>* out1) {
    direct_[0] = out0;
    direct_[1] = out1;
  }
  bool folds_locally() const { return direct_[0] != nullptr; }

  void start_superstep(uint32_t epoch) {
    ring_.start_superstep(epoch);
    folded_directly_ = direct_overflows_ = 0;
  }

  // Calls every destination group, starting after this node (staggered, so
  // the cluster does not all send to node 0 first): f(group, node, domain).
  template <class F>
  static void for_each_group(const LocalGraph& g, F&& f) {
    const unsigned nodes = g.partition.nodes;
    for (unsigned k = 1; k <= nodes; ++k) {
      const unsigned dst = (g.rank + k) % nodes;
      for (unsigned d = 0; d < g.domains; ++d) f(g.group(dst, d), dst, d);
    }
  }

  // The records produce(emit) makes (emit(target, message) each) into the
  // group's open bucket, rolling to a fresh one when full.
  template <class Produce>
  void write(unsigned group, const Stall& stall, Produce&& produce) {
    Open& o = ring_.open(group);
    produce([&](uint32_t target, Message m) { put(group, o, Record{target, m}, stall); });
  }

  Open& open(unsigned group) { return ring_.open(group); }
  // One record into the group's open bucket o, rolling to a fresh one when full.
  void put(unsigned group, Open& o, Record r, const Stall& stall) {
    if (unlikely(o.cursor == o.end)) roll(group, stall);
    *o.cursor++ = r;
  }
  void close(unsigned group) { ring_.close(group); }

  // A same-node block of superstep s to domain d folded here: the records
  // produce(emit) makes batch in a small buffer (in L1) and go through the
  // accumulator's own fold, so the result is the one the network role
  // would produce.
  template <class Produce>
  void fold(uint32_t s, unsigned d, const Stall& stall, Produce&& produce) {
    Accumulator& acc = (*direct_[(s + 1) & 1])[d];
    Record batch[kFoldBatch];
    unsigned n = 0;
    auto flush = [&] {
      if (!acc.fold(batch, n)) ++direct_overflows_;
      folded_directly_ += n;
      n = 0;
      // As often as write() would stall: acks and keepalives keep flowing.
      if (++batches_since_stall_ >= kBatchesPerStall) {
        batches_since_stall_ = 0;
        stall(false);
      }
    };
    produce([&](uint32_t target, Message m) {
      batch[n++] = Record{target, m};
      if (unlikely(n == kFoldBatch)) flush();
    });
    if (n > 0) flush();
  }

  // Of the records to this node this superstep, how many the worker folded
  // itself, and how many of those did not fit (SlotAccumulator).
  uint64_t folded_directly() const { return folded_directly_; }
  uint64_t direct_overflows() const { return direct_overflows_; }
  const Ring& ring() const { return ring_; }

 private:
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

  Ring ring_;
  unsigned buckets_since_stall_ = 0;
  unsigned batches_since_stall_ = 0;
  std::vector<Accumulator>* direct_[2] = {nullptr, nullptr};
  uint64_t folded_directly_ = 0;
  uint64_t direct_overflows_ = 0;
};

}  // namespace wg
