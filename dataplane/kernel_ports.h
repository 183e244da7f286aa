// Ports whose frames pass through a kernel netdev (net_tap, net_af_xdp):
// what the kernel side allows, checked before the port is configured, so a
// node refuses at start instead of losing every large frame in the kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace wg::kernel_ports {

// DPDK 22.11's net_af_xdp takes each frame into one 2048-byte UMEM chunk
// (ETH_AF_XDP_FRAME_SIZE), of which the kernel keeps XDP_PACKET_HEADROOM
// (256) in front: a longer frame is dropped by the kernel's XDP socket, not
// truncated, and no counter the PMD reads shows it. The PMD's own
// max_rx_pktlen (3560 here, from its zero-copy page arithmetic) is larger
// than what copy mode on a veth delivers, so this is checked on its own.
inline constexpr size_t kAfXdpFrameBytes = 2048 - 256;

// An ethtool request (SIOCETHTOOL) on netdev `if_index`: `command` is the
// ethtool struct, its cmd set. 0, or the errno (EOPNOTSUPP: the driver has
// no such operation; ENODEV: no such netdev).
int netdev_ethtool(uint32_t if_index, void* command);

// The MTU of the kernel netdev with index `if_index`, or 0 when it cannot
// be read.
uint32_t netdev_mtu(uint32_t if_index);

// The netdev's name ("?" when unknown), for messages.
std::string netdev_name(uint32_t if_index);

// The netdev's kernel driver as ethtool names it ("veth", "ice",
// "mlx5_core"), or "" when it cannot be asked.
std::string netdev_driver(uint32_t if_index);

// The receive queues the netdev has now (ethtool -l: combined + rx
// channels; /sys/class/net/NAME/queues/rx-* when ethtool has no answer),
// or 0 when unknown.
unsigned netdev_rx_queues(uint32_t if_index);

// Whether the kernel driver `driver` does AF_XDP zero-copy (its own UMEM
// support, in mainline since the kernel named): otherwise the kernel copies
// every frame into the UMEM (copy mode: veth, virtio_net, tun).
bool zero_copy_driver(const std::string& driver);

// Why a port of `driver` cannot carry frames of `mtu` whatever its netdev
// says (net_af_xdp: kAfXdpFrameBytes), or "". `port` names the port
// ("port 0 (net_af_xdp)"); the message names the limit and --mtu.
std::string frame_refusal(const std::string& port, const std::string& driver, uint32_t mtu);

// Why the port's netdev `if_index` cannot carry frames of `mtu`: its MTU is
// lower (the message names both), or "". Called after the port's MTU was
// set: a kernel MTU still below `mtu` is one the PMD did not (or could not)
// raise, or one it never sets (the default --mtu is not set).
std::string mtu_refusal(const std::string& port, uint32_t if_index, uint32_t mtu);

// Mid-run, when a peer or a superstep has gone quiet: why the port's netdev
// `if_index` may now lose frames of `mtu` (its MTU was lowered below it
// since the port started: mtu_refusal held then), or "". `port` names the
// port. "frames of 1514 bytes may exceed the path's MTU (port 0
// (net_af_xdp)'s netdev wg..x1 now has MTU 1000, below the --mtu 1500)".
std::string mtu_lowered(const std::string& port, uint32_t if_index, uint32_t mtu);

}  // namespace wg::kernel_ports
