// PageRank: damping d (--damping, default 0.85), initial rank 1/V, the rank
// of vertices without out-edges spread evenly over all vertices every
// iteration, exactly K iterations. Messages are the contributions rank/outdeg
// in single precision (float, the default) or double (--precision double, and
// the default for Graphalytics graphs, whose rules forbid single precision:
// Graphalytics specification, "PageRank"); ranks are kept in double either way.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <span>
#include <vector>

#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/vertex_program.h"
#include "compute/report/text.h"

namespace wg {

template <class M>
class BasicPageRank : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "pagerank",
      .summary = "PageRank, damping 0.85, from 1/V, dangling rank spread over all vertices, exactly K iterations",
      .uses_iterations = true,
      .default_iterations = 20,
      .uses_damping = true,
      .uses_precision = true,
      .graphalytics = {.algorithm = "pr", .iterations = "num-iterations", .damping = "damping-factor"},
      .graph = {},
      .output = "rank (9 significant digits)",
      .value_column = "rank",
      .ranks_top = true,
      .value_kind = ValueKind::kReal,
      .comparison = Comparison::kReal,
      .tolerance = 1e-4,  // float messages
  };
  using Value = double;
  using Message = M;
  using Aggregate = double;  // rank held by vertices without out-edges
  static constexpr double kDefaultDamping = 0.85;

  static BasicPageRank make(const ProgramParams& p, VertexId num_vertices) {
    return BasicPageRank(num_vertices, p.iterations, p.damping);
  }
  BasicPageRank(VertexId num_vertices, uint32_t iterations, double damping = kDefaultDamping)
      : inv_v_(num_vertices ? 1.0 / num_vertices : 0.0), damping_(damping), iterations_(iterations) {}

  static Message identity() { return Message{0}; }
  static Message combine(Message a, Message b) { return a + b; }

  bool init(Value& y, const VertexInfo&) const {
    y = inv_v_;
    return iterations_ > 0;
  }
  // Superstep s completes iteration s; after the K-th nothing is scattered.
  bool apply(Value& y, Message sum, const VertexInfo&, const StepInfo<Aggregate>& step) const {
    y = (1.0 - damping_) * inv_v_ + damping_ * (double{sum} + step.aggregate * inv_v_);
    return step.superstep < iterations_;
  }
  // Every vertex scatters in the same supersteps (compute/engine/vertex_program.h).
  static constexpr bool activates_uniformly(uint32_t) { return true; }
  Message scatter_value(const Value& y, const VertexInfo& v) const {
    return static_cast<Message>(v.out_degree ? y / v.out_degree : 0.0);
  }
  static Message edge_message(Message sv, Weight) { return sv; }
  // Dangling mass: spread over all vertices in the next apply.
  void aggregate(const Value& y, const VertexInfo& v, Aggregate& into) const { into += v.out_degree == 0 ? y : 0.0; }
  static void merge(Aggregate& into, const Aggregate& from) { into += from; }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%.9g", y); }
  static double sort_key(const Value& y) { return y; }

  // The end-of-run summary (compute/engine/summary_stats.h): the top ranks
  // (the cluster's top vertices) and their sum, which is 1 up to rounding.
  struct Summary {
    double sum = 0;
  };
  static Summary summarize(std::span<const Value> ranks, const LocalGraph&) {
    Summary s;
    for (const Value y : ranks) s.sum += y;
    return s;
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    double sum = 0;
    for (const Summary& n : nodes) sum += n.sum;  // rank order
    ProgramOutcome out;
    nlohmann::ordered_json top_json;
    const std::string top = top_three(c, "rank", &top_json);
    out.line = (top.empty() ? std::string() : "the top ranks: " + top + "; ") + text_printf("ranks sum to %.6f", sum);
    out.figures = {{"rank_sum", sum}, {"top", top_json}};
    return out;
  }
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);

 private:
  double inv_v_;
  double damping_;
  uint32_t iterations_;
};

using PageRank = BasicPageRank<float>;
static_assert(VertexProgram<PageRank> && VertexProgram<BasicPageRank<double>>);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Exactly `iterations` power-iteration steps from the uniform vector 1/V:
//   new[v] = (1-d)/V + d * (sum over edges u->v of rank[u]/outdeg(u) + D/V),
// D = total rank of the vertices with no out-edge (dangling), spread evenly.
// Every edge counts (multi-edges multiply, self-loops are ordinary edges).
// Ranks sum to 1 after every step. Empty for V = 0.
inline std::vector<double> pagerank(const EdgeList& g, unsigned iterations = 20, double damping = 0.85) {
  check_edges(g);
  const VertexId n = g.num_vertices;
  if (n == 0) return {};
  const double inv_n = 1.0 / n;
  std::vector<uint64_t> outdeg(n, 0);
  for (const Edge& e : g.edges) ++outdeg[e.src];
  std::vector<double> rank(n, inv_n);
  std::vector<double> incoming(n);
  for (unsigned it = 0; it < iterations; ++it) {
    double dangling = 0.0;
    for (VertexId u = 0; u < n; ++u)
      if (outdeg[u] == 0) dangling += rank[u];
    std::fill(incoming.begin(), incoming.end(), 0.0);
    for (const Edge& e : g.edges) incoming[e.dst] += rank[e.src] / outdeg[e.src];
    for (VertexId v = 0; v < n; ++v) rank[v] = (1.0 - damping) * inv_n + damping * (incoming[v] + dangling * inv_n);
  }
  return rank;
}

}  // namespace oracle

template <class M>
OracleValues BasicPageRank<M>::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = {}, .reals = oracle::pagerank(input, p.iterations, p.damping)};
}

}  // namespace wg
