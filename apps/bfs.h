// Breadth-first search: hop count from the source along directed edges.
#pragma once

#include "apps/min_label.h"

namespace wg {

class Bfs : public MinLabelBase {
 public:
  static constexpr bool kNeedsWeights = false;
  static constexpr bool kUndirected = false;

  explicit Bfs(VertexId source) : source_(source) {}

  bool init(VertexId v, Value& y) const {
    y = v == source_ ? 0 : kInfinity;
    return v == source_;
  }
  static Message edge_message(Message sv, Weight) { return sv + 1; }

 private:
  VertexId source_;
};

static_assert(VertexProgram<Bfs>);

}  // namespace wg
