// In-degree: how many edges point at each vertex (multi-edges and self-loops
// count), by message passing: every vertex sends 1 along each out-edge in
// superstep 0 and adds up what arrives in superstep 1. The engine knows the
// in-degrees already (VertexInfo::in_degree); counting them with messages
// makes the smallest program, in the minimal form (compute/engine/vertex_program.h),
// the worked example of docs/PROGRAMS.md, whose snippet is cut from between
// the markers below (tests/test_doc_snippets.py fails when the two differ).
#pragma once

#include <vector>

#include "compute/engine/oracle.h"
#include "compute/engine/program_model.h"

namespace wg {

// 8< indegree
struct InDegree {
  static constexpr ProgramTraits kTraits{
      .name = "indegree",  // --app indegree
      .summary = "in-degree of every vertex (the edges pointing at it), counted by messages",
      .output = "in-degree",       // what a result line's value is (--help)
      .value_column = "indegree",  // its column in results.tsv (docs/OUTPUT.md)
  };
  using Value = uint32_t;          // one per vertex
  using Combine = Sum<uint32_t>;   // ⊕ and its identity; the messages are uint32_t

  // Superstep 0: every vertex is active, so it scatters (1 along each
  // out-edge). Superstep 1: the sum of what arrived; no vertex is active, so
  // the run stops.
  bool init(Value& y, const VertexInfo&) const { return y = 0, true; }
  bool apply(Value& y, uint32_t sum, const VertexInfo&) const { return y = sum, false; }
  uint32_t scatter(const Value&) const { return 1; }

  // Optional: the oracle --verify and the tests compare with (plain,
  // single-threaded, on the whole input, sharing nothing with the above).
  static OracleValues reference(const EdgeList& input, const ProgramParams&) {
    oracle::check_edges(input);
    std::vector<uint64_t> count(input.num_vertices, 0);
    for (const Edge& e : input.edges) ++count[e.dst];
    return {.integers = count, .reals = {}};
  }
};
WG_PROGRAM(InDegree);
// >8 indegree

}  // namespace wg
