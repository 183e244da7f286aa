// SuperstepLedger (reliability/superstep_ledger.h): the proof that every
// message sent to this node in a superstep has been accumulated.
#include "reliability/superstep_ledger.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dataplane/wire.h"

namespace wg {
namespace {

wire::EndPayload end_of(uint64_t buckets, uint64_t records) {
  wire::EndPayload e{};
  e.buckets_to_dst = buckets;
  e.messages_to_dst = records;
  e.active_vertices = 11;
  e.aggregate[0] = 0x25;
  return e;
}

TEST(SuperstepLedger, CompleteNeedsEveryPeersEndAndMatchingCounts) {
  SuperstepLedger l(3, 0);  // peers 1 and 2
  l.open(0);
  EXPECT_FALSE(l.complete(0));
  EXPECT_EQ(l.first_incomplete_peer(0), 1);

  ASSERT_TRUE(l.on_data(1, 0, 4));
  ASSERT_TRUE(l.on_end(1, 0, end_of(2, 10)));
  EXPECT_FALSE(l.complete(0)) << "one of peer 1's two buckets is missing";
  EXPECT_EQ(l.first_incomplete_peer(0), 1);
  ASSERT_TRUE(l.on_data(1, 0, 6));
  EXPECT_FALSE(l.complete(0)) << "peer 2 has not ended";
  EXPECT_EQ(l.first_incomplete_peer(0), 2);

  ASSERT_TRUE(l.on_end(2, 0, end_of(0, 0)));  // sent us nothing
  EXPECT_TRUE(l.complete(0));
  EXPECT_EQ(l.first_incomplete_peer(0), -1);
  EXPECT_EQ(l.first_overfull_peer(0), -1);

  EXPECT_EQ(l.buckets(1, 0), 2u);
  EXPECT_EQ(l.records(1, 0), 10u);
  EXPECT_EQ(l.end(1, 0).active_vertices, 11u);
  EXPECT_EQ(l.end(1, 0).aggregate[0], 0x25);
}

TEST(SuperstepLedger, RecordCountMustMatchToo) {
  SuperstepLedger l(2, 0);
  l.open(0);
  ASSERT_TRUE(l.on_end(1, 0, end_of(2, 10)));
  ASSERT_TRUE(l.on_data(1, 0, 4));
  ASSERT_TRUE(l.on_data(1, 0, 5));  // right bucket count, one record short
  EXPECT_FALSE(l.complete(0));
  EXPECT_EQ(l.first_incomplete_peer(0), 1);
  EXPECT_EQ(l.first_overfull_peer(0), -1);

  SuperstepLedger m(2, 0);
  m.open(0);
  ASSERT_TRUE(m.on_end(1, 0, end_of(2, 10)));
  ASSERT_TRUE(m.on_data(1, 0, 10));  // right record count, one bucket short
  EXPECT_FALSE(m.complete(0));
  EXPECT_EQ(m.first_overfull_peer(0), -1);
}

TEST(SuperstepLedger, EndMayArriveBeforeOrAfterTheData) {
  // Same events, every interleaving of END with the three buckets.
  for (int end_at = 0; end_at <= 3; ++end_at) {
    SCOPED_TRACE(end_at);
    SuperstepLedger l(2, 1);
    l.open(5);
    const uint32_t sizes[3] = {179, 179, 3};
    for (int i = 0; i <= 3; ++i) {
      if (i == end_at) {
        ASSERT_TRUE(l.on_end(0, 5, end_of(3, 361)));
      }
      if (i < 3) {
        EXPECT_FALSE(l.complete(5));
        ASSERT_TRUE(l.on_data(0, 5, sizes[i]));
      }
    }
    EXPECT_TRUE(l.complete(5));
  }
}

TEST(SuperstepLedger, PeerOneSuperstepAhead) {
  // Superstep s = 4 is in progress here; the engine has opened s + 1 already.
  SuperstepLedger l(3, 0);
  l.open(4);
  l.open(5);
  ASSERT_TRUE(l.on_end(1, 4, end_of(1, 7)));
  ASSERT_TRUE(l.on_data(1, 4, 7));
  // Peer 1 has finished 4 (it has everyone's END) and sends 5 data.
  ASSERT_TRUE(l.on_data(1, 5, 20));
  ASSERT_TRUE(l.on_data(1, 5, 30));
  ASSERT_TRUE(l.on_end(1, 5, end_of(2, 50)));
  // That data is in superstep 5's slot, not 4's.
  EXPECT_EQ(l.buckets(1, 4), 1u);
  EXPECT_EQ(l.records(1, 4), 7u);
  EXPECT_EQ(l.buckets(1, 5), 2u);
  EXPECT_EQ(l.records(1, 5), 50u);
  // ... and it completes neither 4 (peer 2 missing) nor 4's accounting for peer 1.
  EXPECT_FALSE(l.complete(4));
  EXPECT_EQ(l.first_incomplete_peer(4), 2);
  EXPECT_EQ(l.first_overfull_peer(4), -1);
  EXPECT_FALSE(l.complete(5));

  ASSERT_TRUE(l.on_end(2, 4, end_of(0, 0)));
  EXPECT_TRUE(l.complete(4));
  EXPECT_FALSE(l.complete(5)) << "peer 2 has not ended 5";
  EXPECT_EQ(l.first_incomplete_peer(5), 2);

  // Next superstep: open(6) reuses 4's slot and must not disturb 5's.
  l.open(6);
  EXPECT_EQ(l.buckets(1, 5), 2u);
  EXPECT_FALSE(l.complete(4)) << "4's slot now belongs to 6";
  ASSERT_TRUE(l.on_end(2, 5, end_of(0, 0)));
  EXPECT_TRUE(l.complete(5));
}

TEST(SuperstepLedger, DataAheadDoesNotCompleteTheCurrentStep) {
  // Peer 1 announces 1 bucket for superstep 2, but the bucket that arrives is
  // its superstep 3 bucket: superstep 2 must stay incomplete.
  SuperstepLedger l(2, 0);
  l.open(2);
  l.open(3);
  ASSERT_TRUE(l.on_end(1, 2, end_of(1, 5)));
  ASSERT_TRUE(l.on_data(1, 3, 5));
  EXPECT_FALSE(l.complete(2));
  EXPECT_EQ(l.buckets(1, 2), 0u);
}

TEST(SuperstepLedger, DuplicateEndIsRejected) {
  SuperstepLedger l(2, 0);
  l.open(0);
  ASSERT_TRUE(l.on_end(1, 0, end_of(1, 1)));
  EXPECT_FALSE(l.on_end(1, 0, end_of(5, 5)));
  // The first END stands.
  EXPECT_EQ(l.end(1, 0).buckets_to_dst, 1u);
  ASSERT_TRUE(l.on_data(1, 0, 1));
  EXPECT_TRUE(l.complete(0));
}

TEST(SuperstepLedger, FramesForSuperstepsNotOpenAreRejected) {
  SuperstepLedger l(2, 0);
  // Nothing open yet.
  EXPECT_FALSE(l.on_data(1, 0, 1));
  EXPECT_FALSE(l.on_end(1, 0, end_of(0, 0)));
  EXPECT_FALSE(l.on_data(1, 1, 1));
  EXPECT_FALSE(l.complete(0));

  l.open(0);
  EXPECT_FALSE(l.on_data(1, 1, 1)) << "s + 1 is not open";
  EXPECT_FALSE(l.on_data(1, 2, 1)) << "s + 2 has s's parity but is not open";
  EXPECT_FALSE(l.on_end(1, 2, end_of(0, 0)));
  EXPECT_EQ(l.buckets(1, 0), 0u) << "a rejected frame must not be counted";

  l.open(1);
  l.open(2);  // retires 0
  EXPECT_FALSE(l.on_data(1, 0, 1)) << "stale superstep";
  EXPECT_FALSE(l.on_end(1, 0, end_of(0, 0)));
  EXPECT_EQ(l.buckets(1, 2), 0u);
  EXPECT_TRUE(l.on_data(1, 2, 1));
  EXPECT_TRUE(l.on_data(1, 1, 1));
}

TEST(SuperstepLedger, OpenResetsTheSlot) {
  SuperstepLedger l(2, 0);
  l.open(0);
  ASSERT_TRUE(l.on_data(1, 0, 9));
  ASSERT_TRUE(l.on_end(1, 0, end_of(1, 9)));
  l.open(2);
  EXPECT_EQ(l.buckets(1, 2), 0u);
  EXPECT_EQ(l.records(1, 2), 0u);
  EXPECT_FALSE(l.complete(2)) << "the END of superstep 0 must not count for 2";
  EXPECT_TRUE(l.on_end(1, 2, end_of(0, 0))) << "a fresh slot takes an END";
  EXPECT_TRUE(l.complete(2));
}

TEST(SuperstepLedger, OverfullPeerIsDetected) {
  SuperstepLedger l(4, 0);
  l.open(0);
  ASSERT_TRUE(l.on_end(1, 0, end_of(1, 3)));
  ASSERT_TRUE(l.on_end(2, 0, end_of(1, 3)));
  ASSERT_TRUE(l.on_end(3, 0, end_of(0, 0)));
  ASSERT_TRUE(l.on_data(1, 0, 3));
  ASSERT_TRUE(l.on_data(2, 0, 3));
  EXPECT_TRUE(l.complete(0));
  ASSERT_TRUE(l.on_data(2, 0, 3));  // a bucket more than announced
  EXPECT_EQ(l.first_overfull_peer(0), 2);
  EXPECT_FALSE(l.complete(0));
  EXPECT_EQ(l.first_incomplete_peer(0), 2);

  // Records over, buckets equal.
  SuperstepLedger m(2, 0);
  m.open(0);
  ASSERT_TRUE(m.on_end(1, 0, end_of(1, 3)));
  ASSERT_TRUE(m.on_data(1, 0, 4));
  EXPECT_EQ(m.first_overfull_peer(0), 1);

  // Buckets over, records still under (the END's record count is no cap on buckets).
  SuperstepLedger k(2, 0);
  k.open(0);
  ASSERT_TRUE(k.on_end(1, 0, end_of(1, 10)));
  ASSERT_TRUE(k.on_data(1, 0, 3));
  EXPECT_EQ(k.first_overfull_peer(0), -1);
  ASSERT_TRUE(k.on_data(1, 0, 3));
  EXPECT_EQ(k.first_overfull_peer(0), 1);

  // Before the END nobody is overfull: the count is not known yet.
  SuperstepLedger n(2, 0);
  n.open(0);
  ASSERT_TRUE(n.on_data(1, 0, 4));
  ASSERT_TRUE(n.on_data(1, 0, 4));
  EXPECT_EQ(n.first_overfull_peer(0), -1);
}

TEST(SuperstepLedger, OwnRankIsIgnored) {
  SuperstepLedger l(3, 1);  // we are the middle rank
  l.open(0);
  EXPECT_EQ(l.first_incomplete_peer(0), 0);
  ASSERT_TRUE(l.on_end(0, 0, end_of(0, 0)));
  EXPECT_EQ(l.first_incomplete_peer(0), 2) << "rank 1 is us: never awaited";
  ASSERT_TRUE(l.on_end(2, 0, end_of(0, 0)));
  EXPECT_TRUE(l.complete(0));
  // Local buckets are accounted elsewhere: even if counted here they neither
  // block completion nor count as overfull.
  l.on_data(1, 0, 100);
  EXPECT_TRUE(l.complete(0));
  EXPECT_EQ(l.first_overfull_peer(0), -1);
  l.on_end(1, 0, end_of(0, 0));  // not even with an END "from ourselves"
  EXPECT_TRUE(l.complete(0));
  EXPECT_EQ(l.first_overfull_peer(0), -1);
}

TEST(SuperstepLedger, SingleNodeIsTriviallyComplete) {
  SuperstepLedger l(1, 0);
  l.open(0);
  EXPECT_TRUE(l.complete(0));
  EXPECT_EQ(l.first_incomplete_peer(0), -1);
  EXPECT_EQ(l.first_overfull_peer(0), -1);
  l.open(1);
  EXPECT_TRUE(l.complete(1));
}

TEST(SuperstepLedger, LastRankOfSixtyFour) {
  SuperstepLedger l(64, 63);
  l.open(0);
  for (unsigned p = 0; p < 63; ++p) {
    EXPECT_EQ(l.first_incomplete_peer(0), static_cast<int>(p));
    ASSERT_TRUE(l.on_end(p, 0, end_of(0, 0)));
  }
  EXPECT_TRUE(l.complete(0));
}

// ---- for bounded progress (reliability/progress_watch.h) ----

// Every bucket, record and END moves the ledger's mark; nothing else does.
TEST(LedgerProgress, GrowsWithEveryArrival) {
  SuperstepLedger l(3, 0);
  l.open(6);
  uint64_t last = l.progress(6);
  ASSERT_TRUE(l.on_data(1, 6, 5));
  EXPECT_GT(l.progress(6), last);
  last = l.progress(6);
  ASSERT_TRUE(l.on_data(2, 6, 0 + 1));
  EXPECT_GT(l.progress(6), last);
  last = l.progress(6);
  ASSERT_TRUE(l.on_end(2, 6, end_of(1, 1)));
  EXPECT_GT(l.progress(6), last);
  last = l.progress(6);
  EXPECT_FALSE(l.on_end(2, 6, end_of(1, 1)));  // a duplicate END is refused: no progress
  EXPECT_FALSE(l.on_data(1, 8, 3));            // nor data of a superstep not open
  EXPECT_EQ(l.progress(6), last);
  EXPECT_EQ(l.progress(7), 0u);
}

// The error names every peer that lacks something and what: a missing END,
// or an END whose counts never arrived; a complete peer is not named.
TEST(LedgerMissing, NamesEachPeerAndWhatItLacks) {
  SuperstepLedger l(4, 1);  // this node is 1; peers 0, 2, 3
  l.open(5);
  ASSERT_TRUE(l.on_data(0, 5, 179));
  ASSERT_TRUE(l.on_data(0, 5, 21));
  ASSERT_TRUE(l.on_end(2, 5, end_of(12, 2000)));
  for (int i = 0; i < 11; ++i) ASSERT_TRUE(l.on_data(2, 5, i < 10 ? 179 : 31));
  ASSERT_TRUE(l.on_end(3, 5, end_of(0, 0)));
  EXPECT_EQ(l.missing(5),
            "node 0: no END(5) yet, 2 buckets and 200 records so far; "
            "node 2: its END(5) announced 12 buckets and 2000 records, 11 buckets and 1821 records arrived");
  ASSERT_TRUE(l.on_end(0, 5, end_of(2, 200)));
  ASSERT_TRUE(l.on_data(2, 5, 179));
  EXPECT_EQ(l.missing(5), "");
  EXPECT_TRUE(l.complete(5));
}

}  // namespace
}  // namespace wg
