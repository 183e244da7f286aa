// Single-source shortest paths with real weights: Graphalytics' SSSP
// (specification, "Single-Source Shortest Paths": weights and distances are
// 64-bit doubles, weights non-negative and possibly zero, unreachable
// vertices at infinity). The double-precision twin of apps/sssp.h, run for
// --app sssp with --precision double (the default for Graphalytics graphs):
// 8-byte messages (12-byte records), weights held as doubles (8 bytes per
// edge), sparse supersteps only.
#pragma once

#include <cstdio>
#include <limits>
#include <span>
#include <vector>

#include "apps/sssp.h"  // the oracle's Dijkstra
#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/vertex_program.h"

namespace wg {

class RealSssp : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "sssp",
      .summary = "single-source shortest paths from --source (sum of real weights, in double precision)",
      .uses_source = true,
      .uses_precision = true,
      .graphalytics = {.algorithm = "sssp", .source = "source-vertex"},
      .graph = {.weights = true, .real_weights = true},
      .output = "distance, or inf when unreachable",
      .value_column = "distance",
      .value_kind = ValueKind::kDistance,
      .comparison = Comparison::kReal,
      .tolerance = 1e-9,  // sums of doubles, in another order than the oracle's
      .invariant = "distance(v) <= distance(u) + weight(u, v)",
  };
  using Value = double;
  using Message = double;
  static constexpr double kUnreached = std::numeric_limits<double>::infinity();

  static RealSssp make(const ProgramParams& p, VertexId) { return RealSssp(static_cast<VertexId>(p.source)); }
  explicit RealSssp(VertexId source) : source_(source) {}

  static Message identity() { return kUnreached; }
  static Message combine(Message a, Message b) { return a < b ? a : b; }
  bool init(Value& y, const VertexInfo& v) const {
    y = v.id == source_ ? 0.0 : kUnreached;
    return v.id == source_;
  }
  // Active when the distance fell (a zero-weight cycle cannot loop: equal is no fall).
  bool apply(Value& y, Message m, const VertexInfo&, const StepInfo<Aggregate>&) const {
    if (!(m < y)) return false;
    y = m;
    return true;
  }
  Message scatter_value(const Value& y, const VertexInfo&) const { return y; }
  static Message edge_message(Message sv, double w) { return sv + w; }

  // The end-of-run summary (compute/engine/summary_stats.h): vertices reached, the largest distance.
  using Summary = ReachSummary;
  static Summary summarize(std::span<const Value> distances, const LocalGraph&) {
    return reach_of(distances, [](Value y) { return y != kUnreached; }, [](Value y) { return y; });
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    return describe_reach(total_reach(nodes), c, "largest finite distance", false);
  }

  static void print_value(std::FILE* out, const Value& y) {
    if (y == kUnreached)
      std::fputs("inf", out);
    else
      std::fprintf(out, "%.17g", y);
  }
  static double sort_key(const Value& y) { return -y; }

  static OracleValues reference(const EdgeList& input, const ProgramParams& p) {
    return {.integers = {},
            .reals = oracle::shortest_paths<double>(input, static_cast<VertexId>(p.source), kUnreached)};
  }
  // --verify's check along an edge u->v where the whole graph does not fit
  // (the engine's own sum: exact, not within a tolerance).
  static bool holds_along(Value u, Value v, double w) { return u == kUnreached || v <= u + w; }

 private:
  VertexId source_;
};

static_assert(VertexProgram<RealSssp>);

}  // namespace wg
