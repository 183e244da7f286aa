#include "compute/report/run_summary.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "compute/report/text.h"

namespace wg {

using nlohmann::ordered_json;

namespace {

std::string megabytes(uint64_t bytes) { return text_printf("%.1f MB", static_cast<double>(bytes) / 1e6); }

// Seconds to the millisecond; a time under 10 ms in milliseconds, to three
// digits: a computation of a few supersteps (bc from a source without
// edges: 4, in 0.1 ms) read "compute 0.000 s", as if nothing had run.
std::string duration(double seconds) {
  if (seconds > 0 && seconds < 0.01) return text_printf("%.3g ms", seconds * 1e3);
  return text_printf("%.3f s", seconds);
}

// Graphalytics' EVPS (specification, "Metrics"): vertices plus edges of the
// input (an undirected edge once) per second of processing.
double evps(const RunReport& r) {
  const double ve = static_cast<double>(r.load.num_vertices + r.load.input_edges);
  return r.compute_seconds > 0 ? ve / r.compute_seconds : 0.0;
}

struct Cluster {
  unsigned largest = 0, smallest = 0;  // ranks by peak RSS
  uint64_t frames = 0, resent = 0, needless = 0;
};

Cluster cluster_of(const RunReport& r) {
  Cluster c;
  const std::vector<NodeFigures>& n = r.cluster_nodes;
  for (unsigned i = 0; i < n.size(); ++i) {
    if (n[i].peak_rss_bytes > n[c.largest].peak_rss_bytes) c.largest = i;
    if (n[i].peak_rss_bytes < n[c.smallest].peak_rss_bytes) c.smallest = i;
    c.frames += n[i].frames_sent;
    c.resent += n[i].retransmissions;
    c.needless += n[i].needless;
  }
  return c;
}

}  // namespace

std::vector<std::string> summary_lines(const RunReport& r, const RunSummary& s) {
  std::vector<std::string> out;
  out.push_back(text_printf("summary: %s on %s, %u node%s", s.program.c_str(), s.graph.c_str(), r.nodes,
                       r.nodes == 1 ? "" : "s"));
  const LoadFigures& l = r.load;
  std::string edges = text_printf("%" PRIu64 " edges", l.input_edges);
  if (l.num_edges != l.input_edges || !s.edge_rules.empty())
    edges = text_printf("%" PRIu64 " edges as read, %" PRIu64 " as used", l.input_edges, l.num_edges) +
            (s.edge_rules.empty() ? "" : " (" + s.edge_rules + ")");
  out.push_back(text_printf("  graph    %" PRIu64 " vertices, %s%s", l.num_vertices, edges.c_str(),
                       weights_label(l.weighted, s.reads_weights)));
  out.push_back(text_printf("  time     load %s, compute %s in %zu supersteps; %s in all",
                            duration(r.load_seconds).c_str(), duration(r.compute_seconds).c_str(), r.steps.size(),
                            duration(r.makespan_seconds).c_str()));
  out.push_back(text_printf("  EVPS     %.4g (vertices + edges as read, per second of compute: LDBC Graphalytics)",
                       evps(r)));
  const Cluster c = cluster_of(r);
  // Equal peaks leave the largest and the smallest both node 0: one figure.
  if (r.cluster_nodes.size() > 1 && c.largest == c.smallest)
    out.push_back(text_printf("  memory   peak RSS %s on each of the %zu nodes",
                              megabytes(r.cluster_nodes[c.largest].peak_rss_bytes).c_str(), r.cluster_nodes.size()));
  else if (r.cluster_nodes.size() > 1)
    out.push_back(text_printf("  memory   peak RSS %s on node %u, the largest; %s on node %u, the smallest",
                         megabytes(r.cluster_nodes[c.largest].peak_rss_bytes).c_str(), c.largest,
                         megabytes(r.cluster_nodes[c.smallest].peak_rss_bytes).c_str(), c.smallest));
  else
    out.push_back("  memory   peak RSS " + megabytes(r.peak_rss_bytes));
  if (r.nodes > 1) {
    // Resends the peer already held (it was slow, descheduled, not losing)
    // are said apart: on a clean link they are all there is.
    std::string again = c.resent == 0 ? "none sent again"
                                      : text_printf("%" PRIu64 " sent again (%.2f%%)", c.resent,
                                                    percent_of(c.resent, c.frames));
    if (c.needless > 0)
      again += text_printf(", %" PRIu64 " of them needless (the peer had them: it was slow, not losing)", c.needless);
    out.push_back(text_printf("  network  %" PRIu64 " frames sent, %s", c.frames, again.c_str()));
  }
  if (!s.outcome.line.empty()) out.push_back("  answer   " + s.outcome.line);
  for (size_t i = 0; s.ranks_top && i < r.cluster_top.size(); ++i)
    out.push_back(text_printf("  %-8s %2zu. vertex %10" PRId64 "  %s %.9g", i == 0 ? "top" : "", i + 1,
                              int64_t{r.cluster_top[i].vertex}, s.top_value.c_str(), r.cluster_top[i].value));
  if (s.verify) out.push_back("  verify   " + *s.verify);
  if (!s.out_dir.empty())
    out.push_back(text_printf("  results  %s/result-R.txt for R = 0..%u, node reports and summary.json",
                         s.out_dir.c_str(), r.nodes - 1));
  for (const std::string& w : s.outcome.warnings) out.push_back("  warning: " + w);
  return out;
}

ordered_json summary_json(const RunReport& r, const RunSummary& s) {
  const Cluster c = cluster_of(r);
  ordered_json rss = ordered_json::array();
  for (const NodeFigures& n : r.cluster_nodes) rss.push_back(n.peak_rss_bytes);
  ordered_json j;
  j["program"] = s.program;
  j["graph"] = s.graph;
  j["nodes"] = r.nodes;
  j["vertices"] = r.load.num_vertices;
  j["edges_read"] = r.load.input_edges;
  j["edges_used"] = r.load.num_edges;
  j["edge_rules"] = s.edge_rules;
  j["supersteps"] = r.steps.size();
  j["load_seconds"] = r.load_seconds;
  j["compute_seconds"] = r.compute_seconds;
  j["makespan_seconds"] = r.makespan_seconds;
  j["evps"] = evps(r);
  j["peak_rss_bytes"] = rss;
  j["peak_rss_largest_node"] = c.largest;
  j["frames_sent"] = c.frames;
  j["frames_sent_again"] = c.resent;
  j["frames_sent_again_needlessly"] = c.needless;
  j["answer"] = s.outcome.figures;
  j["warnings"] = s.outcome.warnings;
  j["verify"] = s.verify ? ordered_json(*s.verify) : ordered_json(nullptr);
  return j;
}

std::vector<std::string> transport_warnings(const RunReport& r) {
  std::vector<std::string> out;
  uint64_t frames = 0, resent = 0, timeouts = 0;
  if (!r.steps.empty())
    for (const ConnectionReport& c : r.steps.back().links) {
      frames += c.send.frames;
      resent += c.send.retransmissions;
      timeouts += c.send.timeouts;
    }
  if (resent >= kMinResent && static_cast<double>(resent) > kResentShare * static_cast<double>(frames))
    out.push_back(text_printf("transport: %" PRIu64 " of %" PRIu64 " frames sent again (%.1f%%, %" PRIu64
                         " timeouts): a lossy or overloaded link; node%u.json has the counters per peer",
                         resent, frames, percent_of(resent, frames), timeouts, r.rank));
  if (const uint64_t alarming = r.rx.alarming_dropped(); alarming > 0) {
    std::string reasons;
    for (size_t i = 1; i < r.rx.dropped.size(); ++i)
      if (r.rx.dropped[i] && drop_is_alarming(static_cast<DropReason>(i)))
        reasons += text_printf(" %s=%" PRIu64, drop_reason_name(static_cast<DropReason>(i)), r.rx.dropped[i]);
    out.push_back(text_printf("transport: %" PRIu64 " received frame%s dropped that a healthy link never sends:%s "
                         "(forged or corrupted frames, another job or a misconfigured node on the link; "
                         "node%u.json has every drop)",
                         alarming, alarming == 1 ? "" : "s", reasons.c_str(), r.rank));
  }
  return out;
}

}  // namespace wg
