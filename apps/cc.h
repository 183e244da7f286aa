// Weakly connected components by min-label propagation: the graph is made
// undirected (every edge also reversed) and each vertex ends with the
// smallest vertex id of its component.
#pragma once

#include "apps/min_label.h"

namespace wg {

class ConnectedComponents : public MinLabelBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "cc",
      .summary = "weakly connected components (direction ignored) by min-label propagation",
      .graph = {.symmetrize = true},
      .output = "smallest vertex id of the vertex's weakly connected component",
      .value_kind = ValueKind::kLabel,
  };
  static ConnectedComponents make(const ProgramParams&, VertexId) { return {}; }

  bool init(Value& y, const VertexInfo& v) const {
    y = v.id;
    return true;
  }
  static Message edge_message(Message sv, Weight) { return sv; }
};

static_assert(VertexProgram<ConnectedComponents>);

}  // namespace wg
