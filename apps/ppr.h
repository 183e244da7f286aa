// Personalized PageRank from K seeds in one run (--app ppr --seeds LIST|FILE):
// for each seed s, networkx's pagerank(G, alpha=0.85, personalization={s: 1})
// with its default dangling=None: from 1/V everywhere, each iteration
//   x[v] = d * (Σ x[u]/outdeg(u) over in-edges u->v) + [v = s] (d * D + 1 - d),
// D = the rank the vertices without out-edges hold (it goes where the
// personalization vector points: to s). Exactly N iterations (--iterations N,
// default 20, like pagerank), or with --tolerance T until every seed's L1
// change is below V x T (networkx's rule per seed; the run stops when the last
// seed converges, so the others have iterated a little longer), at most N.
//
// The K values of a vertex travel together in one message of float lanes
// (compute/engine/capabilities/wide_message.h). K is a run-time option, a
// message's width a compile-time one: BasicPpr<W> is instantiated for W = 1,
// 2, 4, 8, 16 and the narrowest that holds K runs (apps/programs.h, Widths);
// lanes beyond K stay zero. Output: per vertex the K values (ppr_<seed>
// columns, compute/engine/capabilities/multi_value.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "compute/engine/capabilities/multi_value.h"
#include "compute/engine/capabilities/wide_message.h"
#include "compute/engine/oracle.h"
#include "compute/engine/program_model.h"
#include "apps/program_list.h"
#include "compute/engine/vertex_program.h"
#include "config/option_values.h"

namespace wg {

// The seeds' dense ids (id - first_id; as the loader looked them up where it
// maps the ids; without --seeds, the source). A seed that is no vertex is
// refused: a ConfigError every node raises alike, before superstep 0 (the
// loader refuses a mapped one).
inline std::vector<VertexId> ppr_seed_ids(const ProgramParams& p, VertexId num_vertices) {
  if (!p.seeds_given) return {static_cast<VertexId>(p.source)};
  if (!p.seeds_dense.empty()) return p.seeds_dense;
  std::vector<VertexId> dense;
  for (const int64_t id : p.seed_ids) {
    const int64_t v = id - p.first_id, last = p.first_id + int64_t{num_vertices} - 1;
    if (v < 0 || v >= int64_t{num_vertices})
      throw ConfigError("--seeds: " + std::to_string(id) + " is not a vertex of the graph: its ids are " +
                        std::to_string(p.first_id) + ".." + std::to_string(last) +
                        "; the nearest id that is a vertex is " + std::to_string(v < 0 ? p.first_id : last));
    dense.push_back(static_cast<VertexId>(v));
  }
  return dense;
}

// The same in the lanes of a message of width W, kNoSeed beyond them.
inline constexpr VertexId kNoSeed = ~VertexId{0};
template <unsigned W>
struct PprSeeds {
  VertexId id[W];
  uint32_t k;
};
template <unsigned W>
PprSeeds<W> ppr_seeds(const ProgramParams& p, VertexId num_vertices) {
  const std::vector<VertexId> dense = ppr_seed_ids(p, num_vertices);
  if (dense.size() > W)
    throw ConfigError("--seeds: " + std::to_string(dense.size()) + " seeds do not fit a message of " +
                      std::to_string(W));
  PprSeeds<W> out{{}, static_cast<uint32_t>(dense.size())};
  std::fill_n(out.id, W, kNoSeed);
  std::copy(dense.begin(), dense.end(), out.id);
  return out;
}

template <unsigned W>
struct BasicPpr : ProgramBase, MultiValueOutput<W> {
  static constexpr ProgramTraits kTraits{
      .name = "ppr", .summary = "personalized PageRank from each of K <= 16 seeds (--seeds; networkx's pagerank("
                                "personalization={s: 1})), damping 0.85, N iterations or --tolerance",
      .uses_source = true, .uses_seeds = true, .uses_iterations = true, .default_iterations = 20,
      .uses_damping = true, .uses_tolerance = true, .output = "a rank per seed", .value_column = "ppr",
      .ranks_top = true, .value_kind = ValueKind::kReal, .comparison = Comparison::kReal, .tolerance = 1e-4};
  using Value = LaneValues<W>;  // lanes beyond the seeds stay 0
  using Message = WideMessage<float, W>;
  struct Aggregate { WideMessage<double, W> sink, change; };  // per seed: the rank without out-edges, L1 change
  PprSeeds<W> seeds;
  uint32_t iterations;
  double d, inv_v, stop_below;  // damping, 1/V, V x tolerance
  static BasicPpr make(const ProgramParams& p, VertexId n) {
    return {{}, {}, ppr_seeds<W>(p, n), p.iterations, p.damping, n ? 1.0 / n : 0, p.tolerance * n};
  }
  static Message identity() { return {}; }
  static Message combine(Message a, Message b) { return a + b; }
  bool init(Value& y, const VertexInfo&) const { return y = Value::first(seeds.k, inv_v), iterations > 0; }
  bool apply(Value& y, Message in, const VertexInfo& v, const StepInfo<Aggregate>& s) const {
    for (unsigned j = 0; j < W; ++j) y.r[j] = d * in[j] + (v.id == seeds.id[j] ? d * s.aggregate.sink[j] + 1 - d : 0);
    return s.superstep < iterations;
  }
  static constexpr bool activates_uniformly(uint32_t) { return true; }  // every vertex scatters while iterating
  Message scatter_value(const Value& y, const VertexInfo& v) const {
    return Message::scaled(y.r, v.out_degree ? 1.0 / v.out_degree : 0.0);
  }
  static Message edge_message(Message m, Weight) { return m; }
  void aggregate(const Value& b, const Value& y, const VertexInfo& v, Aggregate& t) const {  // b: y before apply
    for (unsigned j = 0; j < W; ++j) t.sink[j] += v.out_degree ? 0 : y.r[j], t.change[j] += std::fabs(y.r[j] - b.r[j]);
  }
  static void merge(Aggregate& a, const Aggregate& b) { a = {a.sink + b.sink, a.change + b.change}; }
  Decision next(const StepOutcome<Aggregate>& done) const {  // with --tolerance: stop once every seed converged
    bool converged = stop_below > 0 && done.superstep > 0;
    for (unsigned j = 0; j < seeds.k; ++j) converged &= done.aggregate.change[j] < stop_below;
    return {done.active == 0 || converged, done.phase};
  }
  static std::vector<std::string> value_columns(const ProgramParams& p);  // ppr_<seed>
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
};

using Ppr = BasicPpr<1>;
static_assert(VertexProgram<BasicPpr<16>> && MultiValued<Ppr>);
WG_PROGRAM(Ppr);

// K seeds run on the narrowest message that holds them (apps/registry.cc).
template <>
struct Widths<Ppr> {
  using type = ProgramList<BasicPpr<1>, BasicPpr<2>, BasicPpr<4>, BasicPpr<8>, BasicPpr<16>>;
};

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// networkx's power iteration for personalization {s: 1}, dangling=None, from
// 1/V, for each seed s (column j of the V x K result, vertex-major):
// `iterations` steps, or with tolerance > 0 until every seed's step changed
// its ranks by less than V x tolerance in L1 (the engine stops the seeds
// together, at the slowest one's convergence).
inline std::vector<double> personalized_pagerank(const EdgeList& g, const std::vector<VertexId>& seeds,
                                                 unsigned iterations, double damping, double tolerance) {
  check_edges(g);
  for (const VertexId s : seeds) check_source(g, s);
  const VertexId n = g.num_vertices;
  const size_t k = seeds.size();
  std::vector<uint64_t> outdeg(n, 0);
  for (const Edge& e : g.edges) ++outdeg[e.src];
  std::vector<double> x(n * k, 1.0 / n), next(n * k);
  for (unsigned it = 0; it < iterations; ++it) {
    bool converged = tolerance > 0;
    for (size_t j = 0; j < k; ++j) {
      double dangling = 0;
      for (VertexId u = 0; u < n; ++u)
        if (outdeg[u] == 0) dangling += x[u * k + j];
      for (VertexId v = 0; v < n; ++v) next[v * k + j] = 0;
      for (const Edge& e : g.edges) next[e.dst * k + j] += damping * x[e.src * k + j] / outdeg[e.src];
      next[seeds[j] * k + j] += damping * dangling + (1 - damping);
      double change = 0;
      for (VertexId v = 0; v < n; ++v) change += std::fabs(next[v * k + j] - x[v * k + j]);
      converged = converged && change < n * tolerance;
    }
    x.swap(next);
    if (converged) break;
  }
  return x;
}

}  // namespace oracle

template <unsigned W>
OracleValues BasicPpr<W>::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = {},
          .reals = oracle::personalized_pagerank(input, ppr_seed_ids(p, input.num_vertices), p.iterations, p.damping,
                                                 p.tolerance)};
}

template <unsigned W>
std::vector<std::string> BasicPpr<W>::value_columns(const ProgramParams& p) {
  std::vector<std::string> names;
  for (const int64_t id : p.seed_ids) names.push_back("ppr_" + std::to_string(id));
  if (names.empty()) names.push_back("ppr_" + std::to_string(static_cast<int64_t>(p.source) + p.first_id));
  return names;
}

}  // namespace wg
