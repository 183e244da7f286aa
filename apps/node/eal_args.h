// What the node binary makes of its EAL arguments (everything before `--`)
// before and right after rte_eal_init: a memory mode that leaves no hugepage
// files unless the user chose one, the memif sockets it will create, and
// whether every --vdev became a port. Pure functions over argv except
// missing_vdev_ports (EAL initialised).
#pragma once

#include <string>
#include <vector>

namespace wg {

struct EalArgs {
  std::vector<std::string> vdevs;           // every --vdev's device string, as given
  std::vector<std::string> memif_sockets;   // filesystem sockets of memif servers among them
  bool memory_mode_given = false;           // --in-memory, --no-huge, --huge-unlink, --legacy-mem, --proc-type
};

// Reads the EAL options of argv[1..argc) up to `--`. As DPDK 22.11's memif
// PMD reads its arguments: a memif vdev is a client unless role=server, and
// its socket (default /run/memif.sock) is abstract (no file) unless
// socket-abstract=no.
EalArgs parse_eal_args(int argc, char* const* argv);

// argv with --in-memory added after the program name when no memory mode is
// given: hugepages are then mapped without files, so none are left behind
// even by kill -9 (without hugepages the EAL refuses to start either way).
// The strings stay owned by the caller's argv.
std::vector<char*> with_default_memory_mode(int argc, char** argv, const EalArgs& eal);

// The device names (the part of a --vdev before its first comma) for which
// the EAL created no ethdev port: a vdev whose probe failed (its message is
// in the EAL's log above) would otherwise surface as a missing peer.
std::vector<std::string> missing_vdev_ports(const EalArgs& eal);

}  // namespace wg
