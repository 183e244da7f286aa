// The tests' oracles for programs that declare none of their own (the
// minimal form, compute/engine/program_model.h: --verify says it cannot check
// them): plain, single-threaded, written here without the program's code or
// the other oracles', so that the tests still compare every program with an
// independent answer (tests/reference.cc looks them up by name).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "compute/engine/oracle.h"
#include "compute/graph/edge_list.h"

namespace wg::ref {

// Weakly connected components by flooding (directions ignored): the vertices
// are taken in id order, so the first of a component not yet flooded is its
// smallest id, and every vertex it floods takes it as its label.
inline std::vector<uint64_t> components_by_flooding(const EdgeList& g) {
  oracle::check_edges(g);
  std::vector<std::vector<VertexId>> neighbours(g.num_vertices);
  for (const Edge& e : g.edges) {
    neighbours[e.src].push_back(e.dst);
    neighbours[e.dst].push_back(e.src);
  }
  std::vector<uint64_t> label(g.num_vertices, UINT64_MAX);
  std::vector<VertexId> stack;
  for (VertexId first = 0; first < g.num_vertices; ++first) {
    if (label[first] != UINT64_MAX) continue;
    label[first] = first;
    stack.push_back(first);
    while (!stack.empty()) {
      const VertexId u = stack.back();
      stack.pop_back();
      for (VertexId w : neighbours[u])
        if (label[w] == UINT64_MAX) {
          label[w] = first;
          stack.push_back(w);
        }
    }
  }
  return label;
}

// The test oracle of the program named `program`; throws for a program
// without one (it declares no reference() and none is written here).
inline OracleValues minimal_program_oracle(std::string_view program, const EdgeList& g) {
  if (program == "minlabel") return {.integers = components_by_flooding(g), .reals = {}};
  throw std::invalid_argument(std::string(program) +
                              " has no oracle: declare a static reference() or add one to tests/minimal_oracles.h");
}

}  // namespace wg::ref
