// Nodes as hosts of their own (--hosts netns: a network namespace per node,
// joined to the job's bridge by a veth pair) and the af_xdp link (a
// net_af_xdp port on the node's veth end), through the launcher:
//   - PageRank on kron:12:8 at P = 2 and 3 against the oracle, on af_xdp and
//     tap in namespaces and on af_xdp in the shared namespace, and nothing
//     of the job (namespaces, veths, bridge, run dir) left afterwards;
//   - a node's link down for 2 s in the middle of a run: the job still ends
//     with the oracle's answer; down for good with a short --peer-timeout:
//     every node names the dead peer and exits non-zero within the limit
//     plus 5 s, leaving nothing;
//   - node 1's veth MTU lowered below the frames' size mid-run: the job
//     fails, node 1's progress-timeout error names the MTU as the likely cause;
//   - a node whose own netdev MTU is below --mtu, and an af_xdp --mtu beyond
//     one XDP frame, refused at start with both numbers named;
//   - a launcher killed with SIGKILL: `wiregraph-cluster --sweep` removes
//     its namespaces and veths;
//   - the XDP program of dataplane/xdp (--xdp-prog): kernel traffic between
//     two nodes' namespaces passes beside a running job.
// Root only (namespaces, veths, bridges): skipped otherwise.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "compute/graph/graph_reader.h"
#include "tests/cluster_harness.h"
#include "tests/job_leftovers.h"
#include "tests/reference.h"

namespace wg::test {
namespace {

constexpr int kLaunchTimeoutSec = 300;

// Why namespaces and kernel links cannot be tried here, or "".
std::string hosts_unavailable_reason() {
  if (const std::string why = tap_unavailable_reason(); !why.empty()) return why;
  if (std::system("ip netns list >/dev/null 2>&1") != 0) return "`ip netns` does not work here";
  return "";
}

struct HostsCase {
  std::string hosts;  // --hosts
  std::string link;   // --link
  int nodes;
};

void PrintTo(const HostsCase& c, std::ostream* os) { *os << c.hosts << " " << c.link << " P=" << c.nodes; }

std::string hosts_case_name(const ::testing::TestParamInfo<HostsCase>& p) {
  return p.param.hosts + "_" + p.param.link + "_P" + std::to_string(p.param.nodes);
}

// PageRank's results in `out_dir` against the oracle on `graph` with
// `iterations`.
::testing::AssertionResult pagerank_matches(const std::string& out_dir, const std::string& graph,
                                            unsigned iterations) {
  const EdgeList g = load_graph(graph);
  std::vector<std::string> values;
  if (auto r = read_results(out_dir, g.num_vertices, &values); !r) return r;
  return check_expected(values, ref::oracle("pagerank", g, 0, iterations));
}

std::string make_out_dir(const TempDir& tmp) {
  const std::string dir = tmp.file("out");
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

class HostsTest : public ::testing::TestWithParam<HostsCase> {};

TEST_P(HostsTest, PageRankMatchesOracleAndLeavesNothing) {
  const HostsCase& c = GetParam();
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  const std::string out = make_out_dir(tmp);
  LaunchOptions opts;
  opts.nodes = c.nodes;
  opts.link = c.link;
  opts.timeout_sec = kLaunchTimeoutSec;
  opts.launcher_flags = {"--hosts", c.hosts};
  opts.app_args = {"--app", "pagerank", "--graph", "kron:12:8", "--out", out};
  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_TRUE(pagerank_matches(out, "kron:12:8", ref::kDefaultIterations)) << describe(run);
  EXPECT_TRUE(launcher_found_balance(run));
  // libxdp's missing-bpffs notice is routed away (dataplane/libxdp_log.h):
  // a clean run prints nothing from libxdp.
  EXPECT_EQ(run.output.find("libxdp:"), std::string::npos) << describe(run);
  const std::string job = job_of(run.output);
  ASSERT_FALSE(job.empty()) << describe(run);
  EXPECT_EQ(leftovers(job), std::vector<std::string>{}) << describe(run);
}

INSTANTIATE_TEST_SUITE_P(Kron12, HostsTest,
                         ::testing::Values(HostsCase{"netns", "af_xdp", 3}, HostsCase{"netns", "tap", 3},
                                           HostsCase{"shared", "af_xdp", 3}, HostsCase{"netns", "af_xdp", 2}),
                         hosts_case_name);

// A command run for its effect on a netdev; its failure fails the test.
::testing::AssertionResult run_command(const std::string& command) {
  const int rc = std::system(command.c_str());
  if (rc == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << command << "' exited with status " << rc;
}

// Retransmission timeouts of every node's connections (node<R>.json links[]).
uint64_t retransmission_timeouts(const std::string& out_dir, int nodes) {
  uint64_t sum = 0;
  for (int r = 0; r < nodes; ++r) {
    nlohmann::json j;
    std::string error;
    if (!read_json_file(out_dir + "/node" + std::to_string(r) + ".json", &j, &error)) continue;
    for (const nlohmann::json& link : j.value("links", nlohmann::json::array()))
      sum += json_counter(link, {"timeouts"}, &error);
  }
  return sum;
}

// A 3-node PageRank of `iterations` supersteps on `graph` over `link` in
// namespaces, writing to `out`, with more launcher options `flags` and more
// node options `node_flags`.
std::vector<std::string> long_pagerank(const std::string& link, unsigned iterations, const std::string& out,
                                       const std::vector<std::string>& flags = {},
                                       const std::vector<std::string>& node_flags = {},
                                       const std::string& graph = "kron:8:8") {
  std::vector<std::string> argv = {"python3", launcher_path(), "--nodes", "3", "--link", link, "--hosts", "netns",
                                   "--timeout", std::to_string(kLaunchTimeoutSec), "--binary", binary_path()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"--", "--app", "pagerank", "--graph", graph, "--iterations",
                           std::to_string(iterations), "--verbose", "--out", out});
  argv.insert(argv.end(), node_flags.begin(), node_flags.end());
  return argv;
}

// Mid-run: node 1 has reported superstep 200. Returns the job id ("" if not).
std::string wait_mid_run(const ChildProcess& launcher) {
  if (!eventually([&] { return launcher.output().find("[node 1] superstep 200:") != std::string::npos; },
                  kLaunchTimeoutSec))
    return "";
  return job_of(launcher.output());
}

// The launcher, still running after what the test did mid-run, ends with
// exit 0 and the oracle's answer, leaving nothing.
void expect_exact_end(ChildProcess& launcher, const std::string& out, unsigned iterations, const std::string& job) {
  int status = 0;
  ASSERT_FALSE(launcher.wait(0, &status))
      << "the job ended before the test was done with it: not in the middle of the run (more --iterations needed)";
  ASSERT_TRUE(launcher.wait(kLaunchTimeoutSec + 30, &status)) << launcher.output().substr(0, 4000);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << launcher.output().substr(0, 4000);
  EXPECT_TRUE(pagerank_matches(out, "kron:8:8", iterations));
  EXPECT_EQ(leftovers(job), std::vector<std::string>{});
}

class LinkDownTest : public ::testing::TestWithParam<std::string> {};

// Node 1's veth end in its namespace goes down for 2 s once the nodes are
// 200 supersteps into a 10,000-superstep PageRank, then up again: frames
// sent meanwhile are lost and resent, and the answer is still the oracle's.
TEST_P(LinkDownTest, JobEndsWithTheExactAnswer) {
  const std::string link = GetParam();
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  constexpr unsigned kIterations = 10000;
  constexpr auto kOutage = std::chrono::seconds(2);  // the fault's length, not a wait for anything
  TempDir tmp;
  const std::string out = make_out_dir(tmp);
  ChildProcess launcher(long_pagerank(link, kIterations, out), tmp.file("cluster.log"));
  const std::string job = wait_mid_run(launcher);
  ASSERT_FALSE(job.empty()) << launcher.output();
  const std::string in_netns = "ip netns exec wg" + job + "n1 ip link set dev wg" + job + "x1 ";
  ASSERT_TRUE(run_command(in_netns + "down"));
  const auto down_at = std::chrono::steady_clock::now();
  std::this_thread::sleep_until(down_at + kOutage);
  ASSERT_TRUE(run_command(in_netns + "up"));
  expect_exact_end(launcher, out, kIterations, job);
  EXPECT_GT(retransmission_timeouts(out, 3), 0u) << "no frame was resent: the outage cost nothing?";
}

INSTANTIATE_TEST_SUITE_P(Netns, LinkDownTest, ::testing::Values("af_xdp", "tap"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// Whatever way a test left job `job` (an ASSERT, the launcher killed by
// ChildProcess's destructor), its namespaces and veths go: declared before
// the launcher's ChildProcess, so it runs after that one's destructor.
struct SweepJobAtExit {
  std::string job;
  ~SweepJobAtExit() {
    if (!job.empty() && !leftovers(job).empty())
      (void)std::system(("python3 '" + launcher_path() + "' --sweep >/dev/null 2>&1").c_str());
  }
};

// The end of a launcher's output, for failure messages.
std::string tail(const std::string& output) { return output.substr(output.size() - std::min<size_t>(output.size(), 6000)); }

// "[node R] wiregraph: error: ..." lines of the launcher's output so far
// that name a peer in `peers` as dead ("node P silent for").
bool names_dead_peer(const std::string& output, int rank, const std::vector<int>& peers) {
  for (const std::string& line : lines_starting(output, "[node " + std::to_string(rank) + "] wiregraph: error:"))
    for (int p : peers)
      if (line.find("node " + std::to_string(p) + " silent for") != std::string::npos) return true;
  return false;
}

// The node's exit status as the launcher reports it is a non-zero exit code.
::testing::AssertionResult exited_non_zero(const std::string& output, int rank) {
  const std::optional<std::string> status = node_status(output, rank);
  if (!status) return ::testing::AssertionFailure() << "no status line for node " << rank;
  if (status->starts_with("exit code ") && !status->starts_with("exit code 0,"))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "node " << rank << ": " << *status;
}

class LinkDownForGoodTest : public ::testing::TestWithParam<std::string> {};

// Node 1's veth end goes down for good 200 supersteps into a long PageRank
// with --peer-timeout 2 (--keep-going: no node is stopped by the launcher,
// each ends on its own). Issue #45's stated behaviour: every node names the
// unreachable peer (the others node 1; node 1 one of its peers) and exits
// non-zero within the limit plus 5 s of the link going down; the bound
// below is that, computed from the option, and is the only timing asserted.
// The launcher leaves nothing behind.
TEST_P(LinkDownForGoodTest, EveryNodeNamesTheDeadPeerWithinTheLimit) {
  const std::string link = GetParam();
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  constexpr int kPeerTimeoutSec = 2;
  constexpr auto kStatedBound = std::chrono::seconds(kPeerTimeoutSec + 5);  // issue #45: the limit plus 5 s
  TempDir tmp;
  const std::string out = make_out_dir(tmp);
  SweepJobAtExit sweep;
  ChildProcess launcher(long_pagerank(link, 1000000, out, {"--keep-going"},
                                      {"--peer-timeout", std::to_string(kPeerTimeoutSec)}),
                        tmp.file("cluster.log"));
  sweep.job = wait_mid_run(launcher);
  ASSERT_FALSE(sweep.job.empty()) << launcher.output();
  const std::string& job = sweep.job;
  ASSERT_TRUE(run_command("ip netns exec wg" + job + "n1 ip link set dev wg" + job + "x1 down"));
  const auto down_at = std::chrono::steady_clock::now();
  auto all_ended = [&] {
    const std::string output = launcher.output();
    for (int r = 0; r < 3; ++r)
      if (!node_status(output, r)) return false;
    return true;
  };
  // The launcher prints "[cluster] node R: exit code ..." as it reaps node R.
  ASSERT_TRUE(eventually(all_ended, std::chrono::duration<double>(kStatedBound).count()))
      << "not every node ended within --peer-timeout + 5 s of the link going down\n"
      << tail(launcher.output());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - down_at).count();
  int status = 0;
  ASSERT_TRUE(launcher.wait(kLaunchTimeoutSec, &status)) << tail(launcher.output());
  const std::string output = launcher.output();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << tail(output);
  EXPECT_TRUE(names_dead_peer(output, 0, {1})) << tail(output);
  EXPECT_TRUE(names_dead_peer(output, 2, {1})) << tail(output);
  EXPECT_TRUE(names_dead_peer(output, 1, {0, 2})) << tail(output);
  for (int r = 0; r < 3; ++r) EXPECT_TRUE(exited_non_zero(output, r)) << tail(output);
  RecordProperty("seconds_from_link_down_to_every_node_ended", std::to_string(took));
  EXPECT_EQ(leftovers(job), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Netns, LinkDownForGoodTest, ::testing::Values("af_xdp", "tap"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// Node 1's veth end (its af_xdp port's netdev) gets MTU 1000 inside its
// namespace 200 supersteps into a long PageRank on kron:12:8, whose buckets
// fill 1514-byte frames: the kernel drops every full frame to node 1 while
// acks and keepalives pass, so the run stalls until --progress-timeout 3.
// The job exits non-zero; node 1's own error names the likely cause (its
// netdev's MTU now below the frames' size); the others name node 1 and do
// not blame their own netdevs.
TEST(HostsMtuLowered, NodeWhoseMtuWasLoweredNamesTheCause) {
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  const std::string out = make_out_dir(tmp);
  SweepJobAtExit sweep;
  ChildProcess launcher(long_pagerank("af_xdp", 1000000, out, {"--keep-going"}, {"--progress-timeout", "3"},
                                      "kron:12:8"),
                        tmp.file("cluster.log"));
  sweep.job = wait_mid_run(launcher);
  ASSERT_FALSE(sweep.job.empty()) << launcher.output();
  const std::string& job = sweep.job;
  ASSERT_TRUE(run_command("ip netns exec wg" + job + "n1 ip link set dev wg" + job + "x1 mtu 1000"));
  int status = 0;
  ASSERT_TRUE(launcher.wait(kLaunchTimeoutSec + 30, &status)) << tail(launcher.output());
  const std::string output = launcher.output();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << tail(output);
  const auto errors = [&](int r) { return lines_starting(output, "[node " + std::to_string(r) + "] wiregraph: error:"); };
  ASSERT_EQ(errors(1).size(), 1u) << tail(output);
  EXPECT_NE(errors(1)[0].find("likely cause: frames of 1514 bytes may exceed the path's MTU"), std::string::npos)
      << errors(1)[0];
  EXPECT_NE(errors(1)[0].find("netdev wg" + job + "x1 now has MTU 1000, below the --mtu 1500"), std::string::npos)
      << errors(1)[0];
  for (int r : {0, 2}) {
    ASSERT_EQ(errors(r).size(), 1u) << tail(output);
    EXPECT_NE(errors(r)[0].find("node 1"), std::string::npos) << errors(r)[0];
    EXPECT_EQ(errors(r)[0].find("netdev wg" + job + "x" + std::to_string(r)), std::string::npos) << errors(r)[0];
  }
  for (int r = 0; r < 3; ++r) EXPECT_TRUE(exited_non_zero(output, r)) << tail(output);
  EXPECT_EQ(leftovers(job), std::vector<std::string>{});
}

// Frames the nodes received that were not wiregraph's (rx.dropped.not_wiregraph).
uint64_t strangers_received(const std::string& out_dir, int nodes) {
  uint64_t sum = 0;
  for (int r = 0; r < nodes; ++r) {
    nlohmann::json j;
    std::string error;
    if (read_json_file(out_dir + "/node" + std::to_string(r) + ".json", &j, &error))
      sum += json_counter(j, {"rx", "dropped", "not_wiregraph"}, &error);
  }
  return sum;
}

// --xdp-prog build/dataplane/xdp/wiregraph_xdp.o: mid-run, the kernels of
// node 1's and node 2's namespaces make a TCP connection over the veth ends
// the nodes' af_xdp ports hold (ARP included): the program passes what is
// not wiregraph's to the kernel (DPDK's default program would hand node 2
// the ARP request, and the connection would never be made). The job still
// ends exact, and no node received a stranger's frame.
TEST(HostsXdpProgram, KernelTrafficPassesBesideTheJob) {
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const std::string prog = build_dir() + "/dataplane/xdp/wiregraph_xdp.o";
  if (::access(prog.c_str(), R_OK) != 0) GTEST_SKIP() << "no " << prog << " (clang and libbpf-dev build it)";
  constexpr unsigned kIterations = 10000;
  TempDir tmp;
  const std::string out = make_out_dir(tmp);
  ChildProcess launcher(long_pagerank("af_xdp", kIterations, out, {"--xdp-prog", prog}), tmp.file("cluster.log"));
  const std::string job = wait_mid_run(launcher);
  ASSERT_FALSE(job.empty()) << launcher.output();
  const std::string ns1 = "wg" + job + "n1", ns2 = "wg" + job + "n2";
  ASSERT_TRUE(run_command("ip -n " + ns1 + " addr add 10.99.0.1/24 dev wg" + job + "x1"));
  ASSERT_TRUE(run_command("ip -n " + ns2 + " addr add 10.99.0.2/24 dev wg" + job + "x2"));
  ChildProcess listener({"ip", "netns", "exec", ns2, "python3", "-c",
                         "import socket, time\n"
                         "s = socket.socket()\n"
                         "s.bind(('10.99.0.2', 47999))\n"
                         "s.listen()\n"
                         "print('listening', flush=True)\n"
                         "time.sleep(600)\n"},
                        tmp.file("listener.log"));
  ASSERT_TRUE(eventually([&] { return listener.output().find("listening") != std::string::npos; }, 60))
      << listener.output();
  EXPECT_TRUE(run_command("ip netns exec " + ns1 +
                          " python3 -c \"import socket; socket.create_connection(('10.99.0.2', 47999), timeout=30)\""));
  expect_exact_end(launcher, out, kIterations, job);
  EXPECT_EQ(strangers_received(out, 3), 0u);
}

// A failed run of `opts` whose output names `words`; nothing of it is left.
void expect_refused(LaunchOptions opts, const TempDir& tmp, const std::string& words) {
  opts.timeout_sec = kLaunchTimeoutSec;
  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.output.find(words), std::string::npos) << describe(run);
  const std::string job = job_of(run.output);
  ASSERT_FALSE(job.empty()) << describe(run);
  EXPECT_EQ(leftovers(job), std::vector<std::string>{}) << describe(run);
}

// Node 1 lowers its own veth end's MTU to 1400 before it starts (inside its
// namespace, where `ip netns exec` runs the node's command); with the
// default --mtu 1500 it refuses, naming both.
TEST(HostsRefusals, PortMtuBelowTheJobsMtu) {
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  LaunchOptions opts;
  opts.nodes = 3;
  opts.link = "af_xdp";
  opts.launcher_flags = {
      "--hosts", "netns", "--binary",
      write_rank_wrapper(tmp, 1,
                         "for n in /sys/class/net/wg*x*; do ip link set dev \"${n##*/}\" mtu 1400; done; "
                         "exec '" + binary_path() + "' \"$@\"")};
  opts.app_args = {"--app", "pagerank", "--graph", "kron:8:8"};
  expect_refused(opts, tmp, "has MTU 1400, below the --mtu 1500");
}

// Two nodes in namespaces on af_xdp, PageRank on kron:8:8 with `extra` options.
LaunchOptions netns_af_xdp_pagerank(const std::vector<std::string>& extra) {
  LaunchOptions opts;
  opts.nodes = 2;
  opts.link = "af_xdp";
  opts.launcher_flags = {"--hosts", "netns"};
  opts.app_args = {"--app", "pagerank", "--graph", "kron:8:8"};
  opts.app_args.insert(opts.app_args.end(), extra.begin(), extra.end());
  return opts;
}

TEST(HostsRefusals, AfXdpMtuBeyondOneXdpFrame) {
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  expect_refused(netns_af_xdp_pagerank({"--mtu", "1779"}), tmp, "MTU 1778 at most, not the --mtu 1779");
}

// --ntuple on where the netdev has no classification table (a veth): the
// node refuses at start with the driver, the reason and the fix.
TEST(HostsRefusals, NtupleOnWhereTheNetdevHasNoTable) {
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  expect_refused(netns_af_xdp_pagerank({"--ntuple", "on"}), tmp,
                 "(veth: Operation not supported): RSS may put wiregraph's frames on queues");
}

// kill -9 of the launcher mid-run leaves the namespaces, veths and bridge;
// --sweep removes them once the nodes (parent-death SIGTERM) are gone.
TEST(HostsCleanup, SweepRemovesTheNamespacesOfALauncherKilledWithSigkill) {
  if (const std::string why = hosts_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  ChildProcess launcher({"python3", launcher_path(), "--nodes", "2", "--link", "tap", "--hosts", "netns",
                         "--timeout", "300", "--binary", binary_path(), "--", "--app", "pagerank", "--graph",
                         "kron:8:8", "--iterations", "1000000", "--verbose"},
                        tmp.file("killed.log"));
  std::string job;
  ASSERT_TRUE(kill_launcher_mid_run(launcher, &job));
  const std::vector<std::string> stale = leftovers(job);
  EXPECT_NE(std::find(stale.begin(), stale.end(), "/run/netns/wg" + job + "n1"), stale.end())
      << "the killed run left no namespace: the test proves nothing";

  ChildProcess sweep({"python3", launcher_path(), "--sweep"}, tmp.file("sweep.log"));
  int status = 0;
  ASSERT_TRUE(sweep.wait(120, &status)) << sweep.output();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << sweep.output();
  EXPECT_NE(sweep.output().find("netns wg" + job + "n0"), std::string::npos) << sweep.output();
  EXPECT_EQ(leftovers(job), std::vector<std::string>{}) << sweep.output();
}

}  // namespace
}  // namespace wg::test
