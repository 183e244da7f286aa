// Weakly connected components: the graph is made undirected (every edge also
// reversed) and each vertex ends with the smallest vertex id of its
// component.
//
// Multistep (Slota, Rajamanickam, Madduri, IPDPS 2014), in supersteps:
//   phase 0  every vertex takes its own id; the cluster finds the vertex of
//            largest degree (the aggregate)
//   phase 1  that hub starts a BFS (it alone is active)
//   phase 2  the BFS: every vertex a message reaches joins the hub's
//            component. Level-synchronous (all messages say "reached"), so
//            the engine runs it direction-optimizing (bottom-up while the
//            frontier is large) and sends nothing to a vertex it knows to be
//            reached. The aggregate keeps the smallest id reached.
//   phase 3  the hub's component takes that smallest id; every other vertex
//            with edges sends its own id to its neighbours
//   phase 4  min-label propagation among those vertices only: an edge never
//            leads from outside the hub's component into it, so they
//            converge to their components' smallest ids.
// On a graph with a giant component (every Kronecker and social graph) the
// giant is found by one BFS that reads a small part of its edges, and the
// label propagation runs on the few vertices outside it; min-label
// propagation over the whole graph sent a record per edge (or per
// destination) for as many supersteps as the diameter.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <numeric>
#include <span>
#include <vector>

#include "apps/min_label.h"
#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/report/text.h"
#include "compute/engine/program_model.h"

namespace wg {

class ConnectedComponents : public MinLabelBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "cc",
      .summary = "weakly connected components (direction ignored): BFS from the largest-degree vertex, then "
                 "min-label propagation among the rest",
      .graphalytics = {.algorithm = "wcc"},
      .graph = {.symmetrize = true},
      .output = "smallest vertex id of the vertex's weakly connected component",
      .value_column = "component",
      .value_kind = ValueKind::kLabel,
      .comparison = Comparison::kExact,
      .invariant = "label(v) = label(u)",
  };
  enum Phase : uint32_t { kFindHub = 0, kSeed = 1, kSpread = 2, kSettle = 3, kPropagate = 4 };
  static constexpr Value kReached = kInfinity - 1;  // phase 2's mark (and message): in the hub's component

  // Merges start from all-zero bytes (compute/engine/vertex_program.h), so ids are
  // kept complemented (~id): the largest complement is the smallest id, and
  // 0 stands for none.
  struct Aggregate {
    uint32_t hub_degree = 0;
    uint32_t not_hub = 0;          // phase 0: ~id of the vertex of largest degree (smallest id among equals)
    uint32_t not_min_reached = 0;  // phases 1, 2: ~ the smallest id reached this superstep
  };

  static ConnectedComponents make(const ProgramParams&, VertexId) { return {}; }

  // Only phases 2 and 4 are driven by messages; phases 0, 1 and 3 visit every vertex.
  static constexpr bool applies_only_with_messages(uint32_t phase) { return phase == kSpread || phase == kPropagate; }
  static constexpr bool level_synchronous(uint32_t phase) { return phase == kSeed || phase == kSpread; }

  bool init(Value& y, const VertexInfo& v) const {
    y = v.id;
    return false;
  }
  bool apply(Value& y, Message m, const VertexInfo& v, const StepInfo<Aggregate>& step) const {
    switch (step.phase) {
      case kSeed:
        if (v.id != hub_) return false;
        y = kReached;
        return true;
      case kSpread:
        if (y == kReached) return false;
        y = kReached;
        return true;
      case kSettle:
        if (y == kReached) {
          y = giant_label_;
          return false;
        }
        return v.out_degree > 0;  // y is still its own id
      default:  // kPropagate: min-label
        if (m >= y) return false;
        y = m;
        return true;
    }
  }
  Message scatter_value(const Value& y, const VertexInfo&) const { return y; }
  static Message edge_message(Message sv, Weight) { return sv; }

  void aggregate(const Value& y, const VertexInfo& v, Aggregate& into) const {
    merge(into, Aggregate{v.out_degree, ~v.id, y == kReached ? ~v.id : 0});
  }
  static void merge(Aggregate& into, const Aggregate& from) {
    if (from.hub_degree > into.hub_degree || (from.hub_degree == into.hub_degree && from.not_hub > into.not_hub)) {
      into.hub_degree = from.hub_degree;
      into.not_hub = from.not_hub;
    }
    into.not_min_reached = std::max(into.not_min_reached, from.not_min_reached);
  }

  // The end-of-run summary (compute/engine/summary_stats.h): the components
  // and the largest. A component's label is its smallest vertex id, so the
  // vertices that hold their own id count the components exactly.
  using Summary = LabelCensus;
  static Summary summarize(std::span<const Value> labels, const LocalGraph& g) { return census_of(labels, g); }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    ProgramOutcome out = describe_groups(nodes, c, "components", "component");
    if (c.vertices > 1 && total_census(nodes).own_label == c.vertices && c.edges_used > 0)
      out.warnings.insert(out.warnings.begin(),
                          text_printf("every vertex is a component of its own although the graph has %" PRIu64
                                      " edges: are they all self-loops?",
                                      c.edges_used));
    return out;
  }

  // Every node calls next() with the same figures, so the hub and the giant's
  // label, kept here, are the same everywhere; apply reads them next superstep.
  Decision next(const StepOutcome<Aggregate>& done) {
    switch (done.phase) {
      case kFindHub:
        hub_ = ~done.aggregate.not_hub;
        return {done.aggregate.not_hub == 0, kSeed};  // no vertex at all: nothing to do
      case kSeed:
      case kSpread:
        giant_label_ = std::min(giant_label_, ~done.aggregate.not_min_reached);
        return {false, done.active == 0 ? kSettle : kSpread};
      default:
        return {done.active == 0, kPropagate};
    }
  }

  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
  // --verify's check along an edge u->v where the whole graph does not fit
  // (the loaded graph is symmetric: both ends are in one component).
  static bool holds_along(Value u, Value v, Weight) { return u == v; }

 private:
  VertexId hub_ = kInfinity;
  VertexId giant_label_ = kInfinity;
};

WG_PROGRAM(ConnectedComponents);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Union-find whose root is always the smallest id of its set, so find(v) is
// directly the component label the program must produce.
class MinRootUnionFind {
 public:
  explicit MinRootUnionFind(VertexId n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), VertexId{0}); }

  VertexId find(VertexId v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];  // path halving
      v = parent_[v];
    }
    return v;
  }
  void unite(VertexId a, VertexId b) {
    const VertexId ra = find(a);
    const VertexId rb = find(b);
    if (ra < rb) parent_[rb] = ra;
    if (rb < ra) parent_[ra] = rb;
  }

 private:
  std::vector<VertexId> parent_;
};

// Weakly connected components (direction ignored): every vertex gets the
// smallest vertex id of its component; an isolated vertex is its own label.
inline std::vector<VertexId> cc(const EdgeList& g) {
  check_edges(g);
  MinRootUnionFind sets(g.num_vertices);
  for (const Edge& e : g.edges) sets.unite(e.src, e.dst);
  std::vector<VertexId> label(g.num_vertices);
  for (VertexId v = 0; v < g.num_vertices; ++v) label[v] = sets.find(v);
  return label;
}

}  // namespace oracle

inline OracleValues ConnectedComponents::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = oracle::widened(oracle::cc(input)), .reals = {}};
}

}  // namespace wg
