// PageRank: damping 0.85, initial rank 1/V, the rank of vertices without
// out-edges spread evenly over all vertices every iteration, exactly K
// iterations. Messages are float contributions rank/outdeg; ranks are kept in
// double so that K iterations do not lose precision in the apply step.
#pragma once

#include <cstdio>

#include "compute/vertex_program.h"

namespace wg {

class PageRank : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "pagerank",
      .summary = "PageRank, damping 0.85, from 1/V, dangling rank spread over all vertices, exactly K iterations",
      .uses_iterations = true,
      .default_iterations = 20,
      .graph = {},
      .output = "rank (9 significant digits)",
      .ranks_top = true,
  };
  using Value = double;
  using Message = float;
  using Aggregate = double;  // rank held by vertices without out-edges
  static constexpr double kDamping = 0.85;

  static PageRank make(const ProgramParams& p, VertexId num_vertices) { return PageRank(num_vertices, p.iterations); }
  PageRank(VertexId num_vertices, uint32_t iterations)
      : inv_v_(num_vertices ? 1.0 / num_vertices : 0.0), iterations_(iterations) {}

  static Message identity() { return 0.0f; }
  static Message combine(Message a, Message b) { return a + b; }

  bool init(Value& y, const VertexInfo&) const {
    y = inv_v_;
    return iterations_ > 0;
  }
  // Superstep s completes iteration s; after the K-th nothing is scattered.
  bool apply(Value& y, Message sum, const VertexInfo&, const StepInfo<Aggregate>& step) const {
    y = (1.0 - kDamping) * inv_v_ + kDamping * (double{sum} + step.aggregate * inv_v_);
    return step.superstep < iterations_;
  }
  Message scatter_value(const Value& y, const VertexInfo& v) const {
    return static_cast<Message>(v.out_degree ? y / v.out_degree : 0.0);
  }
  static Message edge_message(Message sv, Weight) { return sv; }
  // Dangling mass: spread over all vertices in the next apply.
  void aggregate(const Value& y, const VertexInfo& v, Aggregate& into) const { into += v.out_degree == 0 ? y : 0.0; }
  static void merge(Aggregate& into, const Aggregate& from) { into += from; }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%.9g", y); }
  static double sort_key(const Value& y) { return y; }

 private:
  double inv_v_;
  uint32_t iterations_;
};

static_assert(VertexProgram<PageRank>);

}  // namespace wg
