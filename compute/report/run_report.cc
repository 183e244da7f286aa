#include "compute/report/run_report.h"

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "compute/report/build_info.h"

namespace wg {

using nlohmann::ordered_json;

namespace {

double wire_gbps(uint64_t bytes, uint64_t frames, double seconds) {
  return seconds > 0 ? (bytes + frames * wire::kWireOverheadBytes) * 8e-9 / seconds : 0.0;
}

// Writes `j` to `path`, two-space indented, with a final newline. Bytes of a
// string that are not UTF-8 (a graph path can hold any) become U+FFFD rather
// than failing the run.
void write_json_file(const std::string& path, const ordered_json& j) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << j.dump(2, ' ', false, ordered_json::error_handler_t::replace) << '\n';
  out.close();
  if (!out) throw std::runtime_error("error writing " + path);
}

ordered_json drops_json(const RxCounters& rx) {
  ordered_json o = ordered_json::object();
  for (size_t i = 1; i < rx.dropped.size(); ++i) o[drop_reason_name(static_cast<DropReason>(i))] = rx.dropped[i];
  return o;
}

ordered_json faults_json(const FaultCounts& c) {
  return {{"seen", c.seen},           {"dropped", c.dropped},     {"duplicated", c.duplicated},
          {"reordered", c.reordered}, {"corrupted", c.corrupted}, {"delayed", c.delayed}};
}

// Per connection, cumulative: the transport's view of each peer.
ordered_json links_json(const std::vector<ConnectionReport>& links) {
  ordered_json a = ordered_json::array();
  for (const ConnectionReport& c : links)
    a.push_back({{"peer", c.peer},
                 {"queue", c.queue},
                 {"n", c.n},
                 {"ast_us", c.ast_us},
                 {"rto_us", c.rto_us},
                 {"srtt_us", c.srtt_us},
                 {"min_rtt_us", c.min_rtt_us},
                 {"frames", c.send.frames},
                 {"retransmissions", c.send.retransmissions},
                 {"timeouts", c.send.timeouts},
                 {"new_acks", c.send.new_acks},
                 {"stale_acks", c.send.stale_acks},
                 {"invalid_acks", c.send.invalid_acks},  // acks of frames never sent (corrupt or forged)
                 {"sacked", c.send.sacked},
                 {"lost", c.send.lost},
                 {"probes", c.send.probes},
                 {"spurious", c.send.spurious},
                 {"spurious_timers", c.send.spurious_timers},
                 {"peer_quiet", c.send.quiet},
                 {"max_n", c.send.max_n},
                 {"rounds", c.send.rounds},
                 {"congestion_rounds", c.send.congestion_rounds},
                 {"signal_burst", c.send.signal_burst},
                 {"signal_queue", c.send.signal_queue},
                 {"signal_rx_drops", c.send.signal_rx_drops},
                 {"signal_rto", c.send.signal_rto},
                 {"acks_sent", c.acks_sent},
                 {"delivered", c.receive.delivered},
                 {"held", c.receive.held},
                 {"duplicates", c.receive.duplicates},
                 {"beyond_window", c.receive.beyond_window}});
  return a;
}

ordered_json roles_json(const std::array<double, kRoles>& seconds) {
  ordered_json o = ordered_json::object();
  for (unsigned i = 0; i < kRoles; ++i) o[role_name(static_cast<Role>(i))] = seconds[i];
  return o;
}

ordered_json load_json(const LoadFigures& l) {
  return {{"vertices", l.num_vertices},
          {"edges", l.num_edges},
          {"input_edges", l.input_edges},
          {"weighted", l.weighted},
          {"fingerprint", l.fingerprint},
          {"input_bytes", l.input_bytes},
          {"bytes_read", l.bytes_read},
          {"edges_read", l.edges_parsed},
          {"edges_sent", l.edges_sent},
          {"edges_received", l.edges_received},
          {"local_edges", l.local_edges},
          {"seconds", {{"read", l.read_seconds},
                       {"parse", l.parse_seconds},
                       {"shuffle", l.shuffle_seconds},
                       {"build", l.build_seconds},
                       {"wait", l.wait_seconds},
                       {"total", l.seconds}}}};
}

// "apply 5% scatter 61% network 20% wait 14%": shares of the lcore-seconds.
std::string role_shares(const std::array<double, kRoles>& seconds) {
  double total = 0;
  for (double x : seconds) total += x;
  std::string out;
  for (unsigned i = 0; i < kRoles; ++i) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s%s %.0f%%", i ? " " : "", role_name(static_cast<Role>(i)),
                  total > 0 ? 100.0 * seconds[i] / total : 0.0);
    out += buf;
  }
  return out;
}

}  // namespace

void write_node_json(const std::string& path, const ordered_json& config, const RunReport& r) {
  ordered_json j;
  j["version"] = build::version();
  j["commit"] = build::commit();
  j["rank"] = r.rank;
  j["nodes"] = r.nodes;
  j["config"] = config;
  if (!r.results.is_null()) j["results"] = r.results;
  if (!r.verify.is_null()) j["verify"] = r.verify;
  j["load_seconds"] = r.load_seconds;
  j["load"] = load_json(r.load);
  j["peak_rss_bytes"] = r.peak_rss_bytes;
  j["bytes_per_local_edge"] = r.load.local_edges ? static_cast<double>(r.peak_rss_bytes) / r.load.local_edges : 0.0;
  j["hugepage_bytes"] = r.hugepage_bytes;
  if (!r.memory_estimate.is_null()) j["memory_estimate"] = r.memory_estimate;
  j["discovery_seconds"] = r.discovery_seconds;
  if (!r.checkpoints.is_null()) j["checkpoints"] = r.checkpoints;
  j["compute_seconds"] = r.compute_seconds;
  j["compute_cpu_seconds"] = r.compute_cpu_seconds;
  j["line_rate_gbps"] = r.line_rate_gbps;
  if (!r.partition_json.is_null()) j["partition"] = r.partition_json;
  if (!r.degrees.is_null()) j["degrees"] = r.degrees;
  j["rx"] = {{"frames", r.rx.frames},
             {"bytes", r.rx.bytes},
             {"data_buckets", r.rx.data_buckets},
             {"records", r.rx.records},
             {"handed_over", r.rx.handed_over},
             {"dropped", drops_json(r.rx)}};
  // Per receive queue: what its accumulator took from the ports (frames),
  // folded (data buckets and records received, not same-node ones), and
  // handed to the queue the frame named (steering missed it).
  ordered_json queues = ordered_json::array();
  for (const RxCounters& q : r.rx_queues)
    queues.push_back({{"frames", q.frames},
                      {"data_buckets", q.data_buckets},
                      {"records", q.records},
                      {"handed_over", q.handed_over}});
  j["rx_queues"] = queues;
  j["tx"] = {{"frames", r.tx.frames}, {"bytes", r.tx.bytes}, {"ring_full", r.tx.ring_full}};
  j["faults"] = {{"rx", faults_json(r.rx_faults)}, {"tx", faults_json(r.tx_faults)}};
  j["links"] = links_json(r.steps.empty() ? std::vector<ConnectionReport>{} : r.steps.back().links);
  ordered_json steps = ordered_json::array();
  for (const StepStats& s : r.steps) {
    const double wire = wire_gbps(s.bytes_sent, s.frames_sent, s.seconds);
    steps.push_back({{"superstep", s.superstep},
                     {"active", s.active},
                     {"messages_sent", s.messages_sent},
                     {"messages_local", s.messages_local},
                     {"dense", s.dense},
                     {"relaxed_locally", s.relaxed_locally},
                     {"local_rounds", s.local_rounds},
                     {"messages_accumulated", s.messages_accumulated},
                     {"accumulated_by_queue", s.accumulated_by_queue},
                     {"buckets_sent", s.buckets_sent},
                     {"frames_sent", s.frames_sent},
                     {"bytes_sent", s.bytes_sent},
                     {"seconds", s.seconds},
                     {"worker_cpu_seconds", s.worker_cpu_seconds},
                     {"l2_gbps", s.seconds > 0 ? s.bytes_sent * 8e-9 / s.seconds : 0.0},
                     {"wire_gbps", wire},
                     {"pct_line_rate", r.line_rate_gbps > 0 ? 100.0 * wire / r.line_rate_gbps : 0.0},
                     {"links", links_json(s.links)},
                     {"role_seconds", roles_json(s.role_seconds)}});
  }
  j["supersteps"] = std::move(steps);
  write_json_file(path, j);
}

void write_summary_json(const std::string& path, const ordered_json& config, const RunReport& r,
                        const ordered_json& summary) {
  double total = 0;
  for (const StepStats& s : r.steps) total += s.seconds;
  ordered_json j;
  j["version"] = build::version();
  j["commit"] = build::commit();
  j["nodes"] = r.nodes;
  j["config"] = config;
  if (!r.results.is_null()) j["results"] = r.results;
  j["supersteps_run"] = r.steps.size();
  j["compute_seconds"] = r.compute_seconds;
  j["superstep_seconds_total"] = total;
  // Graphalytics' metrics (specification, "Metrics"): V and E as the input
  // declares them (an undirected edge once).
  const double ve = static_cast<double>(r.load.num_vertices + r.load.input_edges);
  j["metrics"] = {{"load_seconds", r.load_seconds},
                  {"makespan_seconds", r.makespan_seconds},
                  {"processing_seconds", r.compute_seconds},
                  {"vertices", r.load.num_vertices},
                  {"edges", r.load.input_edges},
                  {"evps", r.compute_seconds > 0 ? ve / r.compute_seconds : 0.0}};
  if (!summary.is_null()) j["summary"] = summary;
  if (!r.partition_json.is_null()) j["partition_rank0"] = r.partition_json;
  ordered_json steps = ordered_json::array();
  for (const StepStats& s : r.steps)
    steps.push_back({{"superstep", s.superstep},
                     {"active_vertices", s.cluster_active},
                     {"messages", s.cluster_messages},
                     {"buckets", s.cluster_buckets},
                     {"bytes", s.cluster_bytes},
                     {"seconds", s.seconds}});
  j["supersteps"] = std::move(steps);
  if (r.ranks_top) {  // a min-label program's "top" would be its smallest labels: noise
    ordered_json top = ordered_json::array();
    for (const wire::TopEntry& t : r.cluster_top) {
      const int64_t vertex = t.vertex;  // copies: TopEntry is packed
      const double key = t.value;
      top.push_back({{"vertex", vertex}, {"key", key}});
    }
    j["top"] = std::move(top);
  }
  write_json_file(path, j);
}

void print_step(const StepStats& st, double line_rate_gbps) {
  const double l1 = wire_gbps(st.bytes_sent, st.frames_sent, st.seconds);
  const double l2 = st.seconds > 0 ? st.bytes_sent * 8e-9 / st.seconds : 0.0;
  uint64_t rtx = 0;
  for (const ConnectionReport& c : st.links) rtx += c.send.retransmissions;
  char relaxed[64] = "";
  if (st.relaxed_locally > 0)
    std::snprintf(relaxed, sizeof relaxed, "  relaxed locally %" PRIu64 " in %" PRIu64 " rounds", st.relaxed_locally,
                  st.local_rounds);
  std::printf(
      "superstep %3u: active %9" PRIu64 " (cluster %9" PRIu64 ")  sent %10" PRIu64 " msgs (%" PRIu64
      " local%s) in %7" PRIu64 " buckets  accumulated %10" PRIu64 "%s  %8.4f s  L2 %6.3f Gbps  L1 %6.3f Gbps"
      " = %5.1f%% of %g GbE  rtx %" PRIu64 "  time: %s\n",
      st.superstep, st.active, st.cluster_active, st.messages_sent, st.messages_local, st.dense ? ", dense" : "",
      st.buckets_sent, st.messages_accumulated, relaxed,
      st.seconds, l2, l1, line_rate_gbps > 0 ? 100.0 * l1 / line_rate_gbps : 0.0,
      line_rate_gbps, rtx, role_shares(st.role_seconds).c_str());
  bool queues = false;  // several flows per peer: name the queue
  for (const ConnectionReport& c : st.links) queues |= c.queue != 0;
  for (const ConnectionReport& c : st.links) {
    char flow[32] = "";
    if (queues) std::snprintf(flow, sizeof flow, " queue %u", c.queue);
    std::printf("               to node %u%s: N %u (max %u, %" PRIu64 " congested rounds)  AST %.3f us  SRTT %.0f us  RTO %.0f us"
                "  sent %" PRIu64 "  retransmitted %" PRIu64 " (lost %" PRIu64 ", probes %" PRIu64 ", timeouts %" PRIu64
                ")  dup rx %" PRIu64 "\n",
                c.peer, flow, c.n, c.send.max_n, c.send.congestion_rounds, c.ast_us, c.srtt_us, c.rto_us, c.send.frames,
                c.send.retransmissions, c.send.lost, c.send.probes, c.send.timeouts, c.receive.duplicates);
  }
  std::fflush(stdout);
}

void print_run_totals(const RunReport& r) {
  std::printf("totals: %zu supersteps, load %.3f s, discovery %.3f s, compute %.3f s (%.3f s of CPU)\n",
              r.steps.size(), r.load_seconds, r.discovery_seconds, r.compute_seconds, r.compute_cpu_seconds);
  const LoadFigures& l = r.load;
  std::printf("        load: read %.3f s, parse %.3f s, shuffle %.3f s, build %.3f s, waiting for other nodes %.3f s; "
              "%.1f MB of the input read, %" PRIu64 " edges read, %" PRIu64 " sent, %" PRIu64 " received, %" PRIu64
              " held\n",
              l.read_seconds, l.parse_seconds, l.shuffle_seconds, l.build_seconds, l.wait_seconds, l.bytes_read / 1e6,
              l.edges_parsed, l.edges_sent, l.edges_received, l.local_edges);
  std::printf("        peak RSS %.1f MB (%.1f bytes per local edge)\n", r.peak_rss_bytes / 1e6,
              l.local_edges ? static_cast<double>(r.peak_rss_bytes) / l.local_edges : 0.0);
  std::printf("        tx %" PRIu64 " frames %" PRIu64 " bytes (%" PRIu64 " times the NIC was full); rx %" PRIu64
              " frames, %" PRIu64 " data buckets, %" PRIu64 " records, %" PRIu64 " handed to another queue\n",
              r.tx.frames, r.tx.bytes, r.tx.ring_full, r.rx.frames, r.rx.data_buckets, r.rx.records, r.rx.handed_over);
  std::array<double, kRoles> roles{};
  for (const StepStats& s : r.steps)
    for (unsigned i = 0; i < kRoles; ++i) roles[i] += s.role_seconds[i];
  std::printf("        lcore time by role: %s (%.3f / %.3f / %.3f / %.3f s)\n", role_shares(roles).c_str(), roles[0],
              roles[1], roles[2], roles[3]);
  if (r.rx.total_dropped() > 0) {
    std::printf("        dropped:");
    for (size_t i = 1; i < r.rx.dropped.size(); ++i)
      if (r.rx.dropped[i]) std::printf(" %s=%" PRIu64, drop_reason_name(static_cast<DropReason>(i)), r.rx.dropped[i]);
    std::printf("\n");
  }
}

}  // namespace wg
