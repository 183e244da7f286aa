// The end-of-run summary a program gets when it writes none of its own
// (compute/engine/summary_stats.h describes the hook; compute/engine/program_model.h
// supplies this one for a numeric Value): how many vertices hold a value
// other than the unset one, and the smallest, largest and mean of those.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <limits>
#include <span>

#include "compute/report/run_summary.h"
#include "compute/report/text.h"

namespace wg {

struct ValueSummary {
  uint64_t held = 0;  // vertices whose value is not the unset one
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double sum = 0;
};

template <class Value>
ValueSummary value_summary_of(std::span<const Value> values, Value unset) {
  ValueSummary s;
  for (const Value& y : values) {
    if (y == unset) continue;
    const double x = static_cast<double>(y);
    ++s.held;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
    s.sum += x;
  }
  return s;
}

// "61234 of 65536 vertices (93.4%) hold a value: min 0, max 12, mean 3.2".
inline ProgramOutcome describe_values(std::span<const ValueSummary> nodes, const SummaryContext& c) {
  ValueSummary t;
  for (const ValueSummary& n : nodes) {
    t.held += n.held;
    t.min = std::min(t.min, n.min);
    t.max = std::max(t.max, n.max);
    t.sum += n.sum;
  }
  ProgramOutcome out;
  out.figures = {{"vertices_with_value", t.held}};
  out.line = text_printf("%" PRIu64 " of %" PRIu64 " vertices (%.1f%%) hold a value", t.held, c.vertices,
                         percent_of(t.held, c.vertices));
  if (t.held == 0) return out;
  const double mean = t.sum / static_cast<double>(t.held);
  out.line += text_printf(": min %.9g, max %.9g, mean %.9g", t.min, t.max, mean);
  out.figures["min"] = t.min;
  out.figures["max"] = t.max;
  out.figures["mean"] = mean;
  return out;
}

// A program whose results are per edge (compute/engine/capabilities/neighbourhood.h,
// PerEdgeResults) and that writes no summary of its own gets this one, over
// the edges this node reports: "14375 edges: min 0, max 1, mean 0.39".
template <class Edge>
ValueSummary edge_value_summary_of(std::span<const Edge> edges) {
  ValueSummary s;
  for (const Edge& e : edges) {
    const double x = static_cast<double>(e.value);
    ++s.held;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
    s.sum += x;
  }
  return s;
}
inline ProgramOutcome describe_edge_values(std::span<const ValueSummary> nodes) {
  ValueSummary t;
  for (const ValueSummary& n : nodes) {
    t.held += n.held;
    t.min = std::min(t.min, n.min);
    t.max = std::max(t.max, n.max);
    t.sum += n.sum;
  }
  ProgramOutcome out;
  out.figures = {{"edges_with_value", t.held}};
  out.line = text_printf("%" PRIu64 " edges", t.held);
  if (t.held == 0) return out;
  const double mean = t.sum / static_cast<double>(t.held);
  out.line += text_printf(": min %.9g, max %.9g, mean %.9g", t.min, t.max, mean);
  out.figures["min"] = t.min;
  out.figures["max"] = t.max;
  out.figures["mean"] = mean;
  return out;
}

}  // namespace wg
