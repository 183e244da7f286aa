// One apply (or init, at s = 0) over a worker's slice: reads Σin and resets
// it to the identity, ready to receive superstep s+1's messages, adds each
// vertex's aggregate, and hands every active vertex to the worker, which
// asks its modes what to do with it (compute/engine/worker.h, apply_one).
//
// The pass visits the slice domain by domain (`in` holds one accumulator
// per domain, indexed within the domain), kApplyChunk vertices at a time,
// calling the stall hook between chunks: a long apply (cd sorts every
// vertex's labels) must not starve the network roles on a shared lcore.
// Which vertices a chunk visits is the mode's:
//   apply_every    - every vertex (the plain mode)
//   apply_received - only those a message arrived for (SkipIdle: a phase
//                    that declares applies_only_with_messages, after
//                    superstep 0): a superstep costs its frontier, not V/P
//   UniformApply   - every vertex, no per-vertex bookkeeping (uniform_apply.h)
//
// An ApplyPass is a local of Worker::apply and its members are the pass's
// locals, so that the loop keeps them in registers once inlined: a store
// through a pointer that may alias anything (value[i]) would otherwise
// reload every pointer and the program's fields from memory for the next
// vertex. That is also why it applies with a copy of the program.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "compute/engine/bitmap.h"
#include "compute/engine/frontier.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/active_sources.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

template <VertexProgram Prog>
struct ApplyPass {
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Aggregate = typename Prog::Aggregate;
  static_assert(std::is_trivially_copyable_v<Prog>, "apply works on a copy of the program");

  static constexpr uint32_t kApplyChunk = 1u << 16;  // vertices between stalls

  // reached: LevelSteps' bitmaps per group when the program has
  // level-synchronous phases, else null.
  ApplyPass(const Prog& p, const LocalGraph& graph, const WorkerSlice& slice, Value* values,
            ActiveSources<Message>& sources, const StepInfo<Aggregate>& step, Bitmap* reached)
      : prog(p), value(values), degree(graph.out_degree.data()), in_degree(graph.in_degree.data()),
        sv(sources.scatter_values()), frontier(sources.frontier()), g(graph), lo(slice.lo), hi(slice.hi),
        info(step), s(step.superstep), reached_by_group(reached) {}

  const Prog prog;
  Value* const value;
  const uint32_t* const degree;
  const uint32_t* const in_degree;
  Message* const sv;  // scatter values, indexed by i - lo
  Frontier& frontier;
  const LocalGraph& g;
  const uint32_t lo, hi;
  const StepInfo<Aggregate>& info;
  const uint32_t s;
  Bitmap* const reached_by_group;

  uint64_t active = 0;        // vertices added to the frontier
  uint64_t active_edges = 0;  // their out-edges
  Aggregate aggregate{};
  uint32_t base = 0;                // the domain at hand's first slot
  Bitmap* own_reached = nullptr;    // LevelSteps: this worker's record of that domain's reached vertices

  VertexInfo vertex(uint32_t i) const { return VertexInfo{g.global_id(i), degree[i], in_degree[i]}; }

  // Init or apply vertex i, adding it to the aggregate; whether it is active.
  template <class View>
  bool applied(uint32_t i, const View& view, const VertexInfo& v) {
    const bool a = s == 0 ? prog.init(value[i], v) : prog.apply(value[i], view, v, info);
    prog.aggregate(value[i], v, aggregate);
    return a;
  }
  // Vertex i joins the frontier.
  void enter(uint32_t i, const VertexInfo& v) {
    frontier.add(i - lo);
    ++active;
    active_edges += v.out_degree;
  }
  // ... and sends its own scatter value.
  void activate(uint32_t i, const VertexInfo& v) {
    enter(i, v);
    sv[i - lo] = prog.scatter_value(value[i], v);
  }

  // visit(acc, first, last) for each chunk [first, last) of the slice, with
  // acc the accumulator of its domain (base, own_reached set for it).
  template <class Acc, class Visit>
  void for_each_chunk(std::vector<Acc>& in, const Stall& stall, Visit&& visit) {
    for (unsigned d = 0; d < g.domains; ++d) {
      Acc& acc = in[d];
      base = g.domain_offset[d];
      if (reached_by_group != nullptr) own_reached = reached_by_group + g.group(g.rank, d);
      const uint32_t from = std::max(lo, base), to = std::min(hi, g.domain_offset[d + 1]);
      for (uint32_t first = from; first < to; first += std::min(to - first, kApplyChunk)) {
        const uint32_t last = first + std::min(to - first, kApplyChunk);
        visit(acc, first, last);
        stall(false);
      }
    }
  }
};

// The plain mode: one(i, view) for every vertex of the slice.
template <VertexProgram Prog, class Acc, class One>
void apply_every(ApplyPass<Prog>& pass, std::vector<Acc>& in, const Stall& stall, One&& one) {
  pass.for_each_chunk(in, stall, [&](Acc& acc, uint32_t first, uint32_t last) {
    for (uint32_t i = first; i < last; ++i) one(i, acc.take(i - pass.base));  // take also resets for s+1
  });
}

// SkipIdle: one(i, message) for the vertices a message arrived for only.
template <VertexProgram Prog, class Acc, class One>
void apply_received(ApplyPass<Prog>& pass, std::vector<Acc>& in, const Stall& stall, One&& one) {
  pass.for_each_chunk(in, stall, [&](Acc& acc, uint32_t first, uint32_t last) {
    const uint32_t base = pass.base;
    acc.take_received(first - base, last - base, [&](uint32_t j, typename Prog::Message m) { one(base + j, m); });
  });
}

}  // namespace wg
