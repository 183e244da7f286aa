// The queues frames wait in between roles:
//  - one descriptor ring per flow (peer, queue): workers (and the
//    coordinator's END and FIN) produce, sender role `queue` consumes;
//  - one same-node ring per receive queue: workers produce, accumulator role
//    `queue` consumes;
//  - one hand-over ring per receive queue: a frame that arrived on another
//    queue than its own goes there (any accumulator produces, accumulator
//    `queue` consumes: dataplane/steering.h);
//  - one broadcast ring (hellos): membership produces, sender role 0 sends.
// The descriptor and same-node rings hold as many entries as the transmit
// pools have mbufs, the hand-over ring as many as the receive pool, so
// enqueue never fails.
#pragma once

#include <rte_mbuf.h>
#include <rte_ring.h>

#include <vector>

namespace wg {

class BucketQueues {
 public:
  // Throws std::runtime_error naming the queue that could not be created.
  BucketQueues(unsigned instance, unsigned nodes, unsigned rank, unsigned queues, unsigned capacity,
               unsigned rx_capacity);
  BucketQueues(const BucketQueues&) = delete;
  BucketQueues& operator=(const BucketQueues&) = delete;
  // Frees the buckets still queued, then the rings.
  void release();

  // Worker -> sender queue for flow (peer, queue) (several workers may produce; one sender consumes).
  void enqueue(unsigned peer, unsigned queue, rte_mbuf* m) { rte_ring_mp_enqueue(flow(peer, queue), m); }
  unsigned dequeue(unsigned peer, unsigned queue, rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(flow(peer, queue), reinterpret_cast<void**>(out), n, nullptr);
  }
  unsigned queued(unsigned peer, unsigned queue) const { return rte_ring_count(flow(peer, queue)); }

  // Same-node buckets, one queue per receive queue (its accumulator's ranges).
  void enqueue_local(unsigned queue, rte_mbuf* m) { rte_ring_mp_enqueue(local_[queue], m); }
  unsigned dequeue_local(unsigned queue, rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(local_[queue], reinterpret_cast<void**>(out), n, nullptr);
  }

  // Received frames handed to the accumulator of `queue`.
  void hand_over(unsigned queue, rte_mbuf* m) { rte_ring_mp_enqueue(handed_[queue], m); }
  unsigned take_handed(unsigned queue, rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(handed_[queue], reinterpret_cast<void**>(out), n, nullptr);
  }

  // Broadcast frames (m->port: the port index to send on) for sender role 0.
  void enqueue_broadcast(rte_mbuf* m) { rte_ring_mp_enqueue(broadcast_, m); }
  unsigned dequeue_broadcast(rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(broadcast_, reinterpret_cast<void**>(out), n, nullptr);
  }

 private:
  rte_ring* flow(unsigned peer, unsigned queue) const { return to_flow_[peer * queues_ + queue]; }
  unsigned queues_;
  std::vector<rte_ring*> to_flow_;  // by rank * queues + queue; nullptr for this node
  std::vector<rte_ring*> local_;    // by queue
  std::vector<rte_ring*> handed_;   // by queue
  rte_ring* broadcast_ = nullptr;
};

}  // namespace wg
