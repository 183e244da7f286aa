// The job's EAL options as `wiregraph doctor` reads them (the ports it
// names, its memory options), and the EAL options the doctor itself starts
// with. Pure functions over argv, no EAL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wg::doctor {

struct EalPlan {
  std::vector<std::string> user;        // everything before `--` but the program name
  std::vector<std::string> pci;         // -a/--allow/-w addresses
  bool no_huge = false;                 // --no-huge
  uint64_t preallocate_mb = 0;          // -m MB, or the sum of --socket-mem
  std::vector<uint64_t> socket_mem_mb;  // --socket-mem per socket
};

// Reads argv[1..) up to `--` (*dashdash: its index, argc without one).
EalPlan read_eal(int argc, char** argv, int* dashdash);

// The doctor's own EAL memory when hugepages cannot hold it (MiB): enough
// for the ports' queues at 16 queues of 2048 descriptors.
inline constexpr const char* kProbeMemoryMb = "160";

// The EAL options the doctor initialises with: the job's, with a file prefix
// of its own (a node of the job may run) and, when hugepages cannot serve
// the probe, its memory options replaced by --no-huge -m kProbeMemoryMb;
// else --in-memory added when the job gives no memory mode, as the node does.
std::vector<std::string> probe_eal_args(const EalPlan& p, bool without_hugepages);

}  // namespace wg::doctor
