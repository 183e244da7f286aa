#include "dataplane/memif_quirks.h"

#include <fcntl.h>
#include <rte_eal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace wg::memif_quirks {

std::string devarg(const std::string& devargs, const std::string& key, const std::string& otherwise) {
  std::string value = otherwise;
  const std::string prefix = key + "=";
  for (size_t at = 0; at <= devargs.size();) {
    const size_t end = std::min(devargs.find(',', at), devargs.size());
    if (devargs.compare(at, prefix.size(), prefix) == 0 && end - at >= prefix.size())
      value = devargs.substr(at + prefix.size(), end - at - prefix.size());
    at = end + 1;
  }
  return value;
}

uint32_t buffer_size(const std::string& devargs) {
  return static_cast<uint32_t>(std::strtoul(devarg(devargs, "bsize", "2048").c_str(), nullptr, 0));
}

// As the 22.11 PMD reads them: socket-abstract is "yes" unless the value
// holds "no" and not "yes"; the role is a server's when it holds "server"
// or its old name "master".
std::string socket_file(const std::string& devargs) {
  const std::string abstract = devarg(devargs, "socket-abstract", "yes");
  if (abstract.find("yes") != std::string::npos || abstract.find("no") == std::string::npos) return "";
  return devarg(devargs, "socket", "/run/memif.sock");
}

bool is_server(const std::string& devargs) {
  const std::string role = devarg(devargs, "role", "client");
  return role.find("server") != std::string::npos || role.find("master") != std::string::npos;
}

bool socket_bound(const std::string& path, const std::string& proc_net_unix) {
  // Num RefCount Protocol Flags Type St Inode Path: a bound socket lists its path.
  std::ifstream in(proc_net_unix);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string field, bound;
    for (int i = 0; i < 7 && f >> field; ++i) {
    }
    std::getline(f >> std::ws, bound);
    if (bound == path) return true;
  }
  return false;
}

std::string started_marker(const std::string& socket) { return socket + ".started"; }

void mark_started(const std::string& socket) {
  const std::string marker = started_marker(socket);
  const std::string tmp = marker + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || ::close(fd) != 0 || std::rename(tmp.c_str(), marker.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    errno = err;
    throw std::runtime_error("cannot write " + marker + " (which tells memif clients that the server port of " +
                             socket + " has started): " + std::strerror(errno));
  }
}

namespace {

// The server is there and has started its port: the marker is no older than
// the socket, and a process has the socket bound (a killed run leaves both
// files, marker after socket; a client would connect to nobody, once).
bool server_started(const std::string& socket) {
  struct stat sock {}, mark {};
  if (::stat(socket.c_str(), &sock) != 0 || !S_ISSOCK(sock.st_mode)) return false;
  if (::stat(started_marker(socket).c_str(), &mark) != 0) return false;
  if (std::tie(mark.st_mtim.tv_sec, mark.st_mtim.tv_nsec) < std::tie(sock.st_mtim.tv_sec, sock.st_mtim.tv_nsec))
    return false;
  return socket_bound(socket);
}

}  // namespace

void wait_for_server(const std::string& socket, double timeout_s, const std::string& limit) {
  const auto start = std::chrono::steady_clock::now();
  timespec pause{0, 1'000'000};
  while (!server_started(socket)) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= timeout_s) {
      char waited[32];
      std::snprintf(waited, sizeof waited, "%g", timeout_s);
      throw std::runtime_error("the memif server of " + socket + " has not started its port within " + waited +
                               " s (" + limit + "): is the node that serves it running?");
    }
    nanosleep(&pause, nullptr);
    pause.tv_nsec = std::min<long>(pause.tv_nsec * 2, 50'000'000);
  }
}

void quiet_before_close() {
  const timespec quiet{0, 300'000'000};  // the peers finish within milliseconds of each other
  nanosleep(&quiet, nullptr);
}

void exit_process(int rc, bool memif_ports, void (*remove_files)()) {
  if (memif_ports) {
    std::fflush(nullptr);
    remove_files();
    _exit(rc);
  }
  rte_eal_cleanup();
  remove_files();
  std::exit(rc);
}

}  // namespace wg::memif_quirks
