// The EAL of a test binary with its own main() (GoogleTest's flags first,
// then the EAL): no PCI devices (the machine's NIC stays with the kernel),
// no hugepages, `memory_mb` of memory, a file prefix of its own so that test
// binaries can run in parallel, EAL logs at error level, and `extra` options
// (--lcores, --vdev ...). Prints why and returns false when it fails.
#pragma once

#include <rte_eal.h>
#include <rte_errno.h>

#include <cstdio>
#include <string>
#include <vector>

namespace wg::test {

inline bool init_test_eal(const std::string& name, const std::string& file_prefix, unsigned memory_mb,
                          const std::vector<std::string>& extra = {}) {
  // The EAL may keep pointers into its arguments: they live as long as the process.
  static std::vector<std::string> args;
  static std::vector<char*> argv;
  args = {name, "--no-pci", "--no-huge", "-m", std::to_string(memory_mb), "--file-prefix", file_prefix,
          "--log-level", "lib.eal:error"};
  args.insert(args.end(), extra.begin(), extra.end());
  argv.clear();
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (rte_eal_init(static_cast<int>(args.size()), argv.data()) < 0) {
    std::fprintf(stderr, "%s: EAL initialisation failed: %s\n", name.c_str(), rte_strerror(rte_errno));
    return false;
  }
  return true;
}

}  // namespace wg::test
