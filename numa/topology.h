// NUMA topology as the node sees it: how many domains libnuma reports and on
// which domain each EAL lcore sits. The second-level partition (issue 4)
// and the placement of per-domain data build on the domain count; the lcore
// map is printed at start-up.
#pragma once

#include <string>

namespace wg {

struct Topology {
  int numa_domains = 1;       // libnuma's configured nodes (1 when NUMA is unavailable)
  std::string lcore_sockets;  // "lcore 0 -> socket 0, ..."
};

Topology read_topology();

}  // namespace wg
