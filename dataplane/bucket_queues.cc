#include "dataplane/bucket_queues.h"

#include <rte_errno.h>
#include <rte_lcore.h>

#include <stdexcept>
#include <string>

namespace wg {

namespace {

rte_ring* make_ring(const std::string& name, unsigned capacity, const std::string& what) {
  rte_ring* r = rte_ring_create(name.c_str(), rte_align32pow2(capacity + 1), static_cast<int>(rte_socket_id()),
                                RING_F_SC_DEQ);
  if (r == nullptr) throw std::runtime_error("cannot create " + what + ": " + rte_strerror(rte_errno));
  return r;
}

}  // namespace

BucketQueues::BucketQueues(unsigned instance, unsigned nodes, unsigned rank, unsigned queues, unsigned capacity,
                           unsigned rx_capacity)
    : queues_(queues), to_flow_(size_t{nodes} * queues, nullptr) {
  try {
    const std::string n = std::to_string(instance);
    for (unsigned q = 0; q < queues; ++q) {
      const std::string qs = std::to_string(q);
      local_.push_back(make_ring("wg_local" + n + "_" + qs, capacity, "the local bucket queue of queue " + qs));
      handed_.push_back(make_ring("wg_hand" + n + "_" + qs, rx_capacity, "the hand-over ring of queue " + qs));
    }
    broadcast_ = make_ring("wg_bcast" + n, 64, "the broadcast queue");
    for (unsigned r = 0; r < nodes; ++r)
      for (unsigned q = 0; r != rank && q < queues; ++q)
        to_flow_[r * queues + q] = make_ring("wg_q" + n + "_" + std::to_string(r) + "_" + std::to_string(q), capacity,
                                             "the queue for node " + std::to_string(r) + ", queue " + std::to_string(q));
  } catch (...) {
    release();
    throw;
  }
}

void BucketQueues::release() {
  auto drain = [](rte_ring*& r) {
    if (r == nullptr) return;
    rte_mbuf* m;
    while (rte_ring_dequeue(r, reinterpret_cast<void**>(&m)) == 0) rte_pktmbuf_free(m);
    rte_ring_free(r);
    r = nullptr;
  };
  for (rte_ring*& r : to_flow_) drain(r);
  for (rte_ring*& r : local_) drain(r);
  for (rte_ring*& r : handed_) drain(r);
  drain(broadcast_);
  local_.clear();
  handed_.clear();
}

}  // namespace wg
