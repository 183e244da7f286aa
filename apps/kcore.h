// k-core decomposition: each vertex's core number, the largest k such that
// the vertex belongs to a subgraph in which every vertex has degree >= k, on
// the undirected simple graph (directions ignored, self-loops and duplicate
// edges dropped); 0 for an isolated vertex.
//
// Message passing by the h-index iteration (Lü et al., Nature Comm. 2016;
// Montresor et al., IEEE TPDS 2013): every vertex starts from its degree and
// repeatedly lowers its estimate to the h-index of its neighbours' estimates
// (the largest h such that at least h neighbours have an estimate >= h).
// Estimates only fall and end at the core numbers. A vertex needs all of its
// neighbours' estimates each round, not their minimum, so the program keeps
// one slot per in-edge (SlotAccumulator) and every vertex sends every
// superstep; the run stops after the first superstep in which no estimate
// fell anywhere (the aggregate counts the falls).
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <set>
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

class KCore : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "kcore",
      .summary = "k-core decomposition of the undirected simple graph by the h-index iteration",
      .graph = {.symmetrize = true, .drop_self_loops = true, .drop_duplicates = true},
      .output = "core number (0 for an isolated vertex)",
      .value_column = "core",
      .comparison = Comparison::kExact,
  };
  struct Value {
    uint32_t core;  // the current estimate
    uint32_t fell;  // 1 if this superstep's apply lowered it
  };
  using Message = uint32_t;
  using Accumulator = SlotAccumulator<Message>;
  using Aggregate = uint64_t;  // estimates lowered in a superstep

  static KCore make(const ProgramParams&, VertexId) { return {}; }

  // Unused by the slot accumulator, required of every program.
  static Message identity() { return 0; }
  static Message combine(Message a, Message) { return a; }

  bool init(Value& y, const VertexInfo& v) const {
    y = {v.out_degree, 0};
    return true;
  }
  bool apply(Value& y, std::span<Message> neighbours, const VertexInfo&, const StepInfo<Aggregate>&) const {
    const uint32_t h = h_index(neighbours, y.core);
    y.fell = h < y.core;
    y.core = std::min(y.core, h);
    return true;
  }
  Message scatter_value(const Value& y, const VertexInfo&) const { return y.core; }
  static Message edge_message(Message sv, Weight) { return sv; }
  void aggregate(const Value& y, const VertexInfo&, Aggregate& into) const { into += y.fell; }
  static void merge(Aggregate& into, const Aggregate& from) { into += from; }
  // Superstep 0 only sends the degrees; after that, stop once nothing fell.
  Decision next(const StepOutcome<Aggregate>& done) const {
    return {done.active == 0 || (done.superstep > 0 && done.aggregate == 0), 0};
  }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%u", y.core); }
  static double sort_key(const Value& y) { return y.core; }
  // The result a value stands for (--verify compares it with the oracle's).
  static uint32_t result(const Value& y) { return y.core; }
  static OracleValues reference(const EdgeList& input, const ProgramParams& p);

  // The end-of-run summary (compute/engine/summary_stats.h): the largest core and its vertices.
  struct Summary {
    uint32_t largest = 0;
    uint32_t pad = 0;
    uint64_t in_largest = 0;  // vertices whose core number is `largest`
    uint64_t isolated = 0;    // vertices without edges
  };
  static Summary summarize(std::span<const Value> values, const LocalGraph& g) {
    Summary s;
    for (uint32_t i = 0; i < values.size(); ++i) {
      const uint32_t k = values[i].core;
      if (k > s.largest) s.largest = k, s.in_largest = 0;
      s.in_largest += k == s.largest;
      s.isolated += i < g.out_degree.size() && g.out_degree[i] == 0;
    }
    return s;
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    Summary t;
    for (const Summary& n : nodes) {
      if (n.largest > t.largest) t.largest = n.largest, t.in_largest = 0;
      if (n.largest == t.largest) t.in_largest += n.in_largest;
      t.isolated += n.isolated;
    }
    ProgramOutcome out;
    out.line = text_printf("the largest core number is %u, held by %" PRIu64 " vertices", t.largest, t.in_largest);
    out.figures = {{"largest_core", t.largest}, {"vertices_in_largest_core", t.in_largest},
                   {"vertices_without_edges", t.isolated}};
    warn_if_mostly_isolated(t.isolated, c, out);
    return out;
  }

  // The largest h <= cap such that at least h of the estimates are >= h.
  // Sorts in place.
  static uint32_t h_index(std::span<Message> estimates, uint32_t cap) {
    std::sort(estimates.begin(), estimates.end(), std::greater<>());
    uint32_t h = 0;
    while (h < estimates.size() && h < cap && estimates[h] >= h + 1) ++h;
    return h;
  }
};

WG_PROGRAM(KCore);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Core numbers of the undirected simple graph (directions ignored,
// self-loops and duplicate edges dropped) by peeling (Batagelj-Zaversnik):
// repeatedly remove a vertex of least remaining degree; a vertex's core number
// is the largest least-degree seen up to its removal. 0 for an isolated vertex.
inline std::vector<uint64_t> kcore(const EdgeList& g) {
  const std::vector<std::vector<VertexId>> adj = undirected_simple_neighbours(g);
  std::vector<uint64_t> degree(g.num_vertices), core(g.num_vertices, 0);
  std::set<std::pair<uint64_t, VertexId>> queue;  // (remaining degree, vertex)
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    degree[v] = adj[v].size();
    queue.insert({degree[v], v});
  }
  std::vector<bool> removed(g.num_vertices, false);
  uint64_t k = 0;
  while (!queue.empty()) {
    const auto [d, v] = *queue.begin();
    queue.erase(queue.begin());
    k = std::max(k, d);
    core[v] = k;
    removed[v] = true;
    for (VertexId u : adj[v]) {
      if (removed[u]) continue;
      queue.erase({degree[u], u});
      queue.insert({--degree[u], u});
    }
  }
  return core;
}

}  // namespace oracle

inline OracleValues KCore::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = oracle::kcore(input), .reals = {}};
}

}  // namespace wg
