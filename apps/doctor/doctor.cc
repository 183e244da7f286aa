#include "apps/doctor/doctor.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "apps/doctor/checks.h"
#include "apps/doctor/eal_plan.h"
#include "apps/doctor/findings.h"
#include "apps/doctor/machine_facts.h"
#include "apps/node/eal_args.h"
#include "apps/node/node.h"
#include "apps/node/node_files.h"
#include "apps/registry.h"
#include "dataplane/memif_quirks.h"
#include "dataplane/pools.h"
#include "dataplane/ports.h"

namespace wg::doctor {

int run(int argc, char** argv) {
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  std::vector<Finding> out;

  int dashdash = 0;
  const EalPlan eal = read_eal(argc, argv, &dashdash);
  // The node's options, as the node reads them; without --app and --graph
  // only the machine and its ports are checked.
  std::vector<std::string> app = {argv[0]};
  for (int i = dashdash + 1; i < argc; ++i) app.push_back(argv[i]);
  const bool job_given = std::find(app.begin(), app.end(), "--app") != app.end() &&
                         std::find(app.begin(), app.end(), "--graph") != app.end();
  if (!job_given) app.insert(app.end(), {"--app", "bfs", "--graph", "kron:10:1"});
  auto parse = [&](std::vector<std::string> args) {
    std::vector<char*> v;
    for (std::string& a : args) v.push_back(a.data());
    v.push_back(nullptr);
    return parse_app_args(static_cast<int>(args.size()), v.data(), program_traits());
  };
  Config cfg;
  std::string key_error;
  try {
    cfg = parse(app);
  } catch (const ConfigError& first) {
    try {  // a missing key is a finding; anything else stops the doctor as it stops the node
      std::vector<std::string> no_auth = app;
      no_auth.push_back("--no-auth");
      cfg = parse(no_auth);
      key_error = first.what();
    } catch (const ConfigError&) {
      std::fprintf(stderr, "wiregraph doctor: error: %s\n", first.what());
      return 2;
    }
  }

  const std::vector<std::string> mounts = node_files::hugetlbfs_mounts("");
  const std::vector<HugepagePool> pools = hugepage_pools("");
  uint64_t free_total = 0;
  for (const HugepagePool& p : pools) free_total += p.free * p.page_bytes;
  // A first estimate on one socket decides whether the probe can use hugepages.
  const std::map<int, uint64_t> rough = hugepage_need(eal, cfg, 0, {0});
  uint64_t rough_total = 0;
  for (const auto& [s, b] : rough) rough_total += b;
  const bool probe_without = eal.no_huge || mounts.empty() || free_total < rough_total;

  check_hugetlbfs(eal, mounts, &out);
  check_key(key_error, cfg, &out);
  for (const std::string& a : eal.pci) check_pci(a, &out);

  // The EAL, for the ports and the lcores.
  const std::vector<std::string> eal_args = probe_eal_args(eal, probe_without);
  std::vector<std::string> eal_argv = {argv[0]};
  eal_argv.insert(eal_argv.end(), eal_args.begin(), eal_args.end());
  std::vector<char*> eal_ptrs;
  for (std::string& a : eal_argv) eal_ptrs.push_back(a.data());
  eal_ptrs.push_back(nullptr);
  const EalArgs parsed = parse_eal_args(static_cast<int>(eal_argv.size()), eal_ptrs.data());
  try {
    node_files::clear_stale_sockets(parsed.memif_sockets);
  } catch (const std::exception& e) {
    out.push_back(fail("eal", e.what(), "stop the process that uses it, or run the doctor before the job"));
  }
  bool memif = false;
  if (rte_eal_init(static_cast<int>(eal_argv.size()), eal_ptrs.data()) < 0) {
    out.push_back(fail("eal", std::string("EAL initialisation failed: ") + rte_strerror(rte_errno),
                       "the EAL's messages above name the option or device"));
    out.push_back(not_checked("ports", "no EAL"));
  } else {
    node_files::remove_at_exit(parsed.memif_sockets);
    LcoreLayout layout;
    try {
      cfg = resolve_config(cfg, &layout);
    } catch (const ConfigError& e) {
      out.push_back(fail("lcores", e.what(), "-l with as many lcores as --roles asks, or other --roles"));
    }
    const LcoreFacts lcores = read_lcores();
    const std::map<int, uint64_t> need = hugepage_need(eal, cfg, static_cast<int>(rte_socket_id()), lcores.sockets);
    check_hugepages(eal, pools, need, need_detail(eal, cfg), &out);
    if (probe_without && !eal.no_huge)
      out.push_back(not_checked("probe", "the ports below were opened without hugepages (--no-huge -m " +
                                             std::string(kProbeMemoryMb) + "), as the job could not start with them"));
    check_memory(cfg, layout.workers(), job_given, &out);
    for (const std::string& m : missing_vdev_ports(parsed))
      out.push_back(fail("vdev " + m, "the EAL could not create it", "its reason is in the EAL's messages above"));
    const unsigned rx_mbufs = cfg.rx_queues * Ports::rx_descriptors(cfg.rx_queues) + 1024;
    rte_mempool* pool = rte_pktmbuf_pool_create("wg_doctor", rx_mbufs, 256, 0, Pools::buffer_size(cfg.mtu),
                                                static_cast<int>(rte_socket_id()));
    uint16_t id;
    unsigned ports = 0;
    RTE_ETH_FOREACH_DEV(id) {
      ++ports;
      rte_eth_dev_info info{};
      memif |=
          rte_eth_dev_info_get(id, &info) == 0 && info.driver_name && std::strcmp(info.driver_name, "net_memif") == 0;
      if (pool == nullptr)
        out.push_back(fail("port " + std::to_string(id), "no memory for its receive queues", "more EAL memory (-m)"));
      else
        check_port(id, cfg, pool, &out);
    }
    if (ports == 0) {
      if (cfg.nodes == 1)
        out.push_back(ok("ports", "none, and one node needs none"));
      else
        out.push_back(fail("ports", "the EAL made no port: the nodes cannot reach each other",
                           "-a PCI_ADDRESS of a NIC bound to vfio-pci or a bifurcated mlx5 (dpdk-devbind.py --status), "
                           "or --vdev for a virtual one"));
    }
    check_lcores(lcores, &out);
    check_clock(&out);
  }
  const std::string who = std::string("wiregraph doctor on ") + host + " (node " + std::to_string(cfg.rank) + " of " +
                          std::to_string(cfg.nodes) +
                          (cfg.rank_from != "default" ? ", rank from " + cfg.rank_from : "") + "): ";
  std::fputs(format_findings(out, who + summary(out)).c_str(), stdout);
  std::fflush(stdout);
  const int rc = any_failed(out) ? 1 : 0;
  memif_quirks::exit_process(rc, memif, node_files::remove_now);
}

}  // namespace wg::doctor
