#include "numa/topology.h"

#include <numa.h>
#include <rte_lcore.h>

namespace wg {

Topology read_topology() {
  Topology t;
  t.numa_domains = numa_available() < 0 ? 1 : numa_num_configured_nodes();
  unsigned lcore;
  RTE_LCORE_FOREACH(lcore) {
    if (!t.lcore_sockets.empty()) t.lcore_sockets += ", ";
    t.lcore_sockets += "lcore " + std::to_string(lcore) + " -> socket " + std::to_string(rte_lcore_to_socket_id(lcore));
  }
  return t;
}

}  // namespace wg
