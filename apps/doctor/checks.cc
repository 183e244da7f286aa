#include "apps/doctor/checks.h"

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <unistd.h>

#include <algorithm>

#include "apps/node/node.h"
#include "apps/programs.h"
#include "compute/graph/graph_input.h"
#include "compute/graph/memory_limit.h"
#include "compute/load/snapshot_manifest.h"
#include "dataplane/dataplane.h"
#include "dataplane/pools.h"

namespace wg::doctor {

namespace {

constexpr uint64_t kMiB = 1 << 20;

// The program's footprint (apps/programs.h), as the node's memory check
// uses it; weighted twins with --weighted, double-precision ones with
// --precision double.
template <RunnableProgram... P>
bool footprint_of_app(ProgramList<P...>, const Config& cfg, AppFootprint* out) {
  auto one = [&]<RunnableProgram Q>() {
    if (Q::kTraits.name != cfg.app) return false;
    using D = typename DoublePrecision<Q>::type;
    using W = typename Weighted<Q>::type;
    *out = cfg.weighted ? footprint_of<W>() : cfg.double_precision ? footprint_of<D>() : footprint_of<Q>();
    return true;
  };
  return (one.template operator()<P>() || ...);
}

// Receive queues of the node: --rx-queues, resolved from the lcore layout
// once the EAL is up; before it (the doctor's first, rough estimate) one.
unsigned receive_queues(const Config& cfg) { return std::max(1u, cfg.rx_queues); }

}  // namespace

void check_hugetlbfs(const EalPlan& eal, const std::vector<std::string>& mounts, std::vector<Finding>* out) {
  if (eal.no_huge) {
    out->push_back(ok("hugetlbfs", "not used: the job runs with --no-huge"));
  } else if (mounts.empty()) {
    out->push_back(fail("hugetlbfs", "no hugetlbfs mounted (/proc/mounts): the EAL cannot map hugepages",
                        "mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages "
                        "(or scripts/setup.sh; at boot: an fstab line 'nodev /dev/hugepages hugetlbfs defaults 0 0')"));
  } else {
    std::string list;
    for (const std::string& m : mounts) list += (list.empty() ? "" : ", ") + m;
    out->push_back(ok("hugetlbfs", "mounted at " + list));
  }
}

// Hugepage bytes the node takes on each NUMA node: its pools (a transmit
// pool per socket with lcores; the receive pool and the EAL's own on the
// main lcore's), or what -m/--socket-mem preallocates.
std::map<int, uint64_t> hugepage_need(const EalPlan& eal, const Config& cfg, int main_socket,
                                      const std::set<int>& lcore_sockets) {
  std::map<int, uint64_t> need;
  if (!eal.socket_mem_mb.empty()) {
    for (size_t s = 0; s < eal.socket_mem_mb.size(); ++s)
      if (eal.socket_mem_mb[s] > 0) need[static_cast<int>(s)] = eal.socket_mem_mb[s] * kMiB;
    return need;
  }
  if (eal.preallocate_mb > 0) {
    need[main_socket] = eal.preallocate_mb * kMiB;
    return need;
  }
  // The node's own estimate (Dataplane::eal_memory_bytes) on the main
  // lcore's socket, and a transmit pool on every other socket with lcores.
  const DataplaneOptions o = sized_dataplane_options(cfg, receive_queues(cfg));
  for (int s : lcore_sockets)
    if (s != main_socket) need[s] += Pools::pool_bytes(cfg.mbufs, cfg.mtu);
  need[main_socket] += Dataplane::eal_memory_bytes(o, 1);
  return need;
}

std::string need_detail(const EalPlan& eal, const Config& cfg) {
  if (!eal.socket_mem_mb.empty()) return "--socket-mem";
  if (eal.preallocate_mb > 0) return "-m " + std::to_string(eal.preallocate_mb);
  return std::to_string(cfg.mbufs) + " mbufs per transmit pool" +
         (cfg.nodes > 1
              ? " and " + std::to_string(sized_dataplane_options(cfg, receive_queues(cfg)).rx_mbufs) +
                    " receive mbufs"
              : "") +
         " at MTU " + std::to_string(cfg.mtu) + ", rings, EAL 20 MiB";
}

void check_hugepages(const EalPlan& eal, const std::vector<HugepagePool>& pools, const std::map<int, uint64_t>& need,
                     const std::string& detail, std::vector<Finding>* out) {
  if (eal.no_huge) {
    out->push_back(ok("hugepages", "not used: the job runs with --no-huge (-m is then the whole heap)"));
    return;
  }
  std::map<int, uint64_t> free_bytes;
  std::map<int, const HugepagePool*> smallest;
  bool per_node = false;
  for (const HugepagePool& p : pools) {
    free_bytes[p.numa_node] += p.free * p.page_bytes;
    if (!smallest.count(p.numa_node) || p.page_bytes < smallest[p.numa_node]->page_bytes) smallest[p.numa_node] = &p;
    per_node |= p.numa_node >= 0;
  }
  for (const auto& [socket, bytes] : need) {
    const int node = per_node ? std::max(socket, 0) : -1;
    const std::string where = node >= 0 ? "NUMA node " + std::to_string(node) : "the machine";
    const uint64_t have = free_bytes.count(node) ? free_bytes[node] : 0;
    const std::string line =
        where + ": " + format_bytes(have) + " free, the node takes about " + format_bytes(bytes) + " (" + detail + ")";
    if (have >= bytes) {
      out->push_back(ok("hugepages", line));
      continue;
    }
    std::string fix;
    if (const HugepagePool* p = smallest.count(node) ? smallest[node] : nullptr) {
      const uint64_t more = (bytes - have + p->page_bytes - 1) / p->page_bytes;
      const std::string dir =
          std::string(node >= 0 ? "/sys/devices/system/node/node" + std::to_string(node) : "/sys/kernel/mm") +
          "/hugepages/hugepages-" + std::to_string(p->page_bytes / 1024) + "kB/nr_hugepages";
      fix = "echo " + std::to_string(p->total + more) + " > " + dir + " (" + std::to_string(more) +
            " more pages; other processes hold the rest), or fewer --mbufs";
    } else {
      fix = "allocate hugepages: echo 1024 > /proc/sys/vm/nr_hugepages (or scripts/setup.sh)";
    }
    out->push_back(fail("hugepages", line, fix));
  }
}

void check_memory(const Config& cfg, unsigned workers, bool job_given, std::vector<Finding>* out) {
  if (!job_given) {
    out->push_back(not_checked("memory", "no --app and --graph given: the graph's needs are unknown"));
    return;
  }
  AppFootprint app;
  if (!footprint_of_app(AllPrograms{}, cfg, &app)) return;
  try {
    GraphInput in = GraphInput::from_spec(cfg.graph_spec, cfg.undirected);
    in.sparse_ids = cfg.sparse_ids;
    in.weight_column = cfg.weight_column;
    in.vertices = cfg.vertices;
    const DeclaredSize d = declared_size_of(in);
    if (d.vertices == 0 && d.edges == 0) {
      out->push_back(not_checked("memory", cfg.graph + " declares no size (an edge list): the node checks once its "
                                                       "edges are in"));
      return;
    }
    const MemoryLimit limit = node_memory_limit();
    const MemoryFit fit = node_memory_fit(cfg, workers, declared_shape(d, cfg.nodes, cfg.domains,
                                                                       cfg.undirected || app.symmetrize),
                                          app, 0, limit);
    const MemoryNeed& need = fit.need;
    // Under --scatter auto a node that fits only by pushing says so.
    const std::string pushing = fit.pushes_only_to_fit()
        ? ", pushing only (as --scatter sparse: the dense copy of the edges for pulling, " +
              format_bytes(fit.dense_left_out) + ", does not fit beside the graph)"
        : "";
    // A binary edge list gives its edges by its size, not its vertices: the
    // terms per vertex (degrees, values, accumulators, the (source, block)
    // pairs) are then left out, and the figure is a floor, not a bound.
    const std::string unknown_v =
        d.vertices == 0 ? " (the vertices are not declared: the terms per vertex are left out, so at least this)" : "";
    // With the EAL's pools and rings and the process's own memory: the
    // node's peak (resident set and hugepages) as it will be measured.
    const uint64_t eal = Dataplane::eal_memory_bytes(sized_dataplane_options(cfg, receive_queues(cfg)), 1);
    const std::string line = cfg.graph + " (" + d.what + ") at P=" + std::to_string(cfg.nodes) + ": about " +
                             need.describe() + " per node" + pushing + unknown_v + "; with the EAL's " + format_bytes(eal) +
                             " and the process's own " + format_bytes(kProcessBytes) + ", about " +
                             format_bytes(need.peak() + eal + kProcessBytes) + " in all; " + format_bytes(limit.bytes) +
                             " may be used (" + limit.source + ")";
    if (need.peak() <= limit.bytes)
      out->push_back(ok("memory", line));
    else
      out->push_back(fail("memory", line, "more nodes (--nodes), a machine with more memory, or a smaller graph"));
  } catch (const std::exception& e) {
    out->push_back(
        fail("memory", std::string("the graph: ") + e.what(), "a path every host sees, and a readable file"));
  }
}

void check_key(const std::string& key_error, const Config& cfg, std::vector<Finding>* out) {
  if (!key_error.empty())
    out->push_back(fail("key", key_error,
                        "head -c 32 /dev/urandom | xxd -p -c 64 > ~/job.key && chmod 600 ~/job.key; "
                        "then --key-file ~/job.key or export WIREGRAPH_KEY=$(cat ~/job.key)"));
  else if (cfg.nodes == 1)
    out->push_back(ok("key", "one node: no frames, no key needed"));
  else
    out->push_back(ok("key", cfg.authenticated ? "from " + cfg.key_from : "none: " + cfg.key_from));
}

void check_pci(const std::string& address, std::vector<Finding>* out) {
  const std::string item = "pci " + full_pci_address(address);
  const PciDevice d = pci_device("", address);
  if (!d.exists) {
    out->push_back(fail(item, "no such PCI device", "dpdk-devbind.py --status lists the NICs and their addresses"));
    return;
  }
  std::string netdevs;
  for (const std::string& n : d.netdevs) netdevs += (netdevs.empty() ? " (netdev " : ", ") + n;
  if (!netdevs.empty()) netdevs += ")";
  const std::string numa = ", NUMA node " + std::to_string(d.numa_node);
  const std::string bind = "ip link set DEV down; dpdk-devbind.py -b vfio-pci " + full_pci_address(address);
  if (d.driver == "vfio-pci") {
    if (d.iommu_group.empty()) {
      if (vfio_noiommu(""))
        out->push_back(warn(item, "vfio-pci without an IOMMU (unsafe no-IOMMU mode)" + numa,
                            "turn the IOMMU on: intel_iommu=on iommu=pt (Intel) or amd_iommu=on on the kernel command "
                            "line and in the BIOS (VT-d / AMD-Vi)"));
      else
        out->push_back(
            fail(item, "vfio-pci, but the device has no IOMMU group" + numa,
                 "intel_iommu=on iommu=pt (or amd_iommu=on) on the kernel command line and VT-d/AMD-Vi in "
                 "the BIOS; without an IOMMU: echo 1 > /sys/module/vfio/parameters/enable_unsafe_noiommu_mode"));
      return;
    }
    const std::string dev = "/dev/vfio/" + d.iommu_group;
    if (::access(dev.c_str(), R_OK | W_OK) != 0)
      out->push_back(fail(item,
                          "vfio-pci, IOMMU group " + d.iommu_group + ", but " + dev +
                              " is not readable and "
                              "writable by this user" +
                              numa,
                          "chown USER " + dev + " (or a udev rule), or run as root"));
    else
      out->push_back(ok(item, "vfio-pci, IOMMU group " + d.iommu_group + " (" + dev + " usable)" + numa));
  } else if (d.driver == "uio_pci_generic" || d.driver == "igb_uio") {
    out->push_back(warn(item, d.driver + ": works, but the NIC can DMA anywhere (no IOMMU protection)" + numa,
                        "vfio-pci with the IOMMU on: " + bind));
  } else if (d.driver == "mlx5_core" || d.driver == "mlx4_core") {
    out->push_back(ok(item, d.driver + ": bifurcated (the kernel keeps the netdev" + netdevs +
                                ", DPDK drives the queues; no binding, no vfio)" + numa));
  } else if (d.driver.empty()) {
    out->push_back(fail(item, "no driver bound" + numa,
                        "modprobe vfio-pci; dpdk-devbind.py -b vfio-pci " + full_pci_address(address)));
  } else {
    out->push_back(fail(item, "bound to the kernel's " + d.driver + netdevs + ": DPDK cannot drive it" + numa, bind));
  }
}

LcoreFacts read_lcores() {
  LcoreFacts f;
  unsigned lcore;
  RTE_LCORE_FOREACH(lcore) {
    const rte_cpuset_t set = rte_lcore_cpuset(lcore);
    for (unsigned c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) f.cpus[lcore].insert(c);
    f.sockets.insert(static_cast<int>(rte_lcore_to_socket_id(lcore)));
  }
  return f;
}

void check_lcores(const LcoreFacts& lcores, std::vector<Finding>* out) {
  const CpuIsolation iso = cpu_isolation("");
  std::set<unsigned> all, open, ticking;
  bool floating = false;
  for (const auto& [lcore, cpus] : lcores.cpus) {
    floating |= cpus.size() > 1;
    for (unsigned c : cpus) {
      all.insert(c);
      if (!iso.isolcpus.count(c)) open.insert(c);
      if (!iso.nohz_full.count(c)) ticking.insert(c);
    }
  }
  const std::string line = std::to_string(lcores.cpus.size()) + " lcore(s) on CPUs " + format_cpu_list(all) +
                           (floating ? " (floating: an lcore may run on several)" : "");
  if (open.empty() && ticking.empty()) {
    out->push_back(ok("lcores", line + ", isolated (isolcpus) and tickless (nohz_full)"));
    return;
  }
  std::string finding = line + ":";
  if (!open.empty())
    finding += " CPUs " + format_cpu_list(open) + " not in isolcpus (the scheduler puts other tasks there);";
  if (!ticking.empty())
    finding += " CPUs " + format_cpu_list(ticking) + " not in nohz_full (timer ticks interrupt polling)";
  out->push_back(warn("lcores", finding,
                      "isolcpus=managed_irq,domain," + format_cpu_list(all) + " nohz_full=" + format_cpu_list(all) +
                          " rcu_nocbs=" + format_cpu_list(all) +
                          " on the kernel command line (GRUB_CMDLINE_LINUX, update-grub, reboot), "
                          "and -l with those CPUs, one per lcore"));
}

void check_clock(std::vector<Finding>* out) {
  const std::string source = clock_source("");
  const bool invariant = cpu_has_flag("", "constant_tsc") && cpu_has_flag("", "nonstop_tsc");
  const std::string tsc = "DPDK times with the TSC (" + std::to_string(rte_get_tsc_hz() / 1000000) + " MHz)";
  if (source.empty()) {
    out->push_back(not_checked("clock", "no clock source in sysfs; " + tsc));
  } else if (!invariant) {
    out->push_back(warn("clock",
                        "clock source " + source +
                            ", and the TSC is not invariant (no constant_tsc and "
                            "nonstop_tsc): timeouts may drift; " +
                            tsc,
                        "a CPU with an invariant TSC, or C-states limited (intel_idle.max_cstate=1)"));
  } else if (source != "tsc") {
    out->push_back(warn("clock", "clock source " + source + " (a VM, or the kernel distrusts the TSC); " + tsc,
                        "on bare metal: tsc=reliable clocksource=tsc on the kernel command line"));
  } else {
    out->push_back(ok("clock", "clock source tsc, invariant; " + tsc));
  }
}

}  // namespace wg::doctor
