// In-degree: how many edges point at each vertex (multi-edges and self-loops
// count), by message passing: every vertex sends 1 along each out-edge in
// superstep 0 and adds up what arrives in superstep 1. The engine knows the
// in-degrees already (VertexInfo::in_degree); counting them with messages
// makes the smallest complete program, the worked example of
// docs/PROGRAMS.md, whose snippet is cut from between the markers below
// (tests/test_doc_snippets.py fails when the two differ).
#pragma once

#include <cstdio>
#include <vector>

#include "compute/engine/oracle.h"
#include "compute/engine/vertex_program.h"

namespace wg {

// 8< indegree
class InDegree : public ProgramBase {  // no aggregate, one phase, stops once no vertex is active
 public:
  static constexpr ProgramTraits kTraits{
      .name = "indegree",  // --app indegree
      .summary = "in-degree of every vertex (the edges pointing at it), counted by messages",
      .graph = {},                       // the graph as given: directed, every edge
      .output = "in-degree",             // what a result line's value is
      .value_column = "indegree",        // its column in results.tsv (docs/OUTPUT.md)
      .comparison = Comparison::kExact,  // how --verify compares it with reference()'s
  };
  using Value = uint32_t;    // one per vertex
  using Message = uint32_t;  // 4, 8 or 16 bytes: records of 8, 12 or 20 bytes

  static InDegree make(const ProgramParams&, VertexId) { return {}; }

  // ⊕: the engine folds every message sent to a vertex into one.
  static Message identity() { return 0; }
  static Message combine(Message a, Message b) { return a + b; }

  // Superstep 0: every vertex is active, so it scatters. Superstep 1: the
  // sum of what arrived; no vertex is active, so the run stops.
  bool init(Value& y, const VertexInfo&) const {
    y = 0;
    return true;
  }
  bool apply(Value& y, Message sum, const VertexInfo&, const StepInfo<Aggregate>&) const {
    y = sum;
    return false;
  }
  Message scatter_value(const Value&, const VertexInfo&) const { return 1; }  // once per active vertex
  static Message edge_message(Message sv, Weight) { return sv; }              // once per out-edge

  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%u", y); }
  static double sort_key(const Value& y) { return y; }  // orders the top-vertices report

  // The oracle (--verify, the tests): plain, single-threaded, on the whole
  // input, sharing nothing with the program above.
  static OracleValues reference(const EdgeList& input, const ProgramParams&) {
    oracle::check_edges(input);
    std::vector<uint64_t> count(input.num_vertices, 0);
    for (const Edge& e : input.edges) ++count[e.dst];
    return {.integers = count, .reals = {}};
  }
};
// >8 indegree

static_assert(VertexProgram<InDegree>);

}  // namespace wg
