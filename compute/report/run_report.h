// What a run measured: per-superstep figures for this node and the cluster,
// and the writers for the report files (--out DIR).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compute/report/role_clock.h"
#include "dataplane/counters.h"
#include "dataplane/wire.h"
#include "reliability/transport.h"

namespace wg {

struct StepStats {
  uint32_t superstep = 0;
  // this node
  uint64_t active = 0;                // vertices that scattered
  uint64_t messages_sent = 0;         // records written, all destinations
  uint64_t messages_local = 0;        // of which to this node's own vertices
  bool dense = false;                 // records combined per destination (worker 0's choice)
  // Records to a worker's own vertices applied by it at once, not sent
  // (programs that apply early: compute/engine/vertex_program.h), and the local
  // rounds they led to (compute/engine/worker.h)
  uint64_t relaxed_locally = 0;
  uint64_t local_rounds = 0;
  uint64_t buckets_sent = 0;          // data buckets to other nodes
  uint64_t frames_sent = 0;           // every frame sent during the superstep (data + control)
  uint64_t bytes_sent = 0;            // their L2 bytes (no FCS, preamble or gap)
  uint64_t messages_accumulated = 0;  // records folded into this node's accumulators
  std::vector<uint64_t> accumulated_by_queue;  // of which by each receive queue's accumulator
  double seconds = 0.0;
  // CPU time the workers' threads got in apply and scatter (summed over
  // workers): unlike the seconds, not stretched when a shared machine
  // deschedules them
  double worker_cpu_seconds = 0.0;
  // lcore-seconds by role (compute/report/role_clock.h), summed over this node's
  // lcores: with L lcores they add up to about L x seconds
  std::array<double, kRoles> role_seconds{};
  // cluster, from every node's END frame
  uint64_t cluster_active = 0;
  uint64_t cluster_messages = 0;
  uint64_t cluster_buckets = 0;
  uint64_t cluster_bytes = 0;         // L2 bytes of every data bucket sent between nodes
  // per connection, cumulative at the end of the superstep
  std::vector<ConnectionReport> links;
};

// What loading cost this node (compute/load/graph_loader.h fills it): the graph
// as loaded (cluster-wide), this node's share of the reading and the shuffle,
// and the load time split into its parts.
struct LoadFigures {
  uint64_t num_vertices = 0;      // cluster-wide, after the program's rules
  uint64_t num_edges = 0;
  uint64_t input_edges = 0;       // edges as the input lists them (lines, records): Graphalytics' |E|
  bool weighted = false;
  uint64_t fingerprint = 0;
  uint64_t input_bytes = 0;       // the input file's size (0: generated or in memory)
  uint64_t bytes_read = 0;        // of it, by this node (its range and the header)
  uint64_t edges_parsed = 0;      // edges this node read or generated, after the per-edge rules
  uint64_t edges_sent = 0;        // of which to other nodes
  uint64_t edges_received = 0;    // from other nodes
  uint64_t local_edges = 0;       // out-edges this node holds
  double read_seconds = 0, parse_seconds = 0, shuffle_seconds = 0, build_seconds = 0;
  double wait_seconds = 0;        // the rest: waiting for slower nodes (their edges, their builds)
  double seconds = 0;             // the whole loading phase
};

// What a node's FIN tells the others about its run (wire::FinFigures).
struct NodeFigures {
  uint64_t peak_rss_bytes = 0;
  uint64_t frames_sent = 0;
  uint64_t retransmissions = 0;
  uint64_t needless = 0;  // resends the peer turned out to hold already
};

struct RunReport {
  unsigned rank = 0;
  unsigned nodes = 1;
  double load_seconds = 0.0;
  LoadFigures load;
  uint64_t peak_rss_bytes = 0;    // the process's largest resident set, at the end of the run
  uint64_t hugepage_bytes = 0;    // and the hugepages it holds (not in RSS)
  double discovery_seconds = 0.0;
  double compute_seconds = 0.0;   // the program's phase: Graphalytics' processing time
  double compute_cpu_seconds = 0.0;  // CPU time of the whole process (every lcore, idle polls included) in it
  double makespan_seconds = 0.0;  // from the runtime's start (discovery) to the end of the job (FIN)
  std::vector<StepStats> steps;
  std::vector<wire::TopEntry> cluster_top;
  bool ranks_top = false;           // the program ranks vertices: summary.json lists cluster_top
  // Every node's FIN, by rank (this node's own included): its run figures
  // and its program's summary statistics as bytes (compute/engine/summary_stats.h).
  std::vector<NodeFigures> cluster_nodes;
  std::vector<std::vector<uint8_t>> cluster_stats;
  RxCounters rx;                    // summed over the receive queues
  TxCounters tx;
  std::vector<RxCounters> rx_queues;  // per receive queue (one accumulator role each)
  FaultCounts rx_faults, tx_faults;
  // The node's NUMA-domain partition report (compute/partition/domain_partition.h), a
  // JSON object; null when there is none.
  nlohmann::ordered_json partition_json;
  // This node's vertices per degree (degree_counts_json); null: not known.
  nlohmann::ordered_json degrees;
  double line_rate_gbps = 10.0;
  // What the result files hold and how they compare with an oracle's
  // (apps/node/run_program.h; scripts/wiregraph-validate reads it), and
  // --verify's verdict (apps/node/verify.h); null when there is none.
  nlohmann::ordered_json results;
  nlohmann::ordered_json verify;
  // Checkpoints written and the superstep resumed from (compute/engine/checkpointer.h); null when none.
  nlohmann::ordered_json checkpoints;
  // What this node was estimated to need (compute/engine/memory_budget.h)
  // for a balanced node of the graph's V and E, beside peak_rss_bytes; null when not made.
  nlohmann::ordered_json memory_estimate;
};

// DIR/node<R>.json: the build's version and commit (compute/report/build_info.h),
// this node's configuration echo, `results` and `verify` (RunReport), and per-superstep counts.
// DIR/summary.json (rank 0): the version and commit, `results`, the cluster's per-superstep figures and the
// Graphalytics metrics (load time, makespan, processing time, EVPS = (V + E)
// / processing time, E as the input lists the edges), the end-of-run summary
// (`summary`, compute/report/run_summary.h; omitted when null) and, for a program
// that ranks vertices, the top ones.
// `config` is the configuration echo (config/config_json.h), a JSON object.
// Members are written in a fixed order (ordered_json), integers as integers,
// doubles in their shortest round-trip form.
void write_node_json(const std::string& path, const nlohmann::ordered_json& config, const RunReport& r);
void write_summary_json(const std::string& path, const nlohmann::ordered_json& config, const RunReport& r,
                        const nlohmann::ordered_json& summary = nullptr);
// The configuration is a JSON object, not its text: a std::string would
// silently become a JSON string.
void write_node_json(const std::string& path, const std::string& config, const RunReport& r) = delete;
void write_summary_json(const std::string& path, const std::string& config, const RunReport& r) = delete;

// Prints one superstep's line (and one per connection) to stdout: this
// node's L2 rate (frame bytes) and L1 rate (frame + FCS + preamble + gap, what
// the link really carries) and the L1 rate as a share of the line rate.
void print_step(const StepStats& st, double line_rate_gbps);

// Prints the end-of-run report (drops by reason, totals) to stdout.
void print_run_totals(const RunReport& r);

}  // namespace wg
