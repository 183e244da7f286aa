// The uniform mode (PageRank, CDLP): a phase in which init() and apply()
// return the same for every vertex (activates_uniformly,
// compute/engine/vertex_program.h). The per-vertex bookkeeping of an
// activation (a frontier bit, its list, three counters) cost PageRank more
// than its arithmetic; so the pass only applies and takes each active
// vertex's scatter value, and the frontier is set whole after it: if any
// vertex was active, every vertex of the slice scatters.
//
// No state between supersteps; a pass's figures are its locals.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/engine/program_driver.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/apply_pass.h"
#include "compute/engine/worker/modes.h"

namespace wg {

template <VertexProgram Prog>
struct UniformApply {
  // Whether this superstep's pass is uniform (never one that applies only
  // where messages arrived: that one visits only those).
  static bool now(const StepInfo<typename Prog::Aggregate>& info) {
    return WorkerModes<Prog>::kUniform && activates_uniformly<Prog>(info.phase) &&
           !(info.superstep > 0 && applies_only_with_messages<Prog>(info.phase));
  }

  // The pass; slice_edges: the slice's out-edges.
  template <class Acc>
  static void run(ApplyPass<Prog>& pass, std::vector<Acc>& in, const Stall& stall, uint64_t slice_edges) {
    bool any = false, all = true;
    pass.for_each_chunk(in, stall, [&](Acc& acc, uint32_t first, uint32_t last) {
      for (uint32_t i = first; i < last; ++i) {
        const VertexInfo v = pass.vertex(i);
        const bool a = pass.applied(i, acc.take(i - pass.base), v);
        any |= a;
        all &= a;
        if (a) pass.sv[i - pass.lo] = pass.prog.scatter_value(pass.value[i], v);
      }
    });
    if (!any) return;  // else one vertex active: every vertex is
    if (!all) {        // a program that broke its declaration: still defined
      for (uint32_t i = pass.lo; i < pass.hi; ++i) pass.sv[i - pass.lo] = pass.prog.scatter_value(pass.value[i], pass.vertex(i));
    }
    pass.frontier.add_all();
    pass.active = pass.hi - pass.lo;
    pass.active_edges = slice_edges;
  }
};

}  // namespace wg
