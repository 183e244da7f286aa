// The tests' view of the oracles: each program's own, beside it in
// apps/NAME.h (Program::reference; compute/engine/oracle.h), here by the
// names the tests have always used, and by program name through the program
// list (apps/programs.h), so that a program added there is compared with its
// oracle by every test that runs "every program" without a line here.
// tests/test_reference.cc checks the oracles against hand-computed values.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "apps/programs.h"
#include "compute/engine/oracle.h"
#include "compute/graph/edge_list.h"

namespace wg::ref {

// Distance (sssp) or hop count (bfs) of a vertex the source cannot reach.
inline constexpr uint64_t kInfinity = kUnreachable;

inline constexpr double kDamping = 0.85;
inline constexpr unsigned kDefaultIterations = 20;

using ::wg::oracle::bc;
using ::wg::oracle::bfs;
using ::wg::oracle::cc;
using ::wg::oracle::kcore;
using ::wg::oracle::label_propagation;
using ::wg::oracle::lcc;
using ::wg::oracle::pagerank;
using ::wg::oracle::sssp;
using ::wg::oracle::triangles;
using ::wg::oracle::weighted_pagerank;

// What a program's result lines must hold, and how to compare them (the
// program's kTraits.comparison):
//   kReal     - within the program's tolerance (pagerank, lcc)
//   kDistance - exact integers, "inf" for kInfinity
//   kExact    - exact integers (labels, core numbers, degrees)
//   kEdges    - per-edge reals within the program's tolerance (jaccard), each
//               edge's `src dst value` line
struct Expected {
  enum class Kind { kReal, kDistance, kExact, kEdges } kind;
  std::vector<double> reals;        // kReal
  std::vector<uint64_t> integers;   // kDistance, kExact
  std::vector<EdgeResult<double>> edges = {};  // kEdges: dense ids, src < dst
};

// The oracle of the program named `program` on `input` (the graph as the
// nodes are given it; the oracle applies the program's own view of it, e.g.
// directions ignored), from --source `source` and with --iterations
// `iterations` where the program reads them. Throws std::invalid_argument
// for a name that is not in apps/programs.h.
Expected oracle(std::string_view program, const EdgeList& input, VertexId source, unsigned iterations);

}  // namespace wg::ref
