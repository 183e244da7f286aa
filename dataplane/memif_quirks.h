// Every workaround for DPDK 22.11's memif PMD, in one place.
//
// The memif PMD (DPDK 22.11) handles a peer's connect and disconnect on the
// EAL interrupt thread, without any synchronisation with the lcores that
// burst on the port or with the code that closes it. Five workarounds follow
// from that (docs/DESIGN-NOTES.md, "Reliability", has the history), and a
// sixth from how it chains buffers:
//
//  1. Bursts vs a peer's disconnect (dataplane/memif_guard.{h,cc}): the
//     interrupt thread munmaps the rings while an lcore may still be inside
//     rx/tx_burst (SIGSEGV when a peer dies). Every memif burst is a QSBR
//     read-side section and munmap waits for open sections.
//  2. Ports are never closed (must_not_close(), used by Dataplane::release):
//     closing frees the port's regions while the interrupt thread may be
//     handling the peer's disconnect, which then reads freed state (a crash in
//     about 1 run in 100). The process is exiting: the kernel closes the
//     sockets, and the mbuf pools stay with the ports.
//  3. No rte_eal_cleanup() when memif ports exist (exit_process(), used by
//     apps/main.cc): tearing the EAL down under the interrupt thread crashes
//     it (seen in rte_intr_fd_get). _exit: the kernel reclaims the memory;
//     the files the EAL and the memif servers made (runtime directory,
//     hugepage files, sockets) are removed by the node itself just before
//     (apps/node/node_files.h), which unlinks paths and touches no port.
//  4. A quiet pause before closing (quiet_before_close(), called by the
//     engine's linger() through Dataplane::quiet_before_close()): stay off
//     the ports for a moment after the last frame so that no peer still polls
//     a ring we are about to disconnect.
//  5. Start order: a client port connects once, when it starts, and never
//     again (restarting a down port from inside the node races the interrupt
//     thread, which crashes in rte_intr_fd_get). A server refuses a client
//     that connects before the server's port has started ("ID not found"),
//     although its socket exists from the EAL's start on. So a server port,
//     once started, says so with a file beside its socket (SOCKET.started,
//     mark_started()), and a client port starts only once that file is there,
//     no older than the socket, and the socket is bound (wait_for_server(),
//     both in Ports::open_all, which starts the server ports first): nodes can
//     start in any order and all at once.
//  6. One buffer per frame (Ports::open, and the launcher's bsize=): a frame
//     larger than the memif buffer (bsize, default 2048 bytes) goes as a chain
//     of buffers, and 22.11 delivers some such chains with the lengths of
//     whole buffers (a 9014-byte frame arriving as 10240 bytes in two mbuf
//     segments, or cut short): dropped as too short or by the CRC, and resent
//     forever. A node refuses an --mtu whose frames do not fit one buffer,
//     naming the bsize= to give the vdev.
#pragma once

#include <cstdint>
#include <string>

namespace wg::memif_quirks {

// The value of `key` in a vdev's arguments ("a=1,key=V,b=2": V; the last
// one wins, as in kvargs), or `otherwise`.
std::string devarg(const std::string& devargs, const std::string& key, const std::string& otherwise = "");

// The memif buffer size a vdev's arguments give ("...,bsize=N,...": N, else
// the PMD's default 2048).
uint32_t buffer_size(const std::string& devargs);

// Workaround 5. The filesystem socket of a memif vdev with these arguments
// ("" when it is abstract, the PMD's default), and whether it is the server.
std::string socket_file(const std::string& devargs);
bool is_server(const std::string& devargs);
// Whether some process has a Unix socket bound at `path` (it is listed in
// /proc/net/unix; `proc_net_unix` for tests).
bool socket_bound(const std::string& path, const std::string& proc_net_unix = "/proc/net/unix");
std::string started_marker(const std::string& socket);  // SOCKET.started
// After the server port of `socket` started: writes the marker (tmp, rename).
// Throws std::runtime_error naming the file when it cannot.
void mark_started(const std::string& socket);
// Before the client port of `socket` starts: polls (1 ms, doubling up to
// 50 ms) until the server has marked it started (a marker no older than the
// socket, which a process has bound), and throws std::runtime_error saying
// which socket, and `limit` (what set timeout_s, e.g. "--hello-timeout"),
// when `timeout_s` passes first.
void wait_for_server(const std::string& socket, double timeout_s, const std::string& limit);

// Workaround 2: true if a port of this kind must be left open at exit.
inline bool must_not_close(bool is_memif) { return is_memif; }

// Workaround 4: a pause (300 ms) after the last frame, before ports close.
void quiet_before_close();

// Workaround 3: ends the process with status rc; with memif ports, without
// rte_eal_cleanup() (stdio flushed, then _exit), else after rte_eal_cleanup().
// `remove_files` (the node's runtime directory, hugepage files and sockets,
// which neither path removes: apps/node/node_files.h) runs just before the end.
[[noreturn]] void exit_process(int rc, bool memif_ports, void (*remove_files)());

}  // namespace wg::memif_quirks
