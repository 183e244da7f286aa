// The doctor's look at the kernel side of a port (net_tap, net_af_xdp): what
// the kernel netdev lets through, before the port is opened.
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

#include <cstdlib>
#include <cstring>

#include "apps/doctor/checks.h"
#include "dataplane/kernel_ports.h"
#include "dataplane/ntuple_rules.h"
#include "dataplane/memif_quirks.h"
#include "dataplane/wire.h"

namespace wg::doctor {

namespace {

std::string devargs_of(const rte_eth_dev_info& info) {
  const rte_devargs* da = info.device != nullptr ? rte_dev_devargs(info.device) : nullptr;
  return da != nullptr && da->args != nullptr ? da->args : "";
}

// The netdev's MTU against --mtu. The node sets a --mtu other than the
// default on the port, and the PMD sets the netdev's with it; the default
// it leaves alone, so a netdev below it drops every full frame.
void check_netdev_mtu(const std::string& item, const std::string& netdev, uint32_t if_index, const Config& cfg,
                      std::vector<Finding>* out) {
  const uint32_t have = kernel_ports::netdev_mtu(if_index);
  if (have == 0) {
    out->push_back(not_checked(item + " netdev", netdev + ": its MTU cannot be read"));
  } else if (have >= cfg.mtu) {
    out->push_back(ok(item + " netdev", netdev + " has MTU " + std::to_string(have) + ", --mtu is " +
                                            std::to_string(cfg.mtu)));
  } else if (cfg.mtu != wire::kMtu) {
    out->push_back(ok(item + " netdev", netdev + " has MTU " + std::to_string(have) + "; the node sets --mtu " +
                                            std::to_string(cfg.mtu) + " on it at start"));
  } else {
    out->push_back(fail(item + " netdev",
                        netdev + " has MTU " + std::to_string(have) + ", below the --mtu " + std::to_string(cfg.mtu) +
                            ": the kernel would drop every larger frame",
                        "ip link set dev " + kernel_ports::netdev_name(if_index) + " mtu " + std::to_string(cfg.mtu) +
                            " (and the switch ports), or --mtu " + std::to_string(have) +
                            " on every node"));
  }
}

// net_af_xdp: zero-copy or copy mode, and whether every frame reaches the
// queues the port polls (the XDP program sits on those queues only: a frame
// the NIC hashes to another goes to the kernel's stack).
void check_af_xdp(const std::string& item, const std::string& netdev, uint32_t if_index, const rte_eth_dev_info& info,
                  const Config& cfg, std::vector<Finding>* out) {
  const std::string driver = kernel_ports::netdev_driver(if_index);
  if (driver.empty())
    out->push_back(not_checked(item + " zero-copy", netdev + ": its driver cannot be asked (ethtool -i)"));
  else if (kernel_ports::zero_copy_driver(driver))
    out->push_back(ok(item + " zero-copy", netdev + ": driver " + driver + " does AF_XDP zero-copy"));
  else
    out->push_back(warn(item + " zero-copy",
                        netdev + ": driver " + driver +
                            " has no AF_XDP zero-copy: the kernel copies every frame into the UMEM (copy mode)",
                        "for speed, a NIC whose driver does zero-copy (ice, i40e, ixgbe, mlx5_core, igc, igb, "
                        "stmmac); copy mode works, slower"));
  const std::string args = devargs_of(info);
  const unsigned first = static_cast<unsigned>(std::strtoul(memif_quirks::devarg(args, "start_queue", "0").c_str(), nullptr, 0));
  const unsigned count = static_cast<unsigned>(std::strtoul(memif_quirks::devarg(args, "queue_count", "1").c_str(), nullptr, 0));
  const unsigned have = kernel_ports::netdev_rx_queues(if_index);
  const std::string polled = count == 1 ? "queue " + std::to_string(first)
                                        : "queues " + std::to_string(first) + "-" + std::to_string(first + count - 1);
  if (have == 0) {
    out->push_back(not_checked(item + " netdev queues", netdev + ": its receive queues cannot be read"));
  } else if (have <= count) {
    out->push_back(ok(item + " netdev queues", netdev + " has " + std::to_string(have) +
                                                   " receive queue(s), the port polls " + polled));
  } else {
    const std::string name = kernel_ports::netdev_name(if_index);
    out->push_back(warn(
        item + " netdev queues",
        netdev + " has " + std::to_string(have) + " receive queues, the port polls " + polled +
            ": frames the NIC hashes to the others reach the kernel, not wiregraph (resent until they land right)",
        "ethtool -L " + name + " combined " + std::to_string(count) + ", or ntuple rules (the node adds them "
            "itself where the NIC has a table: the ntuple item below; by hand: ethtool -N " + name +
            " flow-type udp4 dst-port " + std::to_string(cfg.udp_port) + " action " + std::to_string(first) +
            ", one per --rx-queues queue)"));
  }
  // What the node's --ntuple auto will find (dataplane/ntuple_rules.h).
  const std::string table = ntuple::table_state(if_index);
  const bool has_table = table.find(" rules in use of ") != std::string::npos;
  if (have != 0 && have <= count && first == 0)
    out->push_back(ok(item + " ntuple", netdev + ": no rules needed, the port polls every queue (table: " + table + ")"));
  else if (has_table)
    out->push_back(ok(item + " ntuple", netdev + ": " + table + "; the node adds one rule per queue (--ntuple auto)"));
  else
    out->push_back(warn(item + " ntuple",
                        netdev + " has no ntuple table (" + table + "): nothing steers wiregraph's UDP ports to " +
                            polled,
                        "ethtool -K " + kernel_ports::netdev_name(if_index) + " ntuple on, or let the port poll every "
                        "queue (queue_count=)"));
}

}  // namespace

void check_kernel_netdev(uint16_t id, const rte_eth_dev_info& info, const Config& cfg, std::vector<Finding>* out) {
  if (info.if_index == 0) return;
  const std::string item = "port " + std::to_string(id);
  const std::string driver = info.driver_name != nullptr ? info.driver_name : "?";
  const std::string netdev = "kernel netdev " + kernel_ports::netdev_name(info.if_index);
  check_netdev_mtu(item, netdev, info.if_index, cfg, out);
  if (driver == "net_af_xdp") check_af_xdp(item, netdev, info.if_index, info, cfg, out);
}

}  // namespace wg::doctor
