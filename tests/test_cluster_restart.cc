// Checkpoints and restarts across real node processes (scripts/wiregraph-cluster
// --restart, --checkpoint-every, --resume): a node kills itself (--crash-node)
// at a superstep, the launcher restarts the job from the last committed
// checkpoint, and the results must be the oracle's, which for every program
// but PageRank is what an uninterrupted run writes bit for bit (PageRank: its
// tolerance, and an uninterrupted run's within rounding).
//
// Which checkpoint a restart takes is known in advance: with
// --checkpoint-every 3 nodes write after supersteps 2, 5, 8, ...; rank 0
// commits the one of superstep c once it has completed c+3 (the lag,
// Checkpointer::lag(): N, at least 2). A node that dies at the start of
// superstep 10 has completed 9, so rank 0 has completed 8 and committed 5,
// never 8: the restart takes 5, with no race between the crash and the
// launcher stopping the others (at the start of 9 it would: rank 0 may or
// may not have completed 8).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "apps/registry.h"
#include "compute/graph/graph_reader.h"
#include "tests/cluster_harness.h"
#include "tests/reference.h"

namespace wg::test {
namespace {

constexpr int kTimeoutSec = 120;
constexpr unsigned kEvery = 3;

// rome99 (3,353 vertices, a road network): hundreds of supersteps for the
// traversals, so every program is still running at superstep 10. Its ids
// are 1-based: vertex 1 (dense 0) is the source.
std::string graph_path() { return datasets_dir() + "/rome99.gr"; }

const EdgeList& graph() {
  static const EdgeList g = read_graph_file(graph_path());
  return g;
}

const ProgramTraits& traits_of(const std::string& app) {
  for (const ProgramTraits& t : program_traits())
    if (t.name == app) return t;
  throw std::invalid_argument("no program " + app);
}

std::vector<std::string> job_args(const std::string& app, const std::string& out) {
  std::vector<std::string> a = {"--app", app, "--graph", graph_path(), "--quiet", "--out", out};
  if (traits_of(app).uses_source) a.insert(a.end(), {"--source", "1"});
  return a;
}

::testing::AssertionResult matches_oracle(const std::string& app, const std::string& out) {
  std::vector<std::string> values;
  if (::testing::AssertionResult read = read_results(out, graph().num_vertices, &values, 1); !read) return read;
  if (traits_of(app).value_kind == ValueKind::kLabel) labels_from(1, &values);
  return check_expected(values, ref::oracle(app, graph(), 0, traits_of(app).default_iterations));
}

// The superstep node 0's report says the run resumed from; nullopt when it did not.
std::optional<int64_t> resumed_from(const std::string& out) {
  nlohmann::json j;
  std::string error;
  if (!read_json_file(out + "/node0.json", &j, &error)) return std::nullopt;
  const auto& c = j["checkpoints"];
  if (!c.is_object() || !c.contains("resumed_from")) return std::nullopt;
  return c["resumed_from"].get<int64_t>();
}

struct RestartCase {
  std::string link;
  int nodes;
  std::string app;
  std::string crash;                    // --crash-node's value
  std::optional<int64_t> resumed_from;  // the checkpoint the restart must take; nullopt: from the start
  std::string name;
};

void PrintTo(const RestartCase& c, std::ostream* os) { *os << c.name; }

class RestartTest : public ::testing::TestWithParam<RestartCase> {};

TEST_P(RestartTest, TheRestartedJobGoesOnFromTheLastCommittedCheckpoint) {
  const RestartCase& c = GetParam();
  std::string skip;
  ASSERT_TRUE(prerequisites(c.link, c.nodes, &skip));
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir tmp;
  LaunchOptions opts;
  opts.nodes = c.nodes;
  opts.link = c.link;
  opts.timeout_sec = kTimeoutSec;
  const std::string out = tmp.file("out"), ck = tmp.file("ck");
  opts.app_args = job_args(c.app, out);
  opts.app_args.insert(opts.app_args.end(), {"--checkpoint-every", std::to_string(kEvery), "--checkpoint-dir", ck,
                                             "--crash-node", c.crash, "--peer-timeout", "5"});
  opts.launcher_flags = {"--restart", "1"};
  const LaunchResult run = run_launcher(opts, tmp.file("cluster.log"));
  ASSERT_FALSE(run.timed_out) << describe(run);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.output.find("[cluster] node 1 failed (killed by SIGKILL)"), std::string::npos)
      << "node 1 did not die: the hook missed\n" << describe(run);
  const std::string said = c.resumed_from ? "restart 1 of 1: from the checkpoint of superstep " +
                                                std::to_string(*c.resumed_from) + " in " + ck
                                          : std::string("restart 1 of 1: from the start (no checkpoint was committed yet)");
  EXPECT_NE(run.output.find(said), std::string::npos) << "expected '" << said << "'\n" << describe(run);
  EXPECT_EQ(resumed_from(out), c.resumed_from) << describe(run);
  EXPECT_TRUE(matches_oracle(c.app, out)) << describe(run);
  EXPECT_TRUE(launcher_found_balance(run)) << describe(run);
}

std::string case_name(const ::testing::TestParamInfo<RestartCase>& info) { return info.param.name; }

// Crashes: at the start of superstep 10 (just after node 1 took the
// checkpoint of 8, which is never committed: 5 is taken); at superstep 0
// (nothing committed: from the start); halfway through node 1's second
// checkpoint, of superstep 5, when it would wait for it before its END of 8
// (the first, of 2, is committed at the end of 5).
std::vector<RestartCase> cases(const std::vector<std::string>& apps, const std::string& link, int nodes) {
  std::vector<RestartCase> out;
  const std::string where = link + "_P" + std::to_string(nodes) + "_";
  for (const std::string& app : apps) {
    out.push_back({link, nodes, app, "1:10", 5, where + app + "_at10"});
    out.push_back({link, nodes, app, "1:0", std::nullopt, where + app + "_at0"});
    out.push_back({link, nodes, app, "1:checkpoint", 2, where + app + "_midwrite"});
  }
  return out;
}

const std::vector<std::string> kApps = {"pagerank", "sssp", "bfs", "cc", "cd", "kcore", "bc"};

std::vector<RestartCase> fast_cases() {
  return {{"memif", 2, "sssp", "1:10", 5, "memif_P2_sssp_at10"},
          {"memif", 3, "pagerank", "1:checkpoint", 2, "memif_P3_pagerank_midwrite"},
          {"tap", 2, "cc", "1:10", 5, "tap_P2_cc_at10"}};
}

std::vector<RestartCase> full_cases() {
  std::vector<RestartCase> all;
  for (const auto& [link, nodes] : std::vector<std::pair<std::string, int>>{{"memif", 2}, {"memif", 3}, {"tap", 2}, {"tap", 3}})
    for (RestartCase& c : cases(kApps, link, nodes)) all.push_back(c);
  const std::vector<RestartCase> fast = fast_cases();
  std::erase_if(all, [&](const RestartCase& c) {
    return std::any_of(fast.begin(), fast.end(), [&](const RestartCase& f) { return f.name == c.name; });
  });
  return all;
}

INSTANTIATE_TEST_SUITE_P(Restart, RestartTest, ::testing::ValuesIn(fast_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(FullRestart, RestartTest, ::testing::ValuesIn(full_cases()), case_name);

// PageRank resumed by hand (--resume) against an uninterrupted run: the same
// ranks within float rounding (messages arrive in another order).
TEST(Resume, PageRankResumedByHandMatchesAnUninterruptedRun) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = kTimeoutSec;
  const std::string ck = tmp.file("ck");
  opts.app_args = job_args("pagerank", tmp.file("whole"));
  const LaunchResult whole = run_launcher(opts, tmp.file("whole.log"));
  ASSERT_EQ(whole.exit_code, 0) << describe(whole);

  opts.app_args = job_args("pagerank", tmp.file("crashed"));
  opts.app_args.insert(opts.app_args.end(), {"--checkpoint-every", "4", "--checkpoint-dir", ck, "--crash-node", "0:13",
                                             "--peer-timeout", "5"});
  const LaunchResult crashed = run_launcher(opts, tmp.file("crashed.log"));
  ASSERT_EQ(crashed.exit_code, 1) << describe(crashed);
  opts.app_args = job_args("pagerank", tmp.file("resumed"));
  opts.app_args.insert(opts.app_args.end(), {"--resume", ck});
  const LaunchResult resumed = run_launcher(opts, tmp.file("resumed.log"));
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  // Checkpoints of 3, 7, 11, each committed 4 supersteps later; node 0
  // (rank 0) dies at the start of 13, so it committed 7 at the end of 11 and
  // never 11.
  EXPECT_NE(resumed.output.find("resumed from the checkpoint of superstep 7 in " + ck), std::string::npos)
      << describe(resumed);

  std::vector<std::string> a, b;
  ASSERT_TRUE(read_results(tmp.file("whole"), graph().num_vertices, &a, 1));
  ASSERT_TRUE(read_results(tmp.file("resumed"), graph().num_vertices, &b, 1));
  size_t differ = 0;
  for (size_t v = 0; v < a.size(); ++v) {
    const double x = std::stod(a[v]), y = std::stod(b[v]);
    if (std::fabs(x - y) > 1e-6 * std::fabs(x) + 1e-12 && differ++ < 5)
      ADD_FAILURE() << "vertex " << v + 1 << ": uninterrupted " << a[v] << ", resumed " << b[v];
  }
  EXPECT_TRUE(matches_oracle("pagerank", tmp.file("resumed"))) << describe(resumed);
}

// A checkpoint of another job is refused before anything is computed, naming
// what differs (exit 2: the user's to mend).
TEST(Resume, ACheckpointOfAnotherJobIsRefused) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", 2, &skip));
  TempDir tmp;
  LaunchOptions opts;
  opts.nodes = 2;
  opts.timeout_sec = kTimeoutSec;
  const std::string ck = tmp.file("ck");
  opts.app_args = job_args("sssp", tmp.file("first"));
  opts.app_args.insert(opts.app_args.end(), {"--checkpoint-every", "2", "--checkpoint-dir", ck});
  const LaunchResult first = run_launcher(opts, tmp.file("first.log"));
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  ASSERT_TRUE(std::filesystem::exists(ck + "/COMMIT")) << describe(first);

  struct Other {
    std::vector<std::string> args;
    int nodes;
    std::string named;
  };
  const std::vector<Other> others = {
      {{"--app", "sssp", "--graph", graph_path(), "--source", "7", "--resume", ck}, 2, "the program's parameters"},
      {{"--app", "bfs", "--graph", graph_path(), "--source", "1", "--resume", ck}, 2, "the program"},
      {{"--app", "sssp", "--graph", "kron:10:8", "--source", "1", "--resume", ck}, 2,
       "the graph"},
      {{"--app", "sssp", "--graph", graph_path(), "--source", "1", "--resume", ck}, 3, "the number of nodes"},
  };
  for (const Other& o : others) {
    opts.nodes = o.nodes;
    opts.app_args = o.args;
    const LaunchResult r = run_launcher(opts, tmp.file("other.log"));
    EXPECT_EQ(r.exit_code, 2) << "the launcher exits as its nodes: 2, a command-line error\n" << describe(r);
    EXPECT_NE(r.output.find("is of another job: it differs in " + o.named), std::string::npos)
        << "expected it to name " << o.named << "\n" << describe(r);
    EXPECT_NE(r.output.find("exit code 2"), std::string::npos) << describe(r);
  }
  opts.nodes = 2;
  opts.app_args = {"--app", "sssp", "--graph", graph_path(), "--source", "1", "--resume", tmp.file("nothing")};
  const LaunchResult none = run_launcher(opts, tmp.file("none.log"));
  EXPECT_NE(none.output.find("holds no committed checkpoint"), std::string::npos) << describe(none);
}

}  // namespace
}  // namespace wg::test
