// Checks the oracles of tests/reference.h against values computed by hand
// (PageRank: exact fractions, worked out with Python's fractions module and
// re-derived by hand for the first step), so the cluster tests compare the
// engine with something that is itself known to be right.
#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "apps/ppr.h"
#include "compute/graph/edge_list.h"
#include "tests/graphs_for_tests.h"
#include "tests/reference.h"

namespace wg::ref {
namespace {

constexpr uint64_t kInf = kInfinity;

using test::make_graph;

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

void expect_ranks(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t v = 0; v < want.size(); ++v) EXPECT_NEAR(got[v], want[v], 1e-15) << "vertex " << v;
}

// ---------------------------------------------------------------- PageRank

// 0->1, 0->2, 1->2; vertex 2 is dangling. Step 1 by hand (a = 0.15/3 = 0.05,
// every rank 1/3, dangling mass D/V = 1/9):
//   r0 = a + .85 * (1/9)               = 13/90
//   r1 = a + .85 * (1/6 + 1/9)         = 103/360
//   r2 = a + .85 * (1/6 + 1/3 + 1/9)   = 41/72
EdgeList three_vertex_graph() { return make_graph(3, {{0, 1, 1}, {0, 2, 1}, {1, 2, 1}}); }

TEST(PageRank, ThreeVerticesOneStep) {
  expect_ranks(pagerank(three_vertex_graph(), 1), {13.0 / 90, 103.0 / 360, 41.0 / 72});
}

TEST(PageRank, ThreeVerticesTwoSteps) {
  expect_ranks(pagerank(three_vertex_graph(), 2), {913.0 / 4320, 5891.0 / 21600, 1393.0 / 2700});
}

TEST(PageRank, ThreeVerticesDefaultIsTwentySteps) {
  // Exact rational arithmetic over 20 steps, rounded to double at the end.
  const std::vector<double> want = {0.19757964936836755, 0.28155100029470637,
                                    0.52086935033692616};
  const std::vector<double> got = pagerank(three_vertex_graph());
  ASSERT_EQ(got.size(), 3u);
  for (size_t v = 0; v < 3; ++v) EXPECT_NEAR(got[v], want[v], 1e-14) << "vertex " << v;
  EXPECT_NEAR(sum(got), 1.0, 1e-14);
}

TEST(PageRank, ThreeVerticesConvergesToTheLinearSystemSolution) {
  // Solution of r = a + d*(M r + D/V), sum r = 1, solved exactly: the power
  // iteration must get there (a different fixed point means a wrong formula).
  const std::vector<double> fixed_point = {0.19757964929612248, 0.28155100024697455,
                                           0.52086935045690297};
  const std::vector<double> got = pagerank(three_vertex_graph(), 200);
  for (size_t v = 0; v < 3; ++v) EXPECT_NEAR(got[v], fixed_point[v], 1e-14) << "vertex " << v;
}

// 0->1 twice, 0->2, 1->1 (self-loop), 1->0; 2 is dangling, 3 is isolated
// (and so dangling too). outdeg = 3, 2, 0, 0; step 1 by hand with a = 0.0375,
// ranks 1/4, D/V = (1/4 + 1/4)/4 = 1/8:
//   r0 = a + .85 * (r1/2 + 1/8)           = 1/4
//   r1 = a + .85 * (2*r0/3 + r1/2 + 1/8)  = 47/120   (multi-edge counts twice)
//   r2 = a + .85 * (r0/3 + 1/8)           = 103/480
//   r3 = a + .85 * (1/8)                  = 23/160
EdgeList multi_edge_graph() {
  return make_graph(4, {{0, 1, 1}, {0, 1, 1}, {0, 2, 1}, {1, 1, 1}, {1, 0, 1}});
}

TEST(PageRank, MultiEdgeSelfLoopDanglingIsolatedOneStep) {
  expect_ranks(pagerank(multi_edge_graph(), 1), {0.25, 47.0 / 120, 103.0 / 480, 23.0 / 160});
}

TEST(PageRank, MultiEdgeSelfLoopDanglingIsolatedTwoSteps) {
  expect_ranks(pagerank(multi_edge_graph(), 2),
               {2689.0 / 9600, 4049.0 / 9600, 1771.0 / 9600, 1091.0 / 9600});
}

TEST(PageRank, ZeroIterationsIsUniform) {
  expect_ranks(pagerank(multi_edge_graph(), 0), {0.25, 0.25, 0.25, 0.25});
}

TEST(PageRank, EdgelessGraphStaysUniform) {
  // All vertices dangling: the dangling mass puts back exactly what damping takes.
  expect_ranks(pagerank(make_graph(5, {}), 20), {0.2, 0.2, 0.2, 0.2, 0.2});
}

TEST(PageRank, RanksSumToOneOnAMessierGraph) {
  // A ring with chords, dangling tails and isolated vertices: the mass is
  // conserved whatever the shape.
  EdgeList g = make_graph(50, {});
  for (VertexId v = 0; v < 40; ++v) {
    g.edges.push_back({v, (v + 1) % 40, 1});
    if (v % 3 == 0) g.edges.push_back({v, (v * 7 + 3) % 45, 1});
  }
  const std::vector<double> r = pagerank(g, 30);
  EXPECT_NEAR(sum(r), 1.0, 1e-12);
  for (double x : r) EXPECT_GT(x, 0.0);
}

// Weighted PageRank (networkx's weight='weight'): 0->1 weighing 2 and 1
// (parallel: 3 in all), 0->2 w 1, 1->1 w 1 (self-loop), 1->0 w 3, 2->3 w 0;
// 3 has no out-edge. W = 4, 4, 0, 0: 2 (only a zero weight) and 3 are
// dangling. Step 1 by hand, ranks 1/4, a = 0.0375, D/V = (1/4 + 1/4)/4 = 1/8:
//   r0 = a + .85 * (r1 * 3/4 + 1/8)            = 0.303125
//   r1 = a + .85 * (r0 * 3/4 + r1 * 1/4 + 1/8) = 0.35625
//   r2 = a + .85 * (r0 * 1/4 + 1/8)            = 0.196875
//   r3 = a + .85 * (0 + 1/8)                   = 0.14375   (2's zero-weight edge passes nothing)
EdgeList shared_rank_graph() {
  return make_graph(4, {{0, 1, 2}, {0, 1, 1}, {0, 2, 1}, {1, 1, 1}, {1, 0, 3}, {2, 3, 0}});
}

TEST(WeightedPageRank, ZeroWeightsParallelEdgesAndDanglingOneStep) {
  expect_ranks(weighted_pagerank(shared_rank_graph(), 1), {0.303125, 0.35625, 0.196875, 0.14375});
}

TEST(WeightedPageRank, RealWeightsScaledPerSourceGiveTheSameRanks) {
  // Only w / W(u) counts: each source's weights halved or tripled as reals.
  EdgeList g = shared_rank_graph();
  g.real_weights = {1.0, 0.5, 0.5, 3.0, 9.0, 0.0};
  const std::vector<double> want = weighted_pagerank(shared_rank_graph(), 30);
  const std::vector<double> got = weighted_pagerank(g, 30);
  for (size_t v = 0; v < want.size(); ++v) EXPECT_NEAR(got[v], want[v], 1e-15) << "vertex " << v;
  EXPECT_NEAR(sum(got), 1.0, 1e-12);
}

TEST(WeightedPageRank, UnitWeightsArePageRank) {
  EdgeList g = multi_edge_graph();
  const std::vector<double> want = pagerank(g, 20), got = weighted_pagerank(g, 20);
  for (size_t v = 0; v < want.size(); ++v) EXPECT_NEAR(got[v], want[v], 1e-15) << "vertex " << v;
  EXPECT_TRUE(weighted_pagerank(make_graph(0, {})).empty());
}

// ------------------------------------------------------- personalized PageRank

// 0->1, 1->2, 1->4, 2->0, 3->0; 4 is dangling, 3 has no in-edge. One step
// from 1/5 by hand, seeds 0 and 4 (d = .85; dangling mass D = x4 = .2, which
// goes to the seed; incoming: v0 .2 + .2, v1 .2, v2 .1, v3 0, v4 .1):
//   seed 0: v0 = .85 * .4 + .85 * .2 + .15 = .66, v1 .17, v2 .085, v3 0, v4 .085
//   seed 4: v0 .34, v1 .17, v2 .085, v3 0, v4 = .85 * .1 + .85 * .2 + .15 = .405
TEST(PersonalizedPageRank, TwoSeedsOneStepVertexMajor) {
  const EdgeList g = make_graph(5, {{0, 1, 1}, {1, 2, 1}, {1, 4, 1}, {2, 0, 1}, {3, 0, 1}});
  expect_ranks(oracle::personalized_pagerank(g, {0, 4}, 1, 0.85, 0),
               {.66, .34, .17, .17, .085, .085, 0, 0, .085, .405});
}

TEST(PersonalizedPageRank, EachSeedsRanksSumToOneAndTheToleranceStopsBoth) {
  const EdgeList g = multi_edge_graph();
  const std::vector<double> x = oracle::personalized_pagerank(g, {0, 2, 3}, 200, 0.85, 0);
  for (size_t j = 0; j < 3; ++j) {
    double total = 0;
    for (size_t v = 0; v < g.num_vertices; ++v) total += x[v * 3 + j];
    EXPECT_NEAR(total, 1.0, 1e-12) << "seed column " << j;
  }
  // With a tolerance it stops at a step that every seed has converged by:
  // within V x T (L1) of 200 steps' fixed point, times d / (1 - d).
  const std::vector<double> t = oracle::personalized_pagerank(g, {0, 2, 3}, 200, 0.85, 1e-9);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(t[i], x[i], g.num_vertices * 1e-9 * 0.85 / 0.15) << i;
  EXPECT_THROW(oracle::personalized_pagerank(g, {g.num_vertices}, 1, 0.85, 0), std::invalid_argument);
}

TEST(PageRank, EmptyGraph) { EXPECT_TRUE(pagerank(make_graph(0, {})).empty()); }

TEST(PageRank, RejectsOutOfRangeEdge) {
  EXPECT_THROW(pagerank(make_graph(2, {{0, 2, 1}})), std::invalid_argument);
}

// -------------------------------------------------------------------- SSSP

// 0->1 (4) loses to 0->2->1 (1+2 = 3): the shortest path has more hops.
// 1->3 has weight 0; 2->3 is a multi-edge (9 and 7), both worse than via 1.
// 3->3 is a self-loop. 4 reaches 0 but nothing reaches 4; 5 is isolated.
EdgeList weighted_graph() {
  return make_graph(6, {{0, 1, 4},
                        {0, 2, 1},
                        {2, 1, 2},
                        {1, 3, 0},
                        {2, 3, 9},
                        {2, 3, 7},
                        {3, 3, 5},
                        {4, 0, 1}});
}

TEST(Sssp, FromZero) {
  EXPECT_EQ(sssp(weighted_graph(), 0), (std::vector<uint64_t>{0, 3, 1, 3, kInf, kInf}));
}

TEST(Sssp, FromTheVertexNothingReaches) {
  EXPECT_EQ(sssp(weighted_graph(), 4), (std::vector<uint64_t>{1, 4, 2, 4, 0, kInf}));
}

TEST(Sssp, FromADeadEndReachesOnlyItself) {
  EXPECT_EQ(sssp(weighted_graph(), 3), (std::vector<uint64_t>{kInf, kInf, kInf, 0, kInf, kInf}));
}

TEST(Sssp, MultiEdgeTakesTheLighterCopy) {
  EXPECT_EQ(sssp(make_graph(2, {{0, 1, 9}, {0, 1, 2}, {0, 1, 5}}), 0),
            (std::vector<uint64_t>{0, 2}));
}

TEST(Sssp, DistancesPastThirtyTwoBits) {
  // Two 4e9 edges: 8e9 does not fit the 32-bit Weight type.
  const EdgeList g = make_graph(3, {{0, 1, 4000000000u}, {1, 2, 4000000000u}});
  EXPECT_EQ(sssp(g, 0), (std::vector<uint64_t>{0, 4000000000ull, 8000000000ull}));
}

TEST(Sssp, ZeroWeightCycle) {
  EXPECT_EQ(sssp(make_graph(3, {{0, 1, 0}, {1, 0, 0}, {1, 2, 3}}), 1),
            (std::vector<uint64_t>{0, 0, 3}));
}

TEST(Sssp, RejectsSourceOutsideGraph) {
  EXPECT_THROW(sssp(weighted_graph(), 6), std::invalid_argument);
}

// --------------------------------------------------------------------- BFS

TEST(Bfs, HopsIgnoreWeights) {
  // Vertex 1 is one hop away even though its shortest weighted path has two.
  EXPECT_EQ(bfs(weighted_graph(), 0), (std::vector<uint64_t>{0, 1, 1, 2, kInf, kInf}));
}

TEST(Bfs, FollowsDirection) {
  EXPECT_EQ(bfs(weighted_graph(), 3), (std::vector<uint64_t>{kInf, kInf, kInf, 0, kInf, kInf}));
  EXPECT_EQ(bfs(weighted_graph(), 4), (std::vector<uint64_t>{1, 2, 2, 3, 0, kInf}));
}

TEST(Bfs, LongChain) {
  EdgeList g = make_graph(100, {});
  for (VertexId v = 0; v + 1 < 100; ++v) g.edges.push_back({v, v + 1, 77});
  const std::vector<uint64_t> hops = bfs(g, 0);
  for (VertexId v = 0; v < 100; ++v) EXPECT_EQ(hops[v], v);
}

TEST(Bfs, RejectsSourceOutsideGraph) {
  EXPECT_THROW(bfs(make_graph(0, {}), 0), std::invalid_argument);
}

// ---------------------------------------------------------------------- CC

// Components: {0, 8} via 8->0; {1, 2, 7} via 7->2 and 7->1, so 2 gets
// label 1 only by walking against an edge's direction; {3} isolated;
// {4, 5} via 5->4; {6} with only a self-loop.
TEST(Cc, WeakComponentsLabelledByTheirSmallestId) {
  const EdgeList g = make_graph(9, {{7, 2, 1}, {7, 1, 1}, {5, 4, 1}, {6, 6, 1}, {8, 0, 1}});
  EXPECT_EQ(cc(g), (std::vector<VertexId>{0, 1, 1, 3, 4, 4, 6, 1, 0}));
}

TEST(Cc, ChainBuiltBackwardsIsOneComponent) {
  // Edges point from high ids to low ones and are listed from the top, the
  // order that makes a naive one-pass labelling leave several labels.
  EdgeList g = make_graph(10, {});
  for (VertexId v = 9; v > 0; --v) g.edges.push_back({v, v - 1, 1});
  EXPECT_EQ(cc(g), std::vector<VertexId>(10, 0));
}

TEST(Cc, MergesTwoLabelledSetsThroughTheirLargerMembers) {
  // {0, 5} and {1, 6} exist before 6->5 joins them: the whole set must
  // end up with 0, including 1 and 6.
  const EdgeList g = make_graph(7, {{5, 0, 1}, {6, 1, 1}, {6, 5, 1}});
  EXPECT_EQ(cc(g), (std::vector<VertexId>{0, 0, 2, 3, 4, 0, 0}));
}

TEST(Cc, EdgesFromSmallToLargeIds) {
  // The mirror of the tests above: here the smaller id is always the source,
  // so a labelling that follows edge direction would keep the larger ids.
  const EdgeList g = make_graph(6, {{0, 3, 1}, {2, 3, 1}, {1, 4, 1}, {4, 5, 1}, {2, 5, 1}});
  EXPECT_EQ(cc(g), std::vector<VertexId>(6, 0));
}

TEST(Cc, EdgelessGraph) {
  EXPECT_EQ(cc(make_graph(4, {})), (std::vector<VertexId>{0, 1, 2, 3}));
  EXPECT_TRUE(cc(make_graph(0, {})).empty());
}

TEST(Cc, DirectionDoesNotMatter) {
  EdgeList g = weighted_graph();
  EdgeList reversed = g;
  for (Edge& e : reversed.edges) std::swap(e.src, e.dst);
  EXPECT_EQ(cc(g), cc(reversed));
  EXPECT_EQ(cc(g), (std::vector<VertexId>{0, 0, 0, 0, 0, 5}));
}

// ------------------------------------------------------------ kcore

TEST(KCore, ByHand) {
  // A 4-clique {0,1,2,3} (core 3) with a triangle {3,4,5} hanging off 3
  // (4, 5: core 2), a pendant 6 on 5 (core 1), an isolated 7 (core 0) and an
  // 8 with only a self-loop (core 0). Directions, duplicates and the
  // self-loops must not matter.
  EdgeList g = make_graph(9, {{0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {1, 2, 1}, {1, 3, 1}, {2, 3, 1},
                              {3, 4, 1}, {4, 5, 1}, {5, 3, 1}, {6, 5, 1},
                              {1, 0, 1}, {0, 1, 7}, {2, 2, 1}, {8, 8, 1}});
  EXPECT_EQ(kcore(g), (std::vector<uint64_t>{3, 3, 3, 3, 2, 2, 1, 0, 0}));
}

TEST(KCore, ChainAndStarAreOneCores) {
  EdgeList chain = make_graph(5, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}});
  EXPECT_EQ(kcore(chain), (std::vector<uint64_t>{1, 1, 1, 1, 1}));
  EdgeList star = make_graph(5, {{0, 1, 1}, {0, 2, 1}, {3, 0, 1}, {4, 0, 1}});
  EXPECT_EQ(kcore(star), (std::vector<uint64_t>{1, 1, 1, 1, 1}));
}

// ------------------------------------------------------ cross-checks

// ------------------------------------------------------------ lcc

// Directed, by hand (a repeated edge and a self-loop change nothing):
//   N(0) = {1, 2, 3}: 1 -> 2, 2 -> 1, 3 -> 1 among them: 3 / (3 * 2)
//   N(1) = {0, 2, 3}: 0 -> 2, 3 -> 0: 2 / 6
//   N(2) = {0, 1} and N(3) = {0, 1}: 0 -> 1: 1 / 2
//   N(4) = {5}, N(5) = {4}: fewer than two neighbours, 0
TEST(Lcc, DirectedByHand) {
  const EdgeList g = make_graph(6, {{0, 1, 1}, {0, 2, 1}, {3, 0, 1}, {1, 2, 1}, {2, 1, 1}, {3, 1, 1}, {1, 2, 1},
                                    {4, 4, 1}, {4, 5, 1}});
  EXPECT_EQ(lcc(g), (std::vector<double>{3.0 / 6, 2.0 / 6, 0.5, 0.5, 0.0, 0.0}));
}

// Undirected (every edge both ways): the usual 2 e / (d (d - 1)).
TEST(Lcc, UndirectedTriangleAndTail) {
  EdgeList g = make_graph(4, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {2, 3, 1}});
  add_reverse_edges(g);
  EXPECT_EQ(lcc(g), (std::vector<double>{1.0, 1.0, 1.0 / 3, 0.0}));
}

// ------------------------------------------------------------ tc

// Two triangles sharing the edge 1-2 (0-1-2 and 1-2-3), given in mixed
// directions, with a repeated edge, a self-loop and a tail 3-4: directions
// and repeats change nothing; 4 is in no triangle, nor is the isolated 5.
TEST(Triangles, TwoSharingAnEdgeByHand) {
  const EdgeList g = make_graph(6, {{0, 1, 1}, {2, 0, 1}, {1, 2, 1}, {2, 1, 1}, {3, 1, 1}, {2, 3, 1}, {3, 2, 1},
                                    {3, 4, 1}, {4, 4, 1}});
  EXPECT_EQ(triangles(g), (std::vector<uint64_t>{1, 2, 2, 1, 0, 0}));
}

// K5: every vertex is a corner of C(4, 2) = 6 of its C(5, 3) = 10 triangles.
TEST(Triangles, CompleteGraphByHand) {
  EdgeList g = make_graph(5, {});
  for (VertexId u = 0; u < 5; ++u)
    for (VertexId v = u + 1; v < 5; ++v) g.edges.push_back({u, v, 1});
  EXPECT_EQ(triangles(g), std::vector<uint64_t>(5, 6));
}

TEST(CrossCheck, BfsEqualsSsspWithUnitWeights) {
  EdgeList g = make_graph(60, {});
  for (VertexId v = 0; v < 60; ++v) {
    g.edges.push_back({v, (v * 11 + 5) % 60, 1});
    g.edges.push_back({v, (v * 17 + 1) % 57, 1});
  }
  EXPECT_EQ(bfs(g, 0), sssp(g, 0));
}

// -------------------------------------------------------------- BC (Brandes)

// As GAP's bc: a vertex's score sums its dependencies on the sources, the
// source's own included, and is divided by the largest score.
void expect_scores(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t v = 0; v < want.size(); ++v) EXPECT_NEAR(got[v], want[v], 1e-15) << "vertex " << v;
}

// The path 0-1-2-3-4, given with edges in both directions and one backwards
// (directions are ignored), from 0: one path to each vertex, dependencies
// 4, 3, 2, 1, 0; divided by 4.
TEST(Bc, PathFromItsEnd) {
  const EdgeList g = make_graph(5, {{0, 1, 1}, {2, 1, 1}, {2, 3, 1}, {3, 4, 1}, {4, 3, 1}});
  expect_scores(bc(g, 0, 0), {1, 0.75, 0.5, 0.25, 0});
}

// The star with centre 0 and leaves 1..4, from leaf 1: the centre carries the
// paths to the 3 other leaves (3), the source 1 + 3 (4).
TEST(Bc, StarFromALeaf) {
  const EdgeList g = make_graph(5, {{0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 4, 1}, {1, 1, 1}});  // and a self-loop
  expect_scores(bc(g, 1, 0), {0.75, 1, 0, 0, 0});
}

// The square 0-1-3, 0-2-3 (a duplicate edge 1-3): two shortest paths to 3,
// half through each of 1 and 2 (1/2 each), the source 2 * (1 + 1/2) = 3.
TEST(Bc, TwoShortestPathsShareTheDependency) {
  const EdgeList g = make_graph(4, {{0, 1, 1}, {0, 2, 1}, {1, 3, 1}, {3, 1, 1}, {2, 3, 1}});
  expect_scores(bc(g, 0, 0), {1, 1.0 / 6, 1.0 / 6, 0});
}

// A source without edges: every score 0 (not divided by 0).
TEST(Bc, IsolatedSourceScoresNothing) {
  expect_scores(bc(make_graph(3, {{1, 2, 1}}), 0, 0), {0, 0, 0});
}

// GAP's picks, from running GAP's bc (gapbs, -s -i 5 -n 1 -l prints each
// "Source:") on two 1000-vertex graphs: the cycle 0-1-...-999-0, where every
// vertex has edges, and the path 0-2-4-...-998 with the edge 998-999, where
// the odd vertices but 999 have none (GAP draws 359 and 95 and passes over them).
TEST(Bc, SourcesAreGapsPicks) {
  std::vector<std::vector<VertexId>> cycle(1000), evens(1000);
  for (VertexId v = 0; v < 1000; ++v) cycle[v] = {(v + 999) % 1000, (v + 1) % 1000};
  for (VertexId v = 0; v + 2 < 1000; v += 2) evens[v].push_back(v + 2), evens[v + 2].push_back(v);
  evens[998].push_back(999), evens[999].push_back(998);
  EXPECT_EQ(oracle::bc_sources(cycle, 7, 5), (std::vector<VertexId>{359, 95, 272, 782, 148}));
  EXPECT_EQ(oracle::bc_sources(evens, 7, 5), (std::vector<VertexId>{272, 782, 148, 788, 550}));
  EXPECT_EQ(oracle::bc_sources(evens, 7, 0), (std::vector<VertexId>{7}));  // --source alone
  EXPECT_TRUE(oracle::bc_sources(std::vector<std::vector<VertexId>>(4), 0, 3).empty());  // no edges: none
}

TEST(CrossCheck, UndirectedBfsReachesExactlyTheComponent) {
  EdgeList g = weighted_graph();
  add_reverse_edges(g);
  const std::vector<uint64_t> hops = bfs(g, 0);
  const std::vector<VertexId> label = cc(g);
  for (VertexId v = 0; v < g.num_vertices; ++v)
    EXPECT_EQ(hops[v] != kInf, label[v] == label[0]) << "vertex " << v;
}

}  // namespace
}  // namespace wg::ref
