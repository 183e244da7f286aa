// Jaccard similarity of every edge: for each edge {u, v} of the undirected
// simple graph (directions ignored, self-loops and repeated edges dropped),
// |N(u) ∩ N(v)| / |N(u) ∪ N(v)|, networkx's
// jaccard_coefficient(G, ebunch=G.edges()). The results are per edge, one
// `src dst value` line each, src < dst (apps/node/run_program.h). The program
// runs on the engine's neighbourhood service
// (compute/engine/capabilities/neighbourhood.h): every triangle credits each
// of its edges with one common neighbour; then |N(u) ∪ N(v)| = du + dv -
// common.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/engine/oracle.h"
#include "compute/engine/program_model.h"

namespace wg {

struct Jaccard {
  static constexpr ProgramTraits kTraits{
      .name = "jaccard",
      .summary = "Jaccard similarity of every edge of the undirected simple graph: common over all neighbours",
      .graph = {.symmetrize = true, .drop_self_loops = true, .drop_duplicates = true},
      .output = "per edge (src dst value, src < dst): |N(src) ∩ N(dst)| / |N(src) ∪ N(dst)|",
      .value_column = "jaccard",
      .value_kind = ValueKind::kReal,
  };
  using Value = double;  // an edge's similarity
  // The neighbourhood service is its driver (compute/engine/program_model.h).
  static constexpr Neighbourhood kNeighbourhood{.lists = Neighbourhood::Lists::kUndirected,
                                                .credits = Neighbourhood::Credits::kEdges};

  // An edge's endpoints each count the other: the union is never empty.
  static Value edge_value(uint64_t common, uint32_t du, uint32_t dv) {
    return static_cast<double>(common) / static_cast<double>(uint64_t{du} + dv - common);
  }

  // The oracle (--verify, the tests): every edge's similarity, dense ids,
  // sorted, in OracleValues::edges (edge_reference alone).
  static std::vector<EdgeResult<double>> edge_reference(const EdgeList& input);
  static OracleValues reference(const EdgeList& input, const ProgramParams&) {
    return {.integers = {}, .reals = {}, .edges = edge_reference(input)};
  }
};

static_assert(PerEdgeResults<Jaccard>);
WG_PROGRAM(Jaccard);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// For every edge u < v of the undirected simple graph, the common members of
// the two sorted neighbour lists over the members of either.
inline std::vector<EdgeResult<double>> jaccard(const EdgeList& g) {
  const std::vector<std::vector<VertexId>> n = undirected_simple_neighbours(g);
  std::vector<EdgeResult<double>> out;
  std::vector<VertexId> common;
  for (VertexId u = 0; u < g.num_vertices; ++u)
    for (const VertexId v : n[u]) {
      if (v < u) continue;
      common.clear();
      std::set_intersection(n[u].begin(), n[u].end(), n[v].begin(), n[v].end(), std::back_inserter(common));
      const double all = static_cast<double>(n[u].size() + n[v].size() - common.size());
      out.push_back({u, v, static_cast<double>(common.size()) / all});
    }
  return out;
}

}  // namespace oracle

inline std::vector<EdgeResult<double>> Jaccard::edge_reference(const EdgeList& input) { return oracle::jaccard(input); }

}  // namespace wg
