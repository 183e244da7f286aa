// The receive side's plan (issue #12), pure logic: accumulation ranges and
// their queues (compute/engine/range_plan.h), edges regrouped by range, the lcore
// layout and --roles (compute/engine/lcore_layout.h), and RSS steering's choice of
// source ports against a plain Toeplitz hash written here from its
// definition (dataplane/steering.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/engine/lcore_layout.h"
#include "compute/partition/partition.h"
#include "compute/engine/range_plan.h"
#include "dataplane/steering.h"

namespace wg {
namespace {

// ---- ranges ----------------------------------------------------------------

// Checks what every plan must be, whatever its sizes: each node's ranges
// tile its domains in order, the same count and owners everywhere,
// boundaries on 64-accumulator steps from their domain's start, each queue's
// ranges contiguous and within one NUMA domain, every queue owning some.
void expect_sound(const RangePlan& p, const std::vector<std::vector<uint32_t>>& numa, unsigned queues) {
  ASSERT_EQ(p.nodes, numa.size());
  ASSERT_EQ(p.numa.size(), p.ranges);
  ASSERT_EQ(p.queue.size(), p.ranges);
  const unsigned k = static_cast<unsigned>(numa[0].size() - 1);
  for (unsigned node = 0; node < p.nodes; ++node) {
    const std::vector<uint32_t>& o = p.offset[node];
    ASSERT_EQ(o.size(), p.ranges + 1);
    EXPECT_EQ(o.front(), 0u);
    EXPECT_EQ(o.back(), numa[node][k]);
    for (unsigned r = 0; r < p.ranges; ++r) {
      EXPECT_LE(o[r], o[r + 1]) << "node " << node << " range " << r;
      const unsigned d = p.numa[r];
      ASSERT_LT(d, k);
      EXPECT_GE(o[r], numa[node][d]) << "range " << r << " starts before its domain";
      EXPECT_LE(o[r + 1], numa[node][d + 1]) << "range " << r << " ends after its domain";
      if (o[r] != numa[node][d]) {
        EXPECT_EQ((o[r] - numa[node][d]) % 64, 0u) << "range " << r;
      }
    }
  }
  for (unsigned r = 1; r < p.ranges; ++r) {
    EXPECT_LE(p.numa[r - 1], p.numa[r]) << "ranges in domain order";
    if (p.queue[r] != p.queue[r - 1]) {
      for (unsigned s = 0; s < r - 1; ++s) EXPECT_NE(p.queue[s], p.queue[r]) << "queue " << +p.queue[r] << " split";
    }
  }
  std::map<unsigned, std::set<unsigned>> domains_of_queue;
  for (unsigned r = 0; r < p.ranges; ++r) domains_of_queue[p.queue[r]].insert(p.numa[r]);
  EXPECT_EQ(domains_of_queue.size(), queues) << "every queue owns a range";
  if (queues >= k) {
    for (const auto& [q, ds] : domains_of_queue) EXPECT_EQ(ds.size(), 1u) << "queue " << q << " spans NUMA domains";
  }
}

TEST(RangePlan, OneDomainOneQueueSmallGraphIsOneRange) {
  const RangePlan p = plan_ranges({{0, 40}, {0, 39}}, 1, 1 << 18);
  expect_sound(p, {{0, 40}, {0, 39}}, 1);
  EXPECT_EQ(p.ranges, 1u);
  EXPECT_EQ(p.offset[1], (std::vector<uint32_t>{0, 39}));
}

// Without --range-kib a job keeps each node's Σ whole while the largest
// node's fits kWholeSigmaBytes (8 MiB), and cuts 256 KiB ranges past it;
// --range-kib always wins.
TEST(RangePlan, DefaultRangesOnlyPastWholeSigmaBytes) {
  const std::vector<std::vector<uint32_t>> fits = {{0, 2097152}, {0, 2097151}};     // 8 MiB of 4-byte Σ
  const std::vector<std::vector<uint32_t>> outgrows = {{0, 2097152}, {0, 2097153}};  // one slot more on node 1
  EXPECT_EQ(largest_node_slots(fits), 2097152u);
  EXPECT_EQ(largest_node_slots(outgrows), 2097153u);
  EXPECT_EQ(plan_ranges(fits, 1, range_entries_of(0, largest_node_slots(fits), 4)).ranges, 1u);
  EXPECT_EQ(plan_ranges(fits, 2, range_entries_of(0, largest_node_slots(fits), 4)).ranges, 2u) << "one per queue";
  EXPECT_EQ(plan_ranges(outgrows, 1, range_entries_of(0, largest_node_slots(outgrows), 4)).ranges, 33u)
      << "ceil(2097153 / 65536)";
  EXPECT_EQ(range_entries_of(0, 2097152, 8), 32768u) << "8-byte messages: 16 MiB, cut";
  EXPECT_EQ(range_entries_of(64 * 1024, 1000, 4), 16384u) << "--range-kib 64 on a tiny graph";
}

// A program whose every superstep pulls keeps Σ whole however large (one
// range per NUMA domain and queue); --range-kib still wins.
TEST(RangePlan, AProgramThatOnlyPullsKeepsSigmaWhole) {
  const std::vector<std::vector<uint32_t>> large = {{0, 1u << 23}, {0, 1u << 23}};  // 32 MiB of 4-byte Σ a node
  EXPECT_EQ(plan_ranges(large, 1, range_entries_of(0, largest_node_slots(large), 4, false)).ranges, 128u);
  EXPECT_EQ(plan_ranges(large, 1, range_entries_of(0, largest_node_slots(large), 4, true)).ranges, 1u);
  EXPECT_EQ(plan_ranges(large, 3, range_entries_of(0, largest_node_slots(large), 4, true)).ranges, 3u)
      << "one per queue";
  EXPECT_EQ(range_entries_of(256 * 1024, largest_node_slots(large), 4, true), 65536u) << "--range-kib 256";
}

TEST(RangePlan, RangesHoldAtMostTheRangeSizePlusAlignment) {
  // 1000 000 vertices on node 0, 999 999 on node 1; 65536 accumulators a range.
  const std::vector<std::vector<uint32_t>> numa = {{0, 1000000}, {0, 999999}};
  const RangePlan p = plan_ranges(numa, 1, 65536);
  expect_sound(p, numa, 1);
  EXPECT_EQ(p.ranges, 16u) << "ceil(1e6 / 65536)";
  for (unsigned node = 0; node < 2; ++node)
    for (unsigned r = 0; r < p.ranges; ++r) EXPECT_LE(p.size(node, r), 65536u + 64) << node << " " << r;
}

TEST(RangePlan, QueuesShareADomainInContiguousRuns) {
  const std::vector<std::vector<uint32_t>> numa = {{0, 5000}, {0, 5000}, {0, 4999}};
  for (unsigned queues : {2u, 3u, 5u}) {
    const RangePlan p = plan_ranges(numa, queues, 1 << 20);
    expect_sound(p, numa, queues);
    EXPECT_EQ(p.ranges, queues) << "small graph: one range per queue";
  }
  // More ranges than queues: a whole number each.
  const RangePlan p = plan_ranges(numa, 3, 1000);
  expect_sound(p, numa, 3);
  EXPECT_EQ(p.ranges, 6u) << "5 ranges needed, rounded up to a multiple of 3";
  EXPECT_EQ(p.queue, (std::vector<uint8_t>{0, 0, 1, 1, 2, 2}));
}

TEST(RangePlan, QueuesAndNumaDomains) {
  // Two NUMA domains of different sizes on each node.
  const std::vector<std::vector<uint32_t>> numa = {{0, 3000, 10000}, {0, 6000, 9000}};
  {  // K = 1: one queue owns both domains
    const RangePlan p = plan_ranges(numa, 1, 2048);
    expect_sound(p, numa, 1);
    EXPECT_EQ(std::count(p.numa.begin(), p.numa.end(), 0), 3) << "ceil(6000 / 2048) for domain 0";
    EXPECT_EQ(std::count(p.numa.begin(), p.numa.end(), 1), 4) << "ceil(7000 / 2048) for domain 1";
  }
  {  // K = 2: a queue per domain
    const RangePlan p = plan_ranges(numa, 2, 2048);
    expect_sound(p, numa, 2);
    for (unsigned r = 0; r < p.ranges; ++r) EXPECT_EQ(p.queue[r], p.numa[r]);
  }
  {  // K = 3: domain 0 has queues 0 and 1, domain 1 queue 2
    const RangePlan p = plan_ranges(numa, 3, 1 << 20);
    expect_sound(p, numa, 3);
    EXPECT_EQ(p.queue, (std::vector<uint8_t>{0, 1, 2}));
    EXPECT_EQ(p.numa, (std::vector<uint8_t>{0, 0, 1}));
  }
  {  // K = 4 over 3 domains: 0 -> {0, 1}, 1 -> {2}, 2 -> {3}
    const std::vector<std::vector<uint32_t>> three = {{0, 100, 200, 300}};
    const RangePlan p = plan_ranges(three, 4, 1 << 20);
    expect_sound(p, three, 4);
    EXPECT_EQ(p.numa, (std::vector<uint8_t>{0, 0, 1, 2}));
  }
}

TEST(RangePlan, RefusesWhatIsNotAPlan) {
  EXPECT_THROW(plan_ranges({}, 1, 64), std::invalid_argument);
  EXPECT_THROW(plan_ranges({{0, 10}}, 0, 64), std::invalid_argument);
  EXPECT_THROW(plan_ranges({{0, 10}, {0, 5, 10}}, 1, 64), std::invalid_argument);
}

// ---- edges by range --------------------------------------------------------

// A random graph over P nodes with k NUMA domains (an even split of slots,
// written as the slot map the loader would build).
struct Split {
  EdgeList edges;
  SlotMap map;
};

Split random_split_graph(unsigned nodes, unsigned k, VertexId n, uint64_t m, uint64_t seed) {
  Split s;
  std::mt19937_64 rng(seed);
  s.edges.num_vertices = n;
  s.edges.weighted = true;
  for (uint64_t i = 0; i < m; ++i)
    s.edges.edges.push_back({static_cast<VertexId>(rng() % n), static_cast<VertexId>(rng() % n),
                             static_cast<Weight>(1 + rng() % 9)});
  s.map.nodes = nodes;
  s.map.domains = k;
  s.map.slot_of.assign(n, 0);
  s.map.domain_of.assign(n, 0);
  const RoundRobin rr{nodes};
  for (unsigned p = 0; p < nodes; ++p) {
    const uint32_t local = rr.local_count(p, n);
    std::vector<uint32_t> off(k + 1, 0);
    for (unsigned d = 0; d <= k; ++d) off[d] = static_cast<uint32_t>(uint64_t{local} * d / k);
    s.map.domain_offset.push_back(off);
    for (uint32_t i = 0; i < local; ++i) {
      const VertexId v = rr.global_id(p, i);
      s.map.slot_of[v] = i;  // slots in local order: domains are contiguous slot ranges
      s.map.domain_of[v] = static_cast<uint8_t>(std::upper_bound(off.begin() + 1, off.end(), i) - off.begin() - 1);
    }
  }
  return s;
}

// Every (source slot, destination node, destination slot, weight) a graph's
// blocks hold, read back through `offsets` (each node's domain or range
// starts): what regrouping must not change.
std::multiset<std::tuple<uint32_t, unsigned, uint32_t, uint32_t>> edges_of(
    const LocalGraph& g, const std::vector<std::vector<uint32_t>>& offsets) {
  std::multiset<std::tuple<uint32_t, unsigned, uint32_t, uint32_t>> out;
  for (size_t b = 0; b < g.blocks.size(); ++b) {
    const unsigned node = static_cast<unsigned>(b / g.domains), d = static_cast<unsigned>(b % g.domains);
    const EdgeBlock& blk = g.blocks[b];
    for (size_t i = 0; i < blk.sources.size(); ++i)
      for (uint64_t e = blk.offsets[i]; e < blk.offsets[i + 1]; ++e)
        out.insert({blk.sources[i], node, offsets[node][d] + blk.targets[e], blk.weights[e]});
  }
  return out;
}

TEST(SplitIntoRanges, KeepsEveryEdgeAndPutsItInItsTargetsRange) {
  for (auto [nodes, k, queues, entries] : std::vector<std::tuple<unsigned, unsigned, unsigned, uint32_t>>{
           {1, 1, 1, 64}, {2, 1, 3, 64}, {3, 1, 2, 128}, {2, 2, 3, 64}, {3, 3, 1, 64}, {2, 2, 1, 1 << 20}}) {
    SCOPED_TRACE(testing::Message() << "P=" << nodes << " k=" << k << " K=" << queues << " range " << entries);
    const Split s = random_split_graph(nodes, k, 2000, 12000, nodes * 31 + k);
    for (unsigned rank = 0; rank < nodes; ++rank) {
      LocalGraph g = build_local_graph(s.edges, nodes, rank, true, k > 1 ? &s.map : nullptr);
      const auto before = edges_of(g, g.node_domain_offset);
      const std::vector<uint32_t> numa_offset = g.domain_offset;
      const RangePlan plan = plan_ranges(g.node_domain_offset, queues, entries);
      split_into_ranges(g, plan);
      EXPECT_EQ(edges_of(g, plan.offset), before) << "rank " << rank;
      EXPECT_EQ(g.domains, plan.ranges);
      EXPECT_EQ(g.domain_offset, plan.offset[rank]);
      EXPECT_EQ(g.numa_domains, k);
      EXPECT_EQ(g.numa_offset, numa_offset);
      EXPECT_EQ(g.range_queue, plan.queue);
      for (size_t b = 0; b < g.blocks.size(); ++b) {
        const EdgeBlock& blk = g.blocks[b];
        const unsigned node = static_cast<unsigned>(b / g.domains), r = static_cast<unsigned>(b % g.domains);
        EXPECT_EQ(blk.offsets.size(), blk.sources.size() + 1);
        EXPECT_TRUE(std::is_sorted(blk.sources.begin(), blk.sources.end())) << "block " << b;
        EXPECT_EQ(std::adjacent_find(blk.sources.begin(), blk.sources.end()), blk.sources.end()) << "block " << b;
        for (uint32_t t : blk.targets) EXPECT_LT(t, plan.size(node, r)) << "block " << b << " target beyond its range";
      }
    }
  }
}

// A block of many more edges than are read before its pages go back to the
// kernel (here every 2048, the split's kSplitDiscardEdges made small): the
// split, which discards behind its reader, still keeps every edge and
// weight, each in its target's range.
TEST(SplitIntoRanges, KeepsEveryEdgeOfABlockReadWhileItIsDiscarded) {
  constexpr uint64_t kEvery = 2048;
  const Split s = random_split_graph(1, 1, 1 << 12, 30 * kEvery, 7);
  LocalGraph g = build_local_graph(s.edges, 1, 0, true);
  auto sorted_edges = [](const LocalGraph& lg, const std::vector<uint32_t>& offsets) {
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> out;
    for (size_t b = 0; b < lg.blocks.size(); ++b) {
      const EdgeBlock& blk = lg.blocks[b];
      for (size_t i = 0; i < blk.sources.size(); ++i)
        for (uint64_t e = blk.offsets[i]; e < blk.offsets[i + 1]; ++e)
          out.push_back({blk.sources[i], offsets[b] + blk.targets[e], blk.weights[e]});
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto before = sorted_edges(g, g.domain_offset);
  const RangePlan plan = plan_ranges(g.node_domain_offset, 1, 256);
  ASSERT_EQ(plan.ranges, 16u);
  split_into_ranges(g, plan, kEvery);
  EXPECT_EQ(sorted_edges(g, plan.offset[0]), before);
}

// Real weights (Graphalytics' SSSP: EdgeBlock::real_weights instead of
// weights) travel with their edges too.
TEST(SplitIntoRanges, KeepsRealWeights) {
  const Split s = random_split_graph(2, 1, 2000, 12000, 7);
  LocalGraph g = build_local_graph(s.edges, 2, 0, true, nullptr);
  for (EdgeBlock& blk : g.blocks) {
    for (uint32_t w : blk.weights) blk.real_weights.push_back(w + 0.25);
    blk.weights.clear();
  }
  auto real_edges = [](const LocalGraph& lg, const std::vector<std::vector<uint32_t>>& offsets) {
    std::multiset<std::tuple<uint32_t, unsigned, uint32_t, double>> out;
    for (size_t b = 0; b < lg.blocks.size(); ++b) {
      const unsigned node = static_cast<unsigned>(b / lg.domains), d = static_cast<unsigned>(b % lg.domains);
      const EdgeBlock& blk = lg.blocks[b];
      EXPECT_EQ(blk.real_weights.size(), blk.targets.size()) << "block " << b;
      EXPECT_TRUE(blk.weights.empty()) << "block " << b;
      for (size_t i = 0; i < blk.sources.size(); ++i)
        for (uint64_t e = blk.offsets[i]; e < blk.offsets[i + 1] && e < blk.real_weights.size(); ++e)
          out.insert({blk.sources[i], node, offsets[node][d] + blk.targets[e], blk.real_weights[e]});
    }
    return out;
  };
  const auto before = real_edges(g, g.node_domain_offset);
  ASSERT_EQ(before.size(), g.blocks[0].num_edges() + g.blocks[1].num_edges());
  const RangePlan plan = plan_ranges(g.node_domain_offset, 3, 64);
  split_into_ranges(g, plan);
  EXPECT_EQ(real_edges(g, plan.offset), before);
}

// A program that reads in-edges (compute/engine/capabilities/edge_direction.h)
// holds them reversed in blocks of the out-edge blocks' layout: they are
// split at the same range starts, every edge kept.
TEST(SplitIntoRanges, SplitsTheInEdgeBlocksAlike) {
  for (auto [nodes, k] : std::vector<std::pair<unsigned, unsigned>>{{2, 1}, {3, 2}}) {
    SCOPED_TRACE(testing::Message() << "P=" << nodes << " k=" << k);
    const Split s = random_split_graph(nodes, k, 2000, 12000, 11 + nodes);
    EdgeList reversed = s.edges;
    for (Edge& e : reversed.edges) std::swap(e.src, e.dst);
    for (unsigned rank = 0; rank < nodes; ++rank) {
      LocalGraph g = build_local_graph(s.edges, nodes, rank, true, k > 1 ? &s.map : nullptr);
      g.in_blocks = build_local_graph(reversed, nodes, rank, true, k > 1 ? &s.map : nullptr).blocks;
      auto in_edges_of = [](const LocalGraph& lg, const std::vector<std::vector<uint32_t>>& offsets) {
        LocalGraph in_view = lg;
        in_view.blocks = lg.in_blocks;
        return edges_of(in_view, offsets);
      };
      const auto before = in_edges_of(g, g.node_domain_offset);
      const auto out_before = edges_of(g, g.node_domain_offset);
      const RangePlan plan = plan_ranges(g.node_domain_offset, 3, 64);
      split_into_ranges(g, plan);
      ASSERT_EQ(g.in_blocks.size(), g.blocks.size());
      EXPECT_EQ(in_edges_of(g, plan.offset), before) << "rank " << rank;
      EXPECT_EQ(edges_of(g, plan.offset), out_before) << "rank " << rank;
    }
  }
}

// ---- lcores ------------------------------------------------------------------

TEST(LcoreLayout, SplitDefaults) {
  const LcoreLayout one = plan_lcores(RolesSpec{}, 0, {0});
  EXPECT_FALSE(one.split());
  EXPECT_EQ(one.queues, 1u);
  EXPECT_EQ(one.describe(), "lcore 0: coordinator, worker 0, sender of queue 0, accumulator of queue 0");
  const LcoreLayout two = plan_lcores(RolesSpec{}, 0, {0, 1});
  EXPECT_EQ(two.workers(), 1u);
  EXPECT_EQ(two.accumulator_lcores, (std::vector<unsigned>{1}));
  EXPECT_EQ(two.describe(), "lcore 0: coordinator, worker 0; lcore 1: sender of queue 0, accumulator of queue 0");
  const LcoreLayout three = plan_lcores(RolesSpec{}, 0, {0, 1, 2});
  EXPECT_EQ(three.workers(), 2u);
  EXPECT_TRUE(three.sender_lcores.empty());
  const LcoreLayout eight = plan_lcores(RolesSpec{}, 0, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(eight.workers(), 4u);
  EXPECT_EQ(eight.sender_lcores, (std::vector<unsigned>{4}));
  EXPECT_EQ(eight.accumulator_lcores, (std::vector<unsigned>{5, 6, 7}));
  EXPECT_EQ(eight.queues, 3u) << "one queue per accumulator lcore";
  const LcoreLayout capped = plan_lcores(RolesSpec{}, 2, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(capped.accumulator_lcores.size(), 2u) << "no more accumulator lcores than queues";
  EXPECT_EQ(capped.workers(), 5u);
}

TEST(LcoreLayout, CountsMapLcoresInOrder) {
  const LcoreLayout l = plan_lcores(RolesSpec::counts(2, 1, 2), 4, {0, 3, 5, 6, 9});
  EXPECT_EQ(l.worker_lcores, (std::vector<unsigned>{0, 3}));
  EXPECT_EQ(l.sender_lcores, (std::vector<unsigned>{5}));
  EXPECT_EQ(l.accumulator_lcores, (std::vector<unsigned>{6, 9}));
  EXPECT_EQ(l.accumulator_lcore(3), 9u);
  EXPECT_EQ(l.sender_lcore(3), 5u);
  EXPECT_EQ(l.describe(),
            "lcore 0: coordinator, worker 0; lcore 3: worker 1; lcore 5: sender of queues 0,1,2,3; "
            "lcore 6: accumulator of queues 0,2; lcore 9: accumulator of queues 1,3");
  const std::vector<LcoreLayout::NetworkRoles> net = l.network();
  ASSERT_EQ(net.size(), 3u);
  EXPECT_FALSE(net[0].primary);
  EXPECT_TRUE(net[1].primary) << "accumulator 0's lcore owns membership";
  EXPECT_FALSE(net[2].primary);
  // Senders beside accumulators when there is no sender lcore.
  const LcoreLayout beside = plan_lcores(RolesSpec::counts(1, 0, 2), 3, {0, 1, 2});
  EXPECT_EQ(beside.sender_lcore(2), beside.accumulator_lcore(2));
  EXPECT_EQ(beside.describe(),
            "lcore 0: coordinator, worker 0; lcore 1: sender of queues 0,2, accumulator of queues 0,2; "
            "lcore 2: sender of queue 1, accumulator of queue 1");
}

TEST(LcoreLayout, RefusesWhatDoesNotFit) {
  EXPECT_THROW(plan_lcores(RolesSpec::counts(1, 1, 1), 0, {0, 1}), std::invalid_argument) << "3 lcores on 2";
  EXPECT_THROW(plan_lcores(RolesSpec::counts(1, 0, 3), 2, {0, 1, 2, 3}), std::invalid_argument)
      << "3 accumulator lcores for 2 queues";
  try {
    plan_lcores(RolesSpec::counts(2, 1, 2), 0, {0, 1, 2});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("needs 5 lcores, but the EAL has 3"), std::string::npos) << e.what();
  }
}

TEST(Roles, ParseAndDescribe) {
  EXPECT_EQ(parse_roles("split").kind, RolesSpec::Kind::kSplit);
  EXPECT_EQ(parse_roles("shared").kind, RolesSpec::Kind::kShared);
  const RolesSpec r = parse_roles("w=3,a=2,s=1");
  EXPECT_EQ(describe(r), "workers=3,senders=1,accumulators=2");
  EXPECT_EQ(describe(parse_roles(describe(r))), describe(r)) << "round trip";
  EXPECT_EQ(parse_roles("workers=1,accumulators=1").senders, 0u) << "senders default to none (beside accumulators)";
  for (const char* bad : {"", "both", "w=1", "w=1,a=1,x=2", "w=,a=1", "w=1,a=1,a=2", "w=-1,a=1", "w=1,a=999"})
    EXPECT_THROW(parse_roles(bad), std::invalid_argument) << bad;
}

// ---- RSS steering ------------------------------------------------------------

// Toeplitz over the tuple's bytes in network order, from its definition: for
// every input bit set, XOR in the 32 key bits starting at that bit.
uint32_t toeplitz(const uint8_t* key, uint32_t src_ip, uint32_t dst_ip, uint16_t sport, uint16_t dport) {
  const uint8_t in[12] = {static_cast<uint8_t>(src_ip >> 24), static_cast<uint8_t>(src_ip >> 16),
                          static_cast<uint8_t>(src_ip >> 8),  static_cast<uint8_t>(src_ip),
                          static_cast<uint8_t>(dst_ip >> 24), static_cast<uint8_t>(dst_ip >> 16),
                          static_cast<uint8_t>(dst_ip >> 8),  static_cast<uint8_t>(dst_ip),
                          static_cast<uint8_t>(sport >> 8),   static_cast<uint8_t>(sport),
                          static_cast<uint8_t>(dport >> 8),   static_cast<uint8_t>(dport)};
  auto key_bit = [key](unsigned i) { return (key[i / 8] >> (7 - i % 8)) & 1u; };
  uint32_t h = 0;
  for (unsigned i = 0; i < 96; ++i) {
    if (!((in[i / 8] >> (7 - i % 8)) & 1)) continue;
    uint32_t window = 0;
    for (unsigned j = 0; j < 32; ++j) window = window << 1 | key_bit(i + j);
    h ^= window;
  }
  return h;
}

TEST(RssSteering, HashMatchesToeplitzFromItsDefinition) {
  // The Microsoft verification suite's first IPv4/UDP... values use TCP ports
  // the same way: 66.9.149.187:2794 -> 161.142.100.80:1766 hashes to 0x51ccc178.
  EXPECT_EQ(rss_hash(kRssKey, 0x420995bb, 0xa18e6450, 2794, 1766), 0x51ccc178u);
  std::mt19937 rng(12);
  for (int i = 0; i < 200; ++i) {
    const uint32_t s = rng(), d = rng();
    const auto sp = static_cast<uint16_t>(rng()), dp = static_cast<uint16_t>(rng());
    ASSERT_EQ(rss_hash(kRssKey, s, d, sp, dp), toeplitz(kRssKey, s, d, sp, dp));
  }
}

// A RETA of N entries, entry i -> queue i mod K: the queue a NIC picks.
unsigned nic_queue(uint32_t hash, unsigned reta_size, unsigned queues) { return (hash % reta_size) % queues; }

TEST(RssSteering, ChosenSourcePortsLandOnTheirQueueForEveryRetaSize) {
  const uint32_t src = 0xa9fe0701, dst = 0xa9fe0703;
  for (unsigned queues = 1; queues <= 16; ++queues)
    for (unsigned q = 0; q < queues; ++q) {
      const uint16_t dport = static_cast<uint16_t>(47000 + q);
      const uint16_t sport = rss_source_port(src, dst, dport, q, queues, 48024);
      const uint32_t h = toeplitz(kRssKey, src, dst, sport, dport);
      for (unsigned reta : {64u, 128u, 256u, 512u, 1024u, 2048u})
        EXPECT_EQ(nic_queue(h, reta, queues), q) << "K=" << queues << " RETA " << reta << " port " << sport;
    }
}

}  // namespace
}  // namespace wg
