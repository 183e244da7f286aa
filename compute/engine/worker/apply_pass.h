// The apply step: one apply (or init, at s = 0) over a worker's slice. It
// reads Σin and resets it to the identity, ready to receive superstep s+1's
// messages, adds each vertex's aggregate, and builds the frontier: an
// active vertex joins it with its scatter value, or, in a level-synchronous
// phase, is reached (LevelSteps), or, for a prioritized program, waits for
// its bucket (DeltaSteps::wait). In a settling phase a vertex that received
// a message is noted as settled (SettledDestinations).
//
// The slice is visited domain by domain (`in` holds one accumulator per
// domain, indexed within the domain), kApplyChunk vertices at a time, with
// the stall hook between chunks: a long apply (cd sorts every vertex's
// labels) must not starve the network roles on a shared lcore. Which
// vertices a chunk visits is the mode's (compute/engine/worker/modes.h):
//   every vertex    - the plain mode
//   only received   - SkipIdle: a phase that declares
//                     applies_only_with_messages, after superstep 0, applies
//                     only the vertices Σin holds a message for, so a
//                     superstep costs its frontier, not V/P
//   uniform         - a phase that activates uniformly (PageRank, CDLP): the
//                     per-vertex bookkeeping of an activation (a frontier
//                     bit, its list, three counters) cost PageRank more than
//                     its arithmetic, so the pass only applies and takes each
//                     active vertex's scatter value, and sets the frontier
//                     whole afterwards: if one vertex is active, all are
//
// Why one function with locals and lambdas rather than an object per mode:
// the pass's figures (counters, the aggregate, the domain's base) and
// pointers must stay in registers, and GCC keeps them there only as scalars
// of the function that runs the loop. Held in a struct that the loops'
// lambdas capture, they stayed in memory: BFS's apply took 38% more
// instructions, CC's 14%, PageRank's 6% (callgrind, docs/ENGINE.md). A store
// through a pointer that may alias anything (value[i]) would also reload
// every pointer and the program's fields from memory for the next vertex;
// hence the copy of the program.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "compute/engine/bitmap.h"
#include "compute/engine/frontier.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/vertex_info.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/active_sources.h"
#include "compute/engine/worker/modes.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

// What a pass leaves besides the frontier.
template <class Aggregate>
struct ApplyOutcome {
  uint64_t active = 0;        // vertices added to the frontier
  uint64_t active_edges = 0;  // their out-edges
  Aggregate aggregate{};      // the merge of aggregate() over the slice, in vertex order
};

inline constexpr uint32_t kApplyChunk = 1u << 16;  // vertices between stalls

// The pass. levels, settled, delta: the worker's LevelSteps,
// SettledDestinations and DeltaSteps (empty stand-ins when the program has
// no such mode).
template <VertexProgram Prog, class Acc, class Levels, class Settled, class Delta>
ApplyOutcome<typename Prog::Aggregate> apply_pass(const Prog& program, const LocalGraph& g, const WorkerSlice& slice,
                                                  const StepInfo<typename Prog::Aggregate>& info,
                                                  typename Prog::Value* values, std::vector<Acc>& in,
                                                  ActiveSources<typename Prog::Message>& active, Levels& levels,
                                                  Settled& settled, Delta& delta, const Stall& stall) {
  using Modes = WorkerModes<Prog>;
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Aggregate = typename Prog::Aggregate;
  static_assert(std::is_trivially_copyable_v<Prog>, "apply works on a copy of the program");
  const uint32_t s = info.superstep;
  uint64_t n_active = 0, active_edges = 0;
  Aggregate agg{};
  const Prog prog = program;
  Value* const value = values;
  const uint32_t* const degree = g.out_degree.data();
  const uint32_t* const in_degree = g.in_degree.data();
  Message* const sv = active.scatter_values();  // indexed by i - lo
  Frontier& frontier = active.frontier();
  const uint32_t lo = slice.lo, hi = slice.hi;
  Bitmap* own_reached = nullptr;  // LevelSteps: this worker's record of the domain's reached vertices
  uint32_t base = 0;              // the domain's first slot
  // Derived here, not passed in: a constant for a program whose phases are
  // all level-synchronous (BFS), and so no test per vertex.
  const bool levels_now = Modes::kLevels && level_synchronous<Prog>(info.phase);

  auto vertex = [&](uint32_t i) { return VertexInfo{g.global_id(i), degree[i], in_degree[i], out_weight_of<Prog>(g, i)}; };
  // Init or apply vertex i, adding it to the aggregate; whether it is active.
  auto applied = [&](uint32_t i, const auto& view, const VertexInfo& v) {
    if constexpr (aggregates_change<Prog>()) {
      const Value before = value[i];
      const bool a = s == 0 ? prog.init(value[i], v) : prog.apply(value[i], view, v, info);
      prog.aggregate(before, value[i], v, agg);
      return a;
    } else {
      const bool a = s == 0 ? prog.init(value[i], v) : prog.apply(value[i], view, v, info);
      prog.aggregate(value[i], v, agg);
      return a;
    }
  };
  auto enter = [&](uint32_t i, const VertexInfo& v) {
    frontier.add(i - lo);
    ++n_active;
    active_edges += v.out_degree;
  };
  auto one = [&](uint32_t i, const auto& view) {
    const VertexInfo v = vertex(i);
    if (!applied(i, view, v)) return;
    if constexpr (Modes::kPrioritized) {  // improved: scatters with its bucket
      delta.wait(i - lo, prog.bucket(value[i]));
      return;
    }
    if constexpr (Modes::kLevels) {
      if (levels_now) {  // every active vertex sends the same: no scatter value each
        enter(i, v);
        own_reached->set(i - base);
        levels.set_message(Prog::edge_message(prog.scatter_value(value[i], v), 1));
        return;
      }
    }
    enter(i, v);
    sv[i - lo] = prog.scatter_value(value[i], v);
  };
  const bool uniform = Modes::uniform_now(info);
  bool uniform_any = false, uniform_all = true;
  auto one_uniform = [&](uint32_t i, const auto& view) {
    const VertexInfo v = vertex(i);
    const bool a = applied(i, view, v);
    uniform_any |= a;
    uniform_all &= a;
    if (a) sv[i - lo] = prog.scatter_value(value[i], v);
  };
  const bool received_only = Modes::received_only(info);

  for (unsigned d = 0; d < g.domains; ++d) {
    Acc& acc = in[d];
    base = g.domain_offset[d];
    if constexpr (Modes::kLevels) own_reached = levels.reached_by_group() + g.group(g.rank, d);
    const uint32_t from = std::max(lo, base), to = std::min(hi, g.domain_offset[d + 1]);
    for (uint32_t first = from; first < to; first += std::min(to - first, kApplyChunk)) {
      const uint32_t last = first + std::min(to - first, kApplyChunk);
      if constexpr (Modes::kSkipIdle) {
        if (received_only) {
          Bitmap* own_settled = nullptr;  // SettledDestinations: this worker's record of the domain's settled vertices
          if constexpr (Modes::kSettles) own_settled = settled.own_received(g, d);
          acc.take_received(first - base, last - base, [&](uint32_t j, Message m) {
            if constexpr (Modes::kSettles) {
              if (own_settled) own_settled->set(j);
            }
            one(base + j, m);
          });
          stall(false);
          continue;
        }
      }
      if constexpr (Modes::kUniform) {
        if (uniform) {
          for (uint32_t i = first; i < last; ++i) one_uniform(i, acc.take(i - base));
          stall(false);
          continue;
        }
      }
      for (uint32_t i = first; i < last; ++i) one(i, acc.take(i - base));  // take also resets for s+1
      stall(false);
    }
  }
  if constexpr (Modes::kUniform) {
    if (uniform && uniform_any) {  // one vertex active: every vertex is
      if (!uniform_all) {          // a program that broke its declaration: still defined
        for (uint32_t i = lo; i < hi; ++i) sv[i - lo] = prog.scatter_value(value[i], vertex(i));
      }
      frontier.add_all();
      n_active = hi - lo;
      active_edges = slice.edges;
    }
  }
  return {n_active, active_edges, agg};
}

}  // namespace wg
