// The program registry (apps/registry.h, from the one list of
// apps/programs.h): every program has an oracle and says how its results
// compare, names are unique, and what reads the traits (--help's program
// list) names every program. Then the oracles that tests/test_reference.cc
// and tests/test_label_propagation.cc do not cover, against values computed
// by hand: in-degree, SSSP with real weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "apps/programs.h"
#include "apps/registry.h"
#include "config/option_table.h"
#include "tests/graphs_for_tests.h"

namespace wg {
namespace {

using test::make_graph;

// A graph every program can run on: a triangle, a tail, a self-loop, an
// isolated vertex.
EdgeList small_graph() { return make_graph(5, {{0, 1, 2}, {1, 2, 1}, {2, 0, 4}, {2, 3, 1}, {3, 3, 1}}); }

TEST(Registry, EveryProgramHasAComparisonAndItsOracleFitsIt) {
  ASSERT_FALSE(program_entries().empty());
  for (const ProgramEntry& p : program_entries()) {
    SCOPED_TRACE(std::string(p.traits.name));
    EXPECT_NE(p.traits.comparison, Comparison::kUndeclared);
    if (p.traits.comparison == Comparison::kReal) {
      EXPECT_GT(p.traits.tolerance, 0.0);
    }
    // The oracle, where the program has one (--verify says when it has
    // none), fills the vector its comparison reads, one value per vertex
    // (per edge of the undirected simple graph: 4, for a per-edge program).
    if (p.reference == nullptr) continue;
    const OracleValues v = p.reference(small_graph(), ProgramParams{0, p.traits.default_iterations, 0.85});
    if (!v.edges.empty()) {
      EXPECT_EQ(v.edges.size(), 4u);
      EXPECT_TRUE(v.reals.empty() && v.integers.empty());
    } else if (p.traits.comparison == Comparison::kReal) {
      EXPECT_EQ(v.reals.size(), 5u);
      EXPECT_TRUE(v.integers.empty());
    } else {
      EXPECT_EQ(v.integers.size(), 5u);
      EXPECT_TRUE(v.reals.empty());
    }
  }
}

TEST(Registry, NamesAreUniqueAndEveryOneIsInTheHelp) {
  std::set<std::string> names;
  const std::string listed = program_list(program_traits());
  for (const ProgramEntry& p : program_entries()) {
    EXPECT_TRUE(names.insert(std::string(p.traits.name)).second) << p.traits.name << " twice";
    EXPECT_NE(listed.find(p.traits.name), std::string::npos) << listed;
    EXPECT_EQ(&program_entry(p.traits.name), &p);
  }
}

// A program that reads the source is found by its trait, not by its name.
// (ppr's source is only its default seed: its ranks hold no invariant along
// an edge, and --verify on a graph too big for a node says it skipped.)
TEST(Registry, ProgramsThatReadASourceStateAnInvariantAlongEdges) {
  unsigned with_source = 0;
  for (const ProgramEntry& p : program_entries()) {
    if (!p.traits.uses_source || p.traits.uses_seeds) continue;
    ++with_source;
    EXPECT_FALSE(p.traits.invariant.empty()) << p.traits.name;
  }
  EXPECT_GE(with_source, 1u);
}

// ---- oracles by hand --------------------------------------------------------------

// In-edges: 0 <- 2; 1 <- 0 twice; 2 <- 1; 3 <- 2 and 3 itself; 4 none.
TEST(InDegreeOracle, CountsEveryEdgeIntoAVertex) {
  const EdgeList g = make_graph(5, {{2, 0, 1}, {0, 1, 1}, {0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 3, 1}});
  EXPECT_EQ(InDegree::reference(g, {}).integers, (std::vector<uint64_t>{1, 2, 1, 2, 0}));
  EXPECT_THROW(InDegree::reference(make_graph(2, {{0, 2, 1}}), {}), std::invalid_argument);
}

// Components by hand: {1, 3, 5} (a cycle 5 -> 3 -> 1 -> 5 entered from 0),
// {2, 4} (4 <-> 2, reached from 5), 0 and 6 alone (6 has only a self-loop), 7
// isolated; a vertex's label is its component's smallest id, whatever the
// order Tarjan's search finishes them in.
TEST(SccOracle, LabelsEachComponentWithItsSmallestId) {
  const EdgeList g = make_graph(8, {{0, 5, 1}, {5, 3, 1}, {3, 1, 1}, {1, 5, 1}, {5, 4, 1}, {4, 2, 1}, {2, 4, 1}, {6, 6, 1}});
  EXPECT_EQ(StronglyConnectedComponents::reference(g, {}).integers,
            (std::vector<uint64_t>{0, 1, 2, 1, 2, 1, 6, 7}));
  // A long chain closed into one cycle: the iterative search goes 100,000 deep.
  std::vector<Edge> ring;
  for (VertexId v = 0; v < 100000; ++v) ring.push_back({v, (v + 1) % 100000, 1});
  const std::vector<uint64_t> one = StronglyConnectedComponents::reference(make_graph(100000, ring), {}).integers;
  EXPECT_EQ(std::count(one.begin(), one.end(), 0u), 100000);
  EXPECT_THROW(StronglyConnectedComponents::reference(make_graph(2, {{0, 2, 1}}), {}), std::invalid_argument);
}

// Real weights: 0 -> 1 (0.5) -> 2 (0.25) beats 0 -> 2 (1); 2 -> 3 (0); 4 unreached.
TEST(RealSsspOracle, SumsTheRealWeights) {
  EdgeList g = make_graph(5, {{0, 1, 1}, {1, 2, 1}, {0, 2, 1}, {2, 3, 1}});
  g.real_weights = {0.5, 0.25, 1.0, 0.0};
  const std::vector<double> d = RealSssp::reference(g, ProgramParams{0, 0, 0.85}).reals;
  EXPECT_EQ(d, (std::vector<double>{0, 0.5, 0.75, 0.75, INFINITY}));
  // Without real weights, the integer ones.
  g.real_weights.clear();
  EXPECT_EQ(RealSssp::reference(g, ProgramParams{0, 0, 0.85}).reals, (std::vector<double>{0, 1, 1, 2, INFINITY}));
  // Reversed edges carry their real weights with them.
  g.real_weights = {0.5, 0.25, 1.0, 0.0};
  add_reverse_edges(g);
  EXPECT_EQ(RealSssp::reference(g, ProgramParams{3, 0, 0.85}).reals, (std::vector<double>{0.75, 0.25, 0, 0, INFINITY}));
}

}  // namespace
}  // namespace wg
