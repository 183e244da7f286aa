// What `wiregraph doctor` reads of the machine outside DPDK: hugepages per
// NUMA node (the mounts: apps/node/node_files.h), a PCI device's driver and IOMMU group, the
// kernel command line's CPU isolation, the clock source. Plain readers of
// /proc and /sys; `root` prefixes every path ("" for the machine itself, a
// fake tree in the tests). No DPDK.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace wg::doctor {

// One hugepage size on one NUMA node.
struct HugepagePool {
  int numa_node = -1;  // -1: the machine's total (no per-node sysfs)
  uint64_t page_bytes = 0;
  uint64_t total = 0, free = 0;  // pages
};
// ROOT/sys/devices/system/node/node*/hugepages/hugepages-*kB/{nr,free}_hugepages,
// else one pool per size from ROOT/sys/kernel/mm/hugepages (numa_node -1).
std::vector<HugepagePool> hugepage_pools(const std::string& root);

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}; junk yields what parsed before it.
std::set<unsigned> parse_cpu_list(const std::string& list);
// The reverse: {0,1,2,3,8} -> "0-3,8".
std::string format_cpu_list(const std::set<unsigned>& cpus);

// The CPUs that ROOT/proc/cmdline takes from the scheduler's general use
// (isolcpus=, with or without its flags such as "managed_irq,domain,") and
// from the timer tick (nohz_full=).
struct CpuIsolation {
  std::set<unsigned> isolcpus, nohz_full;
};
CpuIsolation cpu_isolation(const std::string& root);

// ROOT/sys/devices/system/clocksource/clocksource0/current_clocksource, or "".
std::string clock_source(const std::string& root);
// Whether ROOT/proc/cpuinfo's flags include `flag` (constant_tsc, nonstop_tsc).
bool cpu_has_flag(const std::string& root, const std::string& flag);

// A PCI function as sysfs shows it (ROOT/sys/bus/pci/devices/ADDRESS).
struct PciDevice {
  bool exists = false;
  std::string driver;  // "vfio-pci", "mlx5_core", "" when none is bound
  int numa_node = -1;
  std::string iommu_group;           // "" when the device has none (no IOMMU, or it is off)
  std::vector<std::string> netdevs;  // kernel interfaces (bifurcated drivers keep theirs)
};
PciDevice pci_device(const std::string& root, const std::string& address);
// Whether ROOT/sys/kernel/iommu_groups has any group (an IOMMU is on).
bool iommu_on(const std::string& root);
// ROOT/sys/module/vfio/parameters/enable_unsafe_noiommu_mode says Y.
bool vfio_noiommu(const std::string& root);
// A PCI address as DPDK's -a takes it ("0000:3b:00.0", or "3b:00.0" for domain 0), normalised.
bool looks_like_pci_address(const std::string& s);
std::string full_pci_address(const std::string& s);

}  // namespace wg::doctor
