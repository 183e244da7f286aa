// What the engine tells a vertex program about the vertex, the superstep and
// the superstep just done (compute/engine/vertex_program.h), and what the
// program answers after each superstep.
#pragma once

#include <cstdint>

#include "compute/graph/types.h"

namespace wg {

// What apply and scatter_value know about the vertex at hand. Fields a
// program does not read cost nothing: the loads are dead once inlined.
struct VertexInfo {
  VertexId id;          // global id
  uint32_t out_degree;  // out-edges as loaded (after the program's graph rules)
  uint32_t in_degree;
  // The sum of the out-edges' weights, for a program whose GraphRules say
  // out_weights (else 0: compute/engine/vertex_info.h).
  double out_weight;
};

template <class Aggregate>
struct StepInfo {
  uint32_t superstep;     // s, starting at 0
  uint32_t phase;         // the program's phase for this superstep (0 until it says otherwise)
  VertexId num_vertices;  // global V
  Aggregate aggregate;    // cluster-wide merge of aggregate() after superstep s-1
};

// What every node knows at the end of superstep s, identical everywhere.
template <class Aggregate>
struct StepOutcome {
  uint32_t superstep;
  uint32_t phase;
  uint64_t active;      // vertices active in s, cluster-wide
  Aggregate aggregate;  // cluster-wide merge of this superstep's contributions
};

struct Decision {
  bool stop;
  uint32_t phase;  // of the next superstep
};

struct NoAggregate {};

// What prepare() (compute/engine/capabilities/hints.h) is given: figures of
// this node's part of the graph.
struct NodeGraphFigures {
  uint64_t out_edges = 0;   // this node's out-edges
  uint64_t weight_sum = 0;  // the sum of their weights (1 each when the program reads no weights)
};

}  // namespace wg
