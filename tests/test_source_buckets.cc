// The loader's held edges regrouped by source for the build: the plan of
// buckets (compute/partition/partition.h, plan_source_buckets), the buckets
// (compute/load/load_records.h, SourceBuckets), and a build read from them
// against a plain grouping of the input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "compute/load/load_records.h"
#include "compute/partition/partition.h"

namespace wg {
namespace {

using load::SourceBuckets;

constexpr uint64_t kMin = SourceBucketPlan::kMinEdgesPerBucket;

TEST(PlanSourceBuckets, ByHand) {
  // Too few edges for two buckets: one, covering every local source.
  SourceBucketPlan p = plan_source_buckets(0, 0);
  EXPECT_EQ(p.count, 1u);
  p = plan_source_buckets(10, 100);
  EXPECT_EQ(p.count, 1u);
  EXPECT_EQ(p.shift, 4u);  // 16 >= 10 sources in one bucket
  // Four buckets' worth of edges over 1000 sources: 2^8 sources each, 4 buckets.
  p = plan_source_buckets(1000, 4 * kMin);
  EXPECT_EQ(p.shift, 8u);
  EXPECT_EQ(p.count, 4u);
  // Edges for far more buckets than the cap: 256 of them.
  p = plan_source_buckets(uint64_t{1} << 20, uint64_t{1} << 40);
  EXPECT_EQ(p.shift, 12u);
  EXPECT_EQ(p.count, 256u);
  // Fewer sources than buckets wanted: one source per bucket.
  p = plan_source_buckets(3, 100 * kMin);
  EXPECT_EQ(p.shift, 0u);
  EXPECT_EQ(p.count, 3u);
}

TEST(PlanSourceBuckets, CoversEverySourceWithTheSmallestBucketsAllowed) {
  for (uint64_t local : {uint64_t{1}, uint64_t{2}, uint64_t{7}, uint64_t{1000}, uint64_t{65537}, uint64_t{1} << 26,
                         (uint64_t{1} << 32) - 1})
    for (uint64_t held : {uint64_t{0}, kMin - 1, kMin, 3 * kMin + 5, 255 * kMin, 1000 * kMin, uint64_t{1} << 40}) {
      SCOPED_TRACE(std::to_string(local) + " sources, " + std::to_string(held) + " edges");
      const SourceBucketPlan p = plan_source_buckets(local, held);
      const uint64_t wanted = std::clamp<uint64_t>(held / kMin, 1, SourceBucketPlan::kMaxBuckets);
      EXPECT_GE(p.count, 1u);
      EXPECT_LE(p.count, wanted);
      EXPECT_GE(uint64_t{p.count} << p.shift, local);             // every local source has a bucket
      EXPECT_LT(uint64_t{p.count - 1} << p.shift, local);         // and no bucket is empty of sources
      if (p.shift > 0) {  // one bit less would need more buckets than wanted
        EXPECT_GT((local + (uint64_t{1} << (p.shift - 1)) - 1) >> (p.shift - 1), wanted);
      }
    }
}

struct Held {
  VertexId src, dst;
  Weight w;
  double rw;
  bool operator==(const Held&) const = default;
};

// Node 1 of 3's edges (sources 1, 4, 7, ...), in a scrambled order.
std::vector<Held> scrambled_edges(unsigned count, VertexId vertices) {
  std::mt19937 rng(7);
  std::vector<Held> out;
  for (unsigned i = 0; i < count; ++i) {
    const VertexId src = 1 + 3 * static_cast<VertexId>(rng() % ((vertices - 1) / 3));
    out.push_back(Held{src, static_cast<VertexId>(rng() % vertices), 1 + static_cast<Weight>(rng() % 100),
                       static_cast<double>(rng() % 1000) / 8});
  }
  return out;
}

TEST(SourceBuckets, BucketMajorAndInPushOrderWithinABucket) {
  const std::vector<Held> edges = scrambled_edges(5000, 300);
  for (auto [weighted, real] : {std::pair{false, false}, {true, false}, {false, true}}) {
    SCOPED_TRACE(std::to_string(weighted) + std::to_string(real));
    const SourceBucketPlan plan{.shift = 3, .count = 13};  // 100 local sources, 8 a bucket
    SourceBuckets buckets(weighted, real, 3, plan);
    for (const Held& e : edges) buckets.push(e.src, e.dst, e.w, e.rw);
    EXPECT_EQ(buckets.size(), edges.size());
    EXPECT_EQ(buckets.buckets(), 13u);
    // The reference: a stable sort by bucket (local source div 8), with what
    // is not kept read back as 1 and 0.
    std::vector<Held> expected = edges;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const Held& a, const Held& b) { return a.src / 3 / 8 < b.src / 3 / 8; });
    for (Held& e : expected) {
      if (!weighted || real) e.w = 1;
      if (!real) e.rw = 0;
    }
    for (bool release : {false, true}) {
      std::vector<Held> read;
      buckets.for_each([&](VertexId s, VertexId d, Weight w, double rw) { read.push_back(Held{s, d, w, rw}); },
                       release);
      EXPECT_EQ(read, expected);
    }
    EXPECT_EQ(buckets.size(), 0u);  // released
  }
}

// Node `rank`'s out-edges grouped by hand: (destination node, local source)
// -> (target's local index, weight) in input order.
using Grouped = std::map<std::pair<unsigned, uint32_t>, std::vector<std::pair<uint32_t, Weight>>>;
Grouped group_by_hand(const std::vector<Held>& edges, unsigned nodes, unsigned rank) {
  Grouped g;
  for (const Held& e : edges)
    if (e.src % nodes == rank) g[{e.dst % nodes, e.src / nodes}].emplace_back(e.dst / nodes, e.w);
  return g;
}

Grouped group_built(const LocalGraph& lg) {
  Grouped g;
  for (unsigned b = 0; b < lg.blocks.size(); ++b) {
    const EdgeBlock& blk = lg.blocks[b];
    for (size_t i = 0; i < blk.sources.size(); ++i)
      for (uint64_t e = blk.offsets[i]; e < blk.offsets[i + 1]; ++e)
        g[{b, blk.sources[i]}].emplace_back(blk.targets[e], blk.weights[e]);
  }
  return g;
}

TEST(SourceBuckets, ABuildReadFromThemKeepsEveryEdgeInInputOrderPerSource) {
  const VertexId vertices = 300;
  const std::vector<Held> all = scrambled_edges(20000, vertices);
  std::vector<Held> mine;  // node 1 of 3 holds only its own sources' edges
  for (const Held& e : all)
    if (e.src % 3 == 1) mine.push_back(e);
  for (SourceBucketPlan plan : {SourceBucketPlan{.shift = 7, .count = 1}, SourceBucketPlan{.shift = 2, .count = 25},
                                SourceBucketPlan{.shift = 0, .count = 100}}) {
    SCOPED_TRACE(plan.count);
    SourceBuckets buckets(true, false, 3, plan);
    for (const Held& e : mine) buckets.push(e.src, e.dst, e.w, e.rw);
    unsigned pass = 0;
    const LocalGraph lg = build_out_edges(
        [&](auto&& f) { buckets.for_each(f, ++pass == 2); }, vertices, all.size(), 3, 1, true, nullptr);
    EXPECT_EQ(pass, 2u);
    EXPECT_EQ(group_built(lg), group_by_hand(mine, 3, 1));
    EXPECT_EQ(local_out_edges(lg), mine.size());
    EXPECT_EQ(buckets.size(), 0u);  // freed by the placing pass
  }
}

}  // namespace
}  // namespace wg
