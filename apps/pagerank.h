// PageRank: damping d (--damping, default 0.85), initial rank 1/V, the rank
// of vertices without out-edges spread evenly over all vertices every
// iteration, exactly K iterations (Graphalytics, GAP), or with --tolerance T
// until the L1 change of the ranks over one iteration is below V x T
// (networkx's rule), at most K (then 100 by default, networkx's max_iter).
// Messages are the contributions rank/outdeg
// in single precision (float, the default) or double (--precision double, and
// the default for Graphalytics graphs, whose rules forbid single precision:
// Graphalytics specification, "PageRank"); ranks are kept in double either way.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "compute/engine/oracle.h"
#include "compute/engine/program_model.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/vertex_program.h"
#include "compute/report/text.h"

namespace wg {

class WeightedPageRank;

template <class M>
class BasicPageRank : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "pagerank",
      .summary = "PageRank, damping 0.85, from 1/V, dangling rank spread over all vertices, exactly K iterations, "
                 "or with --tolerance T until the ranks' L1 change is below V x T (networkx); --weighted: "
                 "by the edges' weights (networkx's weight='weight')",
      .uses_iterations = true,
      .default_iterations = 20,
      .uses_damping = true,
      .uses_tolerance = true,
      .uses_precision = true,
      .uses_weighted = true,  // apps/pagerank_weighted.h
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
  struct Aggregate {
    double dangling;  // rank held by vertices without out-edges
    double change;    // the L1 change of the ranks in this superstep's apply (--tolerance)
  };
  static constexpr double kDefaultDamping = 0.85;
  // What --precision double and --weighted run instead (apps/program_list.h).
  using DoublePrecisionTwin = BasicPageRank<double>;
  using WeightedTwin = WeightedPageRank;  // apps/pagerank_weighted.h

  static BasicPageRank make(const ProgramParams& p, VertexId num_vertices) {
    return BasicPageRank(num_vertices, p.iterations, p.damping, p.tolerance);
  }
  // tolerance 0: exactly `iterations` iterations.
  BasicPageRank(VertexId num_vertices, uint32_t iterations, double damping = kDefaultDamping, double tolerance = 0)
      : inv_v_(num_vertices ? 1.0 / num_vertices : 0.0),
        damping_(damping),
        stop_below_(tolerance * num_vertices),
        iterations_(iterations),
        tolerance_(tolerance) {}

  static Message identity() { return Message{0}; }
  static Message combine(Message a, Message b) { return a + b; }

  bool init(Value& y, const VertexInfo&) const {
    y = inv_v_;
    return iterations_ > 0;
  }
  // Superstep s completes iteration s; after the K-th nothing is scattered.
  bool apply(Value& y, Message sum, const VertexInfo&, const StepInfo<Aggregate>& step) const {
    y = (1.0 - damping_) * inv_v_ + damping_ * (double{sum} + step.aggregate.dangling * inv_v_);
    return step.superstep < iterations_;
  }
  // Every vertex scatters in the same supersteps (compute/engine/vertex_program.h).
  static constexpr bool activates_uniformly(uint32_t) { return true; }
  Message scatter_value(const Value& y, const VertexInfo& v) const {
    return static_cast<Message>(v.out_degree ? y / v.out_degree : 0.0);
  }
  static Message edge_message(Message sv, Weight) { return sv; }
  // Dangling mass: spread over all vertices in the next apply. The change:
  // networkx's err, read by next() at the end of the same superstep.
  void aggregate(const Value& before, const Value& y, const VertexInfo& v, Aggregate& into) const {
    into.dangling += v.out_degree == 0 ? y : 0.0;
    into.change += std::fabs(y - before);
  }
  static void merge(Aggregate& into, const Aggregate& from) {
    into.dangling += from.dangling;
    into.change += from.change;
  }
  // Superstep s >= 1 completed iteration s, and its aggregate holds that
  // iteration's L1 change: below V x T the run stops there, so the ranks are
  // those of the iteration that met the rule, as networkx returns them (the
  // records this superstep sent are never applied). Without a tolerance, or
  // short of it, the run stops after iteration K, when no vertex is active.
  // The figures stay in the program for the summary (and in checkpoints).
  Decision next(const StepOutcome<Aggregate>& done) {
    if (done.superstep > 0) {
      iterations_run_ = done.superstep;
      last_change_ = done.aggregate.change;
      converged_ = tolerance_ > 0 && last_change_ < stop_below_;
    }
    return {done.active == 0 || converged_, done.phase};
  }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%.9g", y); }
  static double sort_key(const Value& y) { return y; }

  // The end-of-run summary (compute/engine/summary_stats.h): the iterations
  // run and, with a tolerance, whether they converged; the top ranks (the
  // cluster's top vertices) and their sum, which is 1 up to rounding. Every
  // node's program took the same decisions: node 0's figures say them.
  struct Summary {
    double sum = 0;
    double tolerance = 0;
    double last_change = 0;  // the L1 change of the last iteration
    double stop_below = 0;   // V x tolerance
    uint32_t iterations = 0;
    uint32_t cap = 0;
    bool converged = false;
  };
  Summary summarize(std::span<const Value> ranks, const LocalGraph&) const {
    Summary s{.tolerance = tolerance_,
              .last_change = last_change_,
              .stop_below = stop_below_,
              .iterations = iterations_run_,
              .cap = iterations_,
              .converged = converged_};
    for (const Value y : ranks) s.sum += y;
    return s;
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    double sum = 0;
    for (const Summary& n : nodes) sum += n.sum;  // rank order
    ProgramOutcome out;
    nlohmann::ordered_json top_json;
    const std::string top = top_three(c, "rank", &top_json);
    const Summary& run = nodes.empty() ? Summary{} : nodes[0];
    std::string iterations = text_printf("%u iterations", run.iterations);
    if (run.tolerance > 0)
      iterations += run.converged ? text_printf(", converged (L1 change %.3g < V x tolerance %.3g)", run.last_change,
                                                run.stop_below)
                                  : text_printf(", not converged (L1 change %.3g, not below V x tolerance %.3g)",
                                                run.last_change, run.stop_below);
    out.line = iterations + "; " + (top.empty() ? std::string() : "the top ranks: " + top + "; ") +
               text_printf("ranks sum to %.6f", sum);
    out.figures = {{"iterations", run.iterations}, {"rank_sum", sum}, {"top", top_json}};
    if (run.tolerance > 0) {
      out.figures["tolerance"] = run.tolerance;
      out.figures["converged"] = run.converged;
      out.figures["last_change"] = run.last_change;
      if (!run.converged)
        out.warnings.push_back(text_printf(
            "PageRank did not converge in %u iterations (the L1 change of the last, %.3g, is not below V x "
            "tolerance %.3g): these ranks are the last iteration's, where networkx raises "
            "PowerIterationFailedConvergence; raise --iterations or --tolerance",
            run.iterations, run.last_change, run.stop_below));
    }
    return out;
  }
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);

 protected:  // the weighted twin (apps/pagerank_weighted.h) shares them
  double inv_v_;
  double damping_;
  double stop_below_;  // V x tolerance: the L1 change under which the run has converged
  uint32_t iterations_;  // the cap, with a tolerance
  double tolerance_;     // 0: none, exactly iterations_ iterations
  // Kept by next(), identical on every node.
  uint32_t iterations_run_ = 0;
  double last_change_ = 0;
  bool converged_ = false;
};

using PageRank = BasicPageRank<float>;
static_assert(VertexProgram<BasicPageRank<double>>);
WG_PROGRAM(PageRank);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// `iterations` power-iteration steps from the uniform vector 1/V:
//   new[v] = (1-d)/V + d * (sum over edges u->v of rank[u]/outdeg(u) + D/V),
// D = total rank of the vertices with no out-edge (dangling), spread evenly.
// Every edge counts (multi-edges multiply, self-loops are ordinary edges).
// Ranks sum to 1 after every step. With tolerance > 0 it stops after the
// first step whose L1 change sum |new[v] - rank[v]| is below V x tolerance
// and returns that step's ranks (networkx.pagerank's rule, which raises
// where this returns the last step's). Empty for V = 0.
// The power iteration of both PageRank oracles (this one and the weighted
// one, apps/pagerank_weighted.h): from 1/V, each step `spread(rank,
// incoming)` adds every edge's share of the ranks into `incoming` (zeroed)
// and returns the dangling rank D; the step's ranks are
// (1-d)/V + d * (incoming + D/V), and the tolerance rule is networkx's.
template <class Spread>
std::vector<double> power_iteration(VertexId n, unsigned iterations, double damping, double tolerance,
                                    Spread&& spread) {
  if (n == 0) return {};
  const double inv_n = 1.0 / n;
  std::vector<double> rank(n, inv_n);
  std::vector<double> incoming(n);
  for (unsigned it = 0; it < iterations; ++it) {
    std::fill(incoming.begin(), incoming.end(), 0.0);
    const double dangling = spread(rank, incoming);
    double change = 0.0;
    for (VertexId v = 0; v < n; ++v) {
      const double next = (1.0 - damping) * inv_n + damping * (incoming[v] + dangling * inv_n);
      change += std::fabs(next - rank[v]);
      rank[v] = next;
    }
    if (tolerance > 0 && change < n * tolerance) break;
  }
  return rank;
}

inline std::vector<double> pagerank(const EdgeList& g, unsigned iterations = 20, double damping = 0.85,
                                    double tolerance = 0) {
  check_edges(g);
  std::vector<uint64_t> outdeg(g.num_vertices, 0);
  for (const Edge& e : g.edges) ++outdeg[e.src];
  return power_iteration(g.num_vertices, iterations, damping, tolerance,
                         [&](const std::vector<double>& rank, std::vector<double>& incoming) {
                           double dangling = 0.0;
                           for (VertexId u = 0; u < g.num_vertices; ++u)
                             if (outdeg[u] == 0) dangling += rank[u];
                           for (const Edge& e : g.edges) incoming[e.dst] += rank[e.src] / outdeg[e.src];
                           return dangling;
                         });
}

}  // namespace oracle

template <class M>
OracleValues BasicPageRank<M>::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = {}, .reals = oracle::pagerank(input, p.iterations, p.damping, p.tolerance)};
}

}  // namespace wg

#include "apps/pagerank_weighted.h"  // the WeightedTwin
