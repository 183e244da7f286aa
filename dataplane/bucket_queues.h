// The queues full buckets wait in: one descriptor ring per peer (workers
// produce, the sender consumes) and one same-node ring per NUMA domain
// (workers produce, that domain's accumulator consumes). Each holds as many
// entries as the transmit pools have mbufs, so enqueue never fails.
#pragma once

#include <rte_mbuf.h>
#include <rte_ring.h>

#include <vector>

namespace wg {

class BucketQueues {
 public:
  // Throws std::runtime_error naming the queue that could not be created.
  BucketQueues(unsigned instance, unsigned nodes, unsigned rank, unsigned domains, unsigned capacity);
  BucketQueues(const BucketQueues&) = delete;
  BucketQueues& operator=(const BucketQueues&) = delete;
  // Frees the buckets still queued, then the rings.
  void release();

  // Worker -> sender queue for `peer` (several workers may produce; one sender consumes).
  void enqueue(unsigned peer, rte_mbuf* m) { rte_ring_mp_enqueue(to_peer_[peer], m); }
  unsigned dequeue(unsigned peer, rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(to_peer_[peer], reinterpret_cast<void**>(out), n, nullptr);
  }
  unsigned queued(unsigned peer) const { return rte_ring_count(to_peer_[peer]); }

  // Same-node buckets, one queue per destination domain.
  void enqueue_local(unsigned domain, rte_mbuf* m) { rte_ring_mp_enqueue(local_[domain], m); }
  unsigned dequeue_local(unsigned domain, rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(local_[domain], reinterpret_cast<void**>(out), n, nullptr);
  }

 private:
  std::vector<rte_ring*> to_peer_;  // by rank; nullptr for this node
  std::vector<rte_ring*> local_;    // by domain
};

}  // namespace wg
