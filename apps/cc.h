// Weakly connected components by min-label propagation: the graph is made
// undirected (every edge also reversed) and each vertex ends with the
// smallest vertex id of its component.
#pragma once

#include "apps/min_label.h"

namespace wg {

class ConnectedComponents : public MinLabelBase {
 public:
  static constexpr bool kNeedsWeights = false;
  static constexpr bool kUndirected = true;

  bool init(VertexId v, Value& y) const {
    y = v;
    return true;
  }
  static Message edge_message(Message sv, Weight) { return sv; }
};

static_assert(VertexProgram<ConnectedComponents>);

}  // namespace wg
