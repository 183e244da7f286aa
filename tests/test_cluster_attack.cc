// A hostile host on the job's L2 segment (issue #14): a third process on the
// tap bridge (tests/attacker.py, a raw AF_PACKET socket, promiscuous) learns
// the job from the frames it sees and forges HELLO (claiming a taken rank),
// ABORT (with terminal escape codes), DATA, END (wrong counts) and ACK
// (acking far beyond what was sent) frames with a valid CRC, the job token
// and plausible sequence numbers, in answer to the frames it sees, from its
// own MAC and from the real sender's.
//
// With the launcher's key: the results equal the oracle, every node exits
// 0, the launcher finds every message sent accumulated, and the forgeries
// are counted as dropped (bad_mac, wrong_address) in the node reports.
// Without a key (--no-auth) the same attack stops the job, and the forged
// abort's text reaches the terminal only escaped: the attack is real, and
// the test of the keyed run can fail.
//
// The attacker is started by node 0's wrapper (tests/cluster_harness.h,
// write_rank_wrapper) beside the node, on the bridge wgb<J> the launcher
// made for the job (WIREGRAPH_JOB_ID), and leaves when its node does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compute/graph/graph_reader.h"
#include "tests/cluster_harness.h"
#include "tests/reference.h"

namespace wg::test {
namespace {

constexpr const char* kGraph = "kron:12:16";
constexpr unsigned kIterations = 20;

std::string attacker_path() { return source_dir() + "/tests/attacker.py"; }

// Node 0 starts the attacker beside it, on the job's bridge, logging to
// `log`, forging `kinds` (attacker.py --kinds).
std::string attacker_wrapper(const TempDir& tmp, const std::string& log, const std::string& kinds) {
  return write_rank_wrapper(tmp, 0,
                            "python3 '" + attacker_path() + "' --bridge \"wgb${WIREGRAPH_JOB_ID#0x}\" --log '" + log +
                                "' --kinds " + kinds + " & exec '" + binary_path() + "' \"$@\"");
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Forged frames by kind, from the attacker's log ("forged KIND FROM TO HOW").
std::map<std::string, unsigned> forged_by_kind(const std::string& log) {
  std::map<std::string, unsigned> n;
  std::istringstream in(log);
  for (std::string word, kind; in >> word;)
    if (word == "forged" && in >> kind) ++n[kind];
  return n;
}

LaunchOptions attack(const TempDir& tmp, const std::string& log, const std::string& kinds,
                     std::vector<std::string> extra) {
  LaunchOptions opts;
  opts.nodes = 2;
  opts.link = "tap";
  opts.timeout_sec = 240;
  opts.app_args = {"--app", "pagerank", "--graph", kGraph, "--iterations", std::to_string(kIterations), "--quiet",
                   "--out", tmp.file("out")};
  opts.app_args.insert(opts.app_args.end(), extra.begin(), extra.end());
  opts.launcher_flags = {"--binary", attacker_wrapper(tmp, log, kinds)};
  return opts;
}

TEST(Attack, ForgeriesAreDroppedAndTheResultsStayExact) {
  std::string skip;
  ASSERT_TRUE(prerequisites("tap", 2, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  const std::string log = tmp.file("attacker.log");
  const LaunchResult run = run_launcher(attack(tmp, log, "HELLO,ABORT,DATA,END,ACK", {}), tmp.file("cluster.log"));
  const std::string forged = read_text(log);
  ASSERT_FALSE(run.timed_out) << describe(run) << "\n--- attacker ---\n" << forged;
  ASSERT_EQ(run.exit_code, 0) << describe(run) << "\n--- attacker ---\n" << forged;
  EXPECT_TRUE(launcher_found_balance(run));
  for (int r = 0; r < 2; ++r) {
    const std::optional<std::string> status = node_status(run.output, r);
    ASSERT_TRUE(status.has_value()) << describe(run);
    EXPECT_EQ(status->rfind("exit code 0", 0), 0u) << "node " << r << ": " << *status;
  }
  EXPECT_NE(run.output.find("frames authenticated (AES-128-GMAC, key from --key-file"), std::string::npos)
      << describe(run);

  // The attack happened: every kind of forgery, from both addresses.
  const std::map<std::string, unsigned> by_kind = forged_by_kind(forged);
  for (const char* kind : {"HELLO", "ABORT", "DATA", "END", "ACK"})
    EXPECT_GT(by_kind.count(kind) ? by_kind.at(kind) : 0u, 0u) << "no forged " << kind << "\n" << forged;
  EXPECT_NE(forged.find(" own\n"), std::string::npos) << forged;
  EXPECT_NE(forged.find(" spoofed\n"), std::string::npos) << forged;

  // Exact results: no forged record was folded, no forged END closed a superstep.
  std::vector<std::string> values;
  const EdgeList g = load_graph(kGraph);
  ASSERT_TRUE(read_results(tmp.file("out"), g.num_vertices, &values));
  EXPECT_TRUE(check_pagerank(values, ref::pagerank(g, kIterations)));

  // And the forgeries were seen and dropped: from the attacker's own MAC as
  // wrong_address (the ranks are pinned to the address they were learned
  // at), under a spoofed MAC or a made-up salt as bad_mac.
  uint64_t bad_mac = 0, wrong_address = 0, invalid_acks = 0;
  for (int r = 0; r < 2; ++r) {
    nlohmann::json j;
    std::string error;
    ASSERT_TRUE(read_json_file(tmp.file("out") + "/node" + std::to_string(r) + ".json", &j, &error)) << error;
    bad_mac += json_counter(j, {"rx", "dropped", "bad_mac"}, &error);
    wrong_address += json_counter(j, {"rx", "dropped", "wrong_address"}, &error);
    for (const nlohmann::json& l : j["links"]) invalid_acks += json_counter(l, {"invalid_acks"}, &error);
    EXPECT_TRUE(error.empty()) << error;
  }
  EXPECT_GT(bad_mac, 0u) << forged;
  EXPECT_GT(wrong_address, 0u) << forged;
  EXPECT_EQ(invalid_acks, 0u) << "the forged acks never reached a send window";
  // The forged abort's escape codes never reached the terminal.
  EXPECT_EQ(run.output.find('\x1b'), std::string::npos);
}

// The same attacker against a job without a key: it is stopped. A forged
// ABORT under the real sender's MAC carries a valid CRC and is believed;
// its text is printed escaped. (Forging aborts only, so that the abort is
// what stops it: a forged hello or END would stop it too, for other reasons.)
TEST(Attack, WithoutAKeyTheSameForgeriesStopTheJob) {
  std::string skip;
  ASSERT_TRUE(prerequisites("tap", 2, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  const std::string log = tmp.file("attacker.log");
  const LaunchResult run = run_launcher(attack(tmp, log, "ABORT", {"--no-auth"}), tmp.file("cluster.log"));
  const std::string forged = read_text(log);
  ASSERT_FALSE(run.timed_out) << describe(run) << "\n--- attacker ---\n" << forged;
  EXPECT_NE(run.exit_code, 0) << describe(run) << "\n--- attacker ---\n" << forged;
  EXPECT_NE(run.output.find("frames NOT authenticated (--no-auth"), std::string::npos) << describe(run);
  EXPECT_GT(forged_by_kind(forged).count("ABORT"), 0u) << forged;
  // Some node stopped on the forged abort, and said so without passing the
  // escape codes on.
  EXPECT_NE(run.output.find("aborted: \\x1b[2J\\x1b[31mforged abort\\x1b[0m\\x1b]0;owned\\x07"), std::string::npos)
      << describe(run) << "\n--- attacker ---\n" << forged;
  EXPECT_EQ(run.output.find('\x1b'), std::string::npos) << "a raw escape code reached the output";
}

}  // namespace
}  // namespace wg::test
