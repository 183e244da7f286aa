// PageRank: damping 0.85, initial rank 1/V, the rank of vertices without
// out-edges spread evenly over all vertices every iteration, exactly K
// iterations. Messages are float contributions rank/outdeg; ranks are kept in
// double so that K iterations do not lose precision in the apply step.
#pragma once

#include <cstdio>

#include "compute/vertex_program.h"

namespace wg {

class PageRank {
 public:
  using Value = double;
  using Message = float;
  static constexpr bool kNeedsWeights = false;
  static constexpr bool kUndirected = false;
  static constexpr double kDamping = 0.85;

  PageRank(VertexId num_vertices, uint32_t iterations)
      : inv_v_(num_vertices ? 1.0 / num_vertices : 0.0), iterations_(iterations) {}

  static Message identity() { return 0.0f; }
  static Message combine(Message a, Message b) { return a + b; }

  bool init(VertexId, Value& y) const {
    y = inv_v_;
    return iterations_ > 0;
  }
  // Superstep s completes iteration s; after the K-th nothing is scattered.
  bool apply(Value& y, Message sum, const StepInfo& step) const {
    y = (1.0 - kDamping) * inv_v_ + kDamping * (double{sum} + step.aggregate * inv_v_);
    return step.superstep < iterations_;
  }
  Message scatter_value(const Value& y, uint32_t deg) const {
    return static_cast<Message>(deg ? y / deg : 0.0);
  }
  static Message edge_message(Message sv, Weight) { return sv; }
  // Dangling mass: spread over all vertices in the next apply.
  double aggregate(const Value& y, uint32_t deg) const { return deg == 0 ? y : 0.0; }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%.9g", y); }
  static double sort_key(const Value& y) { return y; }

 private:
  double inv_v_;
  uint32_t iterations_;
};

static_assert(VertexProgram<PageRank>);

}  // namespace wg
