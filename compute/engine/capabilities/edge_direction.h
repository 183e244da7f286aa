// A capability of the vertex-program model: a phase may scatter along the
// vertices' in-edges, or along both their out- and in-edges, instead of the
// out-edges only. A program that needs it (SCC's backward sweep and its
// trimming, apps/scc.h) declares
//
//   static constexpr EdgeDirection scatter_direction(uint32_t phase);
//
// and asks for the in-edges in its graph rules (GraphRules::in_edges). The
// loader then also sends every edge u->v, reversed, to v's owner, which keeps
// it in LocalGraph::in_blocks (the same layout as the out-edge blocks: per
// group of u's node, v's local index as the source and u's as the target), and
// every worker of such a program sends, in a phase of kIn or kBoth, one
// record per in-edge of an active vertex (compute/engine/worker/in_edges.h).
// The message is the same: edge_message(scatter_value(y, v), weight).
//
// What it costs: the in-edges are held on every node (the edges twice) and
// shuffled once more while loading, only for such a program. Its supersteps
// are sparse (the dense copies hold the out-edges only: WorkerModes::kPulls
// is off), and a program without the declaration compiles to the workers it
// had (every test of the direction is under `if constexpr`). Not with the
// level-synchronous, settling, own-taker or prioritized modes (their state
// describes the out-edges): worker/modes.h refuses them together.
#pragma once

#include <concepts>
#include <cstdint>

#include "compute/engine/vertex_program.h"

namespace wg {

enum class EdgeDirection : uint8_t {
  kOut,   // along u->v, to v (every program's only direction without the declaration)
  kIn,    // along u->v backwards, from v to u
  kBoth,  // both: a record to every out- and every in-neighbour
};

template <class P>
constexpr bool declares_scatter_direction() {
  return requires { { P::scatter_direction(uint32_t{}) } -> std::same_as<EdgeDirection>; };
}

template <class P>
constexpr EdgeDirection scatter_direction(uint32_t phase) {
  if constexpr (declares_scatter_direction<P>()) return P::scatter_direction(phase);
  return EdgeDirection::kOut;
}

// Whether the loader must keep the program's in-edges (its graph rules say
// so); a program that scatters along them must ask for them.
template <class P>
constexpr bool reads_in_edges() {
  static_assert(!declares_scatter_direction<P>() || P::kTraits.graph.in_edges,
                "a program that declares scatter_direction() must ask for in_edges in its GraphRules");
  return P::kTraits.graph.in_edges;
}

}  // namespace wg
