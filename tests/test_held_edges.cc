// The loader's held edges (compute/load/load_records.h, HeldEdges): grouped
// on arrival by local source in buckets of 2^16 (compute/partition/partition.h,
// source_buckets), 5 bytes an edge (6 for a target of 2^24 and up), and a
// build read from them, against a plain grouping of the input.
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

using load::HeldEdges;

TEST(SourceBuckets, CoverEveryLocalSourceInRunsOf65536) {
  EXPECT_EQ(source_buckets(0), 1u);
  EXPECT_EQ(source_buckets(1), 1u);
  EXPECT_EQ(source_buckets(65536), 1u);
  EXPECT_EQ(source_buckets(65537), 2u);
  EXPECT_EQ(source_buckets(uint64_t{1} << 23), 128u);
  EXPECT_EQ(source_buckets((uint64_t{1} << 32) - 1), 65536u);
}

struct Held {
  VertexId src, dst;
  Weight w;
  double rw;
  bool operator==(const Held&) const = default;
};

// Node 1 of 3's edges (sources 1, 4, 7, ...) among `vertices`, in a scrambled order.
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

// 4 buckets' worth of node 1's sources (local sources up to 4 x 2^16).
constexpr VertexId kFourBuckets = 3 * 4 * 65536;

TEST(HeldEdges, BucketMajorAndInPushOrderWithinABucket) {
  const std::vector<Held> edges = scrambled_edges(5000, kFourBuckets);
  for (auto [weighted, real, bytes] : {std::tuple{false, false, 5u}, {true, false, 10u}, {false, true, 14u}}) {
    SCOPED_TRACE(std::to_string(weighted) + std::to_string(real));
    HeldEdges held(weighted, real, 3, 1);
    for (const Held& e : edges) held.push(e.src, e.dst, e.w, e.rw);
    EXPECT_EQ(held.size(), edges.size());
    EXPECT_EQ(held.buckets(), 4u);
    EXPECT_EQ(held.bytes(), edges.size() * bytes);
    EXPECT_EQ(held.foreign(), 0u);
    // The reference: a stable sort by bucket (local source div 2^16), with
    // what is not kept read back as 1 and 0.
    std::vector<Held> expected = edges;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const Held& a, const Held& b) { return a.src / 3 / 65536 < b.src / 3 / 65536; });
    for (Held& e : expected) {
      if (!weighted || real) e.w = 1;
      if (!real) e.rw = 0;
    }
    for (bool release : {false, true}) {
      std::vector<Held> read;
      held.for_each([&](VertexId s, VertexId d, Weight w, double rw) { read.push_back(Held{s, d, w, rw}); }, release);
      EXPECT_EQ(read, expected);
    }
    EXPECT_EQ(held.size(), 0u);  // released
  }
}

TEST(HeldEdges, ReadsEdgeRecordsAsTheyTravel) {
  const std::vector<Held> edges = scrambled_edges(300, kFourBuckets);
  std::vector<load::LoadRecord> narrow;
  std::vector<load::WideLoadRecord> wide;
  for (const Held& e : edges) {
    narrow.push_back(load::LoadRecord{e.src, e.dst, e.w});
    wide.push_back(load::WideLoadRecord{load::LoadRecord{e.src, e.dst, 0}, e.rw});
  }
  HeldEdges weighted(true, false, 3, 1), real(false, true, 3, 1);
  HeldEdges pushed(true, false, 3, 1), pushed_real(false, true, 3, 1);
  weighted.append(narrow.data(), static_cast<unsigned>(narrow.size()));
  real.append(wide.data(), static_cast<unsigned>(wide.size()));
  for (const Held& e : edges) {
    pushed.push(e.src, e.dst, e.w, 0.0);
    pushed_real.push(e.src, e.dst, 1, e.rw);
  }
  auto read = [](HeldEdges& h) {
    std::vector<Held> out;
    h.for_each([&](VertexId s, VertexId d, Weight w, double rw) { out.push_back(Held{s, d, w, rw}); });
    return out;
  };
  EXPECT_EQ(read(weighted), read(pushed));
  EXPECT_EQ(read(real), read(pushed_real));
  EXPECT_EQ(read(weighted).size(), edges.size());
}

// Without weights a target below 2^24 packs with the source's low 16 bits
// into 5 bytes; a larger one (up to the largest id, 2^32 - 2) takes 6 and
// is read after the packed ones of its bucket. Every source of a bucket,
// its first and last included, reads back as pushed.
TEST(HeldEdges, TargetsOf2To24AndUpTakeSixBytesAfterTheOthersOfTheirBucket) {
  const VertexId big = VertexId{1} << 24, largest = 4294967294u;
  std::vector<Held> edges;
  for (VertexId local : {0u, 1u, 65535u, 65536u, 65537u, 131071u, 200000u}) {
    const VertexId src = local * 3 + 1;
    for (VertexId dst : {big, VertexId{0}, largest, big - 1, VertexId{77}, big + 1})
      edges.push_back(Held{src, dst, 1, 0.0});
  }
  HeldEdges held(false, false, 3, 1);
  uint64_t wide = 0;
  for (const Held& e : edges) {
    held.push(e.src, e.dst, e.w, e.rw);
    wide += e.dst >= big;
  }
  ASSERT_EQ(wide, 3u * 7);
  EXPECT_EQ(held.size(), edges.size());
  EXPECT_EQ(held.buckets(), 4u);
  EXPECT_EQ(held.bytes(), (edges.size() - wide) * 5 + wide * 6);
  // The reference: by bucket, and within one the small targets before the
  // large, each in push order.
  std::vector<Held> expected = edges;
  std::stable_sort(expected.begin(), expected.end(), [&](const Held& a, const Held& b) {
    return std::pair(a.src / 3 / 65536, a.dst >= big) < std::pair(b.src / 3 / 65536, b.dst >= big);
  });
  for (bool release : {false, true}) {
    std::vector<Held> read;
    held.for_each([&](VertexId s, VertexId d, Weight w, double rw) { read.push_back(Held{s, d, w, rw}); }, release);
    EXPECT_EQ(read, expected);
  }
  EXPECT_EQ(held.size(), 0u);
  EXPECT_EQ(held.bytes(), 0u);
}

// A source that is not this node's (src mod P != rank) cannot be held by
// its local index: only corrupted frames send one. It is counted and named,
// not held, so the loader can refuse the load.
TEST(HeldEdges, ForeignSourcesAreCountedNotHeld) {
  HeldEdges held(false, false, 3, 1);
  held.push(4, 10, 1, 0.0);
  held.push(5, 11, 1, 0.0);  // 5 mod 3 = 2: node 2's
  held.push(6, 12, 1, 0.0);  // node 0's
  EXPECT_EQ(held.size(), 1u);
  EXPECT_EQ(held.foreign(), 2u);
  EXPECT_EQ(held.first_foreign(), (std::pair<VertexId, VertexId>{5, 11}));
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

TEST(HeldEdges, ABuildReadFromThemKeepsEveryEdgeInInputOrderPerSource) {
  for (VertexId vertices : {VertexId{300}, kFourBuckets + 7}) {
    SCOPED_TRACE(vertices);
    const std::vector<Held> all = scrambled_edges(20000, vertices);
    std::vector<Held> mine;  // node 1 of 3 holds only its own sources' edges
    for (const Held& e : all)
      if (e.src % 3 == 1) mine.push_back(e);
    HeldEdges held(true, false, 3, 1);
    for (const Held& e : mine) held.push(e.src, e.dst, e.w, e.rw);
    unsigned pass = 0;
    const LocalGraph lg =
        build_out_edges([&](auto&& f) { held.for_each(f, ++pass == 2); }, vertices, all.size(), 3, 1, true, nullptr);
    EXPECT_EQ(pass, 2u);
    EXPECT_EQ(group_built(lg), group_by_hand(mine, 3, 1));
    EXPECT_EQ(local_out_edges(lg), mine.size());
    EXPECT_EQ(held.size(), 0u);  // freed by the placing pass
  }
}

}  // namespace
}  // namespace wg
