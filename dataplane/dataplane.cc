#include "dataplane/dataplane.h"

#include <rte_byteorder.h>

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "dataplane/memif_quirks.h"

namespace wg {

namespace {

std::atomic<unsigned> g_instance{0};  // unique names for pools and rings per process

DataplaneOptions with_rx_default(DataplaneOptions o) {
  if (o.rx_mbufs == 0)
    o.rx_mbufs = Dataplane::default_rx_mbufs(o.nodes, o.window, o.queues, Ports::held_rx_mbufs(o.queues));
  return o;
}

uint64_t ring_bytes(unsigned entries) { return uint64_t{rte_align32pow2(entries + 1)} * sizeof(void*) + 256; }

std::string mib(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

void set_udp_ports(uint8_t* frame, uint16_t src, uint16_t dst) {
  const uint16_t be[2] = {rte_cpu_to_be_16(src), rte_cpu_to_be_16(dst)};
  std::memcpy(frame + wire::kEthHeaderBytes + wire::kIpv4HeaderBytes, be, sizeof be);
}

}  // namespace

unsigned Dataplane::default_rx_mbufs(unsigned nodes, unsigned window, unsigned queues, unsigned held) {
  return 4095 + held + (nodes > 0 ? nodes - 1 : 0) * queues * 2 * window;
}

unsigned Dataplane::estimated_rx_mbufs(unsigned nodes, unsigned window, unsigned queues) {
  return default_rx_mbufs(nodes, window, queues, queues * Ports::rx_descriptors(queues));
}

uint64_t Dataplane::eal_memory_bytes(const DataplaneOptions& o, unsigned transmit_pools) {
  const bool cluster = o.nodes > 1;
  uint64_t bytes = transmit_pools * Pools::pool_bytes(o.mbufs, o.mtu);
  if (cluster) bytes += Pools::pool_bytes(o.rx_mbufs, o.mtu);
  // BucketQueues: a ring per flow and a local one per queue, each as large as
  // the transmit pools; a hand-over ring per queue as large as the receive pool.
  const unsigned flows = (o.nodes > 0 ? o.nodes - 1 : 0) * o.queues;
  bytes += uint64_t{flows + o.queues} * ring_bytes(o.mbufs * transmit_pools);
  bytes += uint64_t{o.queues} * ring_bytes(cluster ? o.rx_mbufs : o.mbufs);
  return bytes + kEalOwnBytes;
}

Dataplane::Dataplane(const DataplaneOptions& o)
    : opt_(with_rx_default(o)),
      // Ranges (a data bucket's domain) are checked against the phase's
      // driver by the runtime: any 16-bit value passes here.
      vctx_{o.job_token, o.rank, o.nodes, o.udp_port, 1u << 16, o.queues, o.mtu},
      peers_(o.nodes, o.job_token, o.rank, o.udp_port) {
  if (opt_.queues == 0 || opt_.queues > wire::kMaxQueues)
    throw std::runtime_error("--rx-queues must be 1.." + std::to_string(wire::kMaxQueues));
  auth_ = std::make_unique<FrameAuth>(opt_.auth, opt_.nodes, opt_.rank, opt_.queues);
  for (unsigned p = 0; p < opt_.nodes; ++p) {
    src_port_.emplace_back();
    for (unsigned q = 0; q < wire::kMaxQueues; ++q) src_port_.back()[q] = static_cast<uint16_t>(opt_.udp_port + q);
  }
  const unsigned instance = g_instance.fetch_add(1);
  try {
    pools_ = std::make_unique<Pools>(instance, opt_.mbufs, opt_.rx_mbufs, opt_.nodes > 1, opt_.mtu);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + ": this node needs about " + mib(eal_memory_bytes(opt_, 1)) +
                             " of EAL memory (-m: with --no-huge the whole heap) for " + std::to_string(opt_.nodes) +
                             " nodes at --window " + std::to_string(opt_.window) + ", --mbufs " +
                             std::to_string(opt_.mbufs) + ", --mtu " + std::to_string(opt_.mtu) +
                             " (scripts/wiregraph-cluster sizes -m from it)");
  }
  try {
    // Each queue holds every mbuf of the transmit pools (the hand-over rings:
    // of the receive pool), so enqueue can never fail.
    queues_ = std::make_unique<BucketQueues>(instance, opt_.nodes, opt_.rank, opt_.queues,
                                             opt_.mbufs * pools_->transmit_pools(),
                                             opt_.nodes > 1 ? opt_.rx_mbufs : opt_.mbufs);
    ports_.set_ntuple_mode(opt_.ntuple);
    ports_.open_all(pools_->receive_pool(), opt_.queues, opt_.mtu, opt_.udp_port, opt_.server_wait_s);
    if (opt_.nodes > 1 && ports_.size() == 0)
      throw std::runtime_error("a cluster of " + std::to_string(opt_.nodes) +
                               " nodes needs at least one DPDK port; pass one with the EAL "
                               "options (e.g. -a PCI_ADDRESS or --vdev net_tap0)");
  } catch (...) {
    release();  // a destructor does not run for a constructor that throws
    throw;
  }
}

Dataplane::~Dataplane() { release(); }

void Dataplane::release() {
  // memif ports are left open, and their pools with them: workaround 2 of
  // dataplane/memif_quirks.h.
  const bool memif_kept = ports_.close_all();
  if (queues_) queues_->release();
  if (pools_ && !memif_kept) pools_->release();
}

TxCounters Dataplane::tx_total() const {
  TxCounters t;
  for (const TxCounters& c : tx_q) t += c;
  return t;
}

RxCounters Dataplane::rx_total() const {
  RxCounters t;
  for (const RxCounters& c : rx_q) t += c;
  return t;
}

void Dataplane::set_peer_steering(unsigned peer, Steering s) {
  if (s != Steering::kRss || peer >= src_port_.size()) return;
  const uint32_t src = node_ipv4(opt_.job_token, opt_.rank), dst = node_ipv4(opt_.job_token, peer);
  for (unsigned q = 0; q < opt_.queues; ++q)
    src_port_[peer][q] = rss_source_port(src, dst, static_cast<uint16_t>(opt_.udp_port + q), q, opt_.queues,
                                         static_cast<uint16_t>(opt_.udp_port + 1024));
}

void Dataplane::address(rte_mbuf* m, unsigned peer, uint16_t bucket_bytes, unsigned queue) const {
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  bucket_header(frame)->queue = static_cast<uint8_t>(queue);
  peers_.address(m, peer, bucket_bytes);
  set_udp_ports(frame, src_port_[peer][queue], static_cast<uint16_t>(opt_.udp_port + queue));
}

std::string Dataplane::link_state() const {
  std::string s = ports_.link_state();
  const TxCounters tx = tx_total();
  const RxCounters rx = rx_total();
  s += std::to_string(tx.frames) + " frames sent, " + std::to_string(rx.frames) + " received";
  for (size_t i = 1; i < rx.dropped.size(); ++i)
    if (rx.dropped[i] != 0)
      s += ", " + std::to_string(rx.dropped[i]) + " dropped as " + drop_reason_name(static_cast<DropReason>(i));
  return s;
}

void Dataplane::quiet_before_close() const { memif_quirks::quiet_before_close(); }

namespace {

// A broadcast frame (hello, abort) for `port`, sealed (FrameAuth::seal_control).
rte_mbuf* broadcast_frame(Dataplane& dp, unsigned port, const uint8_t* bucket, uint16_t bucket_bytes) {
  rte_mbuf* m = dp.alloc_control();
  if (m == nullptr) return nullptr;
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  std::memcpy(frame + wire::kHeaderOffset, bucket, bucket_bytes);
  FrameAddress a;
  a.src_mac = dp.ports()[port].mac;
  a.dst_mac = kBroadcastMac;
  a.src_ip = node_ipv4(dp.options().job_token, dp.options().rank);
  a.dst_ip = 0xffffffffu;
  a.src_port = a.dst_port = dp.options().udp_port;
  m->data_len = m->pkt_len = write_l2_l4(frame, a, bucket_bytes);
  // A hello names the port it leaves by (under its MAC): receivers count it
  // only from that source address, so a copy replayed from elsewhere is not
  // taken for the node.
  if (bucket_header(frame)->kind == static_cast<uint8_t>(wire::Kind::kHello))
    std::memcpy(frame + wire::kPayloadOffset + offsetof(wire::HelloPayload, port_mac), a.src_mac.data(), 6);
  dp.auth().seal_control(frame, m->data_len);
  m->port = static_cast<uint16_t>(port);
  return m;
}

}  // namespace

void Dataplane::broadcast(const uint8_t* bucket, uint16_t bucket_bytes) {
  for (unsigned port = 0; port < ports_.size(); ++port)
    if (rte_mbuf* m = broadcast_frame(*this, port, bucket, bucket_bytes)) queues_->enqueue_broadcast(m);
}

unsigned Dataplane::send_broadcasts() {
  rte_mbuf* burst[kBurst];
  unsigned sent = 0;
  for (unsigned n; (n = queues_->dequeue_broadcast(burst, kBurst)) > 0;)
    for (unsigned i = 0; i < n; ++i) {
      if (tx_burst(burst[i]->port, 0, &burst[i], 1) == 1) ++sent;
      else rte_pktmbuf_free(burst[i]);  // hellos repeat
    }
  return sent;
}

void Dataplane::broadcast_now(const uint8_t* bucket, uint16_t bucket_bytes) {
  for (unsigned port = 0; port < ports_.size(); ++port) {
    rte_mbuf* m = broadcast_frame(*this, port, bucket, bucket_bytes);
    if (m == nullptr) return;
    if (tx_burst(port, 0, &m, 1) != 1) rte_pktmbuf_free(m);
  }
}

}  // namespace wg
