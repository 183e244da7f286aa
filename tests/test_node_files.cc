// What the node makes of its EAL arguments (apps/node/eal_args.h) and the
// removal of the files it leaves (apps/node/node_files.h), without an EAL:
// argument lists as users write them, real Unix sockets and real files in a
// temporary directory.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "apps/node/eal_args.h"
#include "apps/node/node_files.h"
#include "apps/node/out_dir.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

// argv from strings (kept alive by the vector).
struct Argv {
  explicit Argv(std::vector<std::string> a) : args(std::move(a)) {
    for (std::string& s : args) ptrs.push_back(s.data());
  }
  int argc() const { return static_cast<int>(ptrs.size()); }
  char** argv() { return ptrs.data(); }
  std::vector<std::string> args;
  std::vector<char*> ptrs;
};

TEST(EalArgs, FindsVdevsAndTheMemifServersSocketFiles) {
  Argv a({"wiregraph", "--no-pci", "--vdev", "net_memif1,role=server,socket=/tmp/a.sock,socket-abstract=no,id=0",
          "--vdev=net_memif2,role=client,socket=/tmp/b.sock,socket-abstract=no",  // a client creates nothing
          "--vdev", "net_memif3,role=server,socket=/tmp/c.sock",                  // abstract: no file
          "--vdev", "net_memif4,socket-abstract=no,role=master",                  // old name, default path
          "--vdev", "net_tap0,iface=wg0", "--", "--app", "bfs", "--vdev", "net_memif9,role=server,socket-abstract=no"});
  const EalArgs e = parse_eal_args(a.argc(), a.argv());
  EXPECT_EQ(e.vdevs.size(), 5u) << "after -- come the application's options";
  EXPECT_EQ(e.memif_sockets, (std::vector<std::string>{"/tmp/a.sock", "/run/memif.sock"}));
  EXPECT_FALSE(e.memory_mode_given);
}

TEST(EalArgs, InMemoryIsAddedOnlyWhenNoMemoryModeIsGiven) {
  Argv plain({"wiregraph", "-l", "0", "--", "--app", "bfs"});
  EalArgs e = parse_eal_args(plain.argc(), plain.argv());
  std::vector<char*> out = with_default_memory_mode(plain.argc(), plain.argv(), e);
  ASSERT_EQ(out.size(), 8u);
  EXPECT_STREQ(out[0], "wiregraph");
  EXPECT_STREQ(out[1], "--in-memory");
  EXPECT_STREQ(out[2], "-l");
  EXPECT_EQ(out.back(), nullptr);
  for (const char* mode : {"--in-memory", "--no-huge", "--huge-unlink", "--huge-unlink=never", "--legacy-mem",
                           "--proc-type=primary"}) {
    Argv given({"wiregraph", mode, "--", "--app", "bfs"});
    e = parse_eal_args(given.argc(), given.argv());
    EXPECT_TRUE(e.memory_mode_given) << mode;
    out = with_default_memory_mode(given.argc(), given.argv(), e);
    EXPECT_EQ(out.size(), 6u) << mode;
  }
  Argv after({"wiregraph", "--", "--no-huge"});  // an application argument, not an EAL one
  EXPECT_FALSE(parse_eal_args(after.argc(), after.argv()).memory_mode_given);
}

// DPDK's warnings of a healthy run (memif's mp callback, telemetry's legacy
// socket) are turned to errors only, unless the user's --log-level names
// their types or sets the global level: the user's own choice wins.
std::vector<std::string> quiet_options(std::vector<std::string> eal) {
  eal.insert(eal.begin(), "wiregraph");
  eal.insert(eal.end(), {"--", "--app", "bfs"});
  Argv a(eal);
  const EalArgs e = parse_eal_args(a.argc(), a.argv());
  std::vector<char*> in = a.ptrs;
  in.push_back(nullptr);
  const std::vector<char*> out = with_quiet_log_types(in, e);
  const size_t k = out.size() - in.size();  // inserted right after the program name
  const std::vector<std::string> added(out.begin() + 1, out.begin() + 1 + static_cast<ptrdiff_t>(k));
  EXPECT_EQ(out.back(), nullptr);
  EXPECT_STREQ(out[0], "wiregraph");
  return added;
}

TEST(EalArgs, HealthyRunWarningsAreQuietUnlessTheUserSaysOtherwise) {
  const std::vector<std::string> both = {"--log-level=pmd.net.memif:error", "--log-level=lib.telemetry:error"};
  EXPECT_EQ(quiet_options({"-l", "0"}), both);
  EXPECT_EQ(quiet_options({"--log-level", "lib.eal:error"}), both) << "the launcher's own choice names neither";
  EXPECT_EQ(quiet_options({"--log-level", "pmd.net.memif:debug"}),
            std::vector<std::string>{"--log-level=lib.telemetry:error"});
  EXPECT_EQ(quiet_options({"--log-level=pmd.net.*:info"}), std::vector<std::string>{"--log-level=lib.telemetry:error"});
  EXPECT_EQ(quiet_options({"--log-level", "lib.tele.*,debug"}),
            std::vector<std::string>{"--log-level=pmd.net.memif:error"});
  EXPECT_TRUE(quiet_options({"--log-level", "8"}).empty()) << "the global level: every type is the user's";
  EXPECT_TRUE(quiet_options({"--log-level=debug"}).empty());
}

class Scratch : public ::testing::Test {
 protected:
  std::string touch(const std::string& name) {
    std::ofstream(dir_ + "/" + name) << "x";
    return dir_ + "/" + name;
  }
  // A Unix socket bound (and listening) at `path`; -1 on failure.
  static int listen_at(const std::string& path) {
    const int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 1) != 0) return -1;
    return fd;
  }
  test::TempDir tmp_;
  const std::string dir_ = tmp_.path();
};

// A socket file is stale once the process that bound it is gone (here: the
// socket closed), in use while bound; a missing path or a plain file are told apart.
TEST_F(Scratch, SocketStatesAndWhatClearingDoes) {
  using node_files::SocketState;
  const std::string sock = dir_ + "/memif.sock";
  EXPECT_EQ(node_files::socket_state(sock), SocketState::kAbsent);
  const int fd = listen_at(sock);
  ASSERT_GE(fd, 0);
  const std::string marker = touch("memif.sock.started");  // its server port has started
  EXPECT_EQ(node_files::socket_state(sock), SocketState::kInUse);
  try {
    node_files::clear_stale_sockets({sock});
    ADD_FAILURE() << "a socket in use was not refused";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(sock + " is in use"), std::string::npos) << msg;
    EXPECT_NE(msg.find("give this node's memif vdev another socket="), std::string::npos) << msg;
  }
  EXPECT_TRUE(std::filesystem::exists(sock));
  EXPECT_TRUE(std::filesystem::exists(marker)) << "a socket in use keeps its marker";
  close(fd);
  EXPECT_EQ(node_files::socket_state(sock), SocketState::kStale);
  node_files::clear_stale_sockets({sock});
  EXPECT_FALSE(std::filesystem::exists(sock));
  EXPECT_FALSE(std::filesystem::exists(marker)) << "a stale socket's marker would let a client in too early";
  const std::string file = touch("not-a-socket");
  EXPECT_EQ(node_files::socket_state(file), SocketState::kNotASocket);
  EXPECT_THROW(node_files::clear_stale_sockets({file}), std::runtime_error);
  EXPECT_TRUE(std::filesystem::exists(file));
}

TEST_F(Scratch, RemovesAFlatDirectory) {
  const std::string d = dir_ + "/wg123r0";
  std::filesystem::create_directory(d);
  for (int i = 0; i < 300; ++i) std::ofstream(d + "/fbarray_" + std::to_string(i)) << i;  // more than one listing
  const int fd = listen_at(d + "/mp_socket");
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(node_files::remove_flat_dir(d.c_str()));
  EXPECT_FALSE(std::filesystem::exists(d));
  EXPECT_TRUE(node_files::remove_flat_dir(d.c_str())) << "already gone counts as removed";
  close(fd);
}

TEST_F(Scratch, RemovesOnlyThisPrefixsHugepageFiles) {
  for (const char* n : {"wg1r0map_0", "wg1r0map_17", "wg1r0map_x", "wg1r0map_", "wg1r0other", "wg1r01map_0",
                        "wg1r1map_0"})
    touch(n);
  EXPECT_TRUE(node_files::remove_hugepage_files(dir_.c_str(), "wg1r0"));
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) left.push_back(e.path().filename());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"wg1r01map_0", "wg1r0map_", "wg1r0map_x", "wg1r0other", "wg1r1map_0"}));
}

// --out is checked before anything is loaded (issue #14: an unusable
// directory used to be found after the computation, losing the results):
// created when missing, refused naming the problem when it is a file or
// cannot be created, and the probe file it writes is gone afterwards.
TEST(OutDir, CheckedBeforeLoading) {
  test::TempDir tmp;
  const std::string fresh = tmp.file("a/b/out");
  EXPECT_NO_THROW(prepare_out_dir(fresh, false));
  EXPECT_TRUE(std::filesystem::is_directory(fresh));
  EXPECT_TRUE(std::filesystem::is_empty(fresh)) << "the write probe is removed";
  const std::string file = tmp.file("a-file");
  std::ofstream(file) << "x";
  try {
    prepare_out_dir(file, false);
    ADD_FAILURE() << "a file accepted as --out";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--out " + file + ": exists and is not a directory"), std::string::npos)
        << e.what();
  }
  try {
    prepare_out_dir("/proc/wiregraph-out", false);
    ADD_FAILURE() << "/proc/wiregraph-out accepted as --out";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--out /proc/wiregraph-out: cannot create the directory"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace wg
