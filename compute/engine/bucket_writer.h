// Records of any type into a worker's buckets, one open bucket per
// destination group, rolling to a fresh bucket when one is full: the loader's
// edge shuffle writes through this (the engine's Worker has its own faster
// loops for vertex messages).
//
// Owner: one worker. `stall` is the runtime's (compute/engine/program_driver.h):
// called every few buckets so that a shared lcore runs the network roles, and
// while the pool is empty.
#pragma once

#include <rte_branch_prediction.h>

#include <cstdint>

#include "dataplane/bucket_ring.h"

namespace wg {

template <class Record>
class BucketWriter {
 public:
  BucketWriter(Dataplane& dp, unsigned nodes, unsigned rank) : ring_(dp, nodes, 1, rank) {}

  // Buckets from here on carry `epoch` (compute/engine/superstep_runtime.h, "Phases").
  void start_superstep(uint32_t epoch) { ring_.start_superstep(epoch); }

  template <class Stall>
  void put(unsigned dst, const Record& r, const Stall& stall) {
    typename BucketRingGroup<Record>::Open& o = ring_.open(dst);
    if (unlikely(o.cursor == o.end)) {
      ring_.close(dst);
      if (++buckets_since_stall_ >= kBucketsPerStall) {
        buckets_since_stall_ = 0;
        stall(false);
      }
      while (unlikely(!ring_.reopen(dst))) stall(true);
    }
    *o.cursor++ = r;
  }

  // Hands every open bucket on: the end of the superstep's records.
  void close_all(unsigned nodes) {
    for (unsigned d = 0; d < nodes; ++d) ring_.close(d);
  }

  uint64_t buckets_to(unsigned dst) const { return ring_.buckets_to(dst); }
  uint64_t records_to(unsigned dst) const { return ring_.records_to(dst); }

 private:
  static constexpr unsigned kBucketsPerStall = 8;
  BucketRingGroup<Record> ring_;
  unsigned buckets_since_stall_ = 0;
};

}  // namespace wg
