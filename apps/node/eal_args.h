// What the node binary makes of its EAL arguments (everything before `--`)
// before and right after rte_eal_init: a memory mode that leaves no hugepage
// files unless the user chose one, DPDK log levels that keep what is not the
// user's business off the screen, the memif sockets it will create, and
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
  std::vector<std::string> log_levels;      // every --log-level's value, as given
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

// DPDK log types whose warnings a healthy run prints and a user need not
// read: memif's "Failed to register mp action callback" (no multi-process
// channel under --in-memory) and telemetry's "No legacy callbacks, legacy
// socket not created". The node sets them to errors only.
inline constexpr const char* kQuietLogTypes[] = {"pmd.net.memif", "lib.telemetry"};

// args (a null-terminated argv, as with_default_memory_mode returns it) with
// --log-level=TYPE:error added after the program name for each of
// kQuietLogTypes, except the types the user's own --log-level options name
// (a pattern or regex that matches them) and all of them when the user sets
// the global level: a user's own --log-level wins.
std::vector<char*> with_quiet_log_types(std::vector<char*> args, const EalArgs& eal);

// The device names (the part of a --vdev before its first comma) for which
// the EAL created no ethdev port: a vdev whose probe failed (its message is
// in the EAL's log above) would otherwise surface as a missing peer.
std::vector<std::string> missing_vdev_ports(const EalArgs& eal);

}  // namespace wg
