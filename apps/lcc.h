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

#include <cinttypes>
#include <cstdio>
#include <span>

#include "compute/engine/lcc_driver.h"
#include "compute/engine/summary_stats.h"
#include "compute/report/text.h"
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

  // The end-of-run summary (compute/engine/summary_stats.h): the mean coefficient.
  struct Summary {
    double sum = 0;
    uint64_t vertices = 0;
    uint64_t positive = 0;  // vertices whose coefficient is above 0
  };
  static Summary summarize(std::span<const Value> coefficients, const LocalGraph&) {
    Summary s;
    for (const Value y : coefficients) s.sum += y, s.positive += y > 0;
    s.vertices = coefficients.size();
    return s;
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    Summary t;
    for (const Summary& n : nodes) t.sum += n.sum, t.vertices += n.vertices, t.positive += n.positive;  // rank order
    const double mean = t.vertices ? t.sum / static_cast<double>(t.vertices) : 0.0;
    ProgramOutcome out;
    out.line = text_printf("mean coefficient %.6f; %" PRIu64 " of %" PRIu64 " vertices above 0", mean, t.positive,
                           t.vertices);
    out.figures = {{"mean_coefficient", mean}, {"vertices_above_0", t.positive}};
    if (t.positive == 0 && c.edges_used > 0)
      out.warnings.push_back(text_printf("every coefficient is 0 although the graph has %" PRIu64
                                         " edges: no vertex has two neighbours joined by an edge (no triangle at all)",
                                         c.edges_used));
    return out;
  }
};

static_assert(VertexProgram<Lcc>);

}  // namespace wg
