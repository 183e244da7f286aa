// Nothing left behind (#14): a node removes its EAL runtime directory, its
// hugepage files and its memif sockets on every exit it can see (here: the
// SIGTERM a launcher sends), a stale memif socket does not stop the next
// node and one still in use is named with what to do, a node started
// directly leaves no hugepage files, a node whose starter is killed with
// SIGKILL ends at once (its own parent-death signal), and what a launcher
// killed with SIGKILL leaves (bridge, run directory) is swept by the next run. Real node
// processes, a real launcher, real sockets and hugepages.
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/cluster_harness.h"
#include "tests/graphs_for_tests.h"
#include "tests/job_leftovers.h"

namespace wg::test {
namespace {

namespace fs = std::filesystem;

// Binds (and, if `listening`, keeps listening on) a Unix socket at `path`;
// closing it leaves the file behind, as a killed process does.
int bind_socket(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 1) != 0) return -1;
  return fd;
}

// A node of a 2-node job whose memif server socket is `socket`, waiting for a
// peer that never comes (so that it is alive when the test signals it).
std::vector<std::string> lonely_memif_node(const std::string& prefix, const std::string& socket,
                                           const std::vector<std::string>& memory, const std::string& key,
                                           const std::string& hello_timeout = "120") {
  std::vector<std::string> argv = {binary_path(), "--no-pci", "--lcores", "0", "--log-level", "lib.eal:error",
                                   "--file-prefix", prefix, "-m", "64"};
  argv.insert(argv.end(), memory.begin(), memory.end());
  argv.insert(argv.end(), {"--vdev", "net_memif1,role=server,socket=" + socket + ",socket-abstract=no,id=0", "--",
                           "--app", "bfs", "--graph", "kron:4:2", "--nodes", "2", "--rank", "0", "--hello-timeout",
                           hello_timeout, "--mbufs", "2047", "--key-file", key});
  return argv;
}

// The node has started its ports, or has given up (then the test fails on what it said).
bool node_is_up(const ChildProcess& node) {
  const std::string out = node.output();
  return out.find("dataplane: ") != std::string::npos || out.find("wiregraph: error") != std::string::npos;
}

// SIGTERM (what srun, mpirun and the launcher send) to a node with memif
// ports, which DPDK 22.11 cannot tear down: the node still removes its
// runtime directory, its hugepage files (kept by --huge-unlink=never) and
// its memif socket, then dies of the signal as before.
TEST(NodeFiles, SigtermRemovesRuntimeDirHugepageFilesAndMemifSocket) {
  TempDir tmp;
  const std::string prefix = "wg_files_" + std::to_string(::getpid());
  const std::string socket = tmp.file("memif.sock");
  const std::string huge = usable_hugetlbfs();
  const std::string key = write_key_file(tmp);
  ChildProcess node(lonely_memif_node(prefix, socket, huge.empty() ? std::vector<std::string>{"--no-huge"}
                                                                   : std::vector<std::string>{"--huge-unlink=never"},
                                      key),
                    tmp.file("node.log"));
  ASSERT_TRUE(eventually([&] { return node_is_up(node) && fs::exists(socket); }, 60)) << node.output();
  const std::string runtime_dir = dpdk_runtime_root() + "/" + prefix;
  EXPECT_TRUE(fs::exists(runtime_dir));
  const std::string files = prefix + "map_[0-9]+";
  if (!huge.empty()) {
    EXPECT_FALSE(matching(huge, files).empty()) << "no hugepage files to remove: the test proves nothing";
  }
  node.signal(SIGTERM);
  int status = 0;
  ASSERT_TRUE(node.wait(30, &status)) << node.output();
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "status " << status << "\n" << node.output();
  EXPECT_FALSE(fs::exists(socket));
  EXPECT_FALSE(fs::exists(runtime_dir));
  if (!huge.empty()) {
    EXPECT_TRUE(matching(huge, files).empty());
  }
  if (huge.empty()) GTEST_SKIP() << "no hugetlbfs with 128 MiB free: hugepage files not checked";
}

// The threads of process `pid` other than its main thread.
std::vector<int> other_threads(int pid) {
  std::vector<int> tids;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec))
    if (const int tid = std::atoi(e.path().filename().c_str()); tid != pid) tids.push_back(tid);
  return tids;
}

// What a node sees when mpirun dies of SIGKILL: its parent-death SIGTERM in
// one thread and SIGPIPE from the dead launcher's pipe in another, at once.
// The second handler used to find the removal already claimed, re-raise and
// end the process while the first was halfway through the hugepage files
// (the lab suite's mpirun test left a runtime directory and 115 files so).
TEST(NodeFiles, TwoEndingSignalsAtOnceStillRemoveEverything) {
  const std::string huge = usable_hugetlbfs();
  if (huge.empty()) GTEST_SKIP() << "no hugetlbfs with 128 MiB free: the race needs hugepage files to remove";
  for (int round = 0; round < 5; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    TempDir tmp;
    const std::string prefix = "wg_twosig_" + std::to_string(::getpid()) + "_" + std::to_string(round);
    const std::string socket = tmp.file("memif.sock");
    ChildProcess node(lonely_memif_node(prefix, socket, {"--huge-unlink=never"}, write_key_file(tmp)),
                      tmp.file("node.log"));
    ASSERT_TRUE(eventually([&] { return node_is_up(node) && fs::exists(socket); }, 60)) << node.output();
    const std::string files = prefix + "map_[0-9]+";
    ASSERT_FALSE(matching(huge, files).empty()) << "no hugepage files to remove: the test proves nothing";
    const std::vector<int> threads = other_threads(node.pid());
    ASSERT_FALSE(threads.empty());
    node.signal(SIGTERM);
    ::syscall(SYS_tgkill, node.pid(), threads.front(), SIGPIPE);
    int status = 0;
    ASSERT_TRUE(node.wait(30, &status)) << node.output();
    EXPECT_TRUE(WIFSIGNALED(status)) << "status " << status << "\n" << node.output();
    const std::vector<std::string> left = matching(huge, files);
    EXPECT_TRUE(left.empty()) << left.size() << " hugepage files left, the first " << left.front();
    EXPECT_FALSE(fs::exists(dpdk_runtime_root() + "/" + prefix));
    for (const std::string& f : left) fs::remove(f);
    fs::remove_all(dpdk_runtime_root() + "/" + prefix);
  }
}

// Whether process `pid` still runs (a zombie no longer does: whoever
// inherited it may be slow to reap it).
bool process_runs(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z' && line[paren + 2] != 'X';
}

// The process that started a node dies of SIGKILL (here a shell that
// started it and waits, as slurmstepd or mpirun do, neither of which asks
// for a parent-death signal for its tasks): the node ends at once through
// its own (apps/node/parent_death.h) and removes its files as on SIGTERM.
// Before, it went on waiting for its peer until --hello-timeout (600 s here).
TEST(NodeFiles, NodeEndsWhenTheProcessThatStartedItIsKilled) {
  TempDir tmp;
  const std::string prefix = "wg_orphan_" + std::to_string(::getpid());
  const std::string socket = tmp.file("memif.sock");
  const std::string pid_file = tmp.file("node.pid");
  std::vector<std::string> argv = {"/bin/sh", "-c", "\"$@\" & echo $! > " + pid_file + "; wait", "starter"};
  for (const std::string& a : lonely_memif_node(prefix, socket, {"--no-huge"}, write_key_file(tmp), "600"))
    argv.push_back(a);
  ChildProcess starter(argv, tmp.file("node.log"));
  int node_pid = 0;
  ASSERT_TRUE(eventually(
      [&] {
        std::ifstream in(pid_file);
        return node_is_up(starter) && fs::exists(socket) && (in >> node_pid) && node_pid > 0;
      },
      60))
      << starter.output();
  ASSERT_EQ(starter.output().find("wiregraph: error"), std::string::npos) << starter.output();
  const std::string runtime_dir = dpdk_runtime_root() + "/" + prefix;
  EXPECT_TRUE(fs::exists(runtime_dir));
  starter.signal(SIGKILL);
  int status = 0;
  ASSERT_TRUE(starter.wait(10, &status));
  EXPECT_TRUE(eventually([&] { return !process_runs(node_pid); }, 60))
      << "node (pid " << node_pid << ") still runs after its starter was killed:\n" << starter.output();
  EXPECT_TRUE(eventually([&] { return !fs::exists(socket) && !fs::exists(runtime_dir); }, 10))
      << "the node left " << (fs::exists(socket) ? socket + " " : "") << (fs::exists(runtime_dir) ? runtime_dir : "");
  if (process_runs(node_pid)) ::kill(node_pid, SIGKILL);
}

// A socket file left by a node killed with SIGKILL: the next node removes it
// and starts (it used to fail with "Address already in use" and then a
// missing port). A socket another process still listens on is refused,
// naming it and what to do.
TEST(NodeFiles, StaleMemifSocketIsRemovedAndOneInUseIsNamed) {
  TempDir tmp;
  const std::string prefix = "wg_stale_" + std::to_string(::getpid());
  const std::string socket = tmp.file("memif.sock");
  const int dead = bind_socket(socket);
  ASSERT_GE(dead, 0);
  ::close(dead);  // the file stays, nobody listens: as after kill -9
  {
    ChildProcess node(lonely_memif_node(prefix, socket, {"--no-huge"}, write_key_file(tmp)), tmp.file("stale.log"));
    ASSERT_TRUE(eventually([&] { return node_is_up(node); }, 60)) << node.output();
    EXPECT_NE(node.output().find("removed stale memif socket " + socket), std::string::npos) << node.output();
    EXPECT_NE(node.output().find("port 0 net_memif1"), std::string::npos) << node.output();
    node.signal(SIGTERM);
    int status = 0;
    ASSERT_TRUE(node.wait(30, &status)) << node.output();
  }
  const int live = bind_socket(socket);
  ASSERT_GE(live, 0);
  ChildProcess node(lonely_memif_node(prefix, socket, {"--no-huge"}, write_key_file(tmp)), tmp.file("in-use.log"));
  int status = 0;
  ASSERT_TRUE(node.wait(60, &status)) << node.output();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << "status " << status << "\n" << node.output();
  EXPECT_NE(node.output().find("wiregraph: error: memif socket " + socket + " is in use"), std::string::npos)
      << node.output();
  EXPECT_NE(node.output().find("stop that process, or give this node's memif vdev another socket="),
            std::string::npos)
      << node.output();
  EXPECT_TRUE(fs::exists(socket)) << "the other process's socket was removed";
  ::close(live);
  EXPECT_FALSE(fs::exists(dpdk_runtime_root() + "/" + prefix));
}

// A vdev the EAL could not create (here: a memif socket in a directory that
// does not exist) is named as such, not reported as a cluster without ports.
TEST(NodeFiles, AVdevTheEalCouldNotCreateIsNamed) {
  TempDir tmp;
  const std::string prefix = "wg_vdev_" + std::to_string(::getpid());
  ChildProcess node(lonely_memif_node(prefix, tmp.file("no-such-dir/memif.sock"), {"--no-huge"}, write_key_file(tmp)),
                    tmp.file("node.log"));
  int status = 0;
  ASSERT_TRUE(node.wait(60, &status)) << node.output();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << node.output();
  EXPECT_NE(node.output().find("wiregraph: error: the EAL could not create port net_memif1"), std::string::npos)
      << node.output();
  EXPECT_FALSE(fs::exists(dpdk_runtime_root() + "/" + prefix));
}

// docs/RUNNING.md's direct launch (one process per machine, no memory option):
// hugepages are mapped without files, and nothing is left in the runtime
// directory either.
TEST(NodeFiles, DirectLaunchLeavesNoHugepageFiles) {
  const std::string huge = usable_hugetlbfs();
  if (huge.empty()) GTEST_SKIP() << "no hugetlbfs with 128 MiB free";
  TempDir tmp;
  const std::string prefix = "wg_direct_" + std::to_string(::getpid());
  ChildProcess node({binary_path(), "--no-pci", "--lcores", "0", "--log-level", "lib.eal:error", "--file-prefix",
                     prefix, "-m", "64", "--", "--app", "bfs", "--graph", "kron:6:4", "--quiet"},
                    tmp.file("node.log"));
  int status = 0;
  ASSERT_TRUE(node.wait(60, &status)) << node.output();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << node.output();
  EXPECT_NE(node.output().find("memory: --in-memory added"), std::string::npos) << node.output();
  EXPECT_TRUE(matching(huge, prefix + ".*").empty());
  EXPECT_FALSE(fs::exists(dpdk_runtime_root() + "/" + prefix));
}

// ---------------------------------------------------------------- launcher

// kill -9 of the launcher mid-run (its nodes get SIGTERM through their
// parent-death signal and remove their own files; the bridge and the run
// directory stay), then a second run: it starts, succeeds, and removes what
// the first left; afterwards nothing of either run remains.
TEST(ClusterCleanup, LauncherKilledWithSigkillIsSweptByTheNextRun) {
  TempDir tmp;
  const std::string link = tap_unavailable_reason().empty() ? "tap" : "memif";
  ChildProcess first({"python3", launcher_path(), "--nodes", "2", "--link", link, "--timeout", "300", "--binary",
                      binary_path(), "--", "--app", "pagerank", "--graph", "kron:10:8", "--iterations", "1000000",
                      "--verbose"},  // the roles lines say both nodes compute
                     tmp.file("first.log"));
  std::string job;
  ASSERT_TRUE(kill_launcher_mid_run(first, &job));
  const std::vector<std::string> stale = leftovers(job);
  EXPECT_NE(std::find(stale.begin(), stale.end(), "/tmp/wiregraph-" + job), stale.end())
      << "the killed run left no run directory: the test proves nothing";
  if (link == "tap") {
    EXPECT_TRUE(fs::exists("/sys/class/net/wgb" + job)) << "the killed run left no bridge";
  }

  const std::string graph = tmp.file("corner.txt");
  write_snap(corner_case_graph(), graph);
  LaunchOptions second;
  second.nodes = 2;
  second.link = link;
  second.timeout_sec = 120;
  second.app_args = {"--app", "bfs", "--graph", graph, "--quiet"};
  const LaunchResult run = run_launcher(second, tmp.file("second.log"));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.output.find("removed what job " + job + " left behind"), std::string::npos) << describe(run);
  EXPECT_EQ(leftovers(job), std::vector<std::string>{}) << describe(run);
  const std::string job2 = job_of(run.output);
  ASSERT_FALSE(job2.empty()) << describe(run);
  EXPECT_EQ(leftovers(job2), std::vector<std::string>{}) << describe(run);
}

}  // namespace
}  // namespace wg::test
