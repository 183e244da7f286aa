// The slimmed-down vertex program (BlitzG section 3): apply + scatter, with
// gather done on the receive side by folding each message into the
// destination's accumulator with a commutative, associative ⊕.
//
// A program is a type: the engine and the accumulator are templates over it,
// so apply, scatter and ⊕ inline into their loops (no virtual call or function
// pointer per message).
//
// Superstep protocol (compute/engine.h):
//   s = 0: y = init(v); active = init's flag.
//   s > 0: active = apply(y, Σin[v], step) where Σin[v] is the ⊕ of every
//          message sent to v in superstep s-1 (identity() if none).
//   then every active vertex u sends edge_message(scatter_value(y, deg), w)
//   along each out-edge. step.aggregate is the cluster-wide sum of
//   aggregate(y, deg) over all vertices after the previous superstep's apply.
//   The run ends after the first superstep in which no vertex is active
//   anywhere in the cluster.
#pragma once

#include <concepts>
#include <utility>
#include <cstdint>
#include <cstdio>

#include "compute/accumulator.h"
#include "compute/edge_list.h"

namespace wg {

struct StepInfo {
  uint32_t superstep;     // s, starting at 0
  double aggregate;       // cluster-wide sum of aggregate() after superstep s-1
  VertexId num_vertices;  // global V
};

template <class P>
concept VertexProgram =
    requires(const P& p, typename P::Value& y, typename P::Message m, Weight w, VertexId v,
             uint32_t deg, const StepInfo& step, std::FILE* out) {
      requires sizeof(typename P::Message) == 4;  // records are (u32 index, 4-byte value)
      { P::kNeedsWeights } -> std::convertible_to<bool>;
      { P::kUndirected } -> std::convertible_to<bool>;
      { P::identity() } -> std::same_as<typename P::Message>;
      { P::combine(m, m) } -> std::same_as<typename P::Message>;
      { p.init(v, y) } -> std::same_as<bool>;
      // apply sees the accumulator's view of the vertex: the ⊕ of its
      // messages (scalar programs) or all of them (slot programs).
      { p.apply(y, std::declval<typename AccumulatorFor<P>::type::View>(), step) } -> std::same_as<bool>;
      { p.scatter_value(y, deg) } -> std::same_as<typename P::Message>;
      { P::edge_message(m, w) } -> std::same_as<typename P::Message>;
      { p.aggregate(y, deg) } -> std::same_as<double>;
      { P::print_value(out, y) };
      { P::sort_key(y) } -> std::convertible_to<double>;  // for the "top vertices" report
    };

}  // namespace wg
