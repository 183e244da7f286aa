#include "dataplane/dataplane.h"

#include "dataplane/memif_guard.h"
#include "dataplane/memif_quirks.h"

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace wg {

namespace {

constexpr uint16_t kRxDescriptors = 2048;
constexpr uint16_t kTxDescriptors = 2048;
constexpr unsigned kPoolCache = 256;

std::atomic<unsigned> g_instance{0};

DataplaneOptions with_rx_default(DataplaneOptions o) {
  if (o.rx_mbufs == 0) o.rx_mbufs = Dataplane::default_rx_mbufs(o.nodes, o.window);
  return o;
}  // unique names for pools and rings per process

std::runtime_error dpdk_error(const std::string& what) {
  return std::runtime_error(what + ": " + rte_strerror(rte_errno));
}

std::string mac_string(const MacAddress& m) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
  return buf;
}

// net_tap gives the kernel side of the tap the DPDK port's own MAC. On a
// bridge that MAC is then "local": frames for it never leave through the tap,
// so peers could not reach this node (MACHINE-NOTES gotcha 1). Once the port
// has started (starting resets it), give the kernel side a different,
// locally administered MAC; the DPDK port is promiscuous and still receives.
void separate_tap_kernel_mac(uint16_t port, const rte_eth_dev_info& info, const MacAddress& port_mac) {
  if (info.driver_name == nullptr || std::strcmp(info.driver_name, "net_tap") != 0 || info.if_index == 0) return;
  char ifname[IF_NAMESIZE] = {};
  if (if_indextoname(info.if_index, ifname) == nullptr) return;
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return;
  ifreq req{};
  std::memcpy(req.ifr_name, ifname, strnlen(ifname, IF_NAMESIZE - 1));
  req.ifr_hwaddr.sa_family = 1;  // ARPHRD_ETHER
  MacAddress kernel_mac = port_mac;
  kernel_mac[0] = static_cast<uint8_t>((kernel_mac[0] | 0x02) & ~0x01);  // local, unicast
  kernel_mac[5] ^= 0xa5;
  std::memcpy(req.ifr_hwaddr.sa_data, kernel_mac.data(), 6);
  if (ioctl(fd, SIOCSIFHWADDR, &req) != 0)
    std::fprintf(stderr, "wiregraph: warning: port %u: cannot change the MAC of tap %s: %s\n", port, ifname,
                 std::strerror(errno));
  close(fd);
}

}  // namespace

unsigned Dataplane::default_rx_mbufs(unsigned nodes, unsigned window) {
  return 4095 + (nodes > 0 ? nodes - 1 : 0) * (kRxDescriptors + 2 * window);
}

Dataplane::Dataplane(const DataplaneOptions& o)
    : opt_(with_rx_default(o)), vctx_{o.job_token, o.rank, o.nodes, o.udp_port, o.domains, o.record_bytes}, peers_(o.nodes) {
  try {
    init_pool();
    uint16_t id;
    RTE_ETH_FOREACH_DEV(id) init_port(id);
    if (opt_.nodes > 1 && ports_.empty())
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
  bool memif = false;
  for (Port& p : ports_) {
    if (memif_quirks::must_not_close(p.memif)) {
      memif = true;
      continue;
    }
    rte_eth_dev_stop(p.id);
    rte_eth_dev_close(p.id);
  }
  auto drain = [](rte_ring* r) {
    if (r == nullptr) return;
    rte_mbuf* m;
    while (rte_ring_dequeue(r, reinterpret_cast<void**>(&m)) == 0) rte_pktmbuf_free(m);
    rte_ring_free(r);
  };
  for (Peer& peer : peers_) drain(peer.queue);
  for (rte_ring* r : local_) drain(r);
  if (!memif) {
    for (rte_mempool*& p : socket_pool_) {
      if (p != pool_) rte_mempool_free(p);
      p = nullptr;
    }
    rte_mempool_free(pool_);
    rte_mempool_free(rx_pool_);
  }
  ports_.clear();
  for (Peer& peer : peers_) peer.queue = nullptr;
  local_.clear();
  pool_ = nullptr;
  rx_pool_ = nullptr;
}

void Dataplane::init_pool() {
  const unsigned n = g_instance.fetch_add(1);
  const int socket = static_cast<int>(rte_socket_id());
  const std::string name = "wg_pool" + std::to_string(n);
  pool_ = rte_pktmbuf_pool_create(name.c_str(), opt_.mbufs, kPoolCache, 0,
                                  RTE_MBUF_DEFAULT_BUF_SIZE, socket);
  if (pool_ == nullptr)
    throw dpdk_error("cannot create a pool of " + std::to_string(opt_.mbufs) +
                     " mbufs (more EAL memory with -m, or fewer with --mbufs)");
  // Workers write buckets into mbufs of their own NUMA socket: one transmit
  // pool per socket that has an lcore (just the one above on a single-socket
  // machine). A frame goes back to its own pool when freed.
  std::fill(std::begin(socket_pool_), std::end(socket_pool_), pool_);
  unsigned pools = 1;
  unsigned lcore;
  RTE_LCORE_FOREACH(lcore) {
    const unsigned s = rte_lcore_to_socket_id(lcore);
    if (s >= RTE_MAX_NUMA_NODES || static_cast<int>(s) == socket || socket_pool_[s] != pool_) continue;
    const std::string sname = name + "_s" + std::to_string(s);
    rte_mempool* p = rte_pktmbuf_pool_create(sname.c_str(), opt_.mbufs, kPoolCache, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                                             static_cast<int>(s));
    if (p == nullptr)
      throw dpdk_error("cannot create a pool of " + std::to_string(opt_.mbufs) + " mbufs on socket " +
                       std::to_string(s) + " (more EAL memory there with --socket-mem, or fewer with --mbufs)");
    socket_pool_[s] = p;
    ++pools;
  }
  if (opt_.nodes > 1) {
    const std::string rx_name = "wg_rxpool" + std::to_string(n);
    rx_pool_ = rte_pktmbuf_pool_create(rx_name.c_str(), opt_.rx_mbufs, kPoolCache, 0, RTE_MBUF_DEFAULT_BUF_SIZE, socket);
    if (rx_pool_ == nullptr)
      throw dpdk_error("cannot create the receive pool of " + std::to_string(opt_.rx_mbufs) +
                       " mbufs (more EAL memory with -m)");
  }
  // Holds every mbuf of the transmit pools, so enqueue can never fail.
  const unsigned ring_size = rte_align32pow2(opt_.mbufs * pools + 1);
  for (unsigned d = 0; d < opt_.domains; ++d) {
    const std::string q = "wg_local" + std::to_string(n) + "_" + std::to_string(d);
    local_.push_back(rte_ring_create(q.c_str(), ring_size, socket, RING_F_SC_DEQ));
    if (local_.back() == nullptr) throw dpdk_error("cannot create the local bucket queue of domain " + std::to_string(d));
  }
  for (unsigned r = 0; r < peers_.size(); ++r) {
    if (r == opt_.rank) continue;
    const std::string q = "wg_q" + std::to_string(n) + "_" + std::to_string(r);
    peers_[r].queue = rte_ring_create(q.c_str(), ring_size, socket, RING_F_SC_DEQ);
    if (peers_[r].queue == nullptr) throw dpdk_error("cannot create the queue for node " + std::to_string(r));
  }
}

void Dataplane::init_port(uint16_t id) {
  Port p;
  p.id = id;
  rte_eth_dev_info info;
  if (rte_eth_dev_info_get(id, &info) != 0) throw dpdk_error("port " + std::to_string(id) + ": no device info");
  rte_eth_conf conf{};
  if (int rc = rte_eth_dev_configure(id, 1, 1, &conf); rc < 0)
    throw std::runtime_error("port " + std::to_string(id) + ": configure failed: " + rte_strerror(-rc));
  uint16_t nb_rxd = kRxDescriptors, nb_txd = kTxDescriptors;
  if (int rc = rte_eth_dev_adjust_nb_rx_tx_desc(id, &nb_rxd, &nb_txd); rc < 0)
    throw std::runtime_error("port " + std::to_string(id) + ": descriptor counts: " + rte_strerror(-rc));
  const int socket = rte_eth_dev_socket_id(id) >= 0 ? rte_eth_dev_socket_id(id) : static_cast<int>(rte_socket_id());
  rte_mempool* rx_pool = rx_pool_ != nullptr ? rx_pool_ : pool_;
  if (int rc = rte_eth_rx_queue_setup(id, 0, nb_rxd, socket, nullptr, rx_pool); rc < 0)
    throw std::runtime_error("port " + std::to_string(id) + ": rx queue: " + rte_strerror(-rc));
  if (int rc = rte_eth_tx_queue_setup(id, 0, nb_txd, socket, nullptr); rc < 0)
    throw std::runtime_error("port " + std::to_string(id) + ": tx queue: " + rte_strerror(-rc));
  if (int rc = rte_eth_dev_start(id); rc < 0)
    throw std::runtime_error("port " + std::to_string(id) + ": start failed: " + rte_strerror(-rc));
  // Peers address us by MAC, but a bridge or a memif peer may present frames
  // for other nodes too: validation filters by rank, so accept everything.
  rte_eth_promiscuous_enable(id);
  rte_ether_addr mac;
  rte_eth_macaddr_get(id, &mac);
  std::copy(std::begin(mac.addr_bytes), std::end(mac.addr_bytes), p.mac.begin());
  separate_tap_kernel_mac(id, info, p.mac);
  p.memif = info.driver_name != nullptr && std::strcmp(info.driver_name, "net_memif") == 0;
  if (p.memif) memif_guard::arm();  // before the first burst on the port
  ports_.push_back(p);
}

double Dataplane::link_speed_gbps() const {
  double best = 0;
  for (const Port& p : ports_) {
    rte_eth_link link{};
    if (rte_eth_link_get_nowait(p.id, &link) == 0 && link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
        link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
      best = std::max(best, link.link_speed / 1000.0);
  }
  return best;
}

std::string Dataplane::port_summary() const {
  std::string s;
  for (const Port& p : ports_) {
    char name[RTE_ETH_NAME_MAX_LEN] = "?";
    rte_eth_dev_get_name_by_port(p.id, name);
    if (!s.empty()) s += ", ";
    s += "port " + std::to_string(p.id) + " " + name + " " + mac_string(p.mac);
  }
  return s.empty() ? "no ports (single node)" : s;
}

std::string Dataplane::link_state() const {
  std::string s;
  for (const Port& p : ports_) {
    rte_eth_link link{};
    const bool up = rte_eth_link_get_nowait(p.id, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
    s += "port " + std::to_string(p.id) + (up ? " up, " : " down, ");
  }
  s += std::to_string(tx.frames) + " frames sent, " + std::to_string(rx.frames) + " received";
  for (size_t i = 1; i < rx.dropped.size(); ++i)
    if (rx.dropped[i] != 0)
      s += ", " + std::to_string(rx.dropped[i]) + " dropped as " + drop_reason_name(static_cast<DropReason>(i));
  return s;
}

bool Dataplane::learn_peer(unsigned rank, unsigned port, const MacAddress& mac) {
  Peer& peer = peers_[rank];
  if (peer.known) return peer.port == port && peer.addr.dst_mac == mac;
  peer.known = true;
  peer.port = port;
  peer.addr.src_mac = ports_[port].mac;
  peer.addr.dst_mac = mac;
  peer.addr.src_ip = node_ipv4(opt_.job_token, opt_.rank);
  peer.addr.dst_ip = node_ipv4(opt_.job_token, rank);
  peer.addr.src_port = opt_.udp_port;
  peer.addr.dst_port = opt_.udp_port;
  return true;
}

void Dataplane::address(rte_mbuf* m, unsigned peer, uint16_t bucket_bytes) const {
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  const uint16_t len = write_l2_l4(frame, peers_[peer].addr, bucket_bytes);
  m->data_len = len;
  m->pkt_len = len;
}


void Dataplane::quiet_before_close() const { memif_quirks::quiet_before_close(); }

void Dataplane::broadcast_now(const uint8_t* bucket, uint16_t bucket_bytes) {
  for (Port& p : ports_) {
    rte_mbuf* m = alloc_control();
    if (m == nullptr) return;
    uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
    std::memcpy(frame + wire::kHeaderOffset, bucket, bucket_bytes);
    FrameAddress a;
    a.src_mac = p.mac;
    a.dst_mac = kBroadcastMac;
    a.src_ip = node_ipv4(opt_.job_token, opt_.rank);
    a.dst_ip = 0xffffffffu;
    a.src_port = a.dst_port = opt_.udp_port;
    m->data_len = m->pkt_len = write_l2_l4(frame, a, bucket_bytes);
    // Hellos and aborts are always sealed (see Transport::classify).
    seal_bucket(frame, m->data_len);
    if (tx_burst(static_cast<unsigned>(&p - ports_.data()), &m, 1) != 1) rte_pktmbuf_free(m);
  }
}

uint16_t Dataplane::tx_burst(unsigned port, rte_mbuf** pkts, uint16_t n) {
  uint64_t bytes = 0;
  for (uint16_t i = 0; i < n; ++i) bytes += pkts[i]->pkt_len;
  uint16_t sent;
  {
    const memif_guard::Section section(ports_[port].memif);
    sent = rte_eth_tx_burst(ports_[port].id, 0, pkts, n);
  }
  for (uint16_t i = sent; i < n; ++i) bytes -= pkts[i]->pkt_len;
  tx.frames += sent;
  tx.bytes += bytes;
  if (sent < n) ++tx.ring_full;
  return sent;
}

uint16_t Dataplane::rx_burst(unsigned port, rte_mbuf** out, uint16_t n) {
  const memif_guard::Section section(ports_[port].memif);
  return rte_eth_rx_burst(ports_[port].id, 0, out, n);
}

}  // namespace wg
