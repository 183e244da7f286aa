// Weakly connected components by plain min-label propagation, in the minimal
// form (compute/engine/vertex_program.h): every vertex starts with its own id
// and sends it to its neighbours; a vertex takes the smallest label it
// receives and sends it on; the run stops when no label changed. Each vertex
// ends with the smallest id of its component, as cc's, which finds the
// giant component by a BFS first (apps/cc.h): this one sends a record per
// edge for as many supersteps as the graph's diameter, the cost a
// min-combine program pays when it declares no more than what it is.
// No oracle: --verify says it cannot check it; tests/test_minimal_programs.cc
// checks it against a union-find of its own.
#pragma once

#include "compute/engine/program_model.h"

namespace wg {

// 8< minlabel
struct MinLabelComponents {
  static constexpr ProgramTraits kTraits{
      .name = "minlabel",
      .summary = "weakly connected components by plain min-label propagation (the minimal-form example)",
      .graph = {.symmetrize = true},  // direction ignored
      .output = "smallest vertex id of the vertex's weakly connected component",
      .value_column = "component",
      .value_kind = ValueKind::kLabel,  // written as the vertex's original id
  };
  using Value = uint32_t;
  using Combine = Min<uint32_t>;  // no apply: keep the smaller of the label and the messages

  bool init(Value& y, const VertexInfo& v) const { return y = v.id, true; }
  uint32_t scatter(const Value& y) const { return y; }
};
WG_PROGRAM(MinLabelComponents);
// >8 minlabel

}  // namespace wg
