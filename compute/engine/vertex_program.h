// The slimmed-down vertex program (BlitzG section 3): apply + scatter, with
// gather done on the receive side by folding each message into the
// destination's accumulator with a commutative, associative ⊕.
//
// A program is a type: the engine and the accumulator are templates over it,
// so apply, scatter and ⊕ inline into their loops (no virtual call or function
// pointer per message). Everything a user sees of it (name, options, how the
// graph is loaded, output) is in its traits (compute/engine/program_traits.h), so a
// program is one file plus one entry in apps/programs.h.
//
// Superstep protocol (compute/engine/superstep_runtime.h):
//   s = 0: active = init(y, vertex).
//   s > 0: active = apply(y, Σin[v], vertex, step) where Σin[v] is the ⊕ of
//          every message sent to v in superstep s-1 (identity() if none).
//   then every active vertex u sends edge_message(scatter_value(y, vertex), w)
//   along each out-edge. The program may put u's id in its message when the
//   receiver needs to know the sender (the vertex is passed to scatter_value).
//   step.aggregate is the cluster-wide merge of aggregate(y, vertex, into) over
//   every vertex after superstep s-1's apply (or of aggregate(before, y,
//   vertex, into), which also sees the value the apply started from:
//   PageRank's change between iterations; merges start from all-zero
//   bytes, so all-zero must be the Aggregate's identity); step.phase is the phase the
//   program chose for superstep s (next(), below).
//   After each superstep every node calls next() with the same cluster-wide
//   figures, so every node takes the same decision: stop, or go on in a phase.
//   ProgramBase's next() stops after the first superstep in which no vertex
//   was active anywhere, and never changes the phase.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "compute/engine/accumulator.h"
#include "compute/engine/program_traits.h"
#include "compute/graph/types.h"
#include "dataplane/wire.h"

namespace wg {

// What apply and scatter_value know about the vertex at hand. Fields a
// program does not read cost nothing: the loads are dead once inlined.
struct VertexInfo {
  VertexId id;          // global id
  uint32_t out_degree;  // out-edges as loaded (after the program's graph rules)
  uint32_t in_degree;
  // The sum of the out-edges' weights, for a program whose GraphRules say
  // out_weights (else 0: compute/engine/vertex_info.h).
  double out_weight;
};

template <class Aggregate>
struct StepInfo {
  uint32_t superstep;     // s, starting at 0
  uint32_t phase;         // the program's phase for this superstep (0 until it says otherwise)
  VertexId num_vertices;  // global V
  Aggregate aggregate;    // cluster-wide merge of aggregate() after superstep s-1
};

// What every node knows at the end of superstep s, identical everywhere.
template <class Aggregate>
struct StepOutcome {
  uint32_t superstep;
  uint32_t phase;
  uint64_t active;      // vertices active in s, cluster-wide
  Aggregate aggregate;  // cluster-wide merge of this superstep's contributions
};

struct Decision {
  bool stop;
  uint32_t phase;  // of the next superstep
};

struct NoAggregate {};

// Defaults for the optional parts of a program: no aggregate, one phase,
// stop when nothing is active. A program derives from it and overrides what
// it needs (by hiding the member: the engine calls them statically).
struct ProgramBase {
  using Aggregate = NoAggregate;
  static void merge(NoAggregate&, const NoAggregate&) {}
  template <class Value>
  void aggregate(const Value&, const VertexInfo&, NoAggregate&) const {}
  template <class Aggregate>
  Decision next(const StepOutcome<Aggregate>& done) const {
    return {done.active == 0, done.phase};
  }
};

// The vertex-program members of a program that runs on its own driver
// (`using Driver = ...`, compute/engine/program_driver.h; tc, lcc): every
// program lists them, its driver never calls them.
template <class V>
struct OwnDriverProgram : ProgramBase {
  using Value = V;
  using Message = uint32_t;
  static Message identity() { return 0; }
  static Message combine(Message a, Message) { return a; }
  bool init(Value& y, const VertexInfo&) const { return y = Value{}, false; }
  bool apply(Value&, Message, const VertexInfo&, const StepInfo<Aggregate>&) const { return false; }
  Message scatter_value(const Value&, const VertexInfo&) const { return 0; }
  static Message edge_message(Message sv, Weight) { return sv; }
};

// Optional declarations (static constexpr functions of the phase) that let
// the engine do less work for the same results; a program without them gets
// the plain behaviour in every phase:
//   applies_only_with_messages(phase): in that phase apply(y, identity())
//     leaves y as it is, returns false, and aggregate() adds nothing for such
//     a vertex. The engine then applies only the vertices that received a
//     message (scalar accumulators only; superstep 0 always inits every
//     vertex): a superstep costs its frontier, not V/P.
//   level_synchronous(phase): in that phase every message carries the same
//     value, and a vertex, once active, never changes again for the rest of
//     the run's level-synchronous phases (BFS). The engine then sends nothing
//     to a destination it knows to be reached, and a dense superstep is
//     Beamer's bottom-up step: each unreached destination's pull stops at its
//     first active in-neighbour.
//   settles_on_message(phase): in a stretch of consecutive supersteps whose
//     phases all declare it, a vertex takes the messages of the first
//     superstep whose messages reach it and ignores those any later one of
//     the stretch sends (BC's seed and forward phases: a vertex reached
//     keeps its depth and path count). The messages may differ and all of
//     that first superstep's count. The engine then sends nothing to a
//     destination it sent to in an earlier superstep of the stretch, nor to
//     an own vertex that received a message in one (that, only where the
//     phase also applies only with messages), and a dense superstep reads
//     no in-list of those (compute/engine/worker/settled_destinations.h).
//     Not with level_synchronous (which implies it) nor with bucket()
//     (compute/engine/worker/modes.h refuses both).
//   takes_messages(y) (a const member, bool): whether a vertex holding y
//     uses what the current superstep sends it (applied in the next); a
//     dense pull then reads no in-list of, and sends nothing to, a vertex of
//     the sending worker's own slice for which it is false (BC's backward
//     phase: only the vertices one level up take a level's messages;
//     compute/engine/worker/own_takers.h). Not with level_synchronous nor
//     bucket(), as above.
//   kDenseTenths (static constexpr uint64_t): a superstep scatters dense
//     once the worker's frontier holds more than this many tenths of its
//     slice's out-edges (compute/engine/scatter_policy.h, DensePays: 9
//     otherwise). For a program whose big supersteps send along most but not
//     nearly all edges and whose small ones are many (BC's levels).
//   activates_uniformly(phase): in that phase init() and apply() return the
//     same for every vertex (PageRank: whether iterations remain). The
//     engine then sets the frontier whole after the pass instead of adding
//     vertex by vertex: if any vertex's returns true, every vertex of the
//     worker's slice scatters.
template <class P>
constexpr bool declares_idle_phases() {
  return requires { { P::applies_only_with_messages(uint32_t{}) } -> std::same_as<bool>; };
}
template <class P>
constexpr bool declares_settling_phases() {
  return requires { { P::settles_on_message(uint32_t{}) } -> std::same_as<bool>; };
}
template <class P>
constexpr bool declares_takers() {
  return requires(const P& p, const typename P::Value& y) {
    { p.takes_messages(y) } -> std::same_as<bool>;
  };
}
template <class P>
constexpr bool declares_level_phases() {
  return requires { { P::level_synchronous(uint32_t{}) } -> std::same_as<bool>; };
}
//   bucket(y) (a const member, uint64_t): the program is prioritized
//     (delta-stepping): apply's true means "improved", and an improved
//     vertex scatters only once its bucket is the lowest its worker holds;
//     each superstep every worker scatters its lowest bucket. Buckets must
//     not rise as a vertex improves (SSSP: distance / delta). With
//     light_below() (a const member, Weight) as well, a taken vertex sends
//     along its light edges only (weight < light_below()), and along its
//     heavy ones once its bucket is done (compute/engine/delta_schedule.h); a
//     heavy edge must not lead into the bucket it leaves (SSSP: delta).
//   applies_early(phase) (static constexpr, of the phase; prioritized
//     programs only): in that phase a message may be applied as soon as it
//     is sent: applying messages one at a time, in any order, from the
//     superstep that sends them on, leaves the values that applying their ⊕
//     in the next superstep would (⊕ is min and apply keeps the smaller,
//     SSSP), and the phase's aggregate does not depend on such vertices
//     (aggregate() is not called for them). A worker then applies the
//     records it sends to its own vertices at once and runs local rounds:
//     those that improved into the buckets it took this superstep send
//     along their light edges within the superstep, until none improves
//     into them (compute/engine/worker/local_rounds.h).
//   prepare(const NodeGraphFigures&) (a member): called once before
//     superstep 0 with figures of this node's part of the graph. They differ
//     between nodes, so nothing derived from them may need to agree across
//     nodes (SSSP's bucket width: it only orders the work).
struct NodeGraphFigures {
  uint64_t out_edges = 0;   // this node's out-edges
  uint64_t weight_sum = 0;  // the sum of their weights (1 each when the program reads no weights)
};
//   aggregate(before, y, vertex, into) (a const member) instead of
//     aggregate(y, vertex, into): the vertex's contribution may depend on
//     the value its init or apply started from (`before`; at superstep 0 a
//     zero Value, or what a resumed checkpoint held) as well as the one it
//     left. The engine keeps a copy of the value across the apply, only for
//     such a program.
template <class P>
constexpr bool aggregates_change() {
  return requires(const P& p, const typename P::Value& y, const VertexInfo& v, typename P::Aggregate& agg) {
    p.aggregate(y, y, v, agg);
  };
}
template <class P>
constexpr bool prepares() {
  return requires(P& p, const NodeGraphFigures& f) { p.prepare(f); };
}
template <class P>
constexpr bool prioritized() {
  return requires(const P& p, const typename P::Value& y) {
    { p.bucket(y) } -> std::convertible_to<uint64_t>;
  };
}
template <class P>
constexpr bool splits_light_edges() {
  return prioritized<P>() && requires(const P& p) {
    { p.light_below() } -> std::same_as<Weight>;
  };
}
template <class P>
constexpr bool declares_early_phases() {
  return prioritized<P>() && requires { { P::applies_early(uint32_t{}) } -> std::same_as<bool>; };
}
template <class P>
constexpr bool applies_early(uint32_t phase) {
  if constexpr (declares_early_phases<P>()) return P::applies_early(phase);
  return false;
}
template <class P>
constexpr bool applies_only_with_messages(uint32_t phase) {
  if constexpr (declares_idle_phases<P>()) return P::applies_only_with_messages(phase);
  return false;
}
template <class P>
constexpr bool declares_uniform_phases() {
  return requires { { P::activates_uniformly(uint32_t{}) } -> std::same_as<bool>; };
}
template <class P>
constexpr bool activates_uniformly(uint32_t phase) {
  if constexpr (declares_uniform_phases<P>()) return P::activates_uniformly(phase);
  return false;
}
template <class P>
constexpr bool settles_on_message(uint32_t phase) {
  if constexpr (declares_settling_phases<P>()) return P::settles_on_message(phase);
  return false;
}
template <class P>
constexpr bool level_synchronous(uint32_t phase) {
  if constexpr (declares_level_phases<P>()) return P::level_synchronous(phase);
  return false;
}

// Messages are whole 4-byte words, at most wire::kMaxMessageBytes: records of
// 8 to 68 bytes (dataplane/wire.h; wide messages of K values:
// compute/engine/capabilities/wide_message.h).
template <class M>
concept WireMessage = std::is_trivially_copyable_v<M> && sizeof(M) % 4 == 0 && sizeof(M) <= wire::kMaxMessageBytes;

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
