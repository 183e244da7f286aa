// Steering on a NIC that stays in the kernel (net_af_xdp): the AF_XDP port
// binds queues start_queue .. start_queue + K - 1 of the netdev, but the
// NIC's RSS spreads every flow over all its queues, and a frame that lands
// on a queue without an AF_XDP socket goes to the kernel's stack: lost to
// wiregraph. Flow q of every peer already has its own UDP destination port
// (udp_base + q, dataplane/steering.h), so one ntuple rule per queue (what
// `ethtool -N IFACE flow-type udp4 dst-port P action Q` adds) sends it to
// the netdev queue its AF_XDP socket polls, whatever RSS would have chosen.
//
// The rules go in through the ethtool ioctl (no ethtool binary needed) and
// come out when the port closes. A veth has no classification table
// (EOPNOTSUPP): there the port binds every queue or loses frames, which is
// what the note says.
#pragma once

#include <linux/ethtool.h>

#include <cstdint>
#include <string>
#include <vector>

namespace wg::ntuple {

// --ntuple: install where the port binds fewer queues than its netdev has
// (auto), always and refuse to start without them (on), or never (off).
enum class Mode : uint8_t { kAuto, kOn, kOff };

// The rule that sends UDP/IPv4 frames to destination port `udp_port` to
// netdev queue `queue`, at any free location of the table.
ethtool_rx_flow_spec rule_for(uint16_t udp_port, uint32_t queue);

// The rules one port installed: their locations in the netdev's table.
struct Installed {
  uint32_t if_index = 0;
  std::vector<uint32_t> locations;
};

// Installs rule_for(udp_base + q, start_queue + q) for q in [0, queues) on
// netdev `if_index`. "" on success; otherwise why not (the driver and the
// errno's text, and the ethtool command that would fix it), with the rules
// installed before the failure removed again.
std::string install(uint32_t if_index, uint16_t udp_base, unsigned queues, unsigned start_queue, Installed* out);
// Removes what install() added (on close; a node killed with SIGKILL leaves
// them: `ethtool -n IFACE` lists them, `ethtool -N IFACE delete LOC` removes).
void remove(Installed& rules);

// What the netdev's classification table holds: "N rules of M" or why it
// has none ("veth: Operation not supported"): the doctor's item.
std::string table_state(uint32_t if_index);

}  // namespace wg::ntuple
