// Triangle counting (GAP's tc): the triangles of the undirected simple graph
// (directions ignored, self-loops and repeated edges dropped), as the number
// through each vertex; the summary gives their total, the figure GAP's tc
// prints. A vertex needs its neighbours' neighbour lists, so the program runs
// on the engine's neighbourhood service
// (compute/engine/capabilities/neighbourhood.h: every triangle found once,
// its memory bound in compute/engine/neighbourhood/neighbourhood_service.h):
// a triangle credits each of its corners with 1.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <span>
#include <vector>

#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/report/text.h"
#include "compute/engine/program_model.h"

namespace wg {

struct TriangleCount {
  static constexpr ProgramTraits kTraits{
      .name = "tc",
      .summary = "triangle counting on the undirected simple graph: the triangles through each vertex, and their total",
      .graph = {.symmetrize = true, .drop_self_loops = true, .drop_duplicates = true},
      .output = "the number of triangles the vertex is a corner of (directions ignored)",
      .value_column = "triangles",
      .ranks_top = true,
      .top_value = "triangles",
  };
  using Value = uint64_t;  // triangles through the vertex
  // The neighbourhood service is its driver (compute/engine/program_model.h).
  static constexpr Neighbourhood kNeighbourhood{.lists = Neighbourhood::Lists::kUndirected,
                                                .credits = Neighbourhood::Credits::kCorners};

  // A triangle is one for each of its corners; a vertex's count is its credit.
  static uint64_t corner_credit(uint32_t) { return 1; }
  static Value vertex_value(uint64_t credit, uint32_t) { return credit; }

  // The end-of-run summary: every triangle is counted at its three corners.
  struct Summary {
    uint64_t corners = 0;
    uint64_t vertices_in_one = 0;  // vertices with at least one triangle
  };
  static Summary summarize(std::span<const Value> counts, const LocalGraph&) {
    Summary s;
    for (const Value c : counts) s.corners += c, s.vertices_in_one += c > 0;
    return s;
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    Summary t;
    for (const Summary& n : nodes) t.corners += n.corners, t.vertices_in_one += n.vertices_in_one;
    ProgramOutcome out;
    out.line = text_printf("%" PRIu64 " triangles; %" PRIu64 " vertices are in at least one", t.corners / 3,
                           t.vertices_in_one);
    out.figures = {{"triangles", t.corners / 3}, {"vertices_in_a_triangle", t.vertices_in_one}};
    if (t.corners == 0 && c.edges_used > 0)
      out.warnings.push_back(text_printf("no triangle at all although the graph has %" PRIu64 " edges", c.edges_used));
    return out;
  }
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
};

static_assert(NeighbourhoodProgram<TriangleCount>);
WG_PROGRAM(TriangleCount);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Triangles through each vertex of the undirected simple graph: for every
// vertex v and every pair of its neighbours joined by an edge. Plain sorted
// lists and binary search; each triangle is seen from each of its corners.
inline std::vector<uint64_t> triangles(const EdgeList& g) {
  const std::vector<std::vector<VertexId>> n = undirected_simple_neighbours(g);
  std::vector<uint64_t> count(g.num_vertices, 0);
  for (VertexId v = 0; v < g.num_vertices; ++v)
    for (size_t i = 0; i < n[v].size(); ++i)
      for (size_t j = i + 1; j < n[v].size(); ++j)
        count[v] += std::binary_search(n[n[v][i]].begin(), n[n[v][i]].end(), n[v][j]);
  return count;
}

}  // namespace oracle

inline OracleValues TriangleCount::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = oracle::triangles(input), .reals = {}};
}

}  // namespace wg
