// Round-robin partition and the node-local edge blocks (compute/partition/partition.h).
#include "compute/partition/partition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/kronecker.h"
#include "compute/partition/slot_map.h"
#include "compute/partition/slot_renumber.h"

namespace wg {
namespace {

TEST(RoundRobin, OwnerLocalGlobalByHand) {
  const RoundRobin rr{3};
  // v:      0 1 2 3 4 5 6 7 8 9
  // owner:  0 1 2 0 1 2 0 1 2 0
  // local:  0 0 0 1 1 1 2 2 2 3
  const unsigned owner[] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0};
  const uint32_t local[] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3};
  for (VertexId v = 0; v < 10; ++v) {
    EXPECT_EQ(rr.owner(v), owner[v]) << v;
    EXPECT_EQ(rr.local_index(v), local[v]) << v;
    EXPECT_EQ(rr.global_id(owner[v], local[v]), v);
  }
  const RoundRobin one{1};
  EXPECT_EQ(one.owner(12345), 0u);
  EXPECT_EQ(one.local_index(12345), 12345u);
  EXPECT_EQ(one.global_id(0, 12345), 12345u);
}

TEST(RoundRobin, RoundTripsForEveryClusterSize) {
  for (unsigned p = 1; p <= 64; ++p) {
    const RoundRobin rr{p};
    for (VertexId v : {0u, 1u, 2u, 63u, 64u, 65u, 1000u, 4294967294u, 4294967295u}) {
      const unsigned o = rr.owner(v);
      ASSERT_LT(o, p);
      ASSERT_EQ(rr.global_id(o, rr.local_index(v)), v) << "P " << p << " v " << v;
    }
  }
}

TEST(RoundRobin, LocalCountsByHand) {
  const RoundRobin r3{3};
  EXPECT_EQ(r3.local_count(0, 10), 4u);  // 0 3 6 9
  EXPECT_EQ(r3.local_count(1, 10), 3u);  // 1 4 7
  EXPECT_EQ(r3.local_count(2, 10), 3u);  // 2 5 8
  EXPECT_EQ(r3.local_count(0, 2), 1u);
  EXPECT_EQ(r3.local_count(1, 2), 1u);
  EXPECT_EQ(r3.local_count(2, 2), 0u);
  EXPECT_EQ(r3.local_count(0, 0), 0u);
  EXPECT_EQ(r3.local_count(2, 3), 1u);
  EXPECT_EQ(r3.local_count(0, 9), 3u);
  const RoundRobin r1{1};
  EXPECT_EQ(r1.local_count(0, 7), 7u);
  const RoundRobin r4{4};
  EXPECT_EQ(r4.local_count(3, 4294967295u), 1073741823u);  // 3, 7, ..., 2^32 - 5
  EXPECT_EQ(r4.local_count(2, 4294967295u), 1073741824u);  // ..., 2^32 - 2
}

TEST(RoundRobin, LocalCountsSumToVAndMatchOwnership) {
  for (unsigned p = 1; p <= 9; ++p) {
    const RoundRobin rr{p};
    for (VertexId n = 0; n <= 40; ++n) {
      std::vector<uint32_t> counted(p, 0);
      for (VertexId v = 0; v < n; ++v) ++counted[v % p];  // the definition
      for (unsigned r = 0; r < p; ++r) EXPECT_EQ(rr.local_count(r, n), counted[r]) << p << " " << n << " " << r;
    }
  }
}

// ---- local graphs -----------------------------------------------------------

EdgeList small_graph() {
  // 9 vertices. Vertex 8 has no edges at all; 6 has in-edges only; multi-edge
  // 0->4 twice with different weights; self-loop 5->5; edges given out of
  // source order so that "input order per source" is visible.
  EdgeList g;
  g.num_vertices = 9;
  g.weighted = true;
  g.edges = {
      {3, 1, 31}, {0, 4, 11}, {1, 2, 12}, {0, 4, 22}, {5, 5, 55}, {7, 6, 76}, {2, 0, 20},
      {0, 1, 10}, {3, 6, 36}, {4, 7, 47}, {1, 6, 16}, {7, 0, 70}, {0, 2, 2},  {2, 3, 23},
  };
  return g;
}

using EdgeKey = std::tuple<VertexId, VertexId, Weight>;

std::vector<EdgeKey> multiset(const EdgeList& g, bool with_weights) {
  std::vector<EdgeKey> out;
  for (const Edge& e : g.edges) out.emplace_back(e.src, e.dst, with_weights ? e.weight : 0);
  std::sort(out.begin(), out.end());
  return out;
}

// Every node's blocks put back into global edges.
std::vector<EdgeKey> reconstruct(const std::vector<LocalGraph>& parts, bool with_weights) {
  std::vector<EdgeKey> out;
  for (const LocalGraph& lg : parts) {
    const RoundRobin rr = lg.partition;
    for (unsigned b = 0; b < lg.blocks.size(); ++b) {
      const EdgeBlock& blk = lg.blocks[b];
      for (size_t i = 0; i < blk.sources.size(); ++i)
        for (uint64_t e = blk.offsets[i]; e < blk.offsets[i + 1]; ++e)
          out.emplace_back(rr.global_id(lg.rank, blk.sources[i]), rr.global_id(b, blk.targets[e]),
                           with_weights ? blk.weights[e] : 0);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class BuildLocalGraph : public ::testing::TestWithParam<unsigned> {};

TEST_P(BuildLocalGraph, EveryEdgeExactlyOnce) {
  const unsigned p = GetParam();
  const EdgeList g = small_graph();
  for (bool weights : {false, true}) {
    SCOPED_TRACE(weights ? "weights" : "no weights");
    std::vector<LocalGraph> parts;
    for (unsigned r = 0; r < p; ++r) parts.push_back(build_local_graph(g, p, r, weights));
    EXPECT_EQ(reconstruct(parts, weights), multiset(g, weights));
  }
}

TEST_P(BuildLocalGraph, ShapeAndMetadata) {
  const unsigned p = GetParam();
  const EdgeList g = small_graph();
  // Out-degrees by hand: 0:4 1:2 2:2 3:2 4:1 5:1 6:0 7:2 8:0
  const uint32_t degree[9] = {4, 2, 2, 2, 1, 1, 0, 2, 0};
  uint64_t total = 0;
  for (unsigned r = 0; r < p; ++r) {
    SCOPED_TRACE(r);
    const LocalGraph lg = build_local_graph(g, p, r, false);
    EXPECT_EQ(lg.rank, r);
    EXPECT_EQ(lg.partition.nodes, p);
    EXPECT_EQ(lg.num_vertices, 9u);
    EXPECT_EQ(lg.num_edges, 14u) << "global |E|, not this node's";
    uint32_t owned = 0;
    for (VertexId v = r; v < 9; v += p) ++owned;
    EXPECT_EQ(lg.num_local, owned);
    ASSERT_EQ(lg.out_degree.size(), owned);
    ASSERT_EQ(lg.blocks.size(), p);
    for (uint32_t i = 0; i < owned; ++i) {
      EXPECT_EQ(lg.global_id(i), r + i * p);
      EXPECT_EQ(lg.out_degree[i], degree[r + i * p]) << "vertex " << r + i * p;
    }
    for (unsigned b = 0; b < p; ++b) {
      const EdgeBlock& blk = lg.blocks[b];
      ASSERT_EQ(blk.offsets.size(), blk.sources.size() + 1);
      EXPECT_EQ(blk.offsets.front(), 0u);
      EXPECT_EQ(blk.offsets.back(), blk.targets.size());
      EXPECT_EQ(blk.num_edges(), blk.targets.size());
      EXPECT_TRUE(blk.weights.empty()) << "weights not asked for";
      for (size_t i = 0; i < blk.sources.size(); ++i) {
        EXPECT_LT(blk.sources[i], owned);
        if (i > 0) {
          EXPECT_LT(blk.sources[i - 1], blk.sources[i]) << "ascending, no duplicates";
        }
        EXPECT_LT(blk.offsets[i], blk.offsets[i + 1]) << "a listed source has >= 1 edge";
      }
      const uint32_t dst_count = RoundRobin{p}.local_count(b, 9);
      for (uint32_t t : blk.targets) EXPECT_LT(t, dst_count);
      total += blk.num_edges();
    }
  }
  EXPECT_EQ(total, 14u);
}

TEST_P(BuildLocalGraph, WeightsKeptWhenAsked) {
  const unsigned p = GetParam();
  const EdgeList g = small_graph();
  for (unsigned r = 0; r < p; ++r) {
    const LocalGraph lg = build_local_graph(g, p, r, true);
    for (const EdgeBlock& blk : lg.blocks) EXPECT_EQ(blk.weights.size(), blk.targets.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Nodes, BuildLocalGraph, ::testing::Values(1u, 2u, 3u, 4u, 10u),
                         [](const ::testing::TestParamInfo<unsigned>& i) {
                           std::string name = "P";
                           name += std::to_string(i.param);
                           return name;
                         });

TEST(BuildLocalGraphByHand, TwoNodes) {
  // P = 2. Node 0 owns 0 2 4 6 8 (local 0..4), node 1 owns 1 3 5 7 (local 0..3).
  const EdgeList g = small_graph();
  const LocalGraph n0 = build_local_graph(g, 2, 0, true);
  // Node 0's edges: 0->4 (11), 0->4 (22), 2->0 (20), 0->1 (10), 4->7 (47), 0->2 (2), 2->3 (23)
  // to node 0: sources 0 (local 0): 4,4,2 -> local 2,2,1 ; 2 (local 1): 0 -> local 0
  const EdgeBlock& b00 = n0.blocks[0];
  EXPECT_EQ(b00.sources, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(b00.offsets, (std::vector<uint64_t>{0, 3, 4}));
  EXPECT_EQ(b00.targets, (EdgeArray<uint32_t>{2, 2, 1, 0}));
  EXPECT_EQ(b00.weights, (EdgeArray<uint32_t>{11, 22, 2, 20}));  // input order per source
  // to node 1: 0->1 (local 0), 2->3 (local 1), 4->7 (local 3)
  const EdgeBlock& b01 = n0.blocks[1];
  EXPECT_EQ(b01.sources, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(b01.offsets, (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(b01.targets, (EdgeArray<uint32_t>{0, 1, 3}));
  EXPECT_EQ(b01.weights, (EdgeArray<uint32_t>{10, 23, 47}));
  EXPECT_EQ(n0.out_degree, (std::vector<uint32_t>{4, 2, 1, 0, 0}));  // 0 2 4 6 8

  const LocalGraph n1 = build_local_graph(g, 2, 1, false);
  // Node 1's edges: 3->1, 1->2, 5->5, 7->6, 3->6, 1->6, 7->0
  // to node 0: 1->2 (l0 -> 1), 1->6 (l0 -> 3), 3->6 (l1 -> 3), 7->6 (l3 -> 3), 7->0 (l3 -> 0)
  const EdgeBlock& b10 = n1.blocks[0];
  EXPECT_EQ(b10.sources, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(b10.offsets, (std::vector<uint64_t>{0, 2, 3, 5}));
  EXPECT_EQ(b10.targets, (EdgeArray<uint32_t>{1, 3, 3, 3, 0}));
  // to node 1: 3->1 (l1 -> 0), 5->5 (l2 -> 2)
  const EdgeBlock& b11 = n1.blocks[1];
  EXPECT_EQ(b11.sources, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(b11.offsets, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(b11.targets, (EdgeArray<uint32_t>{0, 2}));
  EXPECT_TRUE(b11.weights.empty());
  EXPECT_EQ(n1.out_degree, (std::vector<uint32_t>{2, 2, 1, 2}));  // 1 3 5 7
}

// Real weights (Graphalytics', --weighted Louvain's) follow their targets
// when repeated edges go, the smallest kept, as integer weights do.
TEST(RemoveDuplicateTargets, KeepsTheSmallestRealWeightOfEachPair) {
  LocalGraph n0 = build_local_graph(small_graph(), 2, 0, true);
  for (EdgeBlock& b : n0.blocks) {
    b.real_weights.assign(b.weights.begin(), b.weights.end());
    for (double& w : b.real_weights) w += 0.5;
    b.weights.clear();
  }
  remove_duplicate_targets(n0);
  const EdgeBlock& b00 = n0.blocks[0];  // 0->4 (11), 0->4 (22), 0->2 (2); 2->0 (20)
  EXPECT_EQ(b00.offsets, (std::vector<uint64_t>{0, 2, 3}));
  EXPECT_EQ(b00.targets, (EdgeArray<uint32_t>{1, 2, 0}));
  EXPECT_EQ(b00.real_weights, (EdgeArray<double>{2.5, 11.5, 20.5}));
  EXPECT_EQ(n0.blocks[1].real_weights, (EdgeArray<double>{10.5, 23.5, 47.5}));
  EXPECT_EQ(n0.out_degree, (std::vector<uint32_t>{3, 2, 1, 0, 0}));
}

TEST(BuildLocalGraphByHand, MoreNodesThanVertices) {
  EdgeList g;
  g.num_vertices = 2;
  g.edges = {{0, 1, 1}, {1, 0, 1}, {1, 1, 1}};
  const LocalGraph n2 = build_local_graph(g, 3, 2, true);  // owns nothing
  EXPECT_EQ(n2.num_local, 0u);
  EXPECT_TRUE(n2.out_degree.empty());
  ASSERT_EQ(n2.blocks.size(), 3u);
  for (const EdgeBlock& b : n2.blocks) {
    EXPECT_TRUE(b.sources.empty());
    EXPECT_EQ(b.offsets, (std::vector<uint64_t>{0}));
    EXPECT_TRUE(b.targets.empty());
  }
  const LocalGraph n1 = build_local_graph(g, 3, 1, false);
  EXPECT_EQ(n1.num_local, 1u);
  EXPECT_EQ(n1.out_degree, (std::vector<uint32_t>{2}));
  EXPECT_EQ(n1.blocks[0].targets, (EdgeArray<uint32_t>{0}));
  EXPECT_EQ(n1.blocks[1].targets, (EdgeArray<uint32_t>{0}));
  EXPECT_TRUE(n1.blocks[2].targets.empty());
}

TEST(BuildLocalGraphByHand, NoEdges) {
  EdgeList g;
  g.num_vertices = 5;
  for (unsigned p : {1u, 2u, 3u}) {
    for (unsigned r = 0; r < p; ++r) {
      const LocalGraph lg = build_local_graph(g, p, r, true);
      EXPECT_EQ(lg.num_edges, 0u);
      EXPECT_EQ(lg.num_local, RoundRobin{p}.local_count(r, 5));
      EXPECT_EQ(lg.out_degree, std::vector<uint32_t>(lg.num_local, 0));
      for (const EdgeBlock& b : lg.blocks) {
        EXPECT_TRUE(b.sources.empty());
        EXPECT_EQ(b.num_edges(), 0u);
        EXPECT_EQ(b.offsets.size(), 1u);
      }
    }
  }
}

// One domain per node and the new slots `slots(n)` gives each node of n
// vertices: the tables renumber_slots takes, and the SlotMap a build takes.
template <class Slots>
std::pair<SlotMap, std::vector<std::vector<uint32_t>>> slot_tables(const EdgeList& g, unsigned P, Slots&& slots) {
  SlotMap map;
  map.nodes = P;
  map.slot_of.assign(g.num_vertices, 0);
  map.domain_of.assign(g.num_vertices, 0);
  std::vector<std::vector<uint32_t>> new_slot(P);
  for (unsigned p = 0; p < P; ++p) {
    const uint32_t n = RoundRobin{P}.local_count(p, g.num_vertices);
    map.domain_offset.push_back({0, n});
    new_slot[p] = slots(n);
    for (uint32_t i = 0; i < n; ++i) map.slot_of[VertexId{i} * P + p] = new_slot[p][i];
  }
  return {map, new_slot};
}

// Renumbering a node's part in place (compute/partition/slot_renumber.h) gives what
// building it with the same slots from the edges gives (build_local_graph
// with a one-domain SlotMap): the same blocks edge for edge, degrees, and
// slot -> vertex table, and in-edge blocks as the reversed graph's. The
// slots reverse each node's id order.
TEST(RenumberSlots, MatchesABuildWithTheSameSlots) {
  const EdgeList g = small_graph();
  for (unsigned P : {1u, 2u, 3u}) {
    const auto [map, new_slot] = slot_tables(g, P, [](uint32_t n) {
      std::vector<uint32_t> reversed(n);
      for (uint32_t i = 0; i < n; ++i) reversed[i] = n - 1 - i;
      return reversed;
    });
    for (unsigned r = 0; r < P; ++r) {
      SCOPED_TRACE("P = " + std::to_string(P) + ", node " + std::to_string(r));
      // With the in-edges a program may ask for (LocalGraph::in_blocks: the
      // reversed graph's blocks), renumbered alike.
      EdgeList reversed = g;
      for (Edge& e : reversed.edges) std::swap(e.src, e.dst);
      LocalGraph got = build_local_graph(g, P, r, true);
      got.in_blocks = build_local_graph(reversed, P, r, true).blocks;
      renumber_slots(got, new_slot);
      const LocalGraph want = build_local_graph(g, P, r, true, &map);
      const std::vector<EdgeBlock> want_in = build_local_graph(reversed, P, r, true, &map).blocks;
      ASSERT_EQ(got.blocks.size(), want.blocks.size());
      ASSERT_EQ(got.in_blocks.size(), want_in.size());
      for (size_t b = 0; b < got.blocks.size(); ++b) {
        EXPECT_EQ(got.blocks[b].sources, want.blocks[b].sources) << "block " << b;
        EXPECT_EQ(got.blocks[b].offsets, want.blocks[b].offsets) << "block " << b;
        EXPECT_EQ(got.blocks[b].targets, want.blocks[b].targets) << "block " << b;
        EXPECT_EQ(got.blocks[b].weights, want.blocks[b].weights) << "block " << b;
        EXPECT_EQ(got.in_blocks[b].sources, want_in[b].sources) << "in-edge block " << b;
        EXPECT_EQ(got.in_blocks[b].offsets, want_in[b].offsets) << "in-edge block " << b;
        EXPECT_EQ(got.in_blocks[b].targets, want_in[b].targets) << "in-edge block " << b;
      }
      EXPECT_EQ(got.out_degree, want.out_degree);
      EXPECT_EQ(got.in_degree, want.in_degree);
      EXPECT_EQ(got.global_of, want.global_of);
    }
  }
}

// The same on a Kronecker graph with weights and slots in a random order: its
// blocks are moved a share of their edges at a time (detail::move_runs), so
// runs of every length cross the passes' bounds.
TEST(RenumberSlots, RandomSlotsOnAKroneckerGraph) {
  const EdgeList g = generate_kronecker(parse_kronecker_spec("kron:10:8"));
  std::mt19937 rng(7);
  for (unsigned P : {1u, 2u, 3u}) {
    const auto [map, new_slot] = slot_tables(g, P, [&rng](uint32_t n) {
      std::vector<uint32_t> shuffled(n);
      std::iota(shuffled.begin(), shuffled.end(), 0u);
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      return shuffled;
    });
    for (unsigned r = 0; r < P; ++r) {
      SCOPED_TRACE("P = " + std::to_string(P) + ", node " + std::to_string(r));
      LocalGraph got = build_local_graph(g, P, r, true);
      renumber_slots(got, new_slot);
      const LocalGraph want = build_local_graph(g, P, r, true, &map);
      ASSERT_EQ(got.blocks.size(), want.blocks.size());
      for (size_t b = 0; b < got.blocks.size(); ++b) {
        EXPECT_EQ(got.blocks[b].sources, want.blocks[b].sources) << "block " << b;
        EXPECT_EQ(got.blocks[b].offsets, want.blocks[b].offsets) << "block " << b;
        EXPECT_EQ(got.blocks[b].targets, want.blocks[b].targets) << "block " << b;
        EXPECT_EQ(got.blocks[b].weights, want.blocks[b].weights) << "block " << b;
      }
      EXPECT_EQ(got.out_degree, want.out_degree);
      EXPECT_EQ(got.global_of, want.global_of);
    }
  }
}

// A slot table that is not a permutation of the node's vertices is refused,
// naming the node and the slot.
TEST(RenumberSlots, RefusesATableThatIsNotAPermutation) {
  const EdgeList g = small_graph();
  const uint32_t n0 = RoundRobin{2}.local_count(0, g.num_vertices), n1 = RoundRobin{2}.local_count(1, g.num_vertices);
  std::vector<std::vector<uint32_t>> slots(2);
  for (uint32_t i = 0; i < n0; ++i) slots[0].push_back(i);
  for (uint32_t i = 0; i < n1; ++i) slots[1].push_back(i);
  auto refused = [&](std::vector<std::vector<uint32_t>> t, const std::string& words) {
    LocalGraph lg = build_local_graph(g, 2, 0, false);
    try {
      renumber_slots(lg, t);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  auto twice = slots;
  twice[1][1] = twice[1][0];
  refused(twice, "node 1's slot table gives slot 0 twice");
  auto beyond = slots;
  beyond[0][0] = n0;
  refused(beyond, "node 0's slot table gives slot " + std::to_string(n0) + " (it has " + std::to_string(n0));
  auto short_table = slots;
  short_table[1].pop_back();
  refused(short_table, "node 1's slot table has " + std::to_string(n1 - 1) + " entries, not " + std::to_string(n1));
}

TEST(AddReverseEdges, DoublesAllButSelfLoops) {
  EdgeList g = small_graph();
  add_reverse_edges(g);
  // 14 edges, one self-loop: 14 + 13.
  EXPECT_EQ(g.num_edges(), 27u);
  std::vector<EdgeKey> want = multiset(small_graph(), true);
  for (const Edge& e : small_graph().edges)
    if (e.src != e.dst) want.emplace_back(e.dst, e.src, e.weight);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(multiset(g, true), want);
}

}  // namespace
}  // namespace wg
