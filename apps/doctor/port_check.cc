#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include <algorithm>
#include <cstring>

#include "apps/doctor/checks.h"
#include "dataplane/ports.h"
#include "dataplane/steering.h"
#include "dataplane/wire.h"

namespace wg::doctor {

namespace {
// How long the doctor lets a memif client port wait for its server: the
// doctor runs one node's ports alone, so there is rarely one.
constexpr double kMemifServerWaitS = 2;
}  // namespace

void check_port(uint16_t id, const Config& cfg, rte_mempool* pool, std::vector<Finding>* out) {
  rte_eth_dev_info info{};
  char name[RTE_ETH_NAME_MAX_LEN] = "?";
  rte_eth_dev_get_name_by_port(id, name);
  const std::string item = "port " + std::to_string(id);
  if (rte_eth_dev_info_get(id, &info) != 0) {
    out->push_back(fail(item, std::string(name) + ": no device info", "see the EAL's messages above"));
    return;
  }
  const std::string driver = info.driver_name ? info.driver_name : "?";
  const std::string what = std::string(name) + " (" + driver + ")";
  const unsigned K = cfg.rx_queues;
  const unsigned pairs = std::min(info.max_rx_queues, info.max_tx_queues);
  const bool queues_ok = K <= pairs;
  if (queues_ok)
    out->push_back(ok(item + " queues", what + ": " + std::to_string(pairs) + " queue pairs, --rx-queues " +
                                            std::to_string(K) + " needs " + std::to_string(K)));
  else
    out->push_back(fail(item + " queues",
                        what + " has " + std::to_string(pairs) + " queue pair" + (pairs == 1 ? "" : "s") +
                            ", --rx-queues " + std::to_string(K) + " needs " + std::to_string(K),
                        "--rx-queues " + std::to_string(pairs) +
                            " (every node must agree), or fewer accumulator "
                            "lcores (--roles) when K comes from them"));
  const uint32_t largest = Ports::largest_mtu(info);
  const bool mtu_ok = cfg.mtu == wire::kMtu || driver == "net_memif" || driver == "net_ring" || cfg.mtu <= largest;
  if (mtu_ok)
    out->push_back(
        ok(item + " mtu", what + " takes MTU " + std::to_string(largest) + ", --mtu is " + std::to_string(cfg.mtu)));
  else
    out->push_back(fail(
        item + " mtu",
        what + " takes MTU " + std::to_string(largest) + " at most, not --mtu " + std::to_string(cfg.mtu),
        "--mtu " + std::to_string(std::min<uint32_t>(largest, 9000) < 1500 ? 1500 : std::min<uint32_t>(largest, 9000)) +
            " (every node must agree); for jumbo frames the NIC, its kernel netdev (bifurcated) and "
            "the switch ports must all take them"));
  check_kernel_netdev(id, info, cfg, out);
  const int socket = rte_eth_dev_socket_id(id);
  const rte_bus* bus = info.device != nullptr ? rte_dev_bus(info.device) : nullptr;
  if (socket < 0 || (bus != nullptr && std::strcmp(rte_bus_name(bus), "vdev") == 0)) {
    out->push_back(not_checked(item + " numa", what + ": a virtual device, on no NIC's NUMA node"));
  } else {
    std::set<unsigned> far;
    unsigned lcore;
    RTE_LCORE_FOREACH(lcore) if (static_cast<int>(rte_lcore_to_socket_id(lcore)) != socket) far.insert(lcore);
    if (far.empty())
      out->push_back(ok(item + " numa", what + " on NUMA node " + std::to_string(socket) + ", as every lcore"));
    else
      out->push_back(warn(item + " numa",
                          what + " on NUMA node " + std::to_string(socket) + ", lcores " + format_cpu_list(far) +
                              " on another: every frame crosses the interconnect",
                          "-l with CPUs of NUMA node " + std::to_string(socket) + " (lscpu | grep NUMA)"));
  }
  if (!queues_ok) {
    out->push_back(
        not_checked(item + " steering", "the port cannot have --rx-queues " + std::to_string(K) + " queues"));
    out->push_back(not_checked(item + " link", "the port was not started"));
    return;
  }
  // Opened as the node opens it: the same configuration, start and steering.
  Ports ports;
  try {
    // A memif client port alone: its server is a node that is not running.
    ports.open(id, pool, K, mtu_ok ? cfg.mtu : wire::kMtu, cfg.udp_port, kMemifServerWaitS);
  } catch (const std::exception& e) {
    out->push_back(fail(item + " start", e.what(), "see the EAL's and the PMD's messages above"));
    return;
  }
  const Ports::Port& p = ports[0];
  const std::string steering = steering_name(p.steering);
  if (p.steering == Steering::kNone)
    out->push_back(warn(item + " steering", steering + (p.steering_note.empty() ? "" : ": " + p.steering_note),
                        "--rx-queues 1, or a PMD with rte_flow or RSS (docs/LAB-CLUSTER.md, steering table)"));
  else
    out->push_back(ok(item + " steering", steering + (p.steering_note.empty() ? "" : " (" + p.steering_note + ")")));
  // A link comes up some time after the port starts (autonegotiation; a
  // tap's carrier once its queues attach): asked every 100 ms for up to
  // 9 s, as DPDK's examples wait for it.
  rte_eth_link link{};
  int rc = rte_eth_link_get_nowait(id, &link);
  for (int tries = 0; rc == 0 && link.link_status != RTE_ETH_LINK_UP && tries < 90; ++tries) {
    rte_delay_ms(100);
    rc = rte_eth_link_get_nowait(id, &link);
  }
  if (rc != 0) {
    out->push_back(not_checked(item + " link", what + " does not report its link"));
  } else if (link.link_status != RTE_ETH_LINK_UP) {
    out->push_back(fail(item + " link", what + " link down",
                        "cable and switch port; for a bifurcated NIC also "
                        "`ip link set DEV up`"));
  } else {
    const std::string speed = link.link_speed == RTE_ETH_SPEED_NUM_NONE || link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN
                                  ? "speed unknown"
                                  : std::to_string(link.link_speed / 1000) + " Gbps";
    out->push_back(ok(item + " link", what + " up, " + speed + (link.link_duplex ? ", full duplex" : "")));
  }
  ports.close_all();
}

}  // namespace wg::doctor
