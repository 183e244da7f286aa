#include "dataplane/kernel_ports.h"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "dataplane/wire.h"

namespace wg::kernel_ports {

std::string netdev_name(uint32_t if_index) {
  char name[IF_NAMESIZE] = {};
  return if_index != 0 && if_indextoname(if_index, name) != nullptr ? name : "?";
}

namespace {

// An interface ioctl on netdev `if_index`, `data` as its ifr_data (ethtool);
// false when the netdev or the request is unknown. *req holds the answer.
bool netdev_ioctl(uint32_t if_index, unsigned long request, ifreq* req, void* data = nullptr) {
  char name[IF_NAMESIZE] = {};
  if (if_index == 0 || if_indextoname(if_index, name) == nullptr) return false;
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  *req = ifreq{};
  std::memcpy(req->ifr_name, name, strnlen(name, IF_NAMESIZE - 1));
  if (data != nullptr) req->ifr_data = static_cast<char*>(data);
  const bool ok = ioctl(fd, request, req) == 0;
  const int error = errno;
  close(fd);
  errno = error;  // the ioctl's, for netdev_ethtool
  return ok;
}

}  // namespace

int netdev_ethtool(uint32_t if_index, void* command) {
  ifreq req;
  errno = 0;
  if (netdev_ioctl(if_index, SIOCETHTOOL, &req, command)) return 0;
  return errno != 0 ? errno : ENODEV;
}

uint32_t netdev_mtu(uint32_t if_index) {
  ifreq req;
  return netdev_ioctl(if_index, SIOCGIFMTU, &req) && req.ifr_mtu > 0 ? static_cast<uint32_t>(req.ifr_mtu) : 0;
}

std::string netdev_driver(uint32_t if_index) {
  ethtool_drvinfo info{};
  info.cmd = ETHTOOL_GDRVINFO;
  ifreq req;
  if (!netdev_ioctl(if_index, SIOCETHTOOL, &req, &info)) return "";
  return std::string(info.driver, strnlen(info.driver, sizeof info.driver));
}

unsigned netdev_rx_queues(uint32_t if_index) {
  ethtool_channels ch{};
  ch.cmd = ETHTOOL_GCHANNELS;
  ifreq req;
  if (netdev_ioctl(if_index, SIOCETHTOOL, &req, &ch) && ch.combined_count + ch.rx_count > 0)
    return ch.combined_count + ch.rx_count;
  unsigned n = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/net/" + netdev_name(if_index) + "/queues", ec))
    if (e.path().filename().string().rfind("rx-", 0) == 0) ++n;
  return n;
}

bool zero_copy_driver(const std::string& driver) {
  // i40e and ixgbe 5.x, mlx5 5.3, ice 5.5, stmmac 5.17, igc 6.0, igb 6.6.
  for (const char* d : {"i40e", "ixgbe", "mlx5_core", "ice", "stmmac", "igc", "igb"})
    if (driver == d) return true;
  return false;
}

std::string frame_refusal(const std::string& port, const std::string& driver, uint32_t mtu) {
  if (driver != "net_af_xdp" || wire::frame_bytes(mtu) <= kAfXdpFrameBytes) return "";
  return port + " carries frames of at most " + std::to_string(kAfXdpFrameBytes) +
           " bytes (DPDK 22.11's 2048-byte XDP frame less the kernel's 256-byte XDP headroom), so MTU " +
           std::to_string(kAfXdpFrameBytes - wire::frame_bytes(0)) + " at most, not the --mtu " +
           std::to_string(mtu);
}

std::string mtu_refusal(const std::string& port, uint32_t if_index, uint32_t mtu) {
  const uint32_t have = netdev_mtu(if_index);
  if (have != 0 && have < mtu)
    return port + ": its kernel netdev " + netdev_name(if_index) + " has MTU " + std::to_string(have) +
           ", below the --mtu " + std::to_string(mtu) +
           ": the kernel would drop every larger frame (raise the netdev's MTU or lower --mtu)";
  return "";
}

std::string mtu_lowered(const std::string& port, uint32_t if_index, uint32_t mtu) {
  const uint32_t have = if_index != 0 ? netdev_mtu(if_index) : 0;
  if (have == 0 || have >= mtu) return "";
  return "frames of " + std::to_string(wire::frame_bytes(mtu)) + " bytes may exceed the path's MTU (" + port +
         "'s netdev " + netdev_name(if_index) + " now has MTU " + std::to_string(have) + ", below the --mtu " +
         std::to_string(mtu) + ")";
}

}  // namespace wg::kernel_ports
