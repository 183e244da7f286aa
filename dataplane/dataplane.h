// The node's DPDK resources: the mbuf pool, every ethdev port the EAL created
// (one port on a switch or bridge, or one port per peer for point-to-point
// links such as memif), a descriptor queue per port feeding the sender, the
// local queue for same-node buckets, and the table of peers (which port and
// MAC reach each rank), filled by the hello exchange.
//
// Threading: the EAL must be initialised before construction. Workers produce
// into the per-peer queues and the local queue; the sender role consumes the
// per-peer queues and owns every tx_burst and TxCounters; the accumulator role
// owns rx_burst, the local queue's consumer side and RxCounters. The peer
// table is written only during discovery, before data flows to that peer.
#pragma once

#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dataplane/counters.h"
#include "dataplane/frame.h"

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
  unsigned record_bytes = sizeof(wire::Record);  // the program's record size (8, 12 or 20)
};

class Dataplane {
 public:
  static constexpr uint16_t kBurst = 32;

  explicit Dataplane(const DataplaneOptions& o);  // throws std::runtime_error

  // The receive pool a node needs: the RX descriptors of every peer's port
  // (one port per peer with memif) plus twice each peer's reorder window
  // (held frames and frames being taken in), with 4095 to spare.
  static unsigned default_rx_mbufs(unsigned nodes, unsigned window);
  ~Dataplane();
  Dataplane(const Dataplane&) = delete;
  Dataplane& operator=(const Dataplane&) = delete;

  const DataplaneOptions& options() const { return opt_; }
  const ValidationContext& validation() const { return vctx_; }
  unsigned num_ports() const { return static_cast<unsigned>(ports_.size()); }
  bool has_memif() const {
    for (const Port& p : ports_)
      if (p.memif) return true;
    return false;
  }
  uint16_t port_id(unsigned i) const { return ports_[i].id; }
  // Buckets come from pool() (or, on a multi-socket machine, the calling
  // lcore's socket's pool: local_pool()); received frames from rx_pool(). Separate pools:
  // a sender that has every bucket in flight must still be able to receive
  // the acks that free them (one shared pool deadlocks both peers).
  rte_mempool* pool() const { return pool_; }
  rte_mempool* rx_pool() const { return rx_pool_; }
  // The fastest port's reported link speed in Gbps (0 if none reports one).
  double link_speed_gbps() const;
  std::string port_summary() const;
  // "port 0 up, port 1 down" plus frame counts, for error messages.
  std::string link_state() const;

  // ---- peers ----
  bool peer_known(unsigned rank) const { return peers_[rank].known; }
  // Records that `rank` answers on port index `port` with `mac`. Returns false
  // if the rank was already known at another address (two nodes claim it).
  bool learn_peer(unsigned rank, unsigned port, const MacAddress& mac);
  const FrameAddress& address_of(unsigned rank) const { return peers_[rank].addr; }

  // ---- send side ----
  // A bucket from the transmit pool of the calling lcore's NUMA socket.
  rte_mbuf* alloc() { return rte_pktmbuf_alloc(local_pool()); }
  rte_mempool* local_pool() const {
    const unsigned s = rte_socket_id();
    return s < RTE_MAX_NUMA_NODES ? socket_pool_[s] : pool_;
  }
  // For acks, hellos and aborts: from the receive pool, which keeps headroom
  // when workers have taken every bucket (an ack must never wait for one).
  rte_mbuf* alloc_control() {
    rte_mbuf* m = rx_pool_ != nullptr ? rte_pktmbuf_alloc(rx_pool_) : nullptr;
    return m != nullptr ? m : rte_pktmbuf_alloc(pool_);
  }
  // Fills L2-L4 headers for `peer` and sets the mbuf lengths; the wiregraph
  // header and payload (bucket_bytes of them) must already be written.
  void address(rte_mbuf* m, unsigned peer, uint16_t bucket_bytes) const;
  // Worker -> sender descriptor queue for `peer` (several workers may
  // produce; one sender consumes). Never fails: a queue holds as many entries
  // as the pool has mbufs.
  void enqueue(unsigned peer, rte_mbuf* m) { rte_ring_mp_enqueue(peers_[peer].queue, m); }
  unsigned dequeue(unsigned peer, rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(peers_[peer].queue, reinterpret_cast<void**>(out), n, nullptr);
  }
  unsigned queued(unsigned peer) const { return rte_ring_count(peers_[peer].queue); }
  unsigned port_of(unsigned peer) const { return peers_[peer].port; }
  // At the end of a run, after the last frame: stay off the ports for a
  // moment before they close, so that no peer still polls a memif ring we
  // are about to disconnect (workaround 4 of dataplane/memif_quirks.h).
  void quiet_before_close() const;
  // Sends a hello (or abort) on every port, now, to the broadcast address,
  // always with its CRC; dropped if the port cannot take it (hellos repeat).
  void broadcast_now(const uint8_t* bucket, uint16_t bucket_bytes);
  // rte_eth_tx_burst on port index `port`, counted.
  uint16_t tx_burst(unsigned port, rte_mbuf** pkts, uint16_t n);
  // Writes the CRC32C (when checksums are on): the last change to a frame before it goes out.
  void seal(rte_mbuf* m) const {
    if (opt_.checksum) seal_bucket(rte_pktmbuf_mtod(m, uint8_t*), rte_pktmbuf_data_len(m));
  }

  // ---- same-node buckets: one queue per destination domain ----
  void enqueue_local(unsigned domain, rte_mbuf* m) { rte_ring_mp_enqueue(local_[domain], m); }
  unsigned dequeue_local(unsigned domain, rte_mbuf** out, unsigned n) {
    return rte_ring_sc_dequeue_burst(local_[domain], reinterpret_cast<void**>(out), n, nullptr);
  }

  // ---- receive side (accumulator role) ----
  uint16_t rx_burst(unsigned port, rte_mbuf** out, uint16_t n);

  TxCounters tx;
  RxCounters rx;

 private:
  struct Port {
    uint16_t id = 0;
    MacAddress mac{};
    bool memif = false;
  };
  struct Peer {
    bool known = false;
    unsigned port = 0;
    FrameAddress addr;
    rte_ring* queue = nullptr;  // addressed buckets waiting for the sender
  };

  void init_pool();
  void init_port(uint16_t id);
  void release();

  DataplaneOptions opt_;
  ValidationContext vctx_;
  rte_mempool* pool_ = nullptr;                   // on the main lcore's socket
  rte_mempool* socket_pool_[RTE_MAX_NUMA_NODES] = {};  // per socket with an lcore; else pool_
  rte_mempool* rx_pool_ = nullptr;
  std::vector<rte_ring*> local_;
  std::vector<Port> ports_;
  std::vector<Peer> peers_;
};

}  // namespace wg
