#include "dataplane/ntuple_rules.h"

#include <arpa/inet.h>

#include <cstring>

#include "dataplane/kernel_ports.h"

namespace wg::ntuple {

namespace {

std::string driver_of(uint32_t if_index) {
  const std::string d = kernel_ports::netdev_driver(if_index);
  return d.empty() ? kernel_ports::netdev_name(if_index) : d;
}

}  // namespace

ethtool_rx_flow_spec rule_for(uint16_t udp_port, uint32_t queue) {
  ethtool_rx_flow_spec fs{};
  fs.flow_type = UDP_V4_FLOW;
  fs.h_u.udp_ip4_spec.pdst = htons(udp_port);
  fs.m_u.udp_ip4_spec.pdst = 0xffff;  // m_u: the bits compared (ethtool.h), here the whole port
  fs.ring_cookie = queue;
  fs.location = RX_CLS_LOC_ANY;
  return fs;
}

std::string install(uint32_t if_index, uint16_t udp_base, unsigned queues, unsigned start_queue, Installed* out) {
  out->if_index = if_index;
  for (unsigned q = 0; q < queues; ++q) {
    ethtool_rxnfc cmd{};
    cmd.cmd = ETHTOOL_SRXCLSRLINS;
    cmd.fs = rule_for(static_cast<uint16_t>(udp_base + q), start_queue + q);
    if (const int error = kernel_ports::netdev_ethtool(if_index, &cmd); error != 0) {
      remove(*out);
      const std::string iface = kernel_ports::netdev_name(if_index);
      return "no ntuple rule on " + iface + " (" + driver_of(if_index) + ": " + std::strerror(error) +
             "): RSS may put wiregraph's frames on queues its AF_XDP socket does not poll (enable the table: "
             "ethtool -K " + iface + " ntuple on; or let the port bind every queue: queue_count=, or limit "
             "RSS to its queues: ethtool -X " + iface + " start " + std::to_string(start_queue) + " equal " +
             std::to_string(queues) + ")";
    }
    out->locations.push_back(cmd.fs.location);  // the kernel writes the location it chose
  }
  return "";
}

void remove(Installed& rules) {
  for (uint32_t loc : rules.locations) {
    ethtool_rxnfc cmd{};
    cmd.cmd = ETHTOOL_SRXCLSRLDEL;
    cmd.fs.location = loc;
    kernel_ports::netdev_ethtool(rules.if_index, &cmd);
  }
  rules.locations.clear();
}

std::string table_state(uint32_t if_index) {
  ethtool_rxnfc cmd{};
  cmd.cmd = ETHTOOL_GRXCLSRLCNT;
  if (const int error = kernel_ports::netdev_ethtool(if_index, &cmd); error != 0)
    return driver_of(if_index) + ": " + std::strerror(error);
  return std::to_string(cmd.rule_cnt) + " rules in use of " + std::to_string(cmd.data & ~RX_CLS_LOC_SPECIAL);
}

}  // namespace wg::ntuple
