// The optional engine hints of a vertex program, and how the engine detects
// them: declarations that let the engine do less work for the same results
// (compute/engine/vertex_program.h is the contract every program writes; these
// are what a program may add). Each detector keeps the name the engine and
// the programs have always used.
#pragma once

#include <concepts>
#include <cstdint>

#include "compute/engine/step_info.h"
#include "compute/graph/types.h"

namespace wg {

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
//     A program whose values are path lengths does not write these: it
//     derives from PathLengths (compute/engine/capabilities/path_lengths.h),
//     which supplies prepare, bucket and light_below with the engine's delta.
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
//     nodes (PathLengths' bucket width: it only orders the work).
//     (NodeGraphFigures: compute/engine/step_info.h)
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

}  // namespace wg
