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

BucketQueues::BucketQueues(unsigned instance, unsigned nodes, unsigned rank, unsigned domains, unsigned capacity)
    : to_peer_(nodes, nullptr) {
  try {
    const std::string n = std::to_string(instance);
    for (unsigned d = 0; d < domains; ++d)
      local_.push_back(make_ring("wg_local" + n + "_" + std::to_string(d), capacity,
                                 "the local bucket queue of domain " + std::to_string(d)));
    for (unsigned r = 0; r < nodes; ++r)
      if (r != rank)
        to_peer_[r] = make_ring("wg_q" + n + "_" + std::to_string(r), capacity, "the queue for node " + std::to_string(r));
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
  for (rte_ring*& r : to_peer_) drain(r);
  for (rte_ring*& r : local_) drain(r);
  local_.clear();
}

}  // namespace wg
