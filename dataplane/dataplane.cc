#include "dataplane/dataplane.h"

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "dataplane/memif_quirks.h"

namespace wg {

namespace {

std::atomic<unsigned> g_instance{0};  // unique names for pools and rings per process

DataplaneOptions with_rx_default(DataplaneOptions o) {
  if (o.rx_mbufs == 0) o.rx_mbufs = Dataplane::default_rx_mbufs(o.nodes, o.window);
  return o;
}

}  // namespace

unsigned Dataplane::default_rx_mbufs(unsigned nodes, unsigned window) {
  return 4095 + (nodes > 0 ? nodes - 1 : 0) * (Ports::kRxDescriptors + 2 * window);
}

Dataplane::Dataplane(const DataplaneOptions& o)
    : opt_(with_rx_default(o)),
      vctx_{o.job_token, o.rank, o.nodes, o.udp_port, o.domains},
      peers_(o.nodes, o.job_token, o.rank, o.udp_port) {
  const unsigned instance = g_instance.fetch_add(1);
  pools_ = std::make_unique<Pools>(instance, opt_.mbufs, opt_.rx_mbufs, opt_.nodes > 1);
  try {
    // Each queue holds every mbuf of the transmit pools, so enqueue can never fail.
    queues_ = std::make_unique<BucketQueues>(instance, opt_.nodes, opt_.rank, opt_.domains,
                                             opt_.mbufs * pools_->transmit_pools());
    ports_.open_all(pools_->receive_pool());
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

std::string Dataplane::link_state() const {
  std::string s = ports_.link_state();
  s += std::to_string(tx.frames) + " frames sent, " + std::to_string(rx.frames) + " received";
  for (size_t i = 1; i < rx.dropped.size(); ++i)
    if (rx.dropped[i] != 0)
      s += ", " + std::to_string(rx.dropped[i]) + " dropped as " + drop_reason_name(static_cast<DropReason>(i));
  return s;
}

void Dataplane::quiet_before_close() const { memif_quirks::quiet_before_close(); }

void Dataplane::broadcast_now(const uint8_t* bucket, uint16_t bucket_bytes) {
  for (unsigned port = 0; port < ports_.size(); ++port) {
    rte_mbuf* m = alloc_control();
    if (m == nullptr) return;
    uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
    std::memcpy(frame + wire::kHeaderOffset, bucket, bucket_bytes);
    FrameAddress a;
    a.src_mac = ports_[port].mac;
    a.dst_mac = kBroadcastMac;
    a.src_ip = node_ipv4(opt_.job_token, opt_.rank);
    a.dst_ip = 0xffffffffu;
    a.src_port = a.dst_port = opt_.udp_port;
    m->data_len = m->pkt_len = write_l2_l4(frame, a, bucket_bytes);
    // Hellos and aborts are always sealed (see the receive path's classify).
    seal_bucket(frame, m->data_len);
    if (tx_burst(port, &m, 1) != 1) rte_pktmbuf_free(m);
  }
}

}  // namespace wg
