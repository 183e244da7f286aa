// A worker's bucket ring group: one open bucket per destination node, written
// with a bump pointer straight into an mbuf. A full bucket is closed (header
// and L2-L4 written) and handed on: remote buckets to the sender's descriptor
// queue for the peer's port, same-node buckets to the local queue that the
// accumulator drains without touching a NIC.
//
// Owner: one worker (single writer of everything here).
#pragma once

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

#include <cstdint>
#include <vector>

#include "dataplane/dataplane.h"

namespace wg {

class BucketRingGroup {
 public:
  struct Open {
    wire::Record* cursor = nullptr;
    wire::Record* end = nullptr;  // cursor == end: full, or nothing open yet
    rte_mbuf* mbuf = nullptr;
  };

  BucketRingGroup(Dataplane& dp, unsigned nodes, unsigned rank)
      : dp_(dp), rank_(rank), open_(nodes), buckets_(nodes, 0), records_(nodes, 0) {}
  ~BucketRingGroup() {
    for (Open& o : open_)
      if (o.mbuf != nullptr) rte_pktmbuf_free(o.mbuf);
  }
  BucketRingGroup(const BucketRingGroup&) = delete;
  BucketRingGroup& operator=(const BucketRingGroup&) = delete;

  void start_superstep(uint32_t s) {
    superstep_ = s;
    std::fill(buckets_.begin(), buckets_.end(), 0);
    std::fill(records_.begin(), records_.end(), 0);
  }

  Open& open(unsigned dst) { return open_[dst]; }

  // Hands the open bucket for dst on (nothing if it is empty).
  void close(unsigned dst) {
    Open& o = open_[dst];
    if (o.mbuf == nullptr) return;
    uint8_t* frame = rte_pktmbuf_mtod(o.mbuf, uint8_t*);
    const auto count = static_cast<uint16_t>(o.cursor - records(frame));
    if (count == 0) return;  // keep the empty mbuf open for the next superstep
    write_bucket_header(frame, wire::Kind::kData, dp_.options().job_token, rank_, dst, superstep_, count);
    const auto bucket_bytes = static_cast<uint16_t>(sizeof(wire::BucketHeader) + count * sizeof(wire::Record));
    ++buckets_[dst];
    records_[dst] += count;
    if (dst == rank_) {
      o.mbuf->data_len = o.mbuf->pkt_len = wire::kPayloadOffset + count * sizeof(wire::Record);
      dp_.enqueue_local(o.mbuf);
    } else {
      dp_.address(o.mbuf, dst, bucket_bytes);
      dp_.enqueue(dst, o.mbuf);
    }
    o = Open{};
  }

  // Opens a fresh bucket for dst if none is open. False if the pool is empty.
  bool reopen(unsigned dst) {
    Open& o = open_[dst];
    if (o.mbuf != nullptr) {  // an empty bucket kept from close()
      o.cursor = records(rte_pktmbuf_mtod(o.mbuf, uint8_t*));
      o.end = o.cursor + wire::kMaxRecords;
      return true;
    }
    rte_mbuf* m = dp_.alloc();
    if (unlikely(m == nullptr)) return false;
    o.mbuf = m;
    o.cursor = records(rte_pktmbuf_mtod(m, uint8_t*));
    o.end = o.cursor + wire::kMaxRecords;
    return true;
  }

  uint64_t buckets_to(unsigned dst) const { return buckets_[dst]; }
  uint64_t records_to(unsigned dst) const { return records_[dst]; }

 private:
  Dataplane& dp_;
  unsigned rank_;
  uint32_t superstep_ = 0;
  std::vector<Open> open_;
  std::vector<uint64_t> buckets_;  // closed this superstep, per destination
  std::vector<uint64_t> records_;
};

}  // namespace wg
