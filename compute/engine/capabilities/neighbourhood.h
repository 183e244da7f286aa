// Neighbourhood access: what a program that needs its neighbours' neighbour
// lists (triangles, clustering, edge similarity) declares, instead of a
// per-vertex ⊕, to run on the engine's neighbourhood service
// (compute/engine/neighbourhood/neighbourhood_driver.h). The service finds
// every triangle of the graph once with the forward algorithm and hands the
// program's hooks what it found; the program says what a triangle credits and
// how a result is formed from the credits and the degrees.
//
// A program declares
//   static constexpr Neighbourhood kNeighbourhood{...};
// and, as kNeighbourhood.credits says:
//   kCorners: every triangle credits each of its three corners with
//       static uint64_t corner_credit(uint32_t m)
//     where m is the multiplicity of the edge opposite the corner (1; with
//     kDirected lists 2 when the two other corners are joined both ways).
//     A vertex's result is
//       static Value vertex_value(uint64_t credit, uint32_t neighbours)
//     from its credits and |N(v)|.
//   kEdges: every triangle credits each of its three edges with 1, so an
//     edge {u, v} ends with |N(u) ∩ N(v)|, its endpoints' common neighbours.
//     The results are per edge (each edge once, `src dst value`):
//       static Value edge_value(uint64_t common, uint32_t du, uint32_t dv)
//     from the common neighbours and the two degrees |N(u)|, |N(v)|.
// Hooks are static and inlined into the service's intersection loop: no
// virtual call per triangle.
#pragma once

#include <concepts>
#include <cstdint>

namespace wg {

struct Neighbourhood {
  enum class Lists : uint8_t {
    kUndirected,  // N(v) of the undirected graph (the program's GraphRules symmetrize it)
    kDirected,    // N(v) = in- and out-neighbours each once, remembering whether joined both ways
  };
  enum class Credits : uint8_t {
    kCorners,  // per-vertex results
    kEdges,    // per-edge results
  };
  Lists lists = Lists::kUndirected;
  Credits credits = Credits::kCorners;
};

template <class P>
concept NeighbourhoodProgram = requires {
  { P::kNeighbourhood } -> std::convertible_to<Neighbourhood>;
} && (P::kNeighbourhood.credits == Neighbourhood::Credits::kCorners
          ? requires(uint32_t m, uint64_t credit, uint32_t d) {
              { P::corner_credit(m) } -> std::convertible_to<uint64_t>;
              { P::vertex_value(credit, d) } -> std::convertible_to<typename P::Value>;
            }
          : requires(uint64_t common, uint32_t du, uint32_t dv) {
              { P::edge_value(common, du, dv) } -> std::convertible_to<typename P::Value>;
            });

// A program whose results are per edge, not per vertex (apps/node/run_program.h
// writes and verifies them as `src dst value` lines).
template <class P>
concept PerEdgeResults = NeighbourhoodProgram<P> && P::kNeighbourhood.credits == Neighbourhood::Credits::kEdges;

// One edge's result, the endpoints as the input names them, src < dst.
template <class Value>
struct EdgeResult {
  int64_t src = 0, dst = 0;
  Value value{};
  bool operator<(const EdgeResult& o) const { return src != o.src ? src < o.src : dst < o.dst; }
};

}  // namespace wg
