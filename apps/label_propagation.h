// Community detection by synchronous label propagation (--app cd).
//
// The graph is undirected (the app adds the reverse of every edge and drops
// self-loops); every vertex starts with its own id as label; in each of K
// iterations every vertex takes the label that occurs most often among the
// labels its neighbours held in the previous iteration, ties going to the
// smallest label; a vertex with no neighbours keeps its label. A neighbour
// joined by k edges counts k times.
//
// The mode of a multiset is not a commutative, associative fold of scalars,
// so this program uses a SlotAccumulator: one slot per in-edge, and apply
// sorts the vertex's slots to find the most frequent label.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "compute/engine/accumulator.h"
#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/report/text.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/program_model.h"

namespace wg {

class LabelPropagation : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "cd",
      .summary = "community detection: K rounds of synchronous label propagation on the undirected graph",
      .uses_iterations = true,
      .default_iterations = 10,
      .graphalytics = {.algorithm = "cdlp", .iterations = "max-iterations"},
      .graph = {.symmetrize = true, .drop_self_loops = true},
      .output = "community label after K rounds (most frequent neighbour label, smallest on ties)",
      .value_column = "label",
      .value_kind = ValueKind::kLabel,
      .comparison = Comparison::kExact,
  };
  using Value = uint32_t;
  using Message = uint32_t;
  using Accumulator = SlotAccumulator<Message>;

  static LabelPropagation make(const ProgramParams& p, VertexId) { return LabelPropagation(p.iterations); }
  explicit LabelPropagation(uint32_t iterations) : iterations_(iterations) {}

  // Unused by the slot accumulator, required of every program.
  static Message identity() { return 0; }
  static Message combine(Message a, Message) { return a; }

  bool init(Value& y, const VertexInfo& v) const {
    y = v.id;
    return iterations_ > 0;
  }
  bool apply(Value& y, std::span<uint32_t> labels, const VertexInfo&, const StepInfo<Aggregate>& step) const {
    if (!labels.empty()) y = most_frequent(labels);
    return step.superstep < iterations_;
  }
  // Every vertex scatters in the same supersteps (compute/engine/vertex_program.h).
  static constexpr bool activates_uniformly(uint32_t) { return true; }
  Message scatter_value(const Value& y, const VertexInfo&) const { return y; }
  static Message edge_message(Message sv, Weight) { return sv; }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%u", y); }
  static double sort_key(const Value& y) { return -static_cast<double>(y); }

  // The end-of-run summary (compute/engine/summary_stats.h): the communities
  // (counted exactly where every node's list holds all its labels, else
  // estimated) and the largest.
  using Summary = LabelCensus;
  static Summary summarize(std::span<const Value> labels, const LocalGraph& g) { return census_of(labels, g); }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    const CensusTotals t = total_census(nodes);
    ProgramOutcome out;
    out.line = text_printf("%s%" PRIu64 " communities, the largest of %s%" PRIu64 " vertices (%.1f%%)",
                           t.labels_exact ? "" : "about ", t.labels, t.largest_exact ? "" : "at least ", t.largest,
                           percent_of(t.largest, c.vertices));
    out.figures = {{"communities", t.labels},
                   {"communities_exact", t.labels_exact},
                   {"largest_community", t.largest},
                   {"largest_community_exact", t.largest_exact},
                   {"vertices_without_edges", t.isolated}};
    if (c.vertices > 1 && t.largest <= 1 && c.edges_used > 0)
      out.warnings.push_back(text_printf("every vertex is a community of its own although the graph has %" PRIu64
                                         " edges: did any round run (--iterations)?",
                                         c.edges_used));
    warn_if_mostly_isolated(t.isolated, c, out);
    return out;
  }

  // The most frequent label, the smallest among equals. Sorts in place.
  static uint32_t most_frequent(std::span<uint32_t> labels) {
    std::sort(labels.begin(), labels.end());
    uint32_t best = labels[0];
    size_t best_run = 0;
    for (size_t i = 0; i < labels.size();) {
      size_t j = i;
      while (j < labels.size() && labels[j] == labels[i]) ++j;
      if (j - i > best_run) {  // strictly more: an equal run later has a larger label
        best_run = j - i;
        best = labels[i];
      }
      i = j;
    }
    return best;
  }

  static OracleValues reference(const EdgeList& input, const ProgramParams& p);

 private:
  uint32_t iterations_;
};

WG_PROGRAM(LabelPropagation);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Synchronous label propagation for `iterations` rounds on the undirected
// graph: every edge u-v (u != v) lets v see u's label and u see v's (a pair
// joined by k edges counts k times); a vertex takes the most frequent label
// it sees, the smallest on ties, and keeps its label when it sees none.
// Labels start as the vertex ids.
inline std::vector<VertexId> label_propagation(const EdgeList& g, unsigned iterations) {
  check_edges(g);
  std::vector<std::vector<VertexId>> neighbours(g.num_vertices);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    neighbours[e.dst].push_back(e.src);
    neighbours[e.src].push_back(e.dst);
  }
  std::vector<VertexId> label(g.num_vertices);
  for (VertexId v = 0; v < g.num_vertices; ++v) label[v] = v;
  for (unsigned it = 0; it < iterations; ++it) {
    std::vector<VertexId> next = label;
    for (VertexId v = 0; v < g.num_vertices; ++v) {
      if (neighbours[v].empty()) continue;
      std::map<VertexId, uint64_t> count;  // ordered: the first maximum is the smallest label
      for (VertexId u : neighbours[v]) ++count[label[u]];
      uint64_t best = 0;
      for (const auto& [l, n] : count)
        if (n > best) {
          best = n;
          next[v] = l;
        }
    }
    label = std::move(next);
  }
  return label;
}

}  // namespace oracle

inline OracleValues LabelPropagation::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = oracle::widened(oracle::label_propagation(input, p.iterations)), .reals = {}};
}

}  // namespace wg
