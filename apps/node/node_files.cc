#include "apps/node/node_files.h"

#include <fcntl.h>
#include <rte_eal.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "dataplane/memif_quirks.h"

namespace wg::node_files {

namespace {

// What remove_now() removes, in fixed buffers a signal handler may read.
constexpr int kMaxSockets = 128;  // a server socket and its started marker per peer
constexpr int kMaxHugeDirs = 8;
struct Remembered {
  char runtime_dir[PATH_MAX];
  char huge_prefix[NAME_MAX];
  char huge_dirs[kMaxHugeDirs][PATH_MAX];
  int huge_dir_count;
  char sockets[kMaxSockets][PATH_MAX];
  int socket_count;
};
Remembered g_files;
// kArmed -> kRemoving -> kRemoved, once. Two threads can end the process at
// once (the parent-death SIGTERM in one, SIGPIPE from the dead launcher's pipe
// in another, or exit() beside a signal): the second must wait for the first
// to finish, or it dies of its signal with half the files still there.
enum : int { kIdle, kArmed, kRemoving, kRemoved };
std::atomic<int> g_state{kIdle};
static_assert(std::atomic<int>::is_always_lock_free, "read from signal handlers");

bool copy(char* to, size_t size, const std::string& from) {
  if (from.size() >= size) return false;
  std::memcpy(to, from.c_str(), from.size() + 1);
  return true;
}

// Calls f(name) for each entry of the open directory fd but . and ..
// (getdents64: no allocation, unlike readdir).
template <class F>
void for_each_entry(int fd, F&& f) {
  alignas(8) char buf[4096];
  for (;;) {
    const long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) return;
    for (long at = 0; at < n;) {
      const auto* reclen = reinterpret_cast<const unsigned short*>(buf + at + 16);
      const char* name = buf + at + 19;  // d_ino 8, d_off 8, d_reclen 2, d_type 1
      if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0) f(name);
      at += *reclen;
    }
  }
}

bool is_hugepage_file(const char* name, const char* prefix) {
  const size_t p = std::strlen(prefix);
  if (std::strncmp(name, prefix, p) != 0 || std::strncmp(name + p, "map_", 4) != 0) return false;
  const char* digits = name + p + 4;
  if (*digits == '\0') return false;
  for (; *digits != '\0'; ++digits)
    if (*digits < '0' || *digits > '9') return false;
  return true;
}

constexpr int kEndSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};

sigset_t end_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kEndSignals) sigaddset(&set, sig);
  return set;
}

void on_signal(int sig) {
  remove_now();
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

std::vector<std::string> hugetlbfs_mounts(const std::string& root) {
  std::vector<std::string> dirs;
  std::ifstream mounts(root + "/proc/mounts");
  std::string line;
  while (std::getline(mounts, line)) {
    std::istringstream f(line);
    std::string dev, dir, type;
    if (f >> dev >> dir >> type && type == "hugetlbfs") dirs.push_back(dir);
  }
  return dirs;
}

SocketState socket_state(const std::string& path, const std::string& proc_net_unix) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return SocketState::kAbsent;
  if (!S_ISSOCK(st.st_mode)) return SocketState::kNotASocket;
  return memif_quirks::socket_bound(path, proc_net_unix) ? SocketState::kInUse : SocketState::kStale;
}

void clear_stale_sockets(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) {
    // The marker a server port writes once started (memif_quirks.h,
    // workaround 5): one a killed run left would let a client connect early.
    const std::string marker = memif_quirks::started_marker(p);
    switch (socket_state(p)) {
      case SocketState::kAbsent:
        unlink(marker.c_str());
        break;
      case SocketState::kStale:
        unlink(marker.c_str());
        if (unlink(p.c_str()) != 0)
          throw std::runtime_error("memif socket " + p + " is left by a process that is gone, but cannot be removed: " +
                                   std::strerror(errno));
        std::fprintf(stderr, "wiregraph: removed stale memif socket %s (left by a process that is gone)\n", p.c_str());
        break;
      case SocketState::kInUse:
        throw std::runtime_error("memif socket " + p +
                                 " is in use: a running process has it open (a node of another run with the same "
                                 "socket= path?); stop that process, or give this node's memif vdev another socket=");
      case SocketState::kNotASocket:
        throw std::runtime_error("memif socket path " + p +
                                 " exists and is not a socket; remove it, or give this node's memif vdev another socket=");
    }
  }
}

void remove_at_exit(const std::vector<std::string>& memif_sockets) {
  Remembered& r = g_files;  // not armed yet: no handler reads it
  r = Remembered{};
  const std::string runtime = rte_eal_get_runtime_dir();
  copy(r.runtime_dir, sizeof r.runtime_dir, runtime);
  copy(r.huge_prefix, sizeof r.huge_prefix, runtime.substr(runtime.rfind('/') + 1));  // the --file-prefix
  for (const std::string& d : hugetlbfs_mounts())
    if (r.huge_dir_count < kMaxHugeDirs && copy(r.huge_dirs[r.huge_dir_count], PATH_MAX, d)) ++r.huge_dir_count;
  for (const std::string& s : memif_sockets)
    for (const std::string& f : {s, memif_quirks::started_marker(s)})
      if (r.socket_count < kMaxSockets && copy(r.sockets[r.socket_count], PATH_MAX, f)) ++r.socket_count;
  g_state.store(kArmed);
  std::atexit(remove_now);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sa.sa_mask = end_signals();
  for (int sig : kEndSignals) sigaction(sig, &sa, nullptr);
}

void remove_now() {
  int state = kArmed;
  if (!g_state.compare_exchange_strong(state, kRemoving)) {
    // Another thread is at it: end only once it is done. Bounded, should that
    // thread never finish (a fault in it).
    const struct timespec ms{0, 1000 * 1000};
    for (int waited = 0; state == kRemoving && waited < 10'000; ++waited) {
      nanosleep(&ms, nullptr);
      state = g_state.load();
    }
    return;
  }
  // An ending signal delivered to this thread now would wait for itself: it
  // waits until the files are gone (a handler's mask blocks them already; the
  // atexit path needs it).
  const sigset_t block = end_signals();
  sigset_t was;
  pthread_sigmask(SIG_BLOCK, &block, &was);
  for (int i = 0; i < g_files.socket_count; ++i) unlink(g_files.sockets[i]);
  if (g_files.huge_prefix[0] != '\0')
    for (int i = 0; i < g_files.huge_dir_count; ++i) remove_hugepage_files(g_files.huge_dirs[i], g_files.huge_prefix);
  if (g_files.runtime_dir[0] != '\0') remove_flat_dir(g_files.runtime_dir);
  g_state.store(kRemoved);
  pthread_sigmask(SIG_SETMASK, &was, nullptr);
}

bool remove_flat_dir(const char* dir) {
  for (int pass = 0; pass < 3; ++pass) {  // entries removed while listing may hide others: list again
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT;
    for_each_entry(fd, [fd](const char* name) { unlinkat(fd, name, 0); });
    close(fd);
    if (rmdir(dir) == 0) return true;
    if (errno != ENOTEMPTY) return false;
  }
  return false;
}

bool remove_hugepage_files(const char* dir, const char* prefix) {
  const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  bool clean = true;
  for_each_entry(fd, [&](const char* name) {
    if (is_hugepage_file(name, prefix)) clean &= unlinkat(fd, name, 0) == 0;
  });
  close(fd);
  return clean;
}

}  // namespace wg::node_files
