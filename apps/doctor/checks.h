// The doctor's checks, one finding (or one per NUMA node, per port) each:
// the machine's (hugetlbfs, hugepages, memory, key, PCI binding, lcores'
// CPU isolation, clock) and a port's (queues, MTU, NUMA, steering, link),
// the port opened as the node opens it (dataplane/ports.h). The lcore and
// port checks need the EAL.
#pragma once

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "apps/doctor/eal_plan.h"
#include "apps/doctor/findings.h"
#include "apps/doctor/machine_facts.h"
#include "config/options.h"

namespace wg::doctor {

void check_hugetlbfs(const EalPlan& eal, const std::vector<std::string>& mounts, std::vector<Finding>* out);

// Hugepage bytes the node takes on each NUMA node: its pools (a transmit
// pool per socket with lcores; the receive pool and the EAL's own on the
// main lcore's), or what -m/--socket-mem preallocates.
std::map<int, uint64_t> hugepage_need(const EalPlan& eal, const Config& cfg, int main_socket,
                                      const std::set<int>& lcore_sockets);
// What hugepage_need counted, for the finding.
std::string need_detail(const EalPlan& eal, const Config& cfg);
void check_hugepages(const EalPlan& eal, const std::vector<HugepagePool>& pools, const std::map<int, uint64_t>& need,
                     const std::string& detail, std::vector<Finding>* out);
// The node's own estimate for the graph, with `workers` worker lcores,
// against what it may allocate.
void check_memory(const Config& cfg, unsigned workers, bool job_given, std::vector<Finding>* out);
// `key_error`: why the options were refused without --no-auth ("" if they were not).
void check_key(const std::string& key_error, const Config& cfg, std::vector<Finding>* out);
void check_pci(const std::string& address, std::vector<Finding>* out);

// The EAL's lcores: the CPUs each may run on, and their NUMA sockets.
struct LcoreFacts {
  std::map<unsigned, std::set<unsigned>> cpus;
  std::set<int> sockets;
};
LcoreFacts read_lcores();
void check_lcores(const LcoreFacts& lcores, std::vector<Finding>* out);
void check_clock(std::vector<Finding>* out);

// Port `id` against --rx-queues and --mtu, then opened with `pool` for its
// receive queues as the node opens it: its steering, link and NUMA node.
void check_port(uint16_t id, const Config& cfg, rte_mempool* pool, std::vector<Finding>* out);

// A port on a kernel netdev (net_tap, net_af_xdp; nothing for others): the
// netdev's MTU against --mtu; for net_af_xdp whether its driver does
// zero-copy and whether it has more receive queues than the port polls.
void check_kernel_netdev(uint16_t id, const rte_eth_dev_info& info, const Config& cfg, std::vector<Finding>* out);

}  // namespace wg::doctor
