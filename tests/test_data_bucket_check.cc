// The receive-side checks of a data bucket (compute/engine/data_bucket_check.h) with
// hand-built headers and records, and the slot accumulator whose overflow is
// the third way a data bucket is refused (compute/engine/accumulator.h). Pure logic,
// no EAL.
#include "compute/engine/data_bucket_check.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "compute/engine/accumulator.h"
#include "compute/partition/partition.h"
#include "dataplane/frame.h"
#include "dataplane/wire.h"
#include "reliability/superstep_ledger.h"

namespace wg {
namespace {

// Node 0 of 2 receiving from node 1: a data bucket for superstep `s` with
// records at the given indices.
struct Bucket {
  wire::BucketHeader h{};
  std::vector<wire::Record> r;
};

Bucket bucket(uint32_t s, std::vector<uint32_t> indices) {
  Bucket b;
  b.h.kind = static_cast<uint8_t>(wire::Kind::kData);
  b.h.src_rank = 1;
  b.h.dst_rank = 0;
  b.h.superstep = s;
  b.h.count = static_cast<uint16_t>(indices.size());
  for (uint32_t i : indices) b.r.push_back({i, 7});
  return b;
}

DropReason check(const Bucket& b, uint32_t domain_size, SuperstepLedger& l) {
  return check_data_bucket(b.h, b.r.data(), domain_size, l);
}

TEST(DataBucketCheck, LastIndexOfTheDomainIsAccepted) {
  SuperstepLedger l(2, 0);
  l.open(0);
  EXPECT_EQ(check(bucket(0, {0, 99, 3}), 100, l), DropReason::kNone);
  EXPECT_EQ(l.buckets(1, 0), 1u);
  EXPECT_EQ(l.records(1, 0), 3u);
}

TEST(DataBucketCheck, IndexEqualToTheDomainSizeIsRejected) {
  SuperstepLedger l(2, 0);
  l.open(0);
  EXPECT_EQ(check(bucket(0, {0, 100, 3}), 100, l), DropReason::kIndexOutOfRange);
  EXPECT_EQ(check(bucket(0, {0xffffffffu}), 100, l), DropReason::kIndexOutOfRange);
  // The largest index may be anywhere in the bucket, also first.
  EXPECT_EQ(check(bucket(0, {100, 1, 2}), 100, l), DropReason::kIndexOutOfRange);
  // A refused bucket does not count towards completion.
  EXPECT_EQ(l.buckets(1, 0), 0u);
  EXPECT_EQ(l.records(1, 0), 0u);
}

TEST(DataBucketCheck, OneVertexDomainTakesOnlyIndexZero) {
  SuperstepLedger l(2, 0);
  l.open(0);
  EXPECT_EQ(check(bucket(0, {0, 0}), 1, l), DropReason::kNone);
  EXPECT_EQ(check(bucket(0, {1}), 1, l), DropReason::kIndexOutOfRange);
}

TEST(DataBucketCheck, SuperstepNotOpenIsRejectedAndNotCounted) {
  SuperstepLedger l(2, 0);
  l.open(4);
  EXPECT_EQ(check(bucket(5, {1}), 10, l), DropReason::kBadSuperstep);  // not opened yet
  EXPECT_EQ(check(bucket(2, {1}), 10, l), DropReason::kBadSuperstep);  // same parity as 4, long closed
  EXPECT_EQ(check(bucket(3, {1}), 10, l), DropReason::kBadSuperstep);  // never opened
  EXPECT_EQ(l.buckets(1, 4), 0u);
  EXPECT_EQ(check(bucket(4, {1, 2}), 10, l), DropReason::kNone);
  l.open(5);
  EXPECT_EQ(check(bucket(5, {9}), 10, l), DropReason::kNone);
  EXPECT_EQ(l.buckets(1, 4), 1u);
  EXPECT_EQ(l.records(1, 4), 2u);
  EXPECT_EQ(l.buckets(1, 5), 1u);
  EXPECT_EQ(l.records(1, 5), 1u);
}

TEST(DataBucketCheck, AcceptedBucketsCompleteTheSuperstepWithTheEnd) {
  SuperstepLedger l(2, 0);
  l.open(0);
  ASSERT_EQ(check(bucket(0, {1, 2, 3}), 10, l), DropReason::kNone);
  ASSERT_EQ(check(bucket(0, {10}), 10, l), DropReason::kIndexOutOfRange);
  ASSERT_EQ(check(bucket(0, {4}), 10, l), DropReason::kNone);
  wire::EndPayload end{};
  end.buckets_to_dst = 2;
  end.messages_to_dst = 4;
  ASSERT_TRUE(l.on_end(1, 0, end));
  EXPECT_TRUE(l.complete(0));
}

TEST(DataBucketCheck, EmptyBucketIsAccounted) {
  // count 0: no record to check, the ledger still counts the bucket.
  SuperstepLedger l(2, 0);
  l.open(0);
  EXPECT_EQ(check(bucket(0, {}), 10, l), DropReason::kNone);
  EXPECT_EQ(l.buckets(1, 0), 1u);
}

TEST(DataBucketCheck, FoldVerdict) {
  EXPECT_EQ(fold_verdict(true), DropReason::kNone);
  EXPECT_EQ(fold_verdict(false), DropReason::kSlotOverflow);
}

// ---- SlotAccumulator -------------------------------------------------------

// One node, one domain of three vertices with in-degrees 2, 0, 1.
LocalGraph three_vertices() {
  LocalGraph g;
  g.num_local = 3;
  g.domains = 1;
  g.domain_offset = {0, 3};
  g.in_degree = {2, 0, 1};
  return g;
}

std::vector<uint32_t> taken(SlotAccumulator<uint32_t>& a, uint32_t i) {
  const auto v = a.take(i);
  return {v.begin(), v.end()};
}

TEST(SlotAccumulator, FoldsUpToTheInDegreeAndTakeResets) {
  const LocalGraph g = three_vertices();
  SlotAccumulator<uint32_t> a(g, 0);
  const wire::Record r[] = {{0, 11}, {2, 33}, {0, 12}};
  EXPECT_TRUE(a.fold(r, 3));
  EXPECT_EQ(taken(a, 0), (std::vector<uint32_t>{11, 12}));
  EXPECT_EQ(taken(a, 1), (std::vector<uint32_t>{}));
  EXPECT_EQ(taken(a, 2), (std::vector<uint32_t>{33}));
  // take reset every vertex: the next superstep fills from the first slot.
  EXPECT_EQ(taken(a, 0), (std::vector<uint32_t>{}));
  const wire::Record next[] = {{0, 21}, {0, 22}, {2, 43}};
  EXPECT_TRUE(a.fold(next, 3));
  EXPECT_EQ(taken(a, 0), (std::vector<uint32_t>{21, 22}));
  EXPECT_EQ(taken(a, 2), (std::vector<uint32_t>{43}));
}

TEST(SlotAccumulator, RecordBeyondTheInDegreeFailsTheFoldAndIsNotStored) {
  const LocalGraph g = three_vertices();
  SlotAccumulator<uint32_t> a(g, 0);
  const wire::Record r[] = {{2, 1}, {2, 2}, {0, 3}};  // vertex 2 has one in-edge
  EXPECT_FALSE(a.fold(r, 3));
  EXPECT_EQ(taken(a, 2), (std::vector<uint32_t>{1}));
  EXPECT_EQ(taken(a, 0), (std::vector<uint32_t>{3}));  // the rest of the bucket was folded
  const wire::Record none[] = {{1, 5}};                 // in-degree 0
  EXPECT_FALSE(a.fold(none, 1));
  EXPECT_EQ(taken(a, 1), (std::vector<uint32_t>{}));
  // Slots free again after take: the same records now fit.
  const wire::Record ok[] = {{2, 9}};
  EXPECT_TRUE(a.fold(ok, 1));
  EXPECT_EQ(taken(a, 2), (std::vector<uint32_t>{9}));
}

TEST(SlotAccumulator, SecondDomainUsesItsOwnInDegrees) {
  LocalGraph g;
  g.num_local = 4;
  g.domains = 2;
  g.domain_offset = {0, 1, 4};
  g.in_degree = {5, 1, 0, 2};
  SlotAccumulator<uint32_t> a(g, 1);  // vertices 1..3 as indices 0..2
  const wire::Record r[] = {{0, 1}, {2, 2}, {2, 3}};
  EXPECT_TRUE(a.fold(r, 3));
  const wire::Record over[] = {{0, 4}};
  EXPECT_FALSE(a.fold(over, 1));
  EXPECT_EQ(taken(a, 2), (std::vector<uint32_t>{2, 3}));
}

}  // namespace
}  // namespace wg
