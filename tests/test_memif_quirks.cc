// The memif PMD's start-order workaround (dataplane/memif_quirks.h,
// workaround 5) without the PMD: a client waits for the marker its server
// writes once its port has started, and for no marker older than the
// server's socket. Real Unix sockets in a scratch directory; no EAL.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "dataplane/memif_quirks.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

// A Unix socket bound and listening at `path`, as a memif server's; -1 on failure.
int listen_at(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
  sockaddr_un sun{};
  sun.sun_family = AF_UNIX;
  std::strncpy(sun.sun_path, path.c_str(), sizeof sun.sun_path - 1);
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&sun), sizeof sun) != 0 || listen(fd, 4) != 0) return -1;
  return fd;
}

std::string error_of(const std::string& socket, double timeout_s) {
  try {
    memif_quirks::wait_for_server(socket, timeout_s, "--hello-timeout");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(MemifQuirks, ReadsVdevArgumentsAsKvargsDoes) {
  const std::string args = "role=client,socket=/tmp/a.sock,bsize=4096,socket-abstract=no,bsize=8192";
  EXPECT_EQ(memif_quirks::devarg(args, "bsize"), "8192");  // the last one wins
  EXPECT_EQ(memif_quirks::buffer_size(args), 8192u);
  EXPECT_EQ(memif_quirks::buffer_size("role=server"), 2048u);
  EXPECT_EQ(memif_quirks::devarg(args, "socket"), "/tmp/a.sock");  // not socket-abstract's value
  EXPECT_EQ(memif_quirks::devarg(args, "sock", "none"), "none");
  EXPECT_EQ(memif_quirks::socket_file(args), "/tmp/a.sock");
  EXPECT_EQ(memif_quirks::socket_file("role=client,socket=/tmp/a.sock"), "") << "abstract by default in 22.11";
  EXPECT_EQ(memif_quirks::socket_file("socket-abstract=no"), "/run/memif.sock");
  EXPECT_FALSE(memif_quirks::is_server(args));
  EXPECT_TRUE(memif_quirks::is_server("id=0,role=server"));
  EXPECT_TRUE(memif_quirks::is_server("id=0,role=master")) << "its old name, which 22.11 still takes";
  EXPECT_FALSE(memif_quirks::is_server("id=0"));
  EXPECT_EQ(memif_quirks::socket_file("socket=/a,socket-abstract=yes"), "");
  EXPECT_EQ(memif_quirks::socket_file("socket=/a,socket-abstract=noyes"), "") << "yes wins, as in the PMD";
}

TEST(MemifQuirks, AClientWaitsForItsServersMarkerAfterTheSocket) {
  test::TempDir tmp;
  const std::string sock = tmp.file("memif-0-1.sock");
  std::string msg = error_of(sock, 0.02);  // no server at all
  EXPECT_NE(msg.find("the memif server of " + sock + " has not started its port"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--hello-timeout"), std::string::npos) << msg;

  const int fd = listen_at(sock);
  ASSERT_GE(fd, 0);
  EXPECT_NE(error_of(sock, 0.02), "") << "a socket without its marker: the server's port has not started";

  memif_quirks::mark_started(sock);
  EXPECT_TRUE(std::ifstream(memif_quirks::started_marker(sock)).good());
  EXPECT_EQ(memif_quirks::started_marker(sock), sock + ".started");
  EXPECT_EQ(error_of(sock, 0.02), "");

  // A marker older than the socket is a killed run's: its server is not this one.
  const timespec past[2] = {{1, 0}, {1, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, memif_quirks::started_marker(sock).c_str(), past, 0), 0);
  EXPECT_NE(error_of(sock, 0.02), "");

  // A killed run leaves its socket and a newer marker, but nobody listens.
  memif_quirks::mark_started(sock);
  EXPECT_EQ(error_of(sock, 0.02), "");
  close(fd);
  EXPECT_FALSE(memif_quirks::socket_bound(sock));
  EXPECT_NE(error_of(sock, 0.02), "") << "a client would connect to nobody, and never again";
}

TEST(MemifQuirks, AMarkerBesideSomethingElseIsNoServer) {
  test::TempDir tmp;
  const std::string path = tmp.file("plain");
  std::ofstream(path) << "x";
  memif_quirks::mark_started(path);
  EXPECT_NE(error_of(path, 0.02), "") << "not a socket";
}

TEST(MemifQuirks, AMarkerThatCannotBeWrittenSaysWhere) {
  try {
    memif_quirks::mark_started("/nonexistent-dir/memif.sock");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write /nonexistent-dir/memif.sock.started"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace wg
