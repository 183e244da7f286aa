// The end of a run as a person reads it: one short summary for the whole
// cluster, printed by rank 0 from every node's FIN (compute/engine/
// superstep_runtime.h) and written into summary.json; and the transport's
// counters on screen only when they say something is wrong. docs/OUTPUT.md
// shows both.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compute/report/run_report.h"
#include "dataplane/wire.h"

namespace wg {

// What a program says about its answer (its Summary hook,
// compute/engine/summary_stats.h): one line, the same figures for
// summary.json, and a warning for every sign of a degenerate answer, each
// saying what to check.
struct ProgramOutcome {
  std::string line;  // "3353 of 3353 vertices reached, depth 52"
  nlohmann::ordered_json figures = nlohmann::ordered_json::object();
  std::vector<std::string> warnings;
};

// What a program's describe() may read besides the nodes' statistics.
struct SummaryContext {
  uint64_t vertices = 0;
  uint64_t edges_read = 0;  // as the input lists them
  uint64_t edges_used = 0;  // after the program's rules (reverse edges, self-loops, duplicates)
  bool undirected = false;  // every edge goes both ways (the program's rule or --undirected)
  std::string source;       // --source as the user names it; empty for a program without one
  int64_t first_id = 0;     // added to a dense id to name a vertex as the input does (1 for DIMACS, METIS, ...)
  std::vector<wire::TopEntry> top;  // the cluster's top vertices, for programs that rank them
};

// The run's own words for the summary's first lines (apps/node makes them).
struct RunSummary {
  std::string program;      // "sssp from vertex 0"
  std::string graph;        // --graph as given
  std::string edge_rules;   // how the edges were changed for the program, "" if not at all
  bool reads_weights = true;  // the program reads a weight column (sssp); else the summary says it was not read
  std::string out_dir;      // --out, "" without
  ProgramOutcome outcome;
  // --verify's verdict ("VALID", or the first vertex that differs): set by the
  // verification (not part of this change); absent, the summary has no verify
  // line and summary.json's "verify" is null.
  std::optional<std::string> verify;
  bool ranks_top = false;   // the program ranks vertices (PageRank): a "top" list of r.cluster_top (--top N)
  std::string top_value = "rank";  // the word before each top vertex's value (the program's traits.top_value)
};

// What the graph lines (the node's and the summary's) say of an input's
// weights: "" without a weight column, ", weighted" when the program reads
// it, ", weights not read" when it does not.
inline const char* weights_label(bool weighted, bool program_reads_weights) {
  return !weighted ? "" : program_reads_weights ? ", weighted" : ", weights not read";
}

// The summary's lines: "summary: ..." and indented lines under it (two
// spaces: scripts/wiregraph-cluster prints them without its "[node 0] "
// prefix), warnings last.
std::vector<std::string> summary_lines(const RunReport& r, const RunSummary& s);
// The same figures for summary.json's "summary" member.
nlohmann::ordered_json summary_json(const RunReport& r, const RunSummary& s);

// This node's transport counters on screen only when they say something is
// wrong: more than kResentShare of its frames sent again (and at least
// kMinResent of them), or any received frame dropped for a reason a healthy
// link never gives (drop_is_alarming, dataplane/frame.h). Empty on a clean
// run; nodeR.json has every counter either way.
inline constexpr double kResentShare = 0.05;
inline constexpr uint64_t kMinResent = 20;
std::vector<std::string> transport_warnings(const RunReport& r);

}  // namespace wg
