// Label propagation (--app cd): the mode-with-ties rule, and the oracle the
// cluster tests compare the engine with, both against hand-computed values.
#include <gtest/gtest.h>

#include <vector>

#include "apps/label_propagation.h"
#include "tests/reference.h"

namespace wg {
namespace {

uint32_t mode_of(std::vector<uint32_t> v) { return LabelPropagation::most_frequent(v); }

TEST(MostFrequent, PicksTheMostFrequentLabel) {
  EXPECT_EQ(mode_of({7}), 7u);
  EXPECT_EQ(mode_of({5, 3, 5}), 5u);
  EXPECT_EQ(mode_of({9, 1, 9, 1, 9}), 9u);
}

TEST(MostFrequent, TiesGoToTheSmallestLabel) {
  EXPECT_EQ(mode_of({4, 2}), 2u);
  EXPECT_EQ(mode_of({8, 8, 3, 3, 6}), 3u);
  EXPECT_EQ(mode_of({1u << 31, 0xffffffffu}), 1u << 31);
}

EdgeList graph(VertexId v, std::vector<std::pair<VertexId, VertexId>> edges) {
  EdgeList g;
  g.num_vertices = v;
  for (auto [a, b] : edges) g.edges.push_back(Edge{a, b, 1});
  return g;
}

TEST(LabelPropagationOracle, PathOscillates) {
  const EdgeList g = graph(3, {{0, 1}, {1, 2}});
  // Round 1: 0 sees {1}, 1 sees {0, 2} (tie: 0), 2 sees {1}.
  EXPECT_EQ(ref::label_propagation(g, 1), (std::vector<VertexId>{1, 0, 1}));
  // Round 2: 0 sees {0}, 1 sees {1, 1}, 2 sees {0}.
  EXPECT_EQ(ref::label_propagation(g, 2), (std::vector<VertexId>{0, 1, 0}));
  EXPECT_EQ(ref::label_propagation(g, 0), (std::vector<VertexId>{0, 1, 2}));
}

TEST(LabelPropagationOracle, IsolatedVertexAndSelfLoopKeepTheirLabel) {
  const EdgeList g = graph(4, {{0, 1}, {3, 3}});
  EXPECT_EQ(ref::label_propagation(g, 1), (std::vector<VertexId>{1, 0, 2, 3}));
}

TEST(LabelPropagationOracle, MultiEdgesCountEachTime) {
  // 0 sees 1 twice and 2 once; direction does not matter.
  const EdgeList g = graph(3, {{0, 1}, {1, 0}, {2, 0}});
  EXPECT_EQ(ref::label_propagation(g, 1)[0], 1u);
}

TEST(LabelPropagationOracle, TwoTrianglesJoinedByABridge) {
  const EdgeList g = graph(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {2, 3}});
  // 0 {1,2}->1, 1 {0,2}->0, 2 {0,1,3}->0, 3 {2,4,5}->2, 4 {3,5}->3, 5 {3,4}->3.
  EXPECT_EQ(ref::label_propagation(g, 1), (std::vector<VertexId>{1, 0, 0, 2, 3, 3}));
}

}  // namespace
}  // namespace wg
