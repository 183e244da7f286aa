// Which of the worker's policies a program turns on: decided at compile time
// from what the program declares (compute/engine/vertex_program.h), so that
// a program pays for its own modes only. docs/ENGINE.md has the table of
// programs and modes; each policy's header says why it exists.
//
//   kUniform     - apply without per-vertex bookkeeping (apply_pass.h): PageRank, CDLP
//   kSkipIdle    - apply only where a message arrived (apply_pass.h): BFS, CC, SSSP
//   kLevels      - LevelSteps (level_steps.h): BFS, CC
//   kSettles     - SettledDestinations (settled_destinations.h): BC
//   kOwnTakers   - OwnTakers (own_takers.h): BC
//   kPrioritized - DeltaSteps (delta_steps.h): SSSP
//   kEarly       - LocalRounds (local_rounds.h): SSSP with --local-rounds
//   kPulls       - DensePull (dense_pull.h): every program with a scalar ⊕
//                  and integer weights (PageRank, BFS, CC, SSSP)
//   kPullsOnly   - of those, the ones whose every superstep pulls (PageRank)
//   kInEdges     - InEdges (in_edges.h): phases that scatter along in-edges (SCC)
//
// A policy a program does not use is PolicyIf's empty stand-in: with
// [[no_unique_address]] it takes no room in the Worker, and the Worker
// reaches it only under `if constexpr`, so its code is never instantiated.
#pragma once

#include <type_traits>

#include "compute/engine/accumulator.h"
#include "compute/engine/capabilities/edge_direction.h"
#include "compute/engine/vertex_program.h"

namespace wg {

template <VertexProgram Prog>
struct WorkerModes {
  using Accumulator = typename AccumulatorFor<Prog>::type;
  // Messages can be combined on the sender: the receiver folds with a scalar ⊕.
  static constexpr bool kCombinable = std::is_same_v<Accumulator, ScalarAccumulator<Prog>>;
  static constexpr bool kWeights = Prog::kTraits.graph.weights;
  // Real (double) weights: sparse supersteps only (the dense copy holds
  // integer weights), never prioritized (the light-first copy holds integer
  // weights too).
  static constexpr bool kRealWeights = Prog::kTraits.graph.real_weights;
  // Some phases scatter along in-edges (or both ways) from the node's
  // in-edge blocks (compute/engine/capabilities/edge_direction.h).
  static constexpr bool kInEdges = declares_scatter_direction<Prog>() && reads_in_edges<Prog>();
  // A destination-major copy of the edges can be pulled (dense supersteps);
  // it holds the out-edges only.
  static constexpr bool kPulls = kCombinable && !kRealWeights && !kInEdges;
  // Some phases are applied only where a message arrived (after superstep 0).
  static constexpr bool kSkipIdle = kCombinable && declares_idle_phases<Prog>();
  // Some phases are level-synchronous: reached destinations are skipped,
  // dense supersteps are bottom-up.
  static constexpr bool kLevels = kCombinable && declares_level_phases<Prog>();
  // Some phases settle a destination with its first superstep's messages:
  // records to those known to have settled are dropped.
  static constexpr bool kSettles = kCombinable && declares_settling_phases<Prog>();
  // A vertex's value says whether it takes what is sent to it: a dense
  // pull skips the worker's own vertices that do not.
  static constexpr bool kOwnTakers = kCombinable && declares_takers<Prog>();
  // Improved vertices wait for their bucket (delta-stepping), and send
  // along light and heavy edges at different times.
  static constexpr bool kPrioritized = prioritized<Prog>();
  static constexpr bool kSplitsEdges = splits_light_edges<Prog>();
  static_assert(!kRealWeights || !kPrioritized, "delta-stepping's light-first copy holds integer weights");
  static_assert(!(kSettles || kOwnTakers) || (!kLevels && !kPrioritized),
                "a level-synchronous phase settles already; delta-stepping's pushes do not prune");
  static_assert(!kInEdges || !(kLevels || kSettles || kOwnTakers || kPrioritized),
                "their state describes the out-edges only (compute/engine/capabilities/edge_direction.h)");
  // Records to the worker's own vertices are applied at once, and the
  // current buckets relaxed in local rounds (with --local-rounds).
  static constexpr bool kEarly = kCombinable && declares_early_phases<Prog>();
  // A phase in which every vertex scatters or none does (PageRank): apply
  // sets the frontier whole after the pass, and counts nothing per vertex.
  static constexpr bool kUniform = declares_uniform_phases<Prog>() && !kPrioritized && !kLevels;
  // Every superstep that sends pulls, unless --scatter sparse (Worker::
  // pulls_only): uniform phases put every edge of the slice in the frontier,
  // and no mode reads the source-major edges (levels, light and heavy
  // edges, early rounds). The engine then releases the CSR's targets once
  // the dense copy is built, and the memory estimate counts that.
  static constexpr bool kPullsOnly = kPulls && kUniform && !kSplitsEdges && !kEarly;

  // This superstep's apply visits only the vertices a message arrived for.
  static bool received_only(const StepInfo<typename Prog::Aggregate>& info) {
    return kSkipIdle && info.superstep > 0 && applies_only_with_messages<Prog>(info.phase);
  }
  // This superstep's apply is uniform (never one that visits only the
  // vertices with messages).
  static bool uniform_now(const StepInfo<typename Prog::Aggregate>& info) {
    return kUniform && activates_uniformly<Prog>(info.phase) &&
           !(info.superstep > 0 && applies_only_with_messages<Prog>(info.phase));
  }
};

// A policy's stand-in when its mode is off: constructible from anything the
// real one is, holding nothing.
template <class Policy>
struct PolicyOff {
  template <class... Args>
  explicit PolicyOff(Args&&...) {}
};

// Policy when on, else an empty stand-in (naming Policy does not instantiate it).
template <bool kOn, class Policy>
using PolicyIf = std::conditional_t<kOn, Policy, PolicyOff<Policy>>;

}  // namespace wg
