#include "dataplane/kernel_ports.h"

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "dataplane/wire.h"

namespace wg::kernel_ports {

std::string netdev_name(uint32_t if_index) {
  char name[IF_NAMESIZE] = {};
  return if_index != 0 && if_indextoname(if_index, name) != nullptr ? name : "?";
}

uint32_t netdev_mtu(uint32_t if_index) {
  char name[IF_NAMESIZE] = {};
  if (if_index == 0 || if_indextoname(if_index, name) == nullptr) return 0;
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  ifreq req{};
  std::memcpy(req.ifr_name, name, strnlen(name, IF_NAMESIZE - 1));
  const bool ok = ioctl(fd, SIOCGIFMTU, &req) == 0;
  close(fd);
  return ok && req.ifr_mtu > 0 ? static_cast<uint32_t>(req.ifr_mtu) : 0;
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

}  // namespace wg::kernel_ports
