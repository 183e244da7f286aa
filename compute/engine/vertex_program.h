// The slimmed-down vertex program (BlitzG section 3): apply + scatter, with
// gather done on the receive side by folding each message into the
// destination's accumulator with a commutative, associative ⊕.
//
// What every program writes (the minimal form; apps/indegree.h, apps/minlabel.h):
//   kTraits   its name and what it needs (compute/engine/program_traits.h)
//   Value     the per-vertex state
//   Combine   ⊕ with its identity: Min<T>, Max<T>, Sum<T> (compute/engine/combiners.h)
//             or a struct with static identity() and combine(a, b); its
//             type is the Message (4, 8 or 16 bytes)
//   init(y, vertex) -> bool                 superstep 0: set y; true = active
//   apply(y, ⊕in, vertex[, step]) -> bool   superstep s > 0: ⊕in is the ⊕ of the
//             messages sent to the vertex in s-1 (identity() if none); true =
//             active. Optional with Min or Max: keep the better of y and ⊕in.
//   scatter(y[, vertex]) -> Message         what an active vertex sends along
//             each out-edge (after edge_message(m, weight), which passes m on)
// A registered program says WG_PROGRAM(Type) in its header (apps/programs.h).
// Everything else is optional, with defaults supplied by the engine's view of
// the program, ProgramModel<P> (compute/engine/program_model.h: make, Message,
// identity/combine, edge_message, the step members of ProgramBase below,
// print_value, sort_key, the summary), and the engine hints that let it do
// less work for the same results (compute/engine/capabilities/hints.h). A full
// program (every built-in) writes all the members itself and is its own view.
//
// Superstep protocol (compute/engine/superstep_runtime.h): after each
// superstep every node calls next() with the same cluster-wide figures
// (StepOutcome, compute/engine/step_info.h), so every node takes the same
// decision: stop, or go on in a phase. step.aggregate is the cluster-wide
// merge of aggregate(y, vertex, into) over every vertex after superstep s-1's
// apply (or of aggregate(before, y, vertex, into), which also sees the value
// the apply started from: PageRank's change between iterations; merges start
// from all-zero bytes, so all-zero must be the Aggregate's identity).
#pragma once

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "compute/engine/accumulator.h"
#include "compute/engine/capabilities/hints.h"
#include "compute/engine/combiners.h"
#include "compute/engine/program_base.h"
#include "compute/engine/program_traits.h"
#include "compute/engine/step_info.h"
#include "compute/graph/types.h"
#include "dataplane/wire.h"

namespace wg {

// Messages are whole 4-byte words, at most wire::kMaxMessageBytes: records of
// 8 to 68 bytes (dataplane/wire.h; wide messages of K values:
// compute/engine/capabilities/wide_message.h).
template <class M>
concept WireMessage = std::is_trivially_copyable_v<M> && sizeof(M) % 4 == 0 && sizeof(M) <= wire::kMaxMessageBytes;

// What the engine compiles against: a full program, or ProgramModel<P> of a minimal one.
template <class P>
concept VertexProgram =
    requires(const P& p, P& mutable_p, typename P::Value& y, typename P::Message m, typename P::Aggregate& agg, Weight w,
             const VertexInfo& v, const StepInfo<typename P::Aggregate>& step,
             const StepOutcome<typename P::Aggregate>& done, std::FILE* out) {
      requires WireMessage<typename P::Message>;
      requires std::is_trivially_copyable_v<typename P::Aggregate>;
      requires sizeof(typename P::Aggregate) <= wire::kMaxAggregateBytes;
      requires std::is_trivially_copyable_v<P>;  // workers apply with a copy in registers
      { P::kTraits } -> std::convertible_to<ProgramTraits>;
      { P::make(std::declval<const ProgramParams&>(), VertexId{}) } -> std::same_as<P>;
      { P::identity() } -> std::same_as<typename P::Message>;
      { P::combine(m, m) } -> std::same_as<typename P::Message>;
      { p.init(y, v) } -> std::same_as<bool>;
      // apply sees the accumulator's view of the vertex: the ⊕ of its
      // messages (scalar programs) or all of them (slot programs).
      { p.apply(y, std::declval<typename AccumulatorFor<P>::type::View>(), v, step) } -> std::same_as<bool>;
      { p.scatter_value(y, v) } -> std::same_as<typename P::Message>;
      { P::edge_message(m, w) } -> std::same_as<typename P::Message>;
      requires aggregates_change<P>() || requires { p.aggregate(y, v, agg); };
      { P::merge(agg, agg) };
      // next() may keep figures for later supersteps in the program (every
      // node calls it with the same ones); apply reads them.
      { mutable_p.next(done) } -> std::same_as<Decision>;
      { P::print_value(out, y) };
      { P::sort_key(y) } -> std::convertible_to<double>;  // for the "top vertices" report
    };

// The value a program's result stands for, as its oracle gives it and the
// Graphalytics output writes it: the program's static result(y) where it
// declares one (k-core: the core number; bc: the score of a value that also
// holds the sweep's depth and path count), else y.
template <class P>
auto result_of(const typename P::Value& y) {
  if constexpr (requires { P::result(y); })
    return P::result(y);
  else
    return y;
}

}  // namespace wg
