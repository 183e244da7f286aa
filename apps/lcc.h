// Local clustering coefficient (Graphalytics' LCC): for every vertex v, the
// directed edges between its neighbours over d (d - 1), d = |N(v)|, N(v) its
// in- and out-neighbours each once; 0 when d < 2 (specification, "Local
// Clustering Coefficient"; on an undirected graph the usual 2 e / (d (d - 1))).
// A vertex needs its neighbours' neighbour lists, which neither a per-vertex
// ⊕ nor a fixed-size value can carry, so the program runs on its own driver
// (compute/engine/lcc_driver.h: the forward triangle algorithm in six supersteps,
// its memory bound there); the members below are what every program lists
// and are not called.
#pragma once

#include <cstdio>
#include <set>
#include <vector>

#include "compute/engine/lcc_driver.h"
#include "compute/engine/oracle.h"
#include "compute/engine/vertex_program.h"

namespace wg {

class Lcc : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "lcc",
      .summary = "local clustering coefficient (neighbours: in- and out-, each once; directed edges among them)",
      .graphalytics = {.algorithm = "lcc"},
      .graph = {.drop_self_loops = true, .drop_duplicates = true},
      .output = "local clustering coefficient, 0 with fewer than 2 neighbours",
      .value_kind = ValueKind::kReal,
      .comparison = Comparison::kReal,
      .tolerance = 1e-9,  // a ratio of counts in double, as the oracle's
  };
  using Driver = LccDriver;  // apps/node/run_program.h runs this instead of Engine<Lcc>
  using Value = double;
  using Message = uint32_t;
  static Lcc make(const ProgramParams&, VertexId) { return {}; }

  static Message identity() { return 0; }
  static Message combine(Message a, Message) { return a; }
  bool init(Value& y, const VertexInfo&) const { return y = 0, false; }
  bool apply(Value&, Message, const VertexInfo&, const StepInfo<Aggregate>&) const { return false; }
  Message scatter_value(const Value&, const VertexInfo&) const { return 0; }
  static Message edge_message(Message sv, Weight) { return sv; }

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%.9g", y); }
  static double sort_key(const Value& y) { return y; }

  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
};

static_assert(VertexProgram<Lcc>);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Local clustering coefficient, Graphalytics' definition: N(v) = in- and
// out-neighbours of v, each once (self-loops and repeated edges ignored);
// LCC(v) = sum over u in N(v) of |N(v) ∩ N_out(u)| / (|N(v)| (|N(v)| - 1)),
// 0 when |N(v)| < 2. Empty for V = 0.
inline std::vector<double> lcc(const EdgeList& g) {
  check_edges(g);
  std::vector<std::set<VertexId>> out(g.num_vertices), both(g.num_vertices);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    out[e.src].insert(e.dst);
    both[e.src].insert(e.dst);
    both[e.dst].insert(e.src);
  }
  std::vector<double> coefficient(g.num_vertices, 0.0);
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    const double d = static_cast<double>(both[v].size());
    if (d < 2) continue;
    uint64_t links = 0;  // directed edges u -> w between neighbours of v
    for (VertexId u : both[v])
      for (VertexId w : out[u]) links += both[v].count(w);
    coefficient[v] = static_cast<double>(links) / (d * (d - 1));
  }
  return coefficient;
}

}  // namespace oracle

inline OracleValues Lcc::reference(const EdgeList& input, const ProgramParams&) {
  return {.integers = {}, .reals = oracle::lcc(input)};
}

}  // namespace wg
