// Breadth-first search: hop count from the source along directed edges.
//
// Level-synchronous (compute/engine/vertex_program.h): superstep s's active
// vertices are exactly level s and all send s + 1, and a vertex reached
// once keeps its level. So the engine runs it direction-optimizing
// (Beamer): top-down (sparse) while the frontier is small, bottom-up (a
// dense pull that stops at a destination's first active in-neighbour and
// skips destinations known to be reached) while it holds many edges.
#pragma once

#include <span>

#include "apps/min_label.h"
#include "compute/engine/summary_stats.h"

namespace wg {

class Bfs : public MinLabelBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "bfs",
      .summary = "breadth-first search from --source along directed edges",
      .uses_source = true,
      .graphalytics = {.algorithm = "bfs", .source = "source-vertex"},
      .graph = {},
      .output = "hop count, or inf when unreachable",
      .value_kind = ValueKind::kHops,
  };
  static Bfs make(const ProgramParams& p, VertexId) { return Bfs(static_cast<VertexId>(p.source)); }
  explicit Bfs(VertexId source) : source_(source) {}
  static constexpr bool level_synchronous(uint32_t) { return true; }

  bool init(Value& y, const VertexInfo& v) const {
    y = v.id == source_ ? 0 : kInfinity;
    return v.id == source_;
  }
  static Message edge_message(Message sv, Weight) { return sv + 1; }

  // The end-of-run summary (compute/engine/summary_stats.h): vertices reached, the depth.
  using Summary = ReachSummary;
  static Summary summarize(std::span<const Value> levels, const LocalGraph&) {
    return reach_of(levels, [](Value y) { return y != kInfinity; }, [](Value y) { return y; });
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    return describe_reach(total_reach(nodes), c, "depth", true);
  }

 private:
  VertexId source_;
};

static_assert(VertexProgram<Bfs>);

}  // namespace wg
