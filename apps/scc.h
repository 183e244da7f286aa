// Strongly connected components of a directed graph: each vertex ends with
// the smallest vertex id of its component (the partition networkx's
// strongly_connected_components gives).
//
// Coloring with trimming (Orzan 2004; Slota, Rajamanickam, Madduri, "BFS and
// coloring-based parallel algorithms for strongly connected components",
// IPDPS 2014), over the vertices not yet assigned a component, in rounds:
//   trim     kTrimOut sends along out-edges, kTrimIn along in-edges
//            (compute/engine/capabilities/edge_direction.h); in kTrimDecide a
//            vertex that heard from no unassigned in-neighbour, or from no
//            unassigned out-neighbour, is a component of its own. Repeated
//            while it assigns any vertex: on a power-law graph most small
//            components are single vertices hanging off the giant one, and a
//            trim round costs 3 supersteps where coloring would peel them
//            one per round.
//   color    every unassigned vertex takes its id as its color and the
//            minimum propagates forward (kColorStart, then kColor until no
//            color changes): color(v) = the smallest id that reaches v among
//            the unassigned vertices.
//   back     each root (color == its own id) is assigned its id and sends it
//            backwards, along in-edges (kBackStart, kBack); an unassigned
//            vertex of the same color that hears it joins the root's
//            component and sends it on.
// Why a root's backward reach within its color is exactly its component,
// labelled by its smallest id (all among the unassigned vertices, where a
// round's paths run):
//   - u in SCC(r) has color(u) = color(r) = r: whatever reaches one reaches
//     the other; and a path from u to r stays inside SCC(r) (r reaches every
//     vertex on it), so the backward sweep from r reaches u through vertices
//     of color r.
//   - u reached by the sweep reaches r; color(u) = r means r reaches u (the
//     minimum is attained by a vertex that reaches u): u is in SCC(r).
//   - every w in SCC(r) reaches r, so w >= color(r) = r: r is the
//     component's smallest id. And each color class c holds its root, the
//     vertex c itself (nothing smaller reaches c, or it would reach the
//     whole class), so a round assigns at least one component per class.
// The messages of kBack are colors too, but ⊕ is min and the sweep wants
// to know whether any message carries the receiver's own color: a vertex w
// that sends to its in-neighbour u (u -> w) has color(w) <= color(u), since
// what reaches u reaches w. So the largest color heard equals color(u) iff
// one of them does, and kBack sends kBackCode - color, whose minimum is the
// largest color.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>
#include <vector>

#include "compute/engine/capabilities/edge_direction.h"
#include "compute/engine/oracle.h"
#include "compute/engine/program_model.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/vertex_program.h"
#include "compute/report/text.h"

namespace wg {

class StronglyConnectedComponents : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "scc",
      .summary = "strongly connected components: trimming, forward min-coloring and backward sweeps from the roots "
                 "along in-edges",
      .graph = {.in_edges = true},
      .output = "smallest vertex id of the vertex's strongly connected component",
      .value_column = "component",
      .value_kind = ValueKind::kLabel,
      .comparison = Comparison::kExact,
  };
  enum Phase : uint32_t { kTrimOut, kTrimIn, kTrimDecide, kColorStart, kColor, kBackStart, kBack };

  static constexpr uint32_t kNone = UINT32_MAX;  // no component yet (ids are below V <= UINT32_MAX)
  struct Value {
    uint32_t scc = kNone;
    // Trimming: whether an unassigned in-neighbour was heard (1) or not (0);
    // coloring and the sweep: the color.
    uint32_t color = 0;
  };
  using Message = uint32_t;
  // Vertices assigned a component in the superstep (merges start from zero).
  struct Aggregate {
    uint64_t assigned = 0;
  };

  static StronglyConnectedComponents make(const ProgramParams&, VertexId n) {
    StronglyConnectedComponents p;
    p.unassigned_ = n;
    return p;
  }

  static constexpr EdgeDirection scatter_direction(uint32_t phase) {
    return phase == kTrimIn || phase == kBackStart || phase == kBack ? EdgeDirection::kIn : EdgeDirection::kOut;
  }
  // Propagation and the sweep change only vertices that hear something.
  static constexpr bool applies_only_with_messages(uint32_t phase) { return phase == kColor || phase == kBack; }

  static Message identity() { return UINT32_MAX; }
  static Message combine(Message a, Message b) { return a < b ? a : b; }

  // Superstep 0 is kTrimOut's first.
  bool init(Value& y, const VertexInfo&) const {
    y = Value{};
    return true;
  }
  bool apply(Value& y, Message m, const VertexInfo& v, const StepInfo<Aggregate>& step) const {
    if (y.scc != kNone) return false;
    switch (step.phase) {
      case kTrimOut: return true;  // sends "here" (0) to its out-neighbours
      case kTrimIn:
        y.color = m != identity();  // an unassigned in-neighbour sent kTrimOut's 0
        return true;
      case kTrimDecide:
        if (y.color == 0 || m == identity()) y.scc = v.id;  // no in- or no out-neighbour left: alone
        return false;
      case kColorStart: y.color = v.id; return true;
      case kColor:
        if (m >= y.color) return false;
        y.color = m;
        return true;
      case kBackStart:
        if (y.color != v.id) return false;
        y.scc = v.id;  // a root: the smallest id of its component
        return true;
      default:  // kBack
        if (kBackCode - m != y.color) return false;
        y.scc = y.color;
        return true;
    }
  }
  Message scatter_value(const Value& y, const VertexInfo&) const {
    return scc_phase_ == kColorStart || scc_phase_ == kColor ? y.color
           : scc_phase_ == kBackStart || scc_phase_ == kBack ? kBackCode - y.color
                                                              : 0;
  }
  static Message edge_message(Message sv, Weight) { return sv; }

  void aggregate(const Value& before, const Value& y, const VertexInfo&, Aggregate& into) const {
    into.assigned += before.scc == kNone && y.scc != kNone;
  }
  static void merge(Aggregate& into, const Aggregate& from) { into.assigned += from.assigned; }

  // Every node calls next() with the same figures: the count of unassigned
  // vertices, and the phase apply and scatter_value read, are the same
  // everywhere.
  Decision next(const StepOutcome<Aggregate>& done) {
    unassigned_ -= done.aggregate.assigned;
    const Decision d = decide(done);
    scc_phase_ = d.phase;
    return d;
  }

  static void print_value(std::FILE* out, const Value& y) {
    if (y.scc == kNone)
      std::fputs("none", out);
    else
      std::fprintf(out, "%u", y.scc);
  }
  static uint32_t result(const Value& y) { return y.scc; }
  static double sort_key(const Value& y) { return -static_cast<double>(y.scc); }

  // The end-of-run summary: components and the largest (a component's label
  // is its smallest id, so the vertices holding their own id count them).
  using Summary = LabelCensus;
  static Summary summarize(std::span<const Value> values, const LocalGraph& g) {
    std::vector<uint32_t> labels(values.size());
    for (size_t i = 0; i < values.size(); ++i) labels[i] = values[i].scc;
    return census_of(labels, g);
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    const CensusTotals t = total_census(nodes);
    ProgramOutcome out;
    out.line = text_printf("%" PRIu64 " strongly connected components, the largest of %s%" PRIu64 " vertices (%.1f%%)",
                           t.own_label, t.largest_exact ? "" : "at least ", t.largest, percent_of(t.largest, c.vertices));
    out.figures = {{"components", t.own_label},
                   {"largest_component", t.largest},
                   {"largest_component_exact", t.largest_exact}};
    return out;
  }

  static OracleValues reference(const EdgeList& input, const ProgramParams& p);

 private:
  static constexpr uint32_t kBackCode = UINT32_MAX - 1;  // kBack's message: kBackCode - color, never identity()

  Decision decide(const StepOutcome<Aggregate>& done) const {
    if (unassigned_ == 0) return {true, done.phase};
    switch (done.phase) {
      case kTrimOut: return {false, kTrimIn};
      case kTrimIn: return {false, kTrimDecide};
      case kTrimDecide: return {false, done.aggregate.assigned > 0 ? kTrimOut : kColorStart};
      case kColorStart:
      case kColor: return {false, done.active == 0 ? kBackStart : kColor};  // stable: nothing was sent
      case kBackStart: return {false, kBack};
      default: return {false, done.active == 0 ? kTrimOut : kBack};  // kBack: the components are whole
    }
  }

  uint64_t unassigned_ = 0;
  uint32_t scc_phase_ = kTrimOut;  // the phase of the superstep to come (scatter_value reads it)
};

WG_PROGRAM(StronglyConnectedComponents);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Tarjan's algorithm, iterative (an explicit stack of (vertex, next edge)):
// every vertex gets the smallest vertex id of its strongly connected component.
inline std::vector<VertexId> scc(const EdgeList& g) {
  check_edges(g);
  const VertexId n = g.num_vertices;
  std::vector<uint64_t> offset(uint64_t{n} + 1, 0);
  for (const Edge& e : g.edges) ++offset[e.src + 1];
  for (VertexId v = 0; v < n; ++v) offset[v + 1] += offset[v];
  std::vector<VertexId> next(g.edges.size());
  std::vector<uint64_t> fill(offset.begin(), offset.end() - 1);
  for (const Edge& e : g.edges) next[fill[e.src]++] = e.dst;

  constexpr uint32_t kUnvisited = UINT32_MAX;
  std::vector<uint32_t> index(n, kUnvisited), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<VertexId> stack, label(n, 0);
  std::vector<std::pair<VertexId, uint64_t>> calls;  // (vertex, its next out-edge)
  uint32_t counter = 0;
  for (VertexId root = 0; root < n; ++root) {
    if (index[root] != kUnvisited) continue;
    calls.push_back({root, offset[root]});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!calls.empty()) {
      auto& [v, e] = calls.back();
      if (e < offset[v + 1]) {
        const VertexId w = next[e++];
        if (index[w] == kUnvisited) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          calls.push_back({w, offset[w]});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const VertexId done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
      if (low[done] != index[done]) continue;
      // done is the component's first vertex: the stack down to it is the component.
      size_t first = stack.size();
      VertexId smallest = done;
      do {
        --first;
        smallest = std::min(smallest, stack[first]);
      } while (stack[first] != done);
      for (size_t i = first; i < stack.size(); ++i) {
        label[stack[i]] = smallest;
        on_stack[stack[i]] = false;
      }
      stack.resize(first);
    }
  }
  return label;
}

}  // namespace oracle

inline OracleValues StronglyConnectedComponents::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = oracle::widened(oracle::scc(input)), .reals = {}};
}

}  // namespace wg
