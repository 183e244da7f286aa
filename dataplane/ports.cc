#include "dataplane/ports.h"

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "dataplane/kernel_ports.h"
#include "dataplane/libxdp_log.h"
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

// The arguments the port's vdev was given ("role=server,socket=...").
std::string device_args(const rte_eth_dev_info& info) {
  const rte_devargs* da = info.device != nullptr ? rte_dev_devargs(info.device) : nullptr;
  return da != nullptr && da->args != nullptr ? da->args : "";
}

}  // namespace

void Ports::open_all(rte_mempool* rx_pool, unsigned queues, uint32_t mtu, uint16_t udp_base, double server_wait_s) {
  uint16_t id;
  RTE_ETH_FOREACH_DEV(id) ports_.push_back(configure(id, rx_pool, queues, mtu));
  // Servers first: a client waits for its server's port (memif_quirks.h,
  // workaround 5), and the server may be a client of ours meanwhile.
  for (Port& p : ports_)
    if (!p.memif_client) start(p, queues, udp_base, server_wait_s, "", ntuple_mode_);
  // One wait for all of them, not one per client port.
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(server_wait_s);
  for (Port& p : ports_)
    if (p.memif_client)
      start(p, queues, udp_base,
            std::max(0.0, std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count()),
            "--hello-timeout", ntuple_mode_);
}

void Ports::open(uint16_t id, rte_mempool* rx_pool, unsigned queues, uint32_t mtu, uint16_t udp_base,
                 double server_wait_s) {
  ports_.push_back(configure(id, rx_pool, queues, mtu));
  start(ports_.back(), queues, udp_base, server_wait_s, "the wait for a port opened alone", ntuple_mode_);
}

unsigned Ports::held_rx_mbufs(unsigned queues) {
  unsigned held = 0;
  uint16_t id;
  RTE_ETH_FOREACH_DEV(id) {
    rte_eth_dev_info info;
    if (rte_eth_dev_info_get(id, &info) != 0 || info.driver_name == nullptr) continue;
    const std::string driver = info.driver_name;
    if (driver == "net_memif") {
      // Copy mode takes an mbuf per frame; zero-copy keeps its ring filled
      // (2^rsize slots, 2^10 by default) from the receive pool.
      const std::string args = device_args(info);
      if (memif_quirks::devarg(args, "zero-copy", "no").find("yes") != std::string::npos)
        held += queues << std::strtoul(memif_quirks::devarg(args, "rsize", "10").c_str(), nullptr, 0);
    } else if (driver != "net_null" && driver != "net_ring") {
      held += queues * rx_descriptors(queues);
    }
  }
  return held;
}

uint16_t Ports::rx_descriptors(unsigned queues) {
  return static_cast<uint16_t>(std::max<unsigned>(256, kRxDescriptors / std::max(queues, 1u)));
}

namespace {

// RSS over UDP/IPv4 with wiregraph's key, when the port can hash UDP and
// has a RETA: what a sender needs to steer without rte_flow (steering.h).
bool configure_rss(const rte_eth_dev_info& info, rte_eth_conf& conf, uint8_t (&key)[64]) {
  if (info.reta_size < 64 || info.hash_key_size < 16 || info.hash_key_size > sizeof key ||
      (info.flow_type_rss_offloads & RTE_ETH_RSS_NONFRAG_IPV4_UDP) == 0)
    return false;
  std::fill(std::begin(key), std::end(key), 0);
  std::copy(std::begin(kRssKey), std::end(kRssKey), key);
  conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
  conf.rx_adv_conf.rss_conf.rss_key = key;
  conf.rx_adv_conf.rss_conf.rss_key_len = info.hash_key_size;
  conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_NONFRAG_IPV4_UDP;
  return true;
}

// Why configure_rss says no, in the terms of the port's device info.
std::string rss_refusal(const rte_eth_dev_info& info) {
  if ((info.flow_type_rss_offloads & RTE_ETH_RSS_NONFRAG_IPV4_UDP) == 0) return "no UDP/IPv4 hash offered";
  if (info.reta_size < 64) return "a RETA of " + std::to_string(info.reta_size) + " entries (64 needed)";
  return "a hash key of " + std::to_string(info.hash_key_size) + " bytes (16 to 64 needed)";
}

rte_eth_dev_info info_of(uint16_t id) {
  rte_eth_dev_info info{};
  rte_eth_dev_info_get(id, &info);
  return info;
}

// rte_flow: UDP destination port udp_base + q -> queue q, for every q. A
// PMD may validate a rule and still fail to create it (net_tap here: no
// multiq qdisc), so each is created; any failure removes them all and says
// why in *refusal. The attempt is quiet: a PMD that cannot logs errors we expect.
bool install_flow_rules(uint16_t id, unsigned queues, uint16_t udp_base, std::string* refusal) {
  const uint32_t level = rte_log_get_global_level();
  rte_log_set_global_level(RTE_LOG_EMERG);
  std::vector<rte_flow*> made;
  bool ok = true;
  for (unsigned q = 0; q < queues && ok; ++q) {
    rte_flow_attr attr{};
    attr.ingress = 1;
    rte_flow_item_udp spec{}, mask{};
    spec.hdr.dst_port = rte_cpu_to_be_16(static_cast<uint16_t>(udp_base + q));
    mask.hdr.dst_port = 0xffff;
    const rte_flow_item pattern[] = {{RTE_FLOW_ITEM_TYPE_ETH, nullptr, nullptr, nullptr},
                                     {RTE_FLOW_ITEM_TYPE_IPV4, nullptr, nullptr, nullptr},
                                     {RTE_FLOW_ITEM_TYPE_UDP, &spec, nullptr, &mask},
                                     {RTE_FLOW_ITEM_TYPE_END, nullptr, nullptr, nullptr}};
    const rte_flow_action_queue to{static_cast<uint16_t>(q)};
    const rte_flow_action actions[] = {{RTE_FLOW_ACTION_TYPE_QUEUE, &to}, {RTE_FLOW_ACTION_TYPE_END, nullptr}};
    rte_flow_error err{};
    const bool valid = rte_flow_validate(id, &attr, pattern, actions, &err) == 0;
    rte_flow* f = valid ? rte_flow_create(id, &attr, pattern, actions, &err) : nullptr;
    if (f == nullptr) {
      ok = false;
      *refusal = std::string("rte_flow rule UDP dst ") + std::to_string(udp_base + q) + " -> queue " +
                 std::to_string(q) + (valid ? " validated but refused at creation: " : " not valid: ") +
                 (err.message != nullptr ? err.message : rte_strerror(rte_errno));
    } else {
      made.push_back(f);
    }
  }
  if (!ok) {
    rte_flow_error err{};
    for (rte_flow* f : made) rte_flow_destroy(id, f, &err);
  }
  rte_log_set_global_level(level);
  return ok;
}

// wiregraph's RETA: entry i -> queue i mod K (steering.h: rss_queue).
bool program_reta(uint16_t id, uint16_t reta_size, unsigned queues) {
  std::vector<rte_eth_rss_reta_entry64> reta(reta_size / RTE_ETH_RETA_GROUP_SIZE);
  for (unsigned i = 0; i < reta_size; ++i) {
    rte_eth_rss_reta_entry64& e = reta[i / RTE_ETH_RETA_GROUP_SIZE];
    e.mask |= uint64_t{1} << (i % RTE_ETH_RETA_GROUP_SIZE);
    e.reta[i % RTE_ETH_RETA_GROUP_SIZE] = static_cast<uint16_t>(i % queues);
  }
  return rte_eth_dev_rss_reta_update(id, reta.data(), reta_size) == 0;
}

}  // namespace

Steering Ports::steer(uint16_t id, Port& p, unsigned queues, uint16_t udp_base, bool rss_configured) {
  if (queues == 1) return Steering::kSingle;
  if (p.memif) return Steering::kQueuePairs;
  if (install_flow_rules(id, queues, udp_base, &p.steering_note)) return Steering::kFlowRule;
  rte_eth_dev_info info;
  if (rss_configured && rte_eth_dev_info_get(id, &info) == 0 && program_reta(id, info.reta_size, queues))
    return Steering::kRss;
  p.steering_note += rss_configured ? "; RSS: the RETA could not be programmed"
                                    : "; RSS: " + rss_refusal(info_of(id));
  if (p.driver == "net_tap") return Steering::kKernelFlows;
  return Steering::kNone;
}

// DPDK's rule for the L2 overhead: the gap between max_rx_pktlen and
// max_mtu when the PMD reports both, else Ethernet header + CRC. net_tap
// reports max_mtu 65535 but max_rx_pktlen 1522, so it takes MTU 1504 at most;
// net_af_xdp what one XDP frame holds (MTU 1778).
uint32_t Ports::largest_mtu(const rte_eth_dev_info& info) {
  const bool gap = info.max_mtu != UINT16_MAX && info.max_rx_pktlen > info.max_mtu;
  const uint32_t overhead = gap ? info.max_rx_pktlen - info.max_mtu : RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
  const uint32_t largest =
      std::min<uint32_t>(info.max_mtu, info.max_rx_pktlen > overhead ? info.max_rx_pktlen - overhead : 0);
  // net_af_xdp reports more than one XDP frame holds (kernel_ports.h).
  if (info.driver_name != nullptr && std::strcmp(info.driver_name, "net_af_xdp") == 0)
    return std::min<uint32_t>(largest, kernel_ports::kAfXdpFrameBytes - wire::frame_bytes(0));
  return largest;
}

Ports::Port Ports::configure(uint16_t id, rte_mempool* rx_pool, unsigned queues, uint32_t mtu) {
  Port p;
  p.id = id;
  const std::string name = "port " + std::to_string(id);
  rte_eth_dev_info info;
  if (rte_eth_dev_info_get(id, &info) != 0) throw dpdk_error(name + ": no device info");
  p.driver = info.driver_name != nullptr ? info.driver_name : "?";
  p.memif = p.driver == "net_memif";
  p.if_index = info.if_index;
  if (p.driver == "net_af_xdp") libxdp_log::route();
  if (queues > info.max_rx_queues || queues > info.max_tx_queues)
    throw std::runtime_error(name + " (" + p.driver + ") has at most " +
                             std::to_string(std::min(info.max_rx_queues, info.max_tx_queues)) +
                             " queue pairs, not the " + std::to_string(queues) + " of --rx-queues");
  if (p.memif) {
    const std::string args = device_args(info);
    p.memif_socket = memif_quirks::socket_file(args);
    p.memif_client = !p.memif_socket.empty() && !memif_quirks::is_server(args);
    const uint32_t bsize = memif_quirks::buffer_size(args);
    if (wire::frame_bytes(mtu) > bsize)
      throw std::runtime_error(name + " (net_memif): its buffers (bsize=" + std::to_string(bsize) +
                               ") hold frames of at most " + std::to_string(bsize) + " bytes, not the " +
                               std::to_string(wire::frame_bytes(mtu)) + " of --mtu " + std::to_string(mtu) +
                               ": add bsize=" + std::to_string((wire::frame_bytes(mtu) + 1023) / 1024 * 1024) +
                               " to its vdev (dataplane/memif_quirks.h, workaround 6)");
  }
  if (const std::string why = kernel_ports::frame_refusal(name + " (" + p.driver + ")", p.driver, mtu); !why.empty())
    throw std::runtime_error(why);
  // memif and net_ring have no MTU to set: they carry any frame the peer's
  // buffers (and our receive mbufs) hold.
  const bool set_mtu = mtu != wire::kMtu && !p.memif && p.driver != "net_ring";
  if (set_mtu && mtu > largest_mtu(info))
    throw std::runtime_error(name + " (" + p.driver + ") takes frames of at most MTU " +
                             std::to_string(largest_mtu(info)) + ", not the --mtu " + std::to_string(mtu));
  rte_eth_conf conf{};
  if (set_mtu) conf.rxmode.mtu = mtu;
  uint8_t key[64];
  p.rss = queues > 1 && !p.memif && configure_rss(info, conf, key);
  if (int rc = rte_eth_dev_configure(id, static_cast<uint16_t>(queues), static_cast<uint16_t>(queues), &conf); rc < 0)
    throw std::runtime_error(name + ": configure failed: " + rte_strerror(-rc));
  if (set_mtu)
    if (int rc = rte_eth_dev_set_mtu(id, static_cast<uint16_t>(mtu)); rc < 0)
      throw std::runtime_error(name + " (" + p.driver + ") refuses --mtu " + std::to_string(mtu) + ": " +
                               rte_strerror(-rc) + " (its largest is " + std::to_string(info.max_mtu) + ")");
  if (const std::string why = kernel_ports::mtu_refusal(name + " (" + p.driver + ")", info.if_index, mtu);
      !why.empty())
    throw std::runtime_error(why);
  uint16_t nb_rxd = rx_descriptors(queues), nb_txd = kTxDescriptors;
  if (int rc = rte_eth_dev_adjust_nb_rx_tx_desc(id, &nb_rxd, &nb_txd); rc < 0)
    throw std::runtime_error(name + ": descriptor counts: " + rte_strerror(-rc));
  const int socket = rte_eth_dev_socket_id(id) >= 0 ? rte_eth_dev_socket_id(id) : static_cast<int>(rte_socket_id());
  for (unsigned q = 0; q < queues; ++q) {
    if (int rc = rte_eth_rx_queue_setup(id, static_cast<uint16_t>(q), nb_rxd, socket, nullptr, rx_pool); rc < 0)
      throw std::runtime_error(name + ": rx queue " + std::to_string(q) + ": " + rte_strerror(-rc));
    if (int rc = rte_eth_tx_queue_setup(id, static_cast<uint16_t>(q), nb_txd, socket, nullptr); rc < 0)
      throw std::runtime_error(name + ": tx queue " + std::to_string(q) + ": " + rte_strerror(-rc));
  }
  return p;
}

void Ports::start(Port& p, unsigned queues, uint16_t udp_base, double server_wait_s, const char* wait_limit,
                  ntuple::Mode ntuple_mode) {
  const uint16_t id = p.id;
  const std::string name = "port " + std::to_string(id);
  if (p.memif_client) {
    try {
      memif_quirks::wait_for_server(p.memif_socket, server_wait_s, wait_limit);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(name + " (net_memif client): " + e.what());
    }
  }
  if (int rc = rte_eth_dev_start(id); rc < 0)
    throw std::runtime_error(name + ": start failed: " + rte_strerror(-rc));
  if (p.memif && !p.memif_client && !p.memif_socket.empty()) memif_quirks::mark_started(p.memif_socket);
  // Peers address us by MAC, but a bridge or a memif peer may present frames
  // for other nodes too: validation filters by rank, so accept everything.
  rte_eth_promiscuous_enable(id);
  rte_ether_addr mac;
  rte_eth_macaddr_get(id, &mac);
  std::copy(std::begin(mac.addr_bytes), std::end(mac.addr_bytes), p.mac.begin());
  rte_eth_dev_info info;
  if (rte_eth_dev_info_get(id, &info) != 0) throw dpdk_error(name + ": no device info");
  separate_tap_kernel_mac(id, info, p.mac);
  if (p.memif) memif_guard::arm();  // before the first burst on the port
  p.steering = steer(id, p, queues, udp_base, p.rss);
  steer_kernel_queues(p, info, queues, udp_base, ntuple_mode);
}

void Ports::steer_kernel_queues(Port& p, const rte_eth_dev_info& info, unsigned queues, uint16_t udp_base,
                                ntuple::Mode mode) {
  if (p.driver != "net_af_xdp" || p.if_index == 0 || mode == ntuple::Mode::kOff) return;
  const std::string args = device_args(info);
  const unsigned start_queue =
      static_cast<unsigned>(std::strtoul(memif_quirks::devarg(args, "start_queue", "0").c_str(), nullptr, 10));
  const unsigned netdev_queues = kernel_ports::netdev_rx_queues(p.if_index);
  // Every queue of the netdev is the port's: whatever RSS picks, a socket polls it.
  if (mode == ntuple::Mode::kAuto && netdev_queues != 0 && start_queue == 0 && netdev_queues <= queues) return;
  const std::string name = "port " + std::to_string(p.id) + " (net_af_xdp)";
  const std::string why = ntuple::install(p.if_index, udp_base, queues, start_queue, &p.ntuple_rules);
  if (!why.empty() && mode == ntuple::Mode::kOn) throw std::runtime_error(name + ", --ntuple on: " + why);
  p.ntuple_missing = !why.empty();
  p.ntuple_note = !why.empty() ? name + ": " + why
                               : "ntuple: UDP " + std::to_string(udp_base) + ".." + std::to_string(udp_base + queues - 1) +
                                     " to queues " + std::to_string(start_queue) + ".." +
                                     std::to_string(start_queue + queues - 1) + " of " +
                                     kernel_ports::netdev_name(p.if_index);
}

std::vector<std::string> Ports::warnings() const {
  std::vector<std::string> out;
  for (const Port& p : ports_)
    if (p.ntuple_missing) out.push_back(p.ntuple_note);
  return out;
}

bool Ports::close_all() {
  bool kept = false;
  for (const Port& p : ports_) {
    if (memif_quirks::must_not_close(p.memif)) {
      kept = true;
      continue;
    }
    ntuple::Installed rules = p.ntuple_rules;
    ntuple::remove(rules);
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
    if (!p.ntuple_note.empty() && !p.ntuple_missing) s += " (" + p.ntuple_note + ")";
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

std::string Ports::mtu_lowered(uint32_t mtu) const {
  std::string s;
  for (const Port& p : ports_)
    if (const std::string why =
            kernel_ports::mtu_lowered("port " + std::to_string(p.id) + " (" + p.driver + ")", p.if_index, mtu);
        !why.empty())
      s += (s.empty() ? "" : "; ") + why;
  return s;
}

uint16_t Ports::tx_burst(unsigned port, unsigned queue, rte_mbuf** pkts, uint16_t n, TxCounters& tx) {
  uint64_t bytes = 0;
  for (uint16_t i = 0; i < n; ++i) bytes += pkts[i]->pkt_len;
  uint16_t sent;
  {
    const memif_guard::Section section(ports_[port].memif);
    sent = rte_eth_tx_burst(ports_[port].id, static_cast<uint16_t>(queue), pkts, n);
  }
  for (uint16_t i = sent; i < n; ++i) bytes -= pkts[i]->pkt_len;
  tx.frames += sent;
  tx.bytes += bytes;
  if (sent < n) ++tx.ring_full;
  return sent;
}

uint16_t Ports::rx_burst(unsigned port, unsigned queue, rte_mbuf** out, uint16_t n) {
  const memif_guard::Section section(ports_[port].memif);
  return rte_eth_rx_burst(ports_[port].id, static_cast<uint16_t>(queue), out, n);
}

std::string Ports::steering_summary() const {
  std::string s;
  for (const Port& p : ports_) {
    if (!s.empty()) s += "; ";
    s += "port " + std::to_string(p.id) + ": " + steering_name(p.steering);
  }
  if (!ports_.empty() && steering() != Steering::kNone) return steering_name(ports_[0].steering);
  return s.empty() ? "no ports" : s;
}

Steering Ports::steering() const {
  if (ports_.empty()) return Steering::kSingle;
  for (const Port& p : ports_)
    if (p.steering != ports_[0].steering) return Steering::kNone;
  return ports_[0].steering;
}

uint64_t Ports::rx_drops(unsigned port) const {
  const memif_guard::Section section(ports_[port].memif);
  rte_eth_stats st;
  if (rte_eth_stats_get(ports_[port].id, &st) != 0) return 0;
  return st.imissed + st.rx_nombuf;
}

}  // namespace wg
