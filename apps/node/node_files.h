// The files a node leaves on the machine, and their removal on every exit
// path: its EAL runtime directory (/var/run/dpdk/PREFIX, or under
// XDG_RUNTIME_DIR), its hugepage files (PREFIXmap_N in every hugetlbfs
// mount; none with --in-memory, apps/node/eal_args.h) and the sockets of its
// memif servers. DPDK 22.11 removes none of them when a node ends with memif
// ports (no rte_eal_cleanup, dataplane/memif_quirks.h workaround 3) or of a
// signal, and rte_eal_cleanup leaves the runtime directory.
//
// Covered: a normal exit or an error (exit, _exit through
// memif_quirks::exit_process), SIGTERM, SIGINT and SIGHUP (srun, mpirun and
// scripts/wiregraph-cluster stop nodes with them; the parent-death signal is
// SIGTERM too, apps/node/parent_death.h), SIGPIPE (the output pipe of a
// launcher that died: a write can beat its parent-death signal), and the fatal signals
// apps/main.cc reports. Not covered, by nature: SIGKILL; the launcher's sweep
// and the next node's check of its memif sockets take care of that.
#pragma once

#include <string>
#include <vector>

namespace wg::node_files {

enum class SocketState {
  kAbsent,      // nothing at the path
  kStale,       // a socket file no process has bound (left by one that is gone)
  kInUse,       // a socket some process still has bound (listed in /proc/net/unix)
  kNotASocket,  // something else
};
SocketState socket_state(const std::string& path, const std::string& proc_net_unix = "/proc/net/unix");

// Before rte_eal_init, for the memif servers' socket files: removes stale
// ones (saying so on stderr), so that a run after a kill -9 starts; throws
// std::runtime_error, saying what to do, for a socket a process still uses
// or a path that is not a socket (else the PMD fails with "Address already
// in use" and the node with a missing port).
void clear_stale_sockets(const std::vector<std::string>& paths);

// After rte_eal_init: remembers this process's runtime directory, hugepage
// file prefix and memif server sockets, and removes them at exit and on
// SIGTERM, SIGINT, SIGHUP and SIGPIPE (after which the process dies of the signal as
// it would have).
void remove_at_exit(const std::vector<std::string>& memif_sockets);

// Removes them now: async-signal-safe (fixed buffers, system calls only), for
// _exit paths and fatal-signal handlers; does nothing before remove_at_exit
// and the second time, and a caller that comes while another thread removes
// returns only once that thread is done.
void remove_now();

// The hugetlbfs mount points listed in ROOT/proc/mounts, where hugepage
// files live (`root` "" for this machine; the doctor's tests give a fake tree).
std::vector<std::string> hugetlbfs_mounts(const std::string& root = "");

// The pieces, async-signal-safe, for tests: a directory and the files in it
// (the EAL's runtime directory holds no subdirectories), and the files in
// `dir` named `prefix` + "map_" + digits. True when nothing is left.
bool remove_flat_dir(const char* dir);
bool remove_hugepage_files(const char* dir, const char* prefix);

}  // namespace wg::node_files
