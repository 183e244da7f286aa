// A program's oracle, GAP's verifier beside every kernel: a plain,
// single-threaded, obviously correct computation of what the program
// computes, on the whole graph as the nodes are given it (before the
// program's graph rules: the oracle applies its own view, e.g. directions
// ignored). Each program defines its own in its header:
//
//   static OracleValues reference(const EdgeList& input, const ProgramParams& p);
//
// --verify (apps/node/verify.h) and the tests compare runs with it, as the
// program's kTraits.comparison says. An oracle shares nothing with the
// engine but the input type and what it returns, so that a bug in the
// engine cannot hide in its own yardstick; tests/test_reference.cc checks the
// oracles against hand-computed values. The helpers below are the plain
// pieces several oracles use.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/engine/program_traits.h"
#include "compute/graph/edge_list.h"

namespace wg {

// One value per vertex of the whole graph, by dense id; or, for a program
// whose results are per edge (PerEdgeResults), one per edge.
struct OracleValues {
  std::vector<uint64_t> integers;  // Comparison kExact and kDistance (kUnreachable: infinity)
  std::vector<double> reals;       // kReal (+infinity: unreachable)
  std::vector<EdgeResult<double>> edges;  // per-edge programs: every edge, dense ids, src < dst, sorted
};

// An integer distance or hop count of a vertex the source cannot reach.
inline constexpr uint64_t kUnreachable = std::numeric_limits<uint64_t>::max();

using OracleFn = OracleValues (*)(const EdgeList& input, const ProgramParams& params);

template <class P>
concept HasOracle = requires(const EdgeList& g, const ProgramParams& p) {
  { P::reference(g, p) } -> std::same_as<OracleValues>;
};

namespace oracle {

// The oracles index arrays by endpoint: refuse a malformed list up front
// rather than read out of bounds.
inline void check_edges(const EdgeList& g) {
  for (const Edge& e : g.edges)
    if (e.src >= g.num_vertices || e.dst >= g.num_vertices)
      throw std::invalid_argument("edge " + std::to_string(e.src) + "->" + std::to_string(e.dst) +
                                  " has an endpoint >= V = " + std::to_string(g.num_vertices));
}

inline void check_source(const EdgeList& g, uint64_t source) {
  if (source >= g.num_vertices)
    throw std::invalid_argument("source " + std::to_string(source) + " is not a vertex of a graph with " +
                                std::to_string(g.num_vertices) + " vertices");
}

// Out-neighbour lists with weights. A vector of vectors is slow but plainly
// right, which is all an oracle needs to be.
template <class W>
struct Arc {
  VertexId dst;
  W weight;
};
template <class W>
using Adjacency = std::vector<std::vector<Arc<W>>>;

// The edges' integer weights, or for W = double the real weights where the
// input has them.
template <class W>
Adjacency<W> out_arcs(const EdgeList& g) {
  check_edges(g);
  const bool real = std::is_floating_point_v<W> && !g.real_weights.empty();
  Adjacency<W> adj(g.num_vertices);
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    adj[e.src].push_back(Arc<W>{e.dst, real ? static_cast<W>(g.real_weights[i]) : static_cast<W>(e.weight)});
  }
  return adj;
}

// The undirected simple graph's neighbour lists, ascending: directions
// ignored, self-loops and duplicate edges dropped: the bc, tc and k-core oracles' graph.
inline std::vector<std::vector<VertexId>> undirected_simple_neighbours(const EdgeList& g) {
  check_edges(g);
  std::vector<std::vector<VertexId>> n(g.num_vertices);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    n[e.src].push_back(e.dst);
    n[e.dst].push_back(e.src);
  }
  for (auto& list : n) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return n;
}

inline std::vector<uint64_t> widened(const std::vector<VertexId>& v) { return {v.begin(), v.end()}; }

}  // namespace oracle
}  // namespace wg
