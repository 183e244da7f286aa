// A worker's bucket ring group: one open bucket per destination group (node,
// range: compute/engine/range_plan.h), written with a bump pointer straight into an
// mbuf of --mtu. A full bucket is closed (header and L2-L4 written) and
// handed on to the receive queue that owns its range (the dataplane's
// routes): remote buckets to the sender's descriptor queue for that flow
// (peer, queue), same-node buckets to that queue's local ring, which its
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

// Record: wire::RecordOf<Message>, the program's record type.
template <class Record>
class BucketRingGroup {
 public:
  // At the default MTU (the bucket's real capacity follows --mtu: records_per_bucket()).
  static constexpr uint16_t kRecordsPerBucket = wire::records_per_bucket(sizeof(Record));
  struct Open {
    Record* cursor = nullptr;
    Record* end = nullptr;  // cursor == end: full, or nothing open yet
    rte_mbuf* mbuf = nullptr;
  };

  // Groups are numbered node * domains + domain (a domain here is a range).
  BucketRingGroup(Dataplane& dp, unsigned nodes, unsigned domains, unsigned rank)
      : dp_(dp), rank_(rank), domains_(domains),
        records_per_bucket_(wire::records_per_bucket(sizeof(Record), dp.options().mtu)),
        open_(size_t{nodes} * domains), buckets_(size_t{nodes} * domains, 0), records_(size_t{nodes} * domains, 0) {}
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

  Open& open(unsigned group) { return open_[group]; }

  // Hands the open bucket for a group on (nothing if it is empty).
  void close(unsigned group) {
    Open& o = open_[group];
    const unsigned dst = group / domains_;
    const auto domain = static_cast<uint16_t>(group % domains_);
    if (o.mbuf == nullptr) return;
    uint8_t* frame = rte_pktmbuf_mtod(o.mbuf, uint8_t*);
    const auto count = static_cast<uint16_t>(o.cursor - first_record(frame));
    if (count == 0) return;  // keep the empty mbuf open for the next superstep
    write_bucket_header(frame, wire::Kind::kData, dp_.options().job_token, rank_, dst, superstep_, count);
    bucket_header(frame)->domain = domain;
    const auto bucket_bytes = static_cast<uint16_t>(sizeof(wire::BucketHeader) + count * sizeof(Record));
    ++buckets_[group];
    records_[group] += count;
    const unsigned queue = dp_.routes().queue(domain);
    if (dst == rank_) {
      o.mbuf->data_len = o.mbuf->pkt_len = wire::kPayloadOffset + count * sizeof(Record);
      bucket_header(frame)->queue = static_cast<uint8_t>(queue);
      dp_.enqueue_local(queue, o.mbuf);
    } else {
      dp_.address(o.mbuf, dst, bucket_bytes, queue);
      dp_.enqueue(dst, queue, o.mbuf);
    }
    o = Open{};
  }

  // Opens a fresh bucket for a group if none is open. False if the pool is empty.
  bool reopen(unsigned group) {
    Open& o = open_[group];
    if (o.mbuf != nullptr) {  // an empty bucket kept from close()
      o.cursor = first_record(rte_pktmbuf_mtod(o.mbuf, uint8_t*));
      o.end = o.cursor + records_per_bucket_;
      return true;
    }
    rte_mbuf* m = dp_.alloc();
    if (unlikely(m == nullptr)) return false;
    o.mbuf = m;
    o.cursor = first_record(rte_pktmbuf_mtod(m, uint8_t*));
    o.end = o.cursor + records_per_bucket_;
    return true;
  }

  // Closed this superstep, to every domain of node dst.
  uint64_t buckets_to(unsigned dst) const { return sum(buckets_, dst); }
  uint64_t records_to(unsigned dst) const { return sum(records_, dst); }
  // ... to the ranges of node dst that receive queue `queue` owns.
  uint64_t buckets_to(unsigned dst, unsigned queue) const { return sum(buckets_, dst, queue); }
  uint64_t records_to(unsigned dst, unsigned queue) const { return sum(records_, dst, queue); }
  uint16_t records_per_bucket() const { return records_per_bucket_; }

 private:
  static Record* first_record(uint8_t* frame) { return reinterpret_cast<Record*>(frame + wire::kPayloadOffset); }
  uint64_t sum(const std::vector<uint64_t>& per_group, unsigned node) const {
    uint64_t t = 0;
    for (unsigned d = 0; d < domains_; ++d) t += per_group[size_t{node} * domains_ + d];
    return t;
  }
  uint64_t sum(const std::vector<uint64_t>& per_group, unsigned node, unsigned queue) const {
    uint64_t t = 0;
    for (unsigned d = 0; d < domains_; ++d)
      if (dp_.routes().queue(d) == queue) t += per_group[size_t{node} * domains_ + d];
    return t;
  }

  Dataplane& dp_;
  unsigned rank_;
  unsigned domains_;
  uint16_t records_per_bucket_;
  uint32_t superstep_ = 0;
  std::vector<Open> open_;
  std::vector<uint64_t> buckets_;  // closed this superstep, per group
  std::vector<uint64_t> records_;
};

}  // namespace wg
