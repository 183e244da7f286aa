// Betweenness centrality (Brandes 2001) from one source (--source S, GAP's
// `bc -r S`) or from K sources (--sources K, GAP's `bc -i K`, picked as GAP
// picks them: GapSourcePicker below), on the undirected simple graph
// (directions ignored, self-loops and duplicate edges dropped: a vertex sends
// its dependency back to its predecessors along its own edges). As GAP's bc:
// a vertex's score is the sum over the sources s of its dependency
// delta_s(v) = sum over successors w of sigma_v / sigma_w * (1 + delta_s(w)),
// the source's own included, and the scores are divided by the largest (the
// top vertex has 1; all stay 0 when every score is 0). --normalize networkx
// or none gives networkx's betweenness_centrality instead (the sources' own
// dependencies left out, scaled as networkx scales an undirected graph's);
// --sources all sweeps from every vertex, as networkx does without k.
//
// Per source, in supersteps:
//   phase 0 (seed)      every vertex forgets the last source's paths; the
//                       source takes depth 0 and 1 path and sends it; the
//                       aggregate says the source's degree (with --sources,
//                       a source without edges is passed over, as GAP does)
//   phase 1 (forward)   a vertex reached for the first time, at level d, takes
//                       depth d and as many shortest paths (sigma) as the sum
//                       of its messages, and sends sigma on; until no vertex
//                       is reached. Not level-synchronous: the messages carry
//                       path counts, which a bottom-up pull would cut short;
//                       but settling (with the seed): nothing goes to a
//                       vertex known to be reached.
//   phase 2 (backward)  from the deepest level L down to 0, one superstep
//                       each: the vertices at the level take
//                       delta = sigma * (the sum of their messages), add it to
//                       their score and send (1 + delta) / sigma; only the
//                       vertices one level up apply what they receive (a
//                       dense pull skips the worker's own others, and in the
//                       forward phase its reached ones: takes_messages).
//   phase 3 (normalise) every score divided by the largest (the aggregate of
//                       the last backward superstep), or scaled as networkx's,
//                       after the last source.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/vertex_program.h"
#include "compute/report/text.h"
#include "compute/engine/program_model.h"

namespace wg {

// GAP's SourcePicker (gapbs src/benchmark.h) without a given source: a
// std::mt19937_64 seeded with kRandSeed = 27491095 feeds GAP's UniDist over
// [0, V-1] (src/generator.h) with NodeID int32_t, so that each draw keeps the
// low 32 bits of the generator's output and rejects those at or above a
// cutoff computed in 32 bits, as GAP's does; the caller rejects a candidate
// without out-edges and asks again. The generator is part of the program's
// state (trivially copyable, as a program must be): every node draws the same.
inline constexpr uint64_t kGapRandSeed = 27491095;
struct GapSourcePicker {
  std::mt19937_64 rng{kGapRandSeed};
  VertexId candidate(VertexId num_vertices) {
    const uint32_t mod = num_vertices;
    const uint32_t remainder = static_cast<uint32_t>(std::mt19937_64::max() % mod);
    const uint32_t cutoff = remainder == mod - 1 ? 0 : static_cast<uint32_t>(std::mt19937_64::max() - remainder);
    uint32_t r = static_cast<uint32_t>(rng());
    while (cutoff != 0 && r >= cutoff) r = static_cast<uint32_t>(rng());
    return r % mod;
  }
};

class Bc : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "bc",
      .summary = "betweenness centrality (Brandes) from --source, --sources K picked as GAP's or --sources all, on "
                 "the undirected simple graph, normalised to a largest score of 1 (GAP) or as networkx's (--normalize)",
      .uses_source = true,
      .uses_sources = true,
      .uses_normalize = true,
      .graph = {.symmetrize = true, .drop_self_loops = true, .drop_duplicates = true},
      .output = "score, divided by the largest, or as networkx's with --normalize (9 significant digits)",
      .value_column = "score",
      .ranks_top = true,
      .top_value = "score",
      .value_kind = ValueKind::kReal,
      .comparison = Comparison::kReal,
      .tolerance = 1e-6,  // doubles summed in another order, printed to 9 digits
      .invariant = "the last source's depths differ by at most 1, sigma(v) >= sigma(u) when v is one deeper",
  };
  enum Phase : uint32_t { kSeed = 0, kForward = 1, kBackward = 2, kNormalise = 3 };
  static constexpr uint32_t kUnreached = UINT32_MAX;

  struct Value {
    uint32_t depth;    // this source's BFS level, kUnreached
    uint32_t sourced;  // sources this vertex was (a source may be picked twice)
    double sigma;      // shortest paths from this source
    double delta;      // dependency on this source (backward)
    double score;      // the sum of the dependencies, divided by the largest at the end
  };
  using Message = double;
  struct Aggregate {
    double largest_score;
    uint32_t source_degree;  // the seed superstep's source's (merges start from all-zero bytes)
    uint32_t largest_degree;
  };

  // sources = 0: one sweep from `source`; kAllSources: one from every
  // vertex, in id order; else `sources` sweeps from GAP's picks.
  static Bc make(const ProgramParams& p, VertexId num_vertices) {
    return Bc(num_vertices, static_cast<VertexId>(p.source), p.sources, p.normalize);
  }
  Bc(VertexId num_vertices, VertexId source, uint32_t sources, BcScale scale = BcScale::kGap)
      : num_vertices_(num_vertices),
        source_(source),
        sweeps_(sources == kAllSources ? num_vertices : sources ? sources : 1),
        picked_(sources > 0 && sources != kAllSources),
        every_vertex_(sources == kAllSources),
        scale_(scale) {
    if (picked_ && num_vertices_ > 0) source_ = picker_.candidate(num_vertices_);
    if (every_vertex_) source_ = 0;
  }

  // Only the forward phase is driven by messages; the others visit every vertex.
  static constexpr bool applies_only_with_messages(uint32_t phase) { return phase == kForward; }
  // A vertex reached keeps its depth and paths for the rest of the sweep's
  // forward phase: nothing goes to a destination known to be reached.
  static constexpr bool settles_on_message(uint32_t phase) { return phase == kSeed || phase == kForward; }

  // Whether a vertex uses what this superstep sends it: backward, only one
  // level up from the senders; else only unreached vertices.
  bool takes_messages(const Value& y) const {
    return phase_ == kBackward ? y.depth + 1 == level_ : y.depth == kUnreached;
  }

  static Message identity() { return 0.0; }
  static Message combine(Message a, Message b) { return a + b; }

  bool init(Value& y, const VertexInfo& v) const {
    y = {kUnreached, 0, 0.0, 0.0, 0.0};
    return seed(y, v);
  }
  bool apply(Value& y, Message m, const VertexInfo& v, const StepInfo<Aggregate>& step) const {
    switch (step.phase) {
      case kSeed:
        return seed(y, v);
      case kForward:  // every sigma is >= 1: m = 0 is no message
        if (y.depth != kUnreached || m == 0.0) return false;
        y.depth = level_;
        y.sigma = m;
        return true;
      case kBackward:
        if (y.depth != level_) return false;
        y.delta = y.sigma * m;
        if (level_ > 0 || scale_ == BcScale::kGap) y.score += y.delta;  // networkx leaves the source's out
        y.sourced += level_ == 0;
        return level_ > 0;
      default:  // kNormalise
        if (scale_ != BcScale::kGap)
          y.score *= factor_;
        else if (largest_ > 0)
          y.score /= largest_;
        return false;
    }
  }
  Message scatter_value(const Value& y, const VertexInfo&) const {
    return phase_ == kBackward ? (1.0 + y.delta) / y.sigma : y.sigma;
  }
  static Message edge_message(Message sv, Weight) { return sv; }

  // Read after the seed superstep (the source's degree) and after the last
  // backward one (the largest score), both phases that visit every vertex.
  void aggregate(const Value& y, const VertexInfo& v, Aggregate& into) const {
    if (phase_ == kForward) return;
    merge(into, Aggregate{y.score, v.id == source_ ? v.out_degree : 0, v.out_degree});
  }
  static void merge(Aggregate& into, const Aggregate& from) {
    into.largest_score = std::max(into.largest_score, from.largest_score);
    into.source_degree = std::max(into.source_degree, from.source_degree);
    into.largest_degree = std::max(into.largest_degree, from.largest_degree);
  }

  // Every node calls next() with the same figures, so the level, the sources
  // and the largest score, kept here, are the same everywhere.
  Decision next(const StepOutcome<Aggregate>& done) {
    const Decision d = decide(done);
    phase_ = d.phase;
    return d;
  }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%.9g", y.score); }
  static double sort_key(const Value& y) { return y.score; }
  // The result a value stands for (--verify and the Graphalytics output).
  static double result(const Value& y) { return y.score; }

  // The end-of-run summary (compute/engine/summary_stats.h): the sources, the
  // top scores, the vertices with a score and those the last source reached.
  struct Summary {
    MarkedVertices sources;   // a vertex picked twice counts twice
    ReachSummary last;        // the last source's reach and deepest level
    uint64_t with_score = 0;  // vertices with a score above 0
  };
  static Summary summarize(std::span<const Value> values, const LocalGraph& g) {
    const auto reached = [](const Value& y) { return y.depth != kUnreached; };
    Summary s{marked_of(values, g, [](const Value& y) { return y.sourced; }),
              reach_of(values, reached, [](const Value& y) { return y.depth; })};
    for (const Value& y : values) s.with_score += y.score > 0;
    return s;
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    std::vector<MarkedVertices> marked;
    std::vector<ReachSummary> reach;
    uint64_t with_score = 0;
    for (const Summary& n : nodes) marked.push_back(n.sources), reach.push_back(n.last), with_score += n.with_score;
    const MarkedTotal sources = total_marked(marked, c);
    const ReachSummary last = total_reach(reach);
    nlohmann::ordered_json top_json;
    const std::string top = top_three(c, "score", &top_json);
    ProgramOutcome out;
    out.line = text_printf("%" PRIu64 " source%s (%s %s); %" PRIu64 " vertices with a score", sources.marks,
                           sources.marks == 1 ? "" : "s", sources.ids.size() == 1 ? "vertex" : "vertices",
                           sources.listed.c_str(), with_score) +
               (top.empty() || with_score == 0 ? std::string() : ", the top: " + top) +
               text_printf("; the last source reached %" PRIu64 " of %" PRIu64 " vertices, depth %.0f", last.reached,
                           c.vertices, last.farthest);
    out.figures = {{"sources", sources.marks},          {"source_vertices", sources.ids},
                   {"vertices_with_score", with_score}, {"last_source_reached", last.reached},
                   {"last_source_depth", static_cast<uint32_t>(last.farthest)}, {"top", top_json}};
    if (with_score == 0 && c.vertices > 1)
      out.warnings.push_back("every score is 0: the source" + std::string(sources.marks == 1 ? " has" : "s have") +
                             " no edges, or no shortest path passes through another vertex");
    return out;
  }
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
  // --verify's check along an edge u->v where the whole graph does not fit
  // (the loaded graph is symmetric: both ends reached by the last source or
  // neither, one level apart at most, and v one deeper counts u's paths).
  static bool holds_along(const Value& u, const Value& v, Weight) {
    if (u.depth == kUnreached || v.depth == kUnreached) return u.depth == v.depth;
    if (v.depth == u.depth + 1) return v.sigma >= u.sigma;
    return v.depth <= u.depth + 1 && u.depth <= v.depth + 1;
  }

 private:
  bool seed(Value& y, const VertexInfo& v) const {
    y.depth = kUnreached;
    y.sigma = y.delta = 0.0;
    if (v.id != source_) return false;
    y.depth = 0;
    y.sigma = 1.0;
    return true;
  }
  Decision decide(const StepOutcome<Aggregate>& done) {
    switch (done.phase) {
      case kSeed:
        if (num_vertices_ == 0) return {true, kSeed};
        if (every_vertex_ && done.aggregate.source_degree == 0) return next_source(done);  // a sweep of itself alone
        if (picked_ && done.aggregate.source_degree == 0) {
          if (done.aggregate.largest_degree == 0) return normalise(done);  // no edges: GAP would pick forever
          source_ = picker_.candidate(num_vertices_);
          return {false, kSeed};
        }
        level_ = 1;
        return {false, kForward};
      case kForward:
        if (done.active > 0) {
          ++level_;
          return {false, kForward};
        }
        --level_;  // the deepest level: nothing was reached at this one
        return {false, kBackward};
      case kBackward:
        if (level_ > 0) {
          --level_;
          return {false, kBackward};
        }
        return next_source(done);
      default:
        return {true, kNormalise};
    }
  }
  // A sweep is done (or, under --sources all, a source without edges passed
  // over): the next source's seed, or after the last the normalisation.
  Decision next_source(const StepOutcome<Aggregate>& done) {
    if (++swept_ < sweeps_) {
      if (picked_) source_ = picker_.candidate(num_vertices_);
      if (every_vertex_) source_ = swept_;
      return {false, kSeed};
    }
    return normalise(done);
  }
  // The scale of the scores: GAP's largest (every phase but the forward
  // aggregates the scores), or networkx's rescale of an undirected graph's
  // sums (networkx.algorithms.centrality.betweenness._rescale, endpoints
  // excluded): normalized, 1/((n-1)(n-2)); not, 1/2; from k sampled sources,
  // times n/k as networkx 3.4 does.
  Decision normalise(const StepOutcome<Aggregate>& done) {
    largest_ = done.aggregate.largest_score;
    factor_ = networkx_factor(scale_, num_vertices_, picked_ ? sweeps_ : 0);
    return {false, kNormalise};
  }

 public:
  // networkx's factor for V vertices, k sampled sources (0: every vertex); 1 for GAP's scale.
  static double networkx_factor(BcScale scale, VertexId n, uint32_t sampled) {
    if (scale == BcScale::kGap) return 1.0;
    double f = 1.0;
    if (scale == BcScale::kNetworkx)
      f = n > 2 ? 1.0 / ((static_cast<double>(n) - 1) * (static_cast<double>(n) - 2)) : 1.0;
    else
      f = 0.5;
    return sampled > 0 ? f * n / sampled : f;
  }

 private:

  VertexId num_vertices_;
  VertexId source_;
  uint32_t sweeps_;
  bool picked_;        // GAP's picks (--sources K)
  bool every_vertex_;  // --sources all
  BcScale scale_;
  uint32_t phase_ = kSeed;
  uint32_t level_ = 0;
  uint32_t swept_ = 0;
  GapSourcePicker picker_;
  double largest_ = 0;
  double factor_ = 1.0;  // networkx's scale (not GAP's)
};

WG_PROGRAM(Bc);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// The sources GAP's bc sweeps: `source` alone when sources = 0, every vertex
// for kAllSources, else the first `sources` candidates (GapSourcePicker)
// that have a neighbour in the undirected simple graph `adj`; empty when no
// vertex has one.
inline std::vector<VertexId> bc_sources(const std::vector<std::vector<VertexId>>& adj, VertexId source,
                                        uint32_t sources) {
  if (sources == 0) return {source};
  if (sources == kAllSources) {
    std::vector<VertexId> all(adj.size());
    for (VertexId v = 0; v < all.size(); ++v) all[v] = v;
    return all;
  }
  bool any = false;
  for (const auto& n : adj) any = any || !n.empty();
  std::vector<VertexId> out;
  GapSourcePicker picker;
  while (any && out.size() < sources) {
    const VertexId s = picker.candidate(static_cast<VertexId>(adj.size()));
    if (!adj[s].empty()) out.push_back(s);
  }
  return out;
}

// Brandes on the undirected simple graph (directions ignored, self-loops and
// duplicate edges dropped), a queue BFS and a stack per source: a vertex's
// score is the sum of its dependencies on the sources, the source's own
// included (as GAP's bc), divided by the largest score when it is above 0.
// networkx's scales: the source's own left out, the sums times
// Bc::networkx_factor.
inline std::vector<double> bc(const EdgeList& g, VertexId source, uint32_t sources, BcScale scale = BcScale::kGap) {
  check_edges(g);
  if (sources == 0) check_source(g, source);
  const VertexId n = g.num_vertices;
  const std::vector<std::vector<VertexId>> adj = undirected_simple_neighbours(g);
  std::vector<double> score(n, 0.0);
  for (const VertexId s : bc_sources(adj, source, sources)) {
    std::vector<int64_t> depth(n, -1);
    std::vector<double> sigma(n, 0.0), delta(n, 0.0);
    std::vector<VertexId> order;  // vertices in BFS order: a stack for the way back
    std::vector<VertexId> queue{s};
    depth[s] = 0;
    sigma[s] = 1.0;
    for (size_t head = 0; head < queue.size(); ++head) {
      const VertexId u = queue[head];
      order.push_back(u);
      for (const VertexId w : adj[u]) {
        if (depth[w] < 0) {
          depth[w] = depth[u] + 1;
          queue.push_back(w);
        }
        if (depth[w] == depth[u] + 1) sigma[w] += sigma[u];
      }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const VertexId u = *it;
      for (const VertexId w : adj[u])
        if (depth[w] == depth[u] + 1) delta[u] += sigma[u] / sigma[w] * (1.0 + delta[w]);
      if (u != s || scale == BcScale::kGap) score[u] += delta[u];
    }
  }
  if (scale != BcScale::kGap) {
    const double f = Bc::networkx_factor(scale, n, sources == kAllSources ? 0 : sources);
    for (double& x : score) x *= f;
    return score;
  }
  const double largest = n ? *std::max_element(score.begin(), score.end()) : 0.0;
  if (largest > 0)
    for (double& x : score) x /= largest;
  return score;
}

}  // namespace oracle

inline OracleValues Bc::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = {}, .reals = oracle::bc(input, static_cast<VertexId>(p.source), p.sources, p.normalize)};
}

}  // namespace wg
