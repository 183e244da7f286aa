// Test oracles: plain, single-threaded, obviously-correct versions of the
// algorithms the engine runs. They share nothing with the engine but the
// input type, so a bug in the engine cannot hide in its own yardstick.
// tests/test_reference.cc checks them against hand-computed values.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "compute/graph/edge_list.h"

namespace wg::ref {

// Distance (sssp) or hop count (bfs) of a vertex the source cannot reach.
inline constexpr uint64_t kInfinity = std::numeric_limits<uint64_t>::max();

inline constexpr double kDamping = 0.85;
inline constexpr unsigned kDefaultIterations = 20;

// Exactly `iterations` power-iteration steps from the uniform vector 1/V:
//   new[v] = (1-d)/V + d * (sum over edges u->v of rank[u]/outdeg(u) + D/V),
// D = total rank of the vertices with no out-edge (dangling), spread evenly.
// Every edge counts (multi-edges multiply, self-loops are ordinary edges).
// Ranks sum to 1 after every step. Empty for V = 0.
std::vector<double> pagerank(const EdgeList& g, unsigned iterations = kDefaultIterations,
                             double damping = kDamping);

// Dijkstra over the directed edges; weights are the edges' integer weights.
// Throws std::invalid_argument when source >= V.
std::vector<uint64_t> sssp(const EdgeList& g, VertexId source);

// Hop count along directed edges, weights ignored. Throws like sssp.
std::vector<uint64_t> bfs(const EdgeList& g, VertexId source);

// Weakly connected components (direction ignored): every vertex gets the
// smallest vertex id of its component; an isolated vertex is its own label.
std::vector<VertexId> cc(const EdgeList& g);

// Synchronous label propagation for `iterations` rounds on the undirected
// graph: every edge u-v (u != v) lets v see u's label and u see v's (a pair
// joined by k edges counts k times); a vertex takes the most frequent label
// it sees, the smallest on ties, and keeps its label when it sees none.
// Labels start as the vertex ids.
std::vector<VertexId> label_propagation(const EdgeList& g, unsigned iterations);

// Core numbers of the undirected simple graph (directions ignored,
// self-loops and duplicate edges dropped) by peeling (Batagelj-Zaversnik):
// repeatedly remove a vertex of least remaining degree; a vertex's core number
// is the largest least-degree seen up to its removal. 0 for an isolated vertex.
std::vector<uint64_t> kcore(const EdgeList& g);

// Local clustering coefficient, Graphalytics' definition: N(v) = in- and
// out-neighbours of v, each once (self-loops and repeated edges ignored);
// LCC(v) = sum over u in N(v) of |N(v) ∩ N_out(u)| / (|N(v)| (|N(v)| - 1)),
// 0 when |N(v)| < 2. Empty for V = 0.
std::vector<double> lcc(const EdgeList& g);

// ---- one oracle per program (apps/programs.h), by name ----------------------

// What a program's result lines must hold, and how to compare them:
//   kReal     - pagerank, lcc: within 1e-4 relative (float messages)
//   kDistance - exact integers, "inf" for kInfinity
//   kExact    - exact integers (labels, core numbers)
struct Expected {
  enum class Kind { kReal, kDistance, kExact } kind;
  std::vector<double> reals;        // kReal
  std::vector<uint64_t> integers;   // kDistance, kExact
};

// The oracle of the program named `program` on `input` (the graph as the
// nodes are given it; the oracle applies the program's own view of it, e.g.
// directions ignored). Throws std::invalid_argument for a program without an
// oracle: every program in apps/programs.h must have one here.
Expected oracle(std::string_view program, const EdgeList& input, VertexId source, unsigned iterations);

}  // namespace wg::ref
