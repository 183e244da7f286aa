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

#include "compute/engine/lcc_driver.h"
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
};

static_assert(VertexProgram<Lcc>);

}  // namespace wg
