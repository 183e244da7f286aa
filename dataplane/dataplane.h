// The node's DPDK resources, as one facade over five parts with one job each:
//   Pools        (dataplane/pools.h)         the transmit pools per socket and the receive pool
//   Ports        (dataplane/ports.h)         every ethdev port, its queues, bursts, link state, steering
//   PeerTable    (dataplane/peer_table.h)    which port and addresses reach each rank
//   BucketQueues (dataplane/bucket_queues.h) per-flow descriptor rings, per-queue local and hand-over rings
//   FrameAuth    (dataplane/frame_auth.h)    this run's salt and keys, the peers' once verified
// and the counters. Callers keep one name per operation; the parts are
// reachable for code that needs only one of them.
//
// Queues: K = options().queues receive queues per port (--rx-queues), a flow
// per (peer, queue). Threading: the EAL must be initialised before
// construction. Workers produce into the flow queues and the local queues;
// sender role q consumes the flow queues (*, q), owns tx queue q of every
// port and tx_q[q]; accumulator role q owns rx queue q of every port, the
// consumer side of local and hand-over ring q, and rx_q[q]. The peer table
// and the peers' source ports are written only during discovery, before data
// flows to that peer; the routes only between phases.
#pragma once

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dataplane/bucket_queues.h"
#include "dataplane/counters.h"
#include "dataplane/frame.h"
#include "dataplane/frame_auth.h"
#include "dataplane/peer_table.h"
#include "dataplane/pools.h"
#include "dataplane/ports.h"
#include "dataplane/queue_routes.h"
#include "dataplane/steering.h"

namespace wg {

struct DataplaneOptions {
  uint32_t job_token = 0;
  unsigned rank = 0;
  unsigned nodes = 1;
  uint16_t udp_port = wire::kDefaultUdpPort;
  unsigned mbufs = 16383;     // buckets being built, queued, in flight or kept for retransmission
  bool checksum = false;  // without a key: CRC32C on every frame sent, verified on every frame received
  AuthOptions auth;       // a MAC on every frame (dataplane/frame_mac.h); the node requires it unless --no-auth
  unsigned queues = 1;     // receive queues per port (--rx-queues): one accumulator role each
  uint32_t mtu = wire::kMtu;  // --mtu: buckets fill frames of this size
  // Received frames: RX descriptors and frames held in reorder windows.
  // 0: Dataplane::default_rx_mbufs for this many nodes, this window and the
  // ports the EAL has.
  unsigned rx_mbufs = 8191;
  unsigned window = 0;  // the transport's window (frames per flow), for the rx_mbufs default
  double server_wait_s = 60;  // how long a memif client port waits for its server's (--hello-timeout)
  ntuple::Mode ntuple = ntuple::Mode::kAuto;  // --ntuple: net_af_xdp ports' steering rules (dataplane/ntuple_rules.h)
};

class Dataplane {
 public:
  static constexpr uint16_t kBurst = 32;

  explicit Dataplane(const DataplaneOptions& o);  // throws std::runtime_error
  ~Dataplane();
  Dataplane(const Dataplane&) = delete;
  Dataplane& operator=(const Dataplane&) = delete;

  // The receive pool a node needs: twice each flow's reorder window (held
  // frames and frames being taken in; a flow per peer and queue), the mbufs
  // the ports hold in their RX descriptors (`held`, Ports::held_rx_mbufs),
  // with 4095 to spare. It grows with P: so does the EAL memory a node needs.
  static unsigned default_rx_mbufs(unsigned nodes, unsigned window, unsigned queues, unsigned held);
  // The same before the EAL has ports: as if one port held `queues` full RX
  // rings (a tap, a NIC; memif holds none), for launchers and the doctor.
  static unsigned estimated_rx_mbufs(unsigned nodes, unsigned window, unsigned queues);

  // What a node takes of the EAL's memory (its heap: hugepages, or the whole
  // -m with --no-huge): the transmit pools (one per NUMA socket with lcores),
  // the receive pool of o.rx_mbufs (resolved, not 0), the bucket rings, and
  // the EAL's own kEalOwnBytes. What -m must hold.
  static uint64_t eal_memory_bytes(const DataplaneOptions& o, unsigned transmit_pools);
  static constexpr uint64_t kEalOwnBytes = 20ull << 20;  // memzones, tailqs, the PMDs' state

  const DataplaneOptions& options() const { return opt_; }
  const ValidationContext& validation() const { return vctx_; }
  Pools& pools() { return *pools_; }
  Ports& ports() { return ports_; }
  PeerTable& peers() { return peers_; }
  BucketQueues& queues() { return *queues_; }
  FrameAuth& auth() { return *auth_; }
  const FrameAuth& auth() const { return *auth_; }

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
  // Why frames of --mtu may no longer pass this node's ports' netdevs (an
  // MTU lowered since start, read now), or "": for timeout messages.
  std::string mtu_lowered() const { return ports_.mtu_lowered(opt_.mtu); }
  uint16_t tx_burst(unsigned port, unsigned queue, rte_mbuf** pkts, uint16_t n) {
    return ports_.tx_burst(port, queue, pkts, n, tx_q[queue]);
  }
  uint16_t rx_burst(unsigned port, unsigned queue, rte_mbuf** out, uint16_t n) {
    return ports_.rx_burst(port, queue, out, n);
  }
  // Queue 0 (one-queue users: tests, benchmarks).
  uint16_t tx_burst(unsigned port, rte_mbuf** pkts, uint16_t n) { return tx_burst(port, 0, pkts, n); }
  uint16_t rx_burst(unsigned port, rte_mbuf** out, uint16_t n) { return rx_burst(port, 0, out, n); }
  uint64_t rx_drops(unsigned port) const { return ports_.rx_drops(port); }
  // The ports' steering, if they agree (what this node's hello announces).
  Steering steering() const { return ports_.steering(); }
  // Sends a hello (or abort) on every port, now, to the broadcast address,
  // sealed by FrameAuth::seal_control (a hello gets the port's MAC in its
  // payload first); dropped if the port cannot take it (hellos repeat).
  // On tx queue 0: only while no sender role runs (ABORT after the roles
  // stopped), or from sender role 0 itself.
  void broadcast_now(const uint8_t* bucket, uint16_t bucket_bytes);
  // The same, queued for sender role 0 (send_broadcasts): what membership
  // uses while the roles run.
  void broadcast(const uint8_t* bucket, uint16_t bucket_bytes);
  // Sender role 0: sends the queued broadcasts. Returns frames sent.
  unsigned send_broadcasts();
  // At the end of a run, after the last frame: stay off the ports for a
  // moment before they close, so that no peer still polls a memif ring we
  // are about to disconnect (workaround 4 of dataplane/memif_quirks.h).
  void quiet_before_close() const;

  // ---- peers ----
  bool peer_known(unsigned rank) const { return peers_.known(rank); }
  bool learn_peer(unsigned rank, unsigned port, const MacAddress& mac) {
    return peers_.learn(rank, port, ports_[port].mac, mac);
  }
  // What discovery does once `rank`'s hello is verified and echoes us: it
  // is reached (and only heard) at `port` from `mac`; its salt gives its key
  // and our flows' first sequence numbers (FrameAuth::confirm), published
  // after the address. False (nothing changed) if the rank is known at
  // another address. Membership calls it; tests and benchmarks that play a
  // peer call it in its place.
  bool take_on_peer(unsigned rank, unsigned port, const MacAddress& mac, const Salt& salt) {
    if (!learn_peer(rank, port, mac)) return false;
    auth_->confirm(rank, salt);
    return true;
  }
  const FrameAddress& address_of(unsigned rank) const { return peers_.address_of(rank); }
  unsigned port_of(unsigned peer) const { return peers_.port_of(peer); }
  // How `peer`'s ports steer (its hello says): under kRss, frames to it take
  // the source port that lands on each queue. Discovery only.
  void set_peer_steering(unsigned peer, Steering s);
  // L2-L4 headers for flow (peer, queue): UDP destination port udp_port +
  // queue, and the header's queue; the wiregraph header and payload
  // (bucket_bytes of them) must already be written.
  void address(rte_mbuf* m, unsigned peer, uint16_t bucket_bytes, unsigned queue = 0) const;

  // ---- queues ----
  unsigned queue_count() const { return opt_.queues; }
  void enqueue(unsigned peer, unsigned queue, rte_mbuf* m) { queues_->enqueue(peer, queue, m); }
  unsigned dequeue(unsigned peer, unsigned queue, rte_mbuf** out, unsigned n) {
    return queues_->dequeue(peer, queue, out, n);
  }
  unsigned queued(unsigned peer, unsigned queue) const { return queues_->queued(peer, queue); }
  // Queue 0 (one-queue users: tests, benchmarks).
  void enqueue(unsigned peer, rte_mbuf* m) { enqueue(peer, 0, m); }
  unsigned dequeue(unsigned peer, rte_mbuf** out, unsigned n) { return dequeue(peer, 0, out, n); }
  unsigned queued(unsigned peer) const { return queued(peer, 0); }
  void enqueue_local(unsigned queue, rte_mbuf* m) { queues_->enqueue_local(queue, m); }
  unsigned dequeue_local(unsigned queue, rte_mbuf** out, unsigned n) { return queues_->dequeue_local(queue, out, n); }
  void hand_over(unsigned queue, rte_mbuf* m) { queues_->hand_over(queue, m); }
  unsigned take_handed(unsigned queue, rte_mbuf** out, unsigned n) { return queues_->take_handed(queue, out, n); }

  // ---- routes: the receive queue of each range (between phases only) ----
  void set_routes(const QueueRoutes& r) { routes_ = r; }
  const QueueRoutes& routes() const { return routes_; }

  // Per queue: tx_q[q] written by sender role q, rx_q[q] by accumulator role q.
  std::array<TxCounters, wire::kMaxQueues> tx_q{};
  std::array<RxCounters, wire::kMaxQueues> rx_q{};
  // Sums over the queues: exact once the roles have stopped (a snapshot
  // while they run, as telemetry reads them).
  TxCounters tx_total() const;
  RxCounters rx_total() const;

 private:
  void release();

  DataplaneOptions opt_;
  ValidationContext vctx_;
  std::unique_ptr<Pools> pools_;
  Ports ports_;
  PeerTable peers_;
  std::unique_ptr<BucketQueues> queues_;
  std::unique_ptr<FrameAuth> auth_;
  QueueRoutes routes_ = QueueRoutes::single();
  // Per peer, per queue: the UDP source port of frames of that flow.
  std::vector<std::array<uint16_t, wire::kMaxQueues>> src_port_;
};

}  // namespace wg
