// The node's DPDK resources, as one facade over four parts with one job each:
//   Pools        (dataplane/pools.h)         the transmit pools per socket and the receive pool
//   Ports        (dataplane/ports.h)         every ethdev port, its bursts and link state
//   PeerTable    (dataplane/peer_table.h)    which port and addresses reach each rank
//   BucketQueues (dataplane/bucket_queues.h) per-peer descriptor rings, per-domain local rings
// and the counters. Callers keep one name per operation; the parts are
// reachable for code that needs only one of them.
//
// Threading: the EAL must be initialised before construction. Workers produce
// into the per-peer queues and the local queues; the sender role consumes the
// per-peer queues and owns every tx_burst and TxCounters; the accumulator role
// owns rx_burst, the local queues' consumer side and RxCounters. The peer
// table is written only during discovery, before data flows to that peer.
#pragma once

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <cstdint>
#include <memory>
#include <string>

#include "dataplane/bucket_queues.h"
#include "dataplane/counters.h"
#include "dataplane/frame.h"
#include "dataplane/peer_table.h"
#include "dataplane/pools.h"
#include "dataplane/ports.h"

namespace wg {

struct DataplaneOptions {
  uint32_t job_token = 0;
  unsigned rank = 0;
  unsigned nodes = 1;
  uint16_t udp_port = wire::kDefaultUdpPort;
  unsigned mbufs = 16383;     // buckets being built, queued, in flight or kept for retransmission
  bool checksum = false;  // CRC32C on every frame sent, verified on every frame received
  unsigned domains = 1;   // NUMA domains: one same-node queue each
  // Received frames: RX descriptors and frames held in reorder windows.
  // 0: Dataplane::default_rx_mbufs(nodes, window).
  unsigned rx_mbufs = 8191;
  unsigned window = 0;  // the transport's window (frames per peer), for the rx_mbufs default
};

class Dataplane {
 public:
  static constexpr uint16_t kBurst = 32;

  explicit Dataplane(const DataplaneOptions& o);  // throws std::runtime_error
  ~Dataplane();
  Dataplane(const Dataplane&) = delete;
  Dataplane& operator=(const Dataplane&) = delete;

  // The receive pool a node needs: the RX descriptors of every peer's port
  // (one port per peer with memif) plus twice each peer's reorder window
  // (held frames and frames being taken in), with 4095 to spare.
  static unsigned default_rx_mbufs(unsigned nodes, unsigned window);

  const DataplaneOptions& options() const { return opt_; }
  const ValidationContext& validation() const { return vctx_; }
  Pools& pools() { return *pools_; }
  Ports& ports() { return ports_; }
  PeerTable& peers() { return peers_; }
  BucketQueues& queues() { return *queues_; }

  // ---- pools ----
  rte_mempool* pool() const { return pools_->pool(); }
  rte_mempool* rx_pool() const { return pools_->rx_pool(); }
  rte_mempool* local_pool() const { return pools_->local_pool(); }
  rte_mbuf* alloc() { return pools_->alloc(); }
  rte_mbuf* alloc_control() { return pools_->alloc_control(); }

  // ---- ports ----
  unsigned num_ports() const { return ports_.size(); }
  bool has_memif() const { return ports_.has_memif(); }
  uint16_t port_id(unsigned i) const { return ports_[i].id; }
  double link_speed_gbps() const { return ports_.link_speed_gbps(); }
  std::string port_summary() const { return ports_.summary(); }
  // "port 0 up, port 1 down" plus frame counts and drops, for error messages.
  std::string link_state() const;
  uint16_t tx_burst(unsigned port, rte_mbuf** pkts, uint16_t n) { return ports_.tx_burst(port, pkts, n, tx); }
  uint16_t rx_burst(unsigned port, rte_mbuf** out, uint16_t n) { return ports_.rx_burst(port, out, n); }
  uint64_t rx_drops(unsigned port) const { return ports_.rx_drops(port); }
  // Sends a hello (or abort) on every port, now, to the broadcast address,
  // always with its CRC; dropped if the port cannot take it (hellos repeat).
  void broadcast_now(const uint8_t* bucket, uint16_t bucket_bytes);
  // At the end of a run, after the last frame: stay off the ports for a
  // moment before they close, so that no peer still polls a memif ring we
  // are about to disconnect (workaround 4 of dataplane/memif_quirks.h).
  void quiet_before_close() const;

  // ---- peers ----
  bool peer_known(unsigned rank) const { return peers_.known(rank); }
  bool learn_peer(unsigned rank, unsigned port, const MacAddress& mac) {
    return peers_.learn(rank, port, ports_[port].mac, mac);
  }
  const FrameAddress& address_of(unsigned rank) const { return peers_.address_of(rank); }
  unsigned port_of(unsigned peer) const { return peers_.port_of(peer); }
  void address(rte_mbuf* m, unsigned peer, uint16_t bucket_bytes) const { peers_.address(m, peer, bucket_bytes); }
  // Writes the CRC32C (when checksums are on): the last change to a frame before it goes out.
  void seal(rte_mbuf* m) const {
    if (opt_.checksum) seal_bucket(rte_pktmbuf_mtod(m, uint8_t*), rte_pktmbuf_data_len(m));
  }

  // ---- queues ----
  void enqueue(unsigned peer, rte_mbuf* m) { queues_->enqueue(peer, m); }
  unsigned dequeue(unsigned peer, rte_mbuf** out, unsigned n) { return queues_->dequeue(peer, out, n); }
  unsigned queued(unsigned peer) const { return queues_->queued(peer); }
  void enqueue_local(unsigned domain, rte_mbuf* m) { queues_->enqueue_local(domain, m); }
  unsigned dequeue_local(unsigned domain, rte_mbuf** out, unsigned n) {
    return queues_->dequeue_local(domain, out, n);
  }

  TxCounters tx;
  RxCounters rx;

 private:
  void release();

  DataplaneOptions opt_;
  ValidationContext vctx_;
  std::unique_ptr<Pools> pools_;
  Ports ports_;
  PeerTable peers_;
  std::unique_ptr<BucketQueues> queues_;
};

}  // namespace wg
