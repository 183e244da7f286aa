// Local clustering coefficient (Graphalytics' LCC): for every vertex v, the
// directed edges between its neighbours over d (d - 1), d = |N(v)|, N(v) its
// in- and out-neighbours each once; 0 when d < 2 (specification, "Local
// Clustering Coefficient"; on an undirected graph the usual 2 e / (d (d - 1))).
// A vertex needs its neighbours' neighbour lists, which neither a per-vertex
// ⊕ nor a fixed-size value can carry, so the program runs on the engine's
// neighbourhood service (compute/engine/capabilities/neighbourhood.h: every
// triangle of N(v) found once, its memory bound in
// compute/engine/neighbourhood/neighbourhood_service.h) on directed lists:
// a triangle credits each corner with the directed edges between the two
// others.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/report/text.h"
#include "compute/engine/program_model.h"

namespace wg {

struct Lcc {
  static constexpr ProgramTraits kTraits{
      .name = "lcc",
      .summary = "local clustering coefficient (neighbours: in- and out-, each once; directed edges among them)",
      .graphalytics = {.algorithm = "lcc"},
      .graph = {.drop_self_loops = true, .drop_duplicates = true},
      .on_directed = "directed LCC, Graphalytics' definition (without --undirected)",
      .on_undirected = "undirected LCC, 2e/(d(d-1)) as networkx.clustering",
      .output = "local clustering coefficient, 0 with fewer than 2 neighbours",
      .value_column = "coefficient",
      .value_kind = ValueKind::kReal,
  };
  using Value = double;  // the coefficient
  // N(v): in- and out-neighbours each once, with whether they are joined both
  // ways. The neighbourhood service is its driver (compute/engine/program_model.h).
  static constexpr Neighbourhood kNeighbourhood{.lists = Neighbourhood::Lists::kDirected,
                                                .credits = Neighbourhood::Credits::kCorners};

  // Graphalytics' numerator counts directed edges among v's neighbours: a
  // triangle gives a corner the edges (1 or 2, m) between the other two.
  static uint64_t corner_credit(uint32_t m) { return m; }
  static Value vertex_value(uint64_t links, uint32_t d) {
    return d >= 2 ? static_cast<double>(links) / (static_cast<double>(d) * (d - 1)) : 0.0;
  }

  // The end-of-run summary (compute/engine/summary_stats.h): the mean coefficient.
  struct Summary {
    double sum = 0;
    uint64_t vertices = 0;
    uint64_t positive = 0;  // vertices whose coefficient is above 0
  };
  static Summary summarize(std::span<const Value> coefficients, const LocalGraph&) {
    Summary s;
    for (const Value y : coefficients) s.sum += y, s.positive += y > 0;
    s.vertices = coefficients.size();
    return s;
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    Summary t;
    for (const Summary& n : nodes) t.sum += n.sum, t.vertices += n.vertices, t.positive += n.positive;  // rank order
    const double mean = t.vertices ? t.sum / static_cast<double>(t.vertices) : 0.0;
    ProgramOutcome out;
    out.line = text_printf("mean coefficient %.6f; %" PRIu64 " of %" PRIu64 " vertices above 0", mean, t.positive,
                           t.vertices);
    out.figures = {{"mean_coefficient", mean}, {"vertices_above_0", t.positive}};
    if (t.positive == 0 && c.edges_used > 0)
      out.warnings.push_back(text_printf("every coefficient is 0 although the graph has %" PRIu64
                                         " edges: no vertex has two neighbours joined by an edge (no triangle at all)",
                                         c.edges_used));
    return out;
  }
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
};

static_assert(NeighbourhoodProgram<Lcc>);
WG_PROGRAM(Lcc);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Local clustering coefficient, Graphalytics' definition: N(v) = in- and
// out-neighbours of v, each once (self-loops and repeated edges ignored);
// LCC(v) = sum over u in N(v) of |N(v) ∩ N_out(u)| / (|N(v)| (|N(v)| - 1)),
// 0 when |N(v)| < 2. Empty for V = 0.
inline std::vector<double> lcc(const EdgeList& g) {
  check_edges(g);
  std::vector<std::set<VertexId>> out(g.num_vertices), both(g.num_vertices);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    out[e.src].insert(e.dst);
    both[e.src].insert(e.dst);
    both[e.dst].insert(e.src);
  }
  std::vector<double> coefficient(g.num_vertices, 0.0);
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    const double d = static_cast<double>(both[v].size());
    if (d < 2) continue;
    uint64_t links = 0;  // directed edges u -> w between neighbours of v
    for (VertexId u : both[v])
      for (VertexId w : out[u]) links += both[v].count(w);
    coefficient[v] = static_cast<double>(links) / (d * (d - 1));
  }
  return coefficient;
}

}  // namespace oracle

inline OracleValues Lcc::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = {}, .reals = oracle::lcc(input)};
}

}  // namespace wg
