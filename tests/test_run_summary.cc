// The end-of-run summary's text and JSON and the rule that keeps a clean
// run's transport counters off the screen (compute/report/run_summary.h).
// Pure logic, no EAL.
#include "compute/report/run_summary.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wg {
namespace {

RunReport two_nodes() {
  RunReport r;
  r.rank = 0;
  r.nodes = 2;
  r.load.num_vertices = 3353;
  r.load.input_edges = 8870;
  r.load.num_edges = 8870;
  r.load.weighted = true;
  r.load_seconds = 0.5;
  r.compute_seconds = 2.0;
  r.makespan_seconds = 3.0;
  r.steps.resize(7);
  r.cluster_nodes = {NodeFigures{40'000'000, 1000, 10}, NodeFigures{50'000'000, 900, 0}};
  return r;
}

RunSummary head() {
  RunSummary s;
  s.program = "sssp from vertex 0";
  s.graph = "rome99.gr";
  s.outcome.line = "3353 of 3353 vertices reached (100.0%), largest finite distance 40000";
  return s;
}

bool has_line(const std::vector<std::string>& lines, const std::string& want) {
  for (const std::string& l : lines)
    if (l == want) return true;
  return false;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

TEST(RunSummary, LinesSayWhatRanAndHowItWent) {
  const std::vector<std::string> lines = summary_lines(two_nodes(), head());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "summary: sssp from vertex 0 on rome99.gr, 2 nodes");
  for (size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(lines[i].rfind("  ", 0), 0u) << "indented: " << lines[i];
  const std::string text = joined(lines);
  EXPECT_TRUE(has_line(lines, "  graph    3353 vertices, 8870 edges, weighted")) << text;
  EXPECT_TRUE(has_line(lines, "  time     load 0.500 s, compute 2.000 s in 7 supersteps; 3.000 s in all")) << text;
  // (3353 + 8870) / 2 s
  EXPECT_NE(text.find("  EVPS     6112 "), std::string::npos) << text;
  EXPECT_TRUE(has_line(lines, "  memory   peak RSS 50.0 MB on node 1, the largest; 40.0 MB on node 0, the smallest"))
      << text;
  EXPECT_TRUE(has_line(lines, "  network  1900 frames sent, 10 sent again (0.53%)")) << text;

  // A computation of a few supersteps (bc from a source without edges) is
  // not "compute 0.000 s": under 10 ms, milliseconds.
  RunReport quick = two_nodes();
  quick.load_seconds = 0.002;
  quick.compute_seconds = 0.000143;
  EXPECT_TRUE(has_line(summary_lines(quick, head()),
                       "  time     load 2 ms, compute 0.143 ms in 7 supersteps; 3.000 s in all"))
      << joined(summary_lines(quick, head()));

  // Equal peaks: one figure, not node 0 as both the largest and the smallest.
  RunReport even = two_nodes();
  even.cluster_nodes[1].peak_rss_bytes = even.cluster_nodes[0].peak_rss_bytes;
  const std::vector<std::string> even_lines = summary_lines(even, head());
  EXPECT_TRUE(has_line(even_lines, "  memory   peak RSS 40.0 MB on each of the 2 nodes")) << joined(even_lines);
  EXPECT_TRUE(has_line(lines, "  answer   3353 of 3353 vertices reached (100.0%), largest finite distance 40000"))
      << text;
  EXPECT_EQ(text.find("verify"), std::string::npos) << "no verification ran";
  EXPECT_EQ(text.find("warning"), std::string::npos);
}

TEST(RunSummary, RulesVerifyAndWarningsHaveTheirLines) {
  RunReport r = two_nodes();
  r.load.num_edges = 17740;
  RunSummary s = head();
  s.edge_rules = "reverse edges added";
  s.verify = "VALID";
  s.out_dir = "/tmp/o";
  s.outcome.warnings = {"the source 0 reaches only itself"};
  const std::vector<std::string> lines = summary_lines(r, s);
  const std::string text = joined(lines);
  EXPECT_TRUE(has_line(lines, "  graph    3353 vertices, 8870 edges as read, 17740 as used (reverse edges added), weighted"))
      << text;
  EXPECT_TRUE(has_line(lines, "  verify   VALID")) << text;
  EXPECT_NE(text.find("  results  /tmp/o/result-R.txt for R = 0..1"), std::string::npos) << text;
  EXPECT_EQ(lines.back(), "  warning: the source 0 reaches only itself");
  const nlohmann::ordered_json j = summary_json(r, s);
  EXPECT_EQ(j["verify"], "VALID");
  EXPECT_EQ(j["edges_used"], 17740u);
  EXPECT_EQ(j["peak_rss_largest_node"], 1u);
  EXPECT_EQ(j["warnings"].size(), 1u);
  EXPECT_TRUE(summary_json(two_nodes(), head())["verify"].is_null());
}

// A weight column the program does not read (lcc on a weighted file) is
// not called "weighted": that would suggest weighted coefficients.
TEST(RunSummary, AWeightColumnTheProgramIgnoresIsSaidUnread) {
  RunSummary s = head();
  s.reads_weights = false;
  const std::vector<std::string> lines = summary_lines(two_nodes(), s);
  EXPECT_TRUE(has_line(lines, "  graph    3353 vertices, 8870 edges, weights not read")) << joined(lines);
}

// Resends the peer already held are said apart (on a clean link they are
// all there is); none at all is said in words.
TEST(RunSummary, NeedlessResendsAreSaidApart) {
  RunReport r = two_nodes();
  r.cluster_nodes[0].needless = 3;
  r.cluster_nodes[1] = NodeFigures{50'000'000, 900, 4, 2};
  std::vector<std::string> lines = summary_lines(r, head());
  EXPECT_TRUE(has_line(lines, "  network  1900 frames sent, 14 sent again (0.74%), 5 of them needless (the peer had "
                              "them: it was slow, not losing)"))
      << joined(lines);
  EXPECT_EQ(summary_json(r, head())["frames_sent_again_needlessly"], 5u);
  r.cluster_nodes = {NodeFigures{40'000'000, 1000, 0}, NodeFigures{50'000'000, 900, 0}};
  lines = summary_lines(r, head());
  EXPECT_TRUE(has_line(lines, "  network  1900 frames sent, none sent again")) << joined(lines);
}

// PageRank's top vertices (--top) are part of the summary, under the answer,
// not a list of node 0's before it; a program that does not rank has none.
TEST(RunSummary, TheTopRanksAreSummaryLines) {
  RunReport r = two_nodes();
  r.cluster_top = {{38569, 0.00967333479}, {54424, 0.00318584474}};
  RunSummary s = head();
  s.ranks_top = true;
  const std::vector<std::string> lines = summary_lines(r, s);
  const std::string text = joined(lines);
  EXPECT_TRUE(has_line(lines, "  top       1. vertex      38569  rank 0.00967333479")) << text;
  EXPECT_TRUE(has_line(lines, "            2. vertex      54424  rank 0.00318584474")) << text;
  EXPECT_LT(text.find("  answer"), text.find("  top")) << text;
  s.ranks_top = false;
  EXPECT_EQ(joined(summary_lines(r, s)).find("vertex      38569"), std::string::npos);
}

RunReport with_link(uint64_t frames, uint64_t resent) {
  RunReport r;
  r.rank = 1;
  r.steps.resize(1);
  ConnectionReport c;
  c.send.frames = frames;
  c.send.retransmissions = resent;
  r.steps[0].links.push_back(c);
  return r;
}

TEST(TransportWarnings, ACleanRunSaysNothing) {
  RunReport r = with_link(1000, 6);  // spurious timeouts of a busy machine: under 5%
  r.rx.dropped[static_cast<size_t>(DropReason::kDuplicate)] = 6;
  r.rx.dropped[static_cast<size_t>(DropReason::kUnverifiedPeer)] = 1;
  r.rx.dropped[static_cast<size_t>(DropReason::kNotWiregraph)] = 3;
  EXPECT_TRUE(transport_warnings(r).empty());
  EXPECT_TRUE(transport_warnings(with_link(100, 19)).empty()) << "fewer than kMinResent";
}

TEST(TransportWarnings, ALossyLinkOrAForgedFrameIsShown) {
  const std::vector<std::string> lossy = transport_warnings(with_link(1000, 60));
  ASSERT_EQ(lossy.size(), 1u);
  EXPECT_NE(lossy[0].find("60 of 1000 frames sent again (6.0%"), std::string::npos) << lossy[0];
  EXPECT_NE(lossy[0].find("node1.json"), std::string::npos) << lossy[0];
  RunReport forged = with_link(1000, 0);
  forged.rx.dropped[static_cast<size_t>(DropReason::kBadMac)] = 7;
  forged.rx.dropped[static_cast<size_t>(DropReason::kDuplicate)] = 2;
  const std::vector<std::string> w = transport_warnings(forged);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("7 received frames dropped that a healthy link never sends: bad_mac=7 ("), std::string::npos)
      << w[0];
  EXPECT_EQ(w[0].find("duplicate"), std::string::npos) << w[0];
}

}  // namespace
}  // namespace wg
