#include "report/run_report.h"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>

namespace wg {

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += c;
    }
  }
  return o;
}

namespace {

struct File {
  explicit File(const std::string& path) : f(std::fopen(path.c_str(), "w")), name(path) {
    if (f == nullptr) throw std::runtime_error("cannot write " + path);
  }
  ~File() {
    if (f != nullptr) std::fclose(f);
  }
  void close() {
    const bool bad = std::ferror(f) != 0;
    const bool fail = std::fclose(f) != 0;
    f = nullptr;
    if (bad || fail) throw std::runtime_error("error writing " + name);
  }
  std::FILE* f;
  std::string name;
};

double wire_gbps(uint64_t bytes, uint64_t frames, double seconds) {
  return seconds > 0 ? (bytes + frames * wire::kWireOverheadBytes) * 8e-9 / seconds : 0.0;
}

void write_drops(std::FILE* f, const RxCounters& rx) {
  std::fprintf(f, "{");
  bool first = true;
  for (size_t i = 1; i < rx.dropped.size(); ++i) {
    std::fprintf(f, "%s\"%s\": %" PRIu64, first ? "" : ", ", drop_reason_name(static_cast<DropReason>(i)),
                 rx.dropped[i]);
    first = false;
  }
  std::fprintf(f, "}");
}

void write_faults(std::FILE* f, const FaultCounts& c) {
  std::fprintf(f,
               "{\"seen\": %" PRIu64 ", \"dropped\": %" PRIu64 ", \"duplicated\": %" PRIu64
               ", \"reordered\": %" PRIu64 ", \"corrupted\": %" PRIu64 ", \"delayed\": %" PRIu64 "}",
               c.seen, c.dropped, c.duplicated, c.reordered, c.corrupted, c.delayed);
}

// Per connection, cumulative: the transport's view of each peer.
void write_links(std::FILE* f, const std::vector<ConnectionReport>& links) {
  std::fprintf(f, "[");
  for (size_t i = 0; i < links.size(); ++i) {
    const ConnectionReport& c = links[i];
    std::fprintf(f,
                 "%s{\"peer\": %u, \"n\": %u, \"ast_us\": %.4f, \"rto_us\": %.1f, \"srtt_us\": %.1f, "
                 "\"frames\": %" PRIu64 ", \"retransmissions\": %" PRIu64 ", \"timeouts\": %" PRIu64
                 ", \"new_acks\": %" PRIu64 ", \"stale_acks\": %" PRIu64 ", \"acks_sent\": %" PRIu64
                 ", \"delivered\": %" PRIu64 ", \"held\": %" PRIu64 ", \"duplicates\": %" PRIu64
                 ", \"beyond_window\": %" PRIu64 "}",
                 i ? ", " : "", c.peer, c.n, c.ast_us, c.rto_us, c.srtt_us, c.send.frames, c.send.retransmissions,
                 c.send.timeouts, c.send.new_acks, c.send.stale_acks, c.acks_sent, c.receive.delivered,
                 c.receive.held, c.receive.duplicates, c.receive.beyond_window);
  }
  std::fprintf(f, "]");
}

void write_roles(std::FILE* f, const std::array<double, kRoles>& seconds) {
  std::fprintf(f, "{");
  for (unsigned i = 0; i < kRoles; ++i)
    std::fprintf(f, "%s\"%s\": %.6f", i ? ", " : "", role_name(static_cast<Role>(i)), seconds[i]);
  std::fprintf(f, "}");
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

void write_node_json(const std::string& path, const std::string& config_json, const RunReport& r) {
  File out(path);
  std::FILE* f = out.f;
  std::fprintf(f, "{\n  \"rank\": %u,\n  \"nodes\": %u,\n  \"config\": %s,\n", r.rank, r.nodes, config_json.c_str());
  std::fprintf(f, "  \"load_seconds\": %.6f,\n  \"discovery_seconds\": %.6f,\n  \"compute_seconds\": %.6f,\n",
               r.load_seconds, r.discovery_seconds, r.compute_seconds);
  std::fprintf(f, "  \"line_rate_gbps\": %g,\n", r.line_rate_gbps);
  if (!r.partition_json.empty()) std::fprintf(f, "  \"partition\": %s,\n", r.partition_json.c_str());
  std::fprintf(f, "  \"rx\": {\"frames\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"data_buckets\": %" PRIu64
                  ", \"records\": %" PRIu64 ", \"dropped\": ",
               r.rx.frames, r.rx.bytes, r.rx.data_buckets, r.rx.records);
  write_drops(f, r.rx);
  std::fprintf(f, "},\n  \"tx\": {\"frames\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"ring_full\": %" PRIu64 "},\n",
               r.tx.frames, r.tx.bytes, r.tx.ring_full);
  std::fprintf(f, "  \"faults\": {\"rx\": ");
  write_faults(f, r.rx_faults);
  std::fprintf(f, ", \"tx\": ");
  write_faults(f, r.tx_faults);
  std::fprintf(f, "},\n  \"links\": ");
  write_links(f, r.steps.empty() ? std::vector<ConnectionReport>{} : r.steps.back().links);
  std::fprintf(f, ",\n  \"supersteps\": [\n");
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const StepStats& s = r.steps[i];
    std::fprintf(f,
                 "    {\"superstep\": %u, \"active\": %" PRIu64 ", \"messages_sent\": %" PRIu64
                 ", \"messages_local\": %" PRIu64 ", \"dense\": %s, \"messages_accumulated\": %" PRIu64
                 ", \"buckets_sent\": %" PRIu64 ", \"frames_sent\": %" PRIu64 ", \"bytes_sent\": %" PRIu64
                 ", \"seconds\": %.6f, \"l2_gbps\": %.4f, \"wire_gbps\": %.4f, \"pct_line_rate\": %.2f, \"links\": ",
                 s.superstep, s.active, s.messages_sent, s.messages_local, s.dense ? "true" : "false",
                 s.messages_accumulated,
                 s.buckets_sent, s.frames_sent, s.bytes_sent, s.seconds,
                 s.seconds > 0 ? s.bytes_sent * 8e-9 / s.seconds : 0.0,
                 wire_gbps(s.bytes_sent, s.frames_sent, s.seconds),
                 r.line_rate_gbps > 0 ? 100.0 * wire_gbps(s.bytes_sent, s.frames_sent, s.seconds) / r.line_rate_gbps : 0.0);
    write_links(f, s.links);
    std::fprintf(f, ", \"role_seconds\": ");
    write_roles(f, s.role_seconds);
    std::fprintf(f, "}%s\n", i + 1 < r.steps.size() ? "," : "");
  }
  std::fprintf(f, "  ]\n}\n");
  out.close();
}

void write_summary_json(const std::string& path, const std::string& config_json, const RunReport& r) {
  File out(path);
  std::FILE* f = out.f;
  double total = 0;
  for (const StepStats& s : r.steps) total += s.seconds;
  std::fprintf(f, "{\n  \"nodes\": %u,\n  \"config\": %s,\n  \"supersteps_run\": %zu,\n", r.nodes,
               config_json.c_str(), r.steps.size());
  std::fprintf(f, "  \"compute_seconds\": %.6f,\n  \"superstep_seconds_total\": %.6f,\n", r.compute_seconds, total);
  if (!r.partition_json.empty()) std::fprintf(f, "  \"partition_rank0\": %s,\n", r.partition_json.c_str());
  std::fprintf(f, "  \"supersteps\": [\n");
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const StepStats& s = r.steps[i];
    std::fprintf(f,
                 "    {\"superstep\": %u, \"active_vertices\": %" PRIu64 ", \"messages\": %" PRIu64
                 ", \"buckets\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"seconds\": %.6f}%s\n",
                 s.superstep, s.cluster_active, s.cluster_messages, s.cluster_buckets, s.cluster_bytes, s.seconds,
                 i + 1 < r.steps.size() ? "," : "");
  }
  std::fprintf(f, "  ],\n  \"top\": [");
  for (size_t i = 0; i < r.cluster_top.size(); ++i)
    std::fprintf(f, "%s{\"vertex\": %u, \"key\": %.9g}", i ? ", " : "", r.cluster_top[i].vertex, r.cluster_top[i].value);
  std::fprintf(f, "]\n}\n");
  out.close();
}

void print_step(const StepStats& st, double line_rate_gbps) {
  const double l1 = wire_gbps(st.bytes_sent, st.frames_sent, st.seconds);
  const double l2 = st.seconds > 0 ? st.bytes_sent * 8e-9 / st.seconds : 0.0;
  uint64_t rtx = 0;
  for (const ConnectionReport& c : st.links) rtx += c.send.retransmissions;
  std::printf(
      "superstep %3u: active %9" PRIu64 " (cluster %9" PRIu64 ")  sent %10" PRIu64 " msgs (%" PRIu64
      " local%s) in %7" PRIu64 " buckets  accumulated %10" PRIu64 "  %8.4f s  L2 %6.3f Gbps  L1 %6.3f Gbps"
      " = %5.1f%% of %g GbE  rtx %" PRIu64 "  time: %s\n",
      st.superstep, st.active, st.cluster_active, st.messages_sent, st.messages_local, st.dense ? ", dense" : "",
      st.buckets_sent,
      st.messages_accumulated, st.seconds, l2, l1, line_rate_gbps > 0 ? 100.0 * l1 / line_rate_gbps : 0.0,
      line_rate_gbps, rtx, role_shares(st.role_seconds).c_str());
  for (const ConnectionReport& c : st.links)
    std::printf("               to node %u: N %u  AST %.3f us  RTO %.0f us  sent %" PRIu64 "  retransmitted %" PRIu64
                "  timeouts %" PRIu64 "  stale acks %" PRIu64 "  dup rx %" PRIu64 "\n",
                c.peer, c.n, c.ast_us, c.rto_us, c.send.frames, c.send.retransmissions, c.send.timeouts,
                c.send.stale_acks, c.receive.duplicates);
  std::fflush(stdout);
}

void print_run_totals(const RunReport& r) {
  std::printf("totals: %zu supersteps, load %.3f s, discovery %.3f s, compute %.3f s\n", r.steps.size(),
              r.load_seconds, r.discovery_seconds, r.compute_seconds);
  std::printf("        tx %" PRIu64 " frames %" PRIu64 " bytes (%" PRIu64 " times the NIC was full); rx %" PRIu64
              " frames, %" PRIu64 " data buckets, %" PRIu64 " records\n",
              r.tx.frames, r.tx.bytes, r.tx.ring_full, r.rx.frames, r.rx.data_buckets, r.rx.records);
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
