// Weighted PageRank (--app pagerank --weighted): networkx's
// pagerank(G, alpha, weight='weight'). Every edge u->v passes
// rank(u) x w(u,v) / W(u), W(u) the sum of u's out-edge weights; a vertex
// with W(u) = 0 (no out-edge, or only zero weights) is dangling and its rank
// is spread evenly over all vertices. Parallel edges add (networkx's
// to_scipy_sparse_array sums them), a self-loop is an ordinary edge (under
// --undirected it stays one edge, as in networkx's undirected adjacency).
// The weights are read as reals (negative ones are refused naming the file,
// line, field and value); ranks and messages are doubles. Everything else
// (damping, 1/V start, --tolerance's rule, the summary) is PageRank's
// (apps/pagerank.h). W(u) comes from the engine: the program's GraphRules
// ask for out_weights, so VertexInfo::out_weight holds it
// (compute/engine/vertex_info.h); no per-message work beyond the multiply.
#pragma once

#include <cmath>
#include <vector>

#include "apps/pagerank.h"
#include "compute/engine/oracle.h"
#include "compute/engine/vertex_program.h"

namespace wg {

class WeightedPageRank : public BasicPageRank<double> {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "pagerank",
      .summary = "weighted PageRank (--weighted): each edge passes rank x weight / the source's out-weight sum, "
                 "a vertex whose out-weights sum to 0 dangling (networkx's weight='weight')",
      .uses_iterations = true,
      .default_iterations = 20,
      .uses_damping = true,
      .uses_tolerance = true,
      .uses_weighted = true,
      .graphalytics = {.algorithm = "pr", .iterations = "num-iterations", .damping = "damping-factor"},
      .graph = {.weights = true, .real_weights = true, .out_weights = true},
      .output = "rank (9 significant digits)",
      .value_column = "rank",
      .ranks_top = true,
      .value_kind = ValueKind::kReal,
      .comparison = Comparison::kReal,
      .tolerance = 1e-9,  // double messages, summed in another order than the oracle's
  };

  static WeightedPageRank make(const ProgramParams& p, VertexId num_vertices) {
    return WeightedPageRank(num_vertices, p.iterations, p.damping, p.tolerance);
  }
  using BasicPageRank<double>::BasicPageRank;

  // Rank per unit of out-weight; each edge scales it by its own weight.
  Message scatter_value(const Value& y, const VertexInfo& v) const {
    return v.out_weight > 0 ? y / v.out_weight : 0.0;
  }
  static Message edge_message(Message sv, double w) { return sv * w; }
  // Dangling: no out-weight to pass the rank along (weights are >= 0, so
  // the sum is 0 exactly when every out-edge weighs 0, or there is none).
  void aggregate(const Value& before, const Value& y, const VertexInfo& v, Aggregate& into) const {
    into.dangling += v.out_weight > 0 ? 0.0 : y;
    into.change += std::fabs(y - before);
  }

  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
};

static_assert(VertexProgram<WeightedPageRank>);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// oracle::pagerank (apps/pagerank.h) with weights:
//   new[v] = (1-d)/V + d * (sum over edges u->v of rank[u] * w(u,v) / W(u) + D/V),
// W(u) the sum of u's out-edge weights (real weights where the input has
// them), D the rank of the vertices with W(u) = 0. Parallel edges add. The
// same stopping rule (tolerance > 0: networkx's).
inline std::vector<double> weighted_pagerank(const EdgeList& g, unsigned iterations = 20, double damping = 0.85,
                                             double tolerance = 0) {
  const Adjacency<double> out = out_arcs<double>(g);
  const VertexId n = g.num_vertices;
  std::vector<double> out_weight(n, 0.0);
  for (VertexId u = 0; u < n; ++u)
    for (const Arc<double>& a : out[u]) out_weight[u] += a.weight;
  return power_iteration(n, iterations, damping, tolerance,
                         [&](const std::vector<double>& rank, std::vector<double>& incoming) {
                           double dangling = 0.0;
                           for (VertexId u = 0; u < n; ++u) {
                             if (out_weight[u] == 0) {
                               dangling += rank[u];
                               continue;
                             }
                             for (const Arc<double>& a : out[u]) incoming[a.dst] += rank[u] * a.weight / out_weight[u];
                           }
                           return dangling;
                         });
}

}  // namespace oracle

inline OracleValues WeightedPageRank::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = {}, .reals = oracle::weighted_pagerank(input, p.iterations, p.damping, p.tolerance)};
}

}  // namespace wg
