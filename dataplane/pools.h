// The node's mbuf pools. Buckets come from a transmit pool of the calling
// lcore's NUMA socket (one pool per socket that has an lcore); received
// frames, and acks, hellos and aborts, from the receive pool. Separate pools:
// a sender that has every bucket in flight must still be able to receive the
// acks that free them (one shared pool deadlocks both peers).
//
// Threading: alloc() and alloc_control() are safe from any lcore (mempools
// are multi-producer/consumer with per-lcore caches).
#pragma once

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <cstdint>

namespace wg {

class Pools {
 public:
  // `instance` makes the pool names unique in the process. Without a receive
  // pool (a single node) received frames would come from the transmit pool.
  // Every mbuf holds one whole frame of `mtu` (never chained: the receive
  // path takes single-segment frames only). Throws std::runtime_error naming
  // the pool that could not be created.
  Pools(unsigned instance, unsigned mbufs, unsigned rx_mbufs, bool with_rx_pool, uint32_t mtu = 1500);
  // The mbuf buffer size (headroom included) for frames of `mtu`.
  static uint16_t buffer_size(uint32_t mtu);
  // What one pool of `mbufs` such mbufs takes of the EAL's memory, with
  // hugepages or without (objects with their mempool headers, the pool's
  // ring and lcore caches): Dataplane::eal_memory_bytes adds them up.
  static uint64_t pool_bytes(unsigned mbufs, uint32_t mtu);
  Pools(const Pools&) = delete;
  Pools& operator=(const Pools&) = delete;
  // Frees every pool (the owner decides when: memif ports keep theirs).
  void release();

  rte_mempool* pool() const { return pool_; }
  rte_mempool* rx_pool() const { return rx_pool_; }
  // What a port's RX queue fills from.
  rte_mempool* receive_pool() const { return rx_pool_ != nullptr ? rx_pool_ : pool_; }
  // Transmit pools created: one per socket with an lcore.
  unsigned transmit_pools() const { return transmit_pools_; }

  rte_mempool* local_pool() const {
    const unsigned s = rte_socket_id();
    return s < RTE_MAX_NUMA_NODES ? socket_pool_[s] : pool_;
  }
  // A bucket from the transmit pool of the calling lcore's NUMA socket.
  rte_mbuf* alloc() { return rte_pktmbuf_alloc(local_pool()); }
  // For acks, hellos and aborts: from the receive pool, which keeps headroom
  // when workers have taken every bucket (an ack must never wait for one).
  rte_mbuf* alloc_control() {
    rte_mbuf* m = rx_pool_ != nullptr ? rte_pktmbuf_alloc(rx_pool_) : nullptr;
    return m != nullptr ? m : rte_pktmbuf_alloc(pool_);
  }

 private:
  rte_mempool* pool_ = nullptr;                        // on the main lcore's socket
  rte_mempool* socket_pool_[RTE_MAX_NUMA_NODES] = {};  // per socket with an lcore; else pool_
  rte_mempool* rx_pool_ = nullptr;
  unsigned transmit_pools_ = 0;
};

}  // namespace wg
