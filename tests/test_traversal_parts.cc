// The traversal machinery's parts on hand-made inputs, no EAL: the
// frontier (compute/engine/frontier.h), each source's list of blocks and the
// frontier grouped by block (compute/engine/source_blocks.h,
// compute/engine/blocked_frontier.h), the pending buckets and the delta-stepping
// schedule with its local rounds (compute/engine/pending_buckets.h,
// compute/engine/delta_schedule.h), the light-first copy (compute/engine/light_first.h),
// the own vertices' messages of a program that applies early
// (compute/engine/own_messages.h), the destinations known to have settled
// (compute/engine/worker/settled_destinations.h). The engine tests run them inside workers
// against the oracles; these pin each one's own rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "apps/bc.h"
#include "apps/sssp.h"
#include "compute/engine/blocked_frontier.h"
#include "compute/engine/delta_schedule.h"
#include "compute/engine/frontier.h"
#include "compute/engine/light_first.h"
#include "compute/engine/own_messages.h"
#include "compute/engine/pending_buckets.h"
#include "compute/engine/source_blocks.h"
#include "compute/engine/worker/settled_destinations.h"
#include "compute/partition/partition.h"

namespace wg {
namespace {

TEST(Frontier, ListsSmallFrontiersAndClearsBetweenSupersteps) {
  Frontier f(160);  // lists up to 160 / 16 + 1 = 11 members
  for (uint32_t i : {7u, 3u, 150u}) f.add(i);
  EXPECT_TRUE(f.listed());
  EXPECT_EQ(f.count(), 3u);
  EXPECT_TRUE(f.contains(7) && f.contains(3) && f.contains(150));
  EXPECT_FALSE(f.contains(8));
  EXPECT_EQ(std::set<uint32_t>(f.list().begin(), f.list().end()), (std::set<uint32_t>{3, 7, 150}));
  f.reset();
  EXPECT_EQ(f.count(), 0u);
  EXPECT_FALSE(f.contains(7) || f.contains(3) || f.contains(150)) << "cleared through its list";
  for (uint32_t i = 0; i < 40; ++i) f.add(i * 4);
  EXPECT_FALSE(f.listed()) << "40 members: too many to list";
  EXPECT_TRUE(f.list().empty());
  f.reset();
  for (uint32_t i = 0; i < 160; ++i) EXPECT_FALSE(f.contains(i)) << i << ": cleared whole";
  for (uint32_t i = 0; i < 160; ++i) f.add(i);
  EXPECT_TRUE(f.all());
}

TEST(Frontier, ListsUpToTheShareItIsGiven) {
  Frontier f(160, 4);  // lists up to 160 / 4 + 1 = 41 members
  for (uint32_t i = 0; i < 41; ++i) f.add(i * 3);
  EXPECT_TRUE(f.listed());
  EXPECT_EQ(f.list().size(), 41u);
  f.add(150);
  EXPECT_FALSE(f.listed()) << "42 members";
  f.reset();
  for (uint32_t i = 0; i < 160; ++i) EXPECT_FALSE(f.contains(i)) << i;
}

// A uniform superstep (PageRank) sets every member at once; the next reset
// clears them all, whatever the slice's size against a word, and a slice
// small enough to list is listed whole.
TEST(Frontier, AddAllSetsTheWholeSliceAndResetClearsIt) {
  for (uint32_t size : {1u, 3u, 63u, 64u, 65u, 130u}) {
    Frontier f(size, 4);
    f.add(0);
    f.reset();
    f.add_all();
    EXPECT_TRUE(f.all()) << size;
    EXPECT_EQ(f.count(), size);
    for (uint32_t i = 0; i < size; ++i) EXPECT_TRUE(f.contains(i)) << size << " " << i;
    if (f.listed()) {
      EXPECT_EQ(f.list().size(), size);
      for (uint32_t i = 0; i < size; ++i) EXPECT_EQ(f.list()[i], i);
    }
    const uint64_t* w = f.bits().words();
    if (size % 64) {
      EXPECT_EQ(w[size / 64] >> (size % 64), 0u) << size << ": no bit past the slice";
    }
    f.reset();
    EXPECT_EQ(f.count(), 0u);
    for (uint32_t i = 0; i < size; ++i) EXPECT_FALSE(f.contains(i)) << size << " " << i;
    f.add(size - 1);
    EXPECT_EQ(f.count(), 1u);
    EXPECT_TRUE(f.contains(size - 1));
  }
}

// Three blocks of a node's out-edges, the worker owning slots [100, 300):
// each block's sources ascend, and the worker's are a run of them.
struct ThreeBlocks {
  std::vector<EdgeBlock> blocks;
  std::vector<std::pair<size_t, size_t>> ranges;
  ThreeBlocks() : blocks(3), ranges(3) {
    blocks[0].sources = {5, 100, 163, 299, 300};
    blocks[1].sources = {163, 200};
    blocks[2].sources = {99, 100, 200, 299};
    for (size_t g = 0; g < 3; ++g) {
      const auto& src = blocks[g].sources;
      ranges[g] = {std::lower_bound(src.begin(), src.end(), 100u) - src.begin(),
                   std::lower_bound(src.begin(), src.end(), 300u) - src.begin()};
    }
  }
};

// Every (source, block) pair of the slice once, from the source's side:
// the blocks ascending, each with the source's index among its sources.
TEST(SourceBlocks, ListsEachSourcesBlocksWithItsIndexInThem) {
  const ThreeBlocks t;
  const SourceBlocks sb(t.blocks, t.ranges, 100, 300);
  std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> want;
  uint64_t pairs = 0;
  for (uint32_t g = 0; g < 3; ++g)
    for (size_t i = t.ranges[g].first; i < t.ranges[g].second; ++i, ++pairs)
      want[t.blocks[g].sources[i]].push_back({g, static_cast<uint32_t>(i)});
  EXPECT_EQ(sb.pairs(), pairs);
  EXPECT_EQ(pairs, 8u);
  for (uint32_t u = 100; u < 300; ++u) {
    std::vector<std::pair<uint32_t, uint32_t>> got;
    for (const SourceBlocks::Entry& e : sb.of(u - 100)) got.push_back({e.group, e.index});
    EXPECT_EQ(got, want[u]) << "vertex " << u;
    EXPECT_EQ(sb.count(u - 100), want[u].size());
  }
  ASSERT_EQ(sb.of(200 - 100).size(), 2u);
  EXPECT_EQ(sb.of(200 - 100)[1].index, 2u) << "200 is block 2's third source";
}

// Grouped by block, every member appears in each of its blocks, in the
// order it was given, with what it sends; nothing else does. Built twice:
// the second build forgets the first. A frontier with more pairs than the
// room is refused.
TEST(BlockedFrontier, EachBlockHoldsItsActiveSourcesOnly) {
  const ThreeBlocks t;
  const SourceBlocks sb(t.blocks, t.ranges, 100, 300);
  BlockedFrontier<uint32_t> bf(3, sb.pairs());
  EXPECT_EQ(bf.capacity(), grouped_capacity(8));
  BlockedFrontier<uint32_t> roomy(3, 64);  // room for the larger frontiers below
  auto sending = [](uint32_t rel) { return Sending<uint32_t>{1000 + rel, static_cast<uint8_t>(rel % 3)}; };
  auto block = [&](unsigned g) {
    std::vector<std::pair<uint32_t, uint32_t>> got;  // (index, value)
    for (const auto& item : roomy.in(g)) {
      EXPECT_EQ(item.sending.edges, (item.sending.value - 1000) % 3);
      got.push_back({item.index, item.sending.value});
    }
    return got;
  };
  const std::vector<uint32_t> members = {199, 100, 63};  // 299, 200, 163
  EXPECT_FALSE(bf.build(members, sb, sending));            // 6 pairs, room for 2
  EXPECT_TRUE(roomy.build(members, sb, sending));
  EXPECT_EQ(block(0), (std::vector<std::pair<uint32_t, uint32_t>>{{3, 1199}, {2, 1063}}));
  EXPECT_EQ(block(1), (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1100}, {0, 1063}}));
  EXPECT_EQ(block(2), (std::vector<std::pair<uint32_t, uint32_t>>{{3, 1199}, {2, 1100}}));
  const std::vector<uint32_t> one = {0};  // 100: blocks 0 and 2
  EXPECT_TRUE(bf.build(one, sb, sending));  // 2 pairs: just fits
  EXPECT_TRUE(roomy.build(one, sb, sending));
  EXPECT_EQ(block(0), (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1000}}));
  EXPECT_TRUE(block(1).empty());
  EXPECT_EQ(block(2), (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1000}}));
  const std::vector<uint32_t> none = {50};  // 150: no out-edges at all
  EXPECT_TRUE(roomy.build(none, sb, sending));
  for (unsigned g = 0; g < 3; ++g) EXPECT_TRUE(block(g).empty()) << g;
}

// A program that applies early folds its own vertices' messages with its ⊕
// (SSSP: min) and applies each vertex once, in slot order.
TEST(OwnMessages, FoldsWithTheProgramsCombineAndDrainsEachVertexOnce) {
  OwnMessages<Sssp> own(200);
  using Record = wire::RecordOf<uint32_t>;
  const Record first[] = {{130, 7}, {3, 9}, {130, 4}, {199, 0}};
  own.fold(first, 4);
  const Record second[] = {{3, 12}, {64, 5}};
  own.fold(second, 2);
  std::vector<std::pair<uint32_t, uint32_t>> got;
  own.drain([&](uint32_t rel, uint32_t m) { got.push_back({rel, m}); });
  EXPECT_EQ(got, (std::vector<std::pair<uint32_t, uint32_t>>{{3, 9}, {64, 5}, {130, 4}, {199, 0}}));
  got.clear();
  own.drain([&](uint32_t rel, uint32_t m) { got.push_back({rel, m}); });
  EXPECT_TRUE(got.empty()) << "drained: nothing left";
  const Record third[] = {{130, 20}};
  own.fold(third, 1);
  own.drain([&](uint32_t rel, uint32_t m) { got.push_back({rel, m}); });
  EXPECT_EQ(got, (std::vector<std::pair<uint32_t, uint32_t>>{{130, 20}})) << "reset to the identity by the drain";
}

TEST(PendingBuckets, HandsOutTheLowestBucketFirstAndDropsStaleEntries) {
  std::vector<uint64_t> bucket(10, 0);
  auto bucket_of = [&](uint32_t i) { return bucket[i]; };
  PendingBuckets p(10);
  EXPECT_EQ(p.lowest(bucket_of), PendingBuckets::kNone);
  bucket[1] = 5;
  p.add(1, 5);
  bucket[2] = 500;  // beyond the window: overflow
  p.add(2, 500);
  bucket[3] = 5;
  p.add(3, 5);
  bucket[1] = 2;  // vertex 1 improved into bucket 2: its entry in 5 is stale
  p.add(1, 2);
  EXPECT_EQ(p.pending(), 3u);
  ASSERT_EQ(p.lowest(bucket_of), 2u);
  std::vector<uint32_t> got;
  p.take(2, [&](uint32_t i) { got.push_back(i); });
  EXPECT_EQ(got, std::vector<uint32_t>{1});
  ASSERT_EQ(p.lowest(bucket_of), 5u) << "vertex 1's old entry is not pending any more";
  got.clear();
  p.take(5, [&](uint32_t i) { got.push_back(i); });
  EXPECT_EQ(got, std::vector<uint32_t>{3});
  ASSERT_EQ(p.lowest(bucket_of), 500u) << "the window moves to the overflow";
  got.clear();
  p.take(500, [&](uint32_t i) { got.push_back(i); });
  EXPECT_EQ(got, std::vector<uint32_t>{2});
  EXPECT_EQ(p.lowest(bucket_of), PendingBuckets::kNone);
  EXPECT_EQ(p.pending(), 0u);
  // Below the window: reported as its own bucket, taken with the window's first.
  bucket[4] = 600;
  p.add(4, 600);
  bucket[5] = 601;
  p.add(5, 601);
  ASSERT_EQ(p.lowest(bucket_of), 600u);
  bucket[6] = 3;
  p.add(6, 3);
  ASSERT_EQ(p.lowest(bucket_of), 3u);
  got.clear();
  p.take(3, [&](uint32_t i) { got.push_back(i); });
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<uint32_t>{4, 6}));
  ASSERT_EQ(p.lowest(bucket_of), 601u);
}

// One superstep of a DeltaSchedule: which vertices send light, which heavy edges (sorted).
struct ScheduleSteps {
  std::vector<uint32_t> light, heavy;
  template <class BucketOf>
  void next(DeltaSchedule& d, BucketOf& bucket_of) {
    light.clear();
    heavy.clear();
    d.next(bucket_of, [&](uint32_t i) { light.push_back(i); }, [&](uint32_t i) { heavy.push_back(i); });
    std::sort(light.begin(), light.end());
    std::sort(heavy.begin(), heavy.end());
  }
};

TEST(DeltaSchedule, LightEdgesWhenTakenHeavyOnceTheBucketIsDone) {
  std::vector<uint64_t> bucket(8, 0);
  auto bucket_of = [&](uint32_t i) { return bucket[i]; };
  DeltaSchedule d(8, 1);  // one bucket at a time
  ScheduleSteps steps;
  std::vector<uint32_t>& light = steps.light;
  std::vector<uint32_t>& heavy = steps.heavy;
  auto step = [&] { steps.next(d, bucket_of); };
  bucket[0] = 0;
  d.improved(0, 0);
  step();
  EXPECT_EQ(light, std::vector<uint32_t>{0});
  EXPECT_TRUE(heavy.empty());
  // 0's light edges reached 1 in the same bucket and 2 in bucket 3.
  bucket[1] = 0;
  d.improved(1, 0);
  bucket[2] = 3;
  d.improved(2, 3);
  step();
  EXPECT_EQ(light, std::vector<uint32_t>{1}) << "bucket 0 again";
  EXPECT_TRUE(heavy.empty()) << "bucket 0 is not done";
  step();  // nothing more in bucket 0: its vertices send their heavy edges, bucket 3 its light ones
  EXPECT_EQ(light, std::vector<uint32_t>{2});
  EXPECT_EQ(heavy, (std::vector<uint32_t>{0, 1}));
  // 2 improves within its bucket: light again, heavy still once.
  d.improved(2, 3);
  step();
  EXPECT_EQ(light, std::vector<uint32_t>{2});
  EXPECT_TRUE(heavy.empty());
  step();
  EXPECT_TRUE(light.empty());
  EXPECT_EQ(heavy, std::vector<uint32_t>{2});
  step();
  EXPECT_TRUE(light.empty() && heavy.empty()) << "nothing left: the worker is idle";
}

TEST(DeltaSchedule, TakesSmallBucketsTogetherAndFlushesEachOnceDone) {
  std::vector<uint64_t> bucket = {0, 1, 2, 3, 3};
  auto bucket_of = [&](uint32_t i) { return bucket[i]; };
  DeltaSchedule d(5, 3);  // at least 3 vertices a superstep
  for (uint32_t i = 0; i < 5; ++i) d.improved(i, bucket[i]);
  ScheduleSteps steps;
  std::vector<uint32_t>& light = steps.light;
  std::vector<uint32_t>& heavy = steps.heavy;
  auto step = [&] { steps.next(d, bucket_of); };
  step();
  EXPECT_EQ(light, (std::vector<uint32_t>{0, 1, 2})) << "buckets 0, 1, 2: three vertices";
  EXPECT_TRUE(heavy.empty());
  bucket[2] = 1;  // 2 improved into bucket 1: buckets 0 is done, 1 is not
  d.improved(2, 1);
  step();
  EXPECT_EQ(heavy, std::vector<uint32_t>{0}) << "only bucket 0 lies below the lowest pending one";
  EXPECT_EQ(light, (std::vector<uint32_t>{2, 3, 4})) << "bucket 1 again, then bucket 3";
  step();
  EXPECT_EQ(heavy, (std::vector<uint32_t>{1, 2, 3, 4}));
  EXPECT_TRUE(light.empty());
}

// Local rounds: after a superstep's next(), vertices that improved into the
// lowest bucket it took (or below) are taken again, one bucket a round,
// and owe their heavy edges like any taken vertex; the other buckets next()
// took wait for the next superstep.
TEST(DeltaSchedule, AgainRetakesTheLowestTakenBucketOnly) {
  std::vector<uint64_t> bucket = {2, 2, 3, 9, 9, 9};
  auto bucket_of = [&](uint32_t i) { return bucket[i]; };
  DeltaSchedule d(6, 3);  // at least 3 vertices a superstep: buckets 2 and 3
  for (uint32_t i : {0u, 1u, 2u}) d.improved(i, bucket[i]);
  ScheduleSteps steps;
  steps.next(d, bucket_of);
  EXPECT_EQ(steps.light, (std::vector<uint32_t>{0, 1, 2}));
  std::vector<uint32_t> again;
  auto round = [&] {
    again.clear();
    const uint64_t n = d.again(bucket_of, [&](uint32_t i) { again.push_back(i); });
    EXPECT_EQ(n, again.size());
    std::sort(again.begin(), again.end());
  };
  round();
  EXPECT_TRUE(again.empty()) << "nothing improved since";
  bucket[3] = 2;  // improved into bucket 2 by a message applied at once
  d.improved(3, 2);
  bucket[1] = 1;  // below it
  d.improved(1, 1);
  bucket[4] = 3;  // into bucket 3, also taken, but not the lowest
  d.improved(4, 3);
  round();
  EXPECT_EQ(again, std::vector<uint32_t>{1}) << "bucket 1 first";
  round();
  EXPECT_EQ(again, std::vector<uint32_t>{3}) << "then bucket 2";
  round();
  EXPECT_TRUE(again.empty()) << "bucket 3 waits for the next superstep";
  steps.next(d, bucket_of);
  EXPECT_EQ(steps.light, (std::vector<uint32_t>{4}));
  EXPECT_EQ(steps.heavy, (std::vector<uint32_t>{0, 1, 3})) << "buckets 1 and 2 are done; 2's bucket 3 is not";
  steps.next(d, bucket_of);
  EXPECT_EQ(steps.heavy, (std::vector<uint32_t>{2, 4}));
  round();
  EXPECT_TRUE(again.empty()) << "the last next() took nothing";
}

// BC's seed and forward phases settle (apps/bc.h). Node 0 of 2 (vertices
// 0, 2, 4, 6 by round-robin: own indices 0-3; node 1's 1, 3, 5, 7 are
// indices 0-3 of group 1). A record goes unless its destination was sent
// one in an earlier superstep of the stretch, or is an own vertex that
// received one; records of one superstep to one destination all go (the
// receiver sums them); a phase that does not settle ends the stretch, and
// the next one starts from nothing.
TEST(SettledDestinations, DropsRecordsToDestinationsAnEarlierSuperstepOfTheStretchReached) {
  EdgeList el;
  el.num_vertices = 8;
  el.edges = {{0, 1, 1}, {0, 3, 1}, {2, 5, 1}, {2, 6, 1}, {4, 7, 1}};
  const LocalGraph g = build_local_graph(el, 2, 0, false);
  ASSERT_EQ(g.blocks.size(), 2u);
  using Records = std::vector<std::pair<uint32_t, double>>;
  SettledDestinations<Bc> s(g, 100, ScatterMode::kAuto);
  Records got;
  auto emit = [&got](uint32_t t, double m) { got.push_back({t, m}); };
  auto send = [&](unsigned group, const Records& records) {
    got.clear();
    auto pruned = s.pruning(group, emit);
    for (const auto& [t, m] : records) pruned(t, m);
    return got;
  };

  EXPECT_TRUE(s.begin(Bc::kSeed));
  EXPECT_EQ(s.own_received(g, 0), nullptr) << "the first superstep's messages came from outside the stretch";
  EXPECT_EQ(send(1, {{0, 1.0}, {0, 2.0}, {1, 1.0}}), (Records{{0, 1.0}, {0, 2.0}, {1, 1.0}}));
  EXPECT_FALSE(s.settled(1, 0)) << "known from the next superstep on";
  EXPECT_EQ(s.unexplored_edges(30), 100u);
  EXPECT_EQ(s.unexplored_edges(80), 70u);

  EXPECT_TRUE(s.begin(Bc::kForward));
  EXPECT_TRUE(s.settled(1, 0) && s.settled(1, 1));
  EXPECT_FALSE(s.settled(1, 2) || s.settled(0, 0));
  Bitmap* own = s.own_received(g, 0);
  ASSERT_NE(own, nullptr);
  own->set(3);  // apply: own vertex 6 received a message
  EXPECT_EQ(send(1, {{0, 5.0}, {2, 1.0}, {2, 3.0}}), (Records{{2, 1.0}, {2, 3.0}}));
  EXPECT_EQ(send(0, {{3, 1.0}, {1, 1.0}}), (Records{{1, 1.0}}));
  EXPECT_EQ(s.unexplored_edges(5), 0u) << "the stretch's edges, not below 0";

  EXPECT_TRUE(s.begin(Bc::kForward));
  EXPECT_TRUE(s.settled(1, 2) && s.settled(0, 1) && s.settled(0, 3));
  EXPECT_EQ(send(1, {{2, 1.0}, {3, 1.0}}), (Records{{3, 1.0}}));

  EXPECT_FALSE(s.begin(Bc::kBackward)) << "the stretch ends";
  EXPECT_TRUE(s.begin(Bc::kSeed)) << "the next source's";
  EXPECT_FALSE(s.settled(1, 0) || s.settled(1, 3) || s.settled(0, 3)) << "forgotten";
  EXPECT_EQ(s.unexplored_edges(0), 100u);

  SettledDestinations<Bc> sparse(g, 100, ScatterMode::kSparse);
  EXPECT_FALSE(sparse.begin(Bc::kSeed)) << "--scatter sparse: one record per edge";
}

TEST(LightFirstBlock, EachSourcesLightEdgesFirstInTheirOrder) {
  EdgeBlock b;
  b.sources = {1, 4, 9};
  b.offsets = {0, 3, 3, 6};
  b.targets = {10, 11, 12, 13, 14, 15};
  b.weights = {7, 2, 9, 1, 8, 3};
  const LightFirstBlock lf(b, 0, 3, 5);
  EXPECT_EQ(lf.first_edge, 0u);
  EXPECT_EQ(lf.targets, (std::vector<uint32_t>{11, 10, 12, 13, 15, 14}));
  EXPECT_EQ(lf.weights, (std::vector<uint32_t>{2, 7, 9, 1, 3, 8}));
  EXPECT_EQ(lf.light, (std::vector<uint32_t>{1, 0, 2}));
  const LightFirstBlock tail(b, 2, 3, 5);  // a worker owning source 9 only
  EXPECT_EQ(tail.first_edge, 3u);
  EXPECT_EQ(tail.targets, (std::vector<uint32_t>{13, 15, 14}));
}

}  // namespace
}  // namespace wg
