// The traversal machinery's parts on hand-made inputs, no EAL: the
// frontier (compute/frontier.h), the source index (compute/source_index.h),
// the pending buckets and the delta-stepping schedule
// (compute/pending_buckets.h, compute/delta_schedule.h), the light-first
// copy (compute/light_first.h). The engine tests run them inside workers
// against the oracles; these pin each one's own rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "compute/delta_schedule.h"
#include "compute/frontier.h"
#include "compute/light_first.h"
#include "compute/pending_buckets.h"
#include "compute/source_index.h"

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

TEST(SourceIndex, FindsEverySourceOfTheRangeAndNothingElse) {
  // A block's sources (ascending); the worker owns slots [100, 300), i.e.
  // indices 2..6 of the block.
  const std::vector<uint32_t> sources = {5, 99, 100, 163, 164, 227, 299, 300, 400};
  const SourceIndex index(sources, 2, 7, 100, 300);
  for (size_t i = 2; i < 7; ++i) EXPECT_EQ(index.find(sources[i]), i) << sources[i];
  for (uint32_t u : {101u, 162u, 165u, 228u, 298u}) EXPECT_EQ(index.find(u), SourceIndex::kNone) << u;
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
