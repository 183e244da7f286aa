// Louvain community detection (--app louvain; Blondel, Guillaume, Lambiotte
// and Lefebvre 2008): the communities of the undirected graph (directions
// ignored, self-loops and repeated edges dropped) that modularity ranks
// highest, found level by level on the engine's community service
// (compute/engine/capabilities/communities.h): vertices move to the
// neighbouring community of the largest modularity gain, then each
// community becomes one vertex of the next level, until a level raises
// modularity by no more than 1e-7 (networkx's louvain_communities'
// threshold). Each level's modularity is printed as it ends. With
// --weighted, the edges' weights count (networkx's weight='weight').
//
// Every vertex ends labelled with the smallest id of its community. The
// moves of a round are made all at once and ties go to the smallest
// community id, so the communities do not depend on a seed (networkx's
// visit vertices in a seeded random order): they may differ from
// networkx's, and its modularity is what compares (tests/test_louvain.py);
// --verify compares the labels with the oracle below, the same rule on one
// thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "compute/engine/capabilities/communities.h"
#include "compute/engine/oracle.h"
#include "compute/engine/program_model.h"
#include "compute/engine/summary_stats.h"

namespace wg {

struct LouvainWeighted;

struct Louvain {
  static constexpr ProgramTraits kTraits{
      .name = "louvain",
      .summary = "Louvain community detection on the undirected graph: modularity, level by level (networkx's "
                 "louvain_communities)",
      .uses_weighted = true,
      .graph = {.symmetrize = true, .drop_self_loops = true, .drop_duplicates = true},
      .output = "community: the smallest id among its members",
      .value_column = "community",
      .value_kind = ValueKind::kLabel,
  };
  using WeightedTwin = LouvainWeighted;
  // 8< louvain
  using Value = uint32_t;  // the community's smallest id
  static constexpr Communities kCommunities{.quality_name = "modularity"};

  // Modularity (resolution 1): what a move gains (scaled by m), what a partition is worth.
  static double gain(double into, double total, double degree, double two_m) {
    return into - total * degree / two_m;
  }
  static double quality(double inside, double squares, double two_m) {
    return inside / two_m - squares / (two_m * two_m);
  }
  // >8 louvain

  // The end-of-run summary: the communities (each holds one vertex labelled
  // with its own id: an exact count) and the largest.
  using Summary = LabelCensus;
  static Summary summarize(std::span<const Value> labels, const LocalGraph& g) { return census_of(labels, g); }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    return describe_groups(nodes, c, "communities", "community");
  }
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
};

// --weighted: the same with the edges' weights (reals).
struct LouvainWeighted : Louvain {
  static constexpr ProgramTraits kTraits = [] {
    ProgramTraits t = Louvain::kTraits;
    t.summary = "Louvain community detection with the edges' weights (--weighted)";
    t.graph.weights = true;
    t.graph.real_weights = true;
    return t;
  }();
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
};

WG_PROGRAM(Louvain);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Louvain by the community service's rule (compute/engine/capabilities/communities.h),
// one vertex at a time on one thread, in plain maps by vertex id: the
// undirected simple graph (a pair's smallest weight with `weighted`, else 1);
// rounds in which the vertices moves_in_round() draws each take the
// community of the largest gain as the round found the partition (ties to
// the smallest id; a vertex alone joins another alone only of a smaller id),
// all moves then made in id order; the level ends, that round's moves
// dropped, when the round finds the partition worse than the round before
// (which is undone), or has no move, or finds it better by less than
// round_threshold, or is the last; a level that raises quality by more than
// the threshold is kept and contracted (a community becomes the vertex of its id, its inner
// edges a self-loop counted from both ends). Labels: each community's
// smallest id. With integer weights every sum is exact, so the service at
// any P gives these labels; with fractional ones sums in another order may
// differ in their last bits.
template <class Prog>
std::vector<VertexId> communities(const EdgeList& g, bool weighted) {
  check_edges(g);
  const Communities rules = Prog::kCommunities;
  const VertexId n = g.num_vertices;
  std::map<std::pair<VertexId, VertexId>, double> simple;
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    if (e.src == e.dst) continue;
    const double w = !weighted ? 1.0 : g.real_weights.empty() ? double(e.weight) : g.real_weights[i];
    const auto key = std::minmax(e.src, e.dst);
    auto [at, fresh] = simple.emplace(key, w);
    if (!fresh) at->second = std::min(at->second, w);
  }
  // The level's graph: every vertex's edges (its self-loop too), by id.
  std::vector<std::map<VertexId, double>> edges(n);
  for (const auto& [uv, w] : simple) edges[uv.first][uv.second] = w, edges[uv.second][uv.first] = w;
  std::vector<double> degree(n, 0.0), total(n);
  std::vector<uint32_t> members(n, 1);
  std::vector<VertexId> community(n), label(n);
  double two_m = 0;
  for (VertexId v = 0; v < n; ++v) {
    for (const auto& [u, w] : edges[v]) degree[v] += w;
    total[v] = degree[v];
    two_m += degree[v];
    community[v] = label[v] = v;
  }
  struct Move {
    VertexId v, from, to;
  };
  auto make = [&](const std::vector<Move>& moves, bool back) {  // in id order
    for (const Move& m : moves) {
      const VertexId from = back ? m.to : m.from, to = back ? m.from : m.to;
      total[from] -= degree[m.v], total[to] += degree[m.v];
      --members[from], ++members[to];
      community[m.v] = to;
    }
  };
  auto quality = [&] {
    double inside = 0, squares = 0;
    for (VertexId v = 0; v < n; ++v) {
      for (const auto& [u, w] : edges[v])
        if (community[u] == community[v]) inside += w;
      squares += total[v] * total[v];
    }
    return Prog::quality(inside, squares, two_m);
  };
  auto choose = [&](VertexId v) {
    std::map<VertexId, double> into;
    for (const auto& [u, w] : edges[v])
      if (u != v) into[community[u]] += w;
    const VertexId own = community[v];
    VertexId best = own;
    double best_gain = Prog::gain(into.count(own) ? into[own] : 0.0, total[own] - degree[v], degree[v], two_m);
    for (const auto& [c, w] : into) {  // ascending ids: an equal gain later is a larger id
      if (c == own || (members[own] == 1 && members[c] == 1 && c > own)) continue;
      const double gain = Prog::gain(w, total[c], degree[v], two_m);
      if (gain > best_gain) best_gain = gain, best = c;
    }
    return best;
  };
  for (uint32_t level = 0; two_m > 0 && level < rules.max_levels; ++level) {
    double start = 0, previous = 0, ended = 0;
    std::vector<Move> before;  // the moves of the round before
    for (uint32_t round = 0;; ++round) {
      const double q = quality();
      if (round == 0) start = q;
      std::vector<Move> moves;
      for (VertexId v = 0; v < n; ++v)
        if (!edges[v].empty() && moves_in_round(v, level, round, rules.movers_in_16)) {
          const VertexId to = choose(v);
          if (to != community[v]) moves.push_back({v, community[v], to});
        }
      const bool worse = round > 0 && q < previous;
      if (worse) {  // the round before is undone, this one's moves dropped
        make(before, true);
        ended = previous;
        break;
      }
      if (moves.empty() || (round > 0 && q - previous < rules.round_threshold) || round + 1 >= rules.max_rounds) {
        ended = q;  // this round's moves dropped
        break;
      }
      previous = q;
      make(moves, false);
      before = moves;
    }
    if (ended - start <= rules.threshold) break;  // the level is not kept
    for (VertexId& l : label) l = community[l];
    std::vector<std::map<VertexId, double>> next(n);
    for (VertexId v = 0; v < n; ++v)
      for (const auto& [u, w] : edges[v]) next[community[v]][community[u]] += w;
    edges = std::move(next);
    for (VertexId v = 0; v < n; ++v) {
      community[v] = v;
      members[v] = members[v] > 0 ? 1 : 0;
      if (members[v] == 0) total[v] = 0;
      degree[v] = 0;
      for (const auto& [u, w] : edges[v]) degree[v] += w;
    }
  }
  std::vector<VertexId> smallest(n, n);
  for (VertexId v = 0; v < n; ++v) smallest[label[v]] = std::min(smallest[label[v]], v);
  std::vector<VertexId> out(n);
  for (VertexId v = 0; v < n; ++v) out[v] = smallest[label[v]];
  return out;
}

}  // namespace oracle

inline OracleValues Louvain::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = oracle::widened(oracle::communities<Louvain>(input, false)), .reals = {}};
}
inline OracleValues LouvainWeighted::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = oracle::widened(oracle::communities<Louvain>(input, true)), .reals = {}};
}

}  // namespace wg
