#include "dataplane/ports.h"

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "dataplane/memif_guard.h"
#include "dataplane/memif_quirks.h"

namespace wg {

namespace {

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

void Ports::open_all(rte_mempool* rx_pool) {
  uint16_t id;
  RTE_ETH_FOREACH_DEV(id) open(id, rx_pool);
}

void Ports::open(uint16_t id, rte_mempool* rx_pool) {
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

bool Ports::close_all() {
  bool kept = false;
  for (const Port& p : ports_) {
    if (memif_quirks::must_not_close(p.memif)) {
      kept = true;
      continue;
    }
    rte_eth_dev_stop(p.id);
    rte_eth_dev_close(p.id);
  }
  ports_.clear();
  return kept;
}

bool Ports::has_memif() const {
  for (const Port& p : ports_)
    if (p.memif) return true;
  return false;
}

double Ports::link_speed_gbps() const {
  double best = 0;
  for (const Port& p : ports_) {
    rte_eth_link link{};
    if (rte_eth_link_get_nowait(p.id, &link) == 0 && link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
        link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
      best = std::max(best, link.link_speed / 1000.0);
  }
  return best;
}

std::string Ports::summary() const {
  std::string s;
  for (const Port& p : ports_) {
    char name[RTE_ETH_NAME_MAX_LEN] = "?";
    rte_eth_dev_get_name_by_port(p.id, name);
    if (!s.empty()) s += ", ";
    s += "port " + std::to_string(p.id) + " " + name + " " + mac_string(p.mac);
  }
  return s.empty() ? "no ports (single node)" : s;
}

std::string Ports::link_state() const {
  std::string s;
  for (const Port& p : ports_) {
    rte_eth_link link{};
    const bool up = rte_eth_link_get_nowait(p.id, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
    s += "port " + std::to_string(p.id) + (up ? " up, " : " down, ");
  }
  return s;
}

uint16_t Ports::tx_burst(unsigned port, rte_mbuf** pkts, uint16_t n, TxCounters& tx) {
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

uint16_t Ports::rx_burst(unsigned port, rte_mbuf** out, uint16_t n) {
  const memif_guard::Section section(ports_[port].memif);
  return rte_eth_rx_burst(ports_[port].id, 0, out, n);
}

uint64_t Ports::rx_drops(unsigned port) const {
  const memif_guard::Section section(ports_[port].memif);
  rte_eth_stats st;
  if (rte_eth_stats_get(ports_[port].id, &st) != 0) return 0;
  return st.imissed + st.rx_nombuf;
}

}  // namespace wg
