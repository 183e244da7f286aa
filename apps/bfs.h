// Breadth-first search: hop count from the source along directed edges.
//
// Level-synchronous (compute/engine/vertex_program.h): superstep s's active
// vertices are exactly level s and all send s + 1, and a vertex reached
// once keeps its level. So the engine runs it direction-optimizing
// (Beamer): top-down (sparse) while the frontier is small, bottom-up (a
// dense pull that stops at a destination's first active in-neighbour and
// skips destinations known to be reached) while it holds many edges.
#pragma once

#include <queue>
#include <span>
#include <vector>

#include "apps/min_label.h"
#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/program_model.h"

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
      .value_column = "depth",
      .value_kind = ValueKind::kHops,
      .comparison = Comparison::kDistance,
      .invariant = "depth(v) <= depth(u) + 1",
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
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
  // --verify's check along an edge u->v where the whole graph does not fit.
  static bool holds_along(Value u, Value v, Weight) { return u == kInfinity || uint64_t{v} <= uint64_t{u} + 1; }

 private:
  VertexId source_;
};

WG_PROGRAM(Bfs);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Hop count along directed edges, weights ignored; kUnreachable where the
// source reaches no path. Throws std::invalid_argument when source >= V.
inline std::vector<uint64_t> bfs(const EdgeList& g, VertexId source) {
  check_source(g, source);
  const Adjacency<Weight> adj = out_arcs<Weight>(g);
  std::vector<uint64_t> hops(g.num_vertices, kUnreachable);
  std::queue<VertexId> frontier;
  hops[source] = 0;
  frontier.push(source);
  while (!frontier.empty()) {
    const VertexId u = frontier.front();
    frontier.pop();
    for (const Arc<Weight>& a : adj[u]) {
      if (hops[a.dst] != kUnreachable) continue;
      hops[a.dst] = hops[u] + 1;
      frontier.push(a.dst);
    }
  }
  return hops;
}

}  // namespace oracle

inline OracleValues Bfs::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = oracle::bfs(input, static_cast<VertexId>(p.source)), .reals = {}};
}

}  // namespace wg
