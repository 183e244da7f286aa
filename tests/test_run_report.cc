// The report files' shape (compute/report/run_report.h): the members, their nesting
// and their JSON types, which scripts/wiregraph-cluster (python/wiregraph/wglib.py),
// bench/*.py and the cluster tests read. Pure logic, no EAL.
#include "compute/report/run_report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include <unistd.h>

namespace wg {
namespace {

// Ordered, so that the members' order is checked too.
using json = nlohmann::ordered_json;

std::string temp_path(const char* name) {
  return (::testing::TempDir().empty() ? std::string("/tmp/") : ::testing::TempDir()) + "wg_run_report_" +
         std::to_string(::getpid()) + "_" + name;
}

json read_back(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  json j = json::parse(in);  // throws, failing the test, on malformed output
  std::remove(path.c_str());
  return j;
}

std::vector<std::string> keys(const json& o) {  // in the file's order
  std::vector<std::string> k;
  for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
  return k;
}

RunReport sample_report() {
  RunReport r;
  r.rank = 1;
  r.nodes = 2;
  r.load_seconds = 0.25;
  r.load.local_edges = 1000;
  r.load.edges_sent = 600;
  r.load.num_vertices = 300;
  r.load.input_edges = 900;
  r.load.shuffle_seconds = 0.125;
  r.peak_rss_bytes = 64000;
  r.compute_seconds = 1.0;  // integral doubles stay JSON floats
  r.line_rate_gbps = 10;
  r.partition_json = {{"domains", 1}, {"note", "say \"why\"\n"}};
  r.rx.frames = 7;
  r.rx.dropped[1] = 3;
  r.rx_queues.resize(2);
  r.rx_queues[1].handed_over = 9;
  StepStats s;
  s.superstep = 0;
  s.messages_sent = 18446744073709551615ull;  // 64-bit counters exact
  s.messages_accumulated = 5;
  s.dense = true;
  s.seconds = 0.5;
  s.bytes_sent = 1000;
  s.frames_sent = 2;
  ConnectionReport c;
  c.peer = 0;
  c.n = 4;
  c.ast_us = 1.5;
  s.links.push_back(c);
  r.steps.push_back(s);
  r.cluster_top.push_back(wire::TopEntry{42, 0.125});
  return r;
}

const nlohmann::ordered_json kConfig = {{"app", "pagerank"}, {"graph", "kron:4:2"}, {"nodes", 2}};

TEST(RunReport, NodeJsonShape) {
  const std::string path = temp_path("node1.json");
  write_node_json(path, kConfig, sample_report());
  json j = read_back(path);
  EXPECT_EQ(keys(j), (std::vector<std::string>{"version", "commit", "rank", "nodes", "config", "load_seconds", "load", "peak_rss_bytes",
                                               "bytes_per_local_edge", "hugepage_bytes", "discovery_seconds", "compute_seconds",
                                               "compute_cpu_seconds",
                                               "line_rate_gbps", "partition", "rx", "rx_queues", "tx", "faults",
                                               "links", "supersteps"}));
  EXPECT_EQ(keys(j["load"]), (std::vector<std::string>{"vertices", "edges", "input_edges", "weighted", "fingerprint", "input_bytes",
                                                       "bytes_read", "edges_read", "edges_sent", "edges_received",
                                                       "local_edges", "seconds"}));
  EXPECT_EQ(keys(j["load"]["seconds"]),
            (std::vector<std::string>{"read", "parse", "shuffle", "build", "wait", "total"}));
  EXPECT_EQ(j["load"]["edges_sent"], 600u);
  EXPECT_EQ(j["load"]["seconds"]["shuffle"], 0.125);
  EXPECT_EQ(j["peak_rss_bytes"], 64000u);
  EXPECT_EQ(j["bytes_per_local_edge"], 64.0) << "peak RSS over the edges the node holds";
  EXPECT_TRUE(j["rank"].is_number_unsigned());
  EXPECT_EQ(j["config"]["app"], "pagerank");
  EXPECT_TRUE(j["compute_seconds"].is_number_float());
  EXPECT_TRUE(j["line_rate_gbps"].is_number_float());
  EXPECT_EQ(j["partition"]["note"], "say \"why\"\n");
  EXPECT_EQ(keys(j["rx"]),
            (std::vector<std::string>{"frames", "bytes", "data_buckets", "records", "handed_over", "dropped"}));
  ASSERT_EQ(j["rx_queues"].size(), 2u);
  EXPECT_EQ(keys(j["rx_queues"][1]), (std::vector<std::string>{"frames", "data_buckets", "records", "handed_over"}));
  EXPECT_EQ(j["rx_queues"][1]["handed_over"], 9u);
  EXPECT_EQ(keys(j["tx"]), (std::vector<std::string>{"frames", "bytes", "ring_full"}));
  EXPECT_EQ(j["rx"]["dropped"].size(), static_cast<size_t>(DropReason::kNumReasons) - 1);
  EXPECT_EQ(keys(j["faults"]), (std::vector<std::string>{"rx", "tx"}));
  EXPECT_EQ(keys(j["faults"]["rx"]),
            (std::vector<std::string>{"seen", "dropped", "duplicated", "reordered", "corrupted", "delayed"}));
  ASSERT_EQ(j["links"].size(), 1u);
  EXPECT_EQ(keys(j["links"][0]),
            (std::vector<std::string>{"peer", "queue", "n", "ast_us", "rto_us", "srtt_us", "min_rtt_us", "frames",
                                      "retransmissions", "timeouts", "new_acks", "stale_acks", "invalid_acks", "sacked", "lost",
                                      "probes", "spurious", "spurious_timers", "peer_quiet", "max_n", "rounds", "congestion_rounds", "signal_burst",
                                      "signal_queue", "signal_rx_drops", "signal_rto", "acks_sent", "delivered",
                                      "held", "duplicates", "beyond_window"}));
  EXPECT_TRUE(j["links"][0]["min_rtt_us"].is_number_float());
  EXPECT_TRUE(j["links"][0]["max_n"].is_number_unsigned());
  EXPECT_TRUE(j["links"][0]["probes"].is_number_unsigned());
  EXPECT_TRUE(j["links"][0]["ast_us"].is_number_float());
  EXPECT_TRUE(j["links"][0]["n"].is_number_unsigned());
  ASSERT_EQ(j["supersteps"].size(), 1u);
  json& s = j["supersteps"][0];
  EXPECT_EQ(keys(s), (std::vector<std::string>{"superstep", "active", "messages_sent", "messages_local", "dense",
                                               "relaxed_locally", "local_rounds", "messages_accumulated", "accumulated_by_queue", "buckets_sent",
                                               "frames_sent", "bytes_sent",
                                               "seconds", "worker_cpu_seconds", "l2_gbps", "wire_gbps", "pct_line_rate", "links",
                                               "role_seconds"}));
  EXPECT_EQ(s["messages_sent"].get<uint64_t>(), 18446744073709551615ull);
  EXPECT_TRUE(s["dense"].is_boolean());
  EXPECT_TRUE(s["l2_gbps"].is_number_float());
  EXPECT_DOUBLE_EQ(s["l2_gbps"].get<double>(), 1000 * 8e-9 / 0.5);
  EXPECT_EQ(s["role_seconds"].size(), static_cast<size_t>(kRoles));
}

TEST(RunReport, SummaryJsonShape) {
  const std::string path = temp_path("summary.json");
  RunReport r = sample_report();
  r.partition_json = nullptr;  // none: no partition_rank0 member
  r.ranks_top = true;
  write_summary_json(path, kConfig, r, json{{"program", "pagerank"}});
  json j = read_back(path);
  EXPECT_EQ(keys(j), (std::vector<std::string>{"version", "commit", "nodes", "config", "supersteps_run", "compute_seconds",
                                               "superstep_seconds_total", "metrics", "summary", "supersteps", "top"}));
  EXPECT_EQ(j["summary"]["program"], "pagerank");
  EXPECT_EQ(keys(j["metrics"]), (std::vector<std::string>{"load_seconds", "makespan_seconds", "processing_seconds",
                                                          "vertices", "edges", "evps"}));
  // EVPS = (V + E) / processing time, E as the input lists it.
  EXPECT_DOUBLE_EQ(j["metrics"]["evps"].get<double>(),
                   static_cast<double>(r.load.num_vertices + r.load.input_edges) / r.compute_seconds);
  EXPECT_TRUE(j["supersteps_run"].is_number_unsigned());
  ASSERT_EQ(j["supersteps"].size(), 1u);
  EXPECT_EQ(keys(j["supersteps"][0]),
            (std::vector<std::string>{"superstep", "active_vertices", "messages", "buckets", "bytes", "seconds"}));
  ASSERT_EQ(j["top"].size(), 1u);
  EXPECT_EQ(j["top"][0]["vertex"], 42);
  EXPECT_DOUBLE_EQ(j["top"][0]["key"].get<double>(), 0.125);
}

// "top" only where the program ranks vertices: a min-label program's top
// would be its smallest distances or labels, noise.
TEST(RunReport, SummaryJsonListsTopOnlyForProgramsThatRank) {
  const std::string path = temp_path("summary-cc.json");
  RunReport r = sample_report();
  r.ranks_top = false;
  write_summary_json(path, kConfig, r);
  const json j = read_back(path);
  EXPECT_FALSE(j.contains("top"));
  EXPECT_FALSE(j.contains("summary")) << "none given";
}

// Both report files say which build wrote them: meson.build's version and
// the commit of the checkout it was built from.
TEST(RunReport, FilesCarryTheVersionAndCommit) {
  const char* source = std::getenv("WG_SOURCE_DIR");
  ASSERT_NE(source, nullptr) << "WG_SOURCE_DIR (tests/meson.build sets it)";
  std::ifstream meson(std::string(source) + "/meson.build");
  const std::string text((std::istreambuf_iterator<char>(meson)), std::istreambuf_iterator<char>());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(version:\s*'([^']+)')"))) << "no version in meson.build";
  const std::string want_version = m[1];
  std::string head;  // the checkout's commit, when git can tell
  if (std::FILE* git = ::popen(("git -C '" + std::string(source) + "' rev-parse HEAD 2>/dev/null").c_str(), "r")) {
    char buf[64] = {};
    if (std::fgets(buf, sizeof buf, git) != nullptr) head = buf;
    ::pclose(git);
  }
  for (const char* name : {"node0.json", "summary.json"}) {
    const std::string path = temp_path(name);
    if (std::string(name) == "node0.json")
      write_node_json(path, kConfig, sample_report());
    else
      write_summary_json(path, kConfig, sample_report());
    const json j = read_back(path);
    EXPECT_EQ(j["version"], want_version) << name;
    const std::string commit = j["commit"];
    if (head.empty()) continue;  // not a git checkout: "unknown"
    EXPECT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{7,}(-dirty)?"))) << name << ": " << commit;
    EXPECT_EQ(head.rfind(commit.substr(0, commit.find('-')), 0), 0u) << name << ": " << commit << " is not " << head;
  }
}

}  // namespace
}  // namespace wg
