// Bounded progress (reliability/progress_watch.h): when a superstep that
// receives nothing counts as stalled, and what the error says is missing
// (the ledger's part of it, progress() and missing(), is in test_ledger.cc).
// The clock is injected: times are plain numbers, nothing waits.
#include "reliability/progress_watch.h"

#include <gtest/gtest.h>

#include <string>

#include "dataplane/wire.h"
#include "reliability/superstep_ledger.h"

namespace wg {
namespace {

TEST(ProgressWatch, StalledOnlyAfterTheLimitWithoutAnyArrival) {
  ProgressWatch w(10.0);
  EXPECT_FALSE(w.stalled(3, 100, 1000.0));   // starts watching superstep 3
  EXPECT_FALSE(w.stalled(3, 100, 1010.0));   // exactly the limit: not yet
  EXPECT_TRUE(w.stalled(3, 100, 1010.5));
  EXPECT_TRUE(w.stalled(3, 100, 5000.0));    // and stays stalled
}

TEST(ProgressWatch, AnyArrivalRestartsTheClock) {
  ProgressWatch w(10.0);
  EXPECT_FALSE(w.stalled(3, 100, 0.0));
  EXPECT_FALSE(w.stalled(3, 101, 9.0));   // one record arrived
  EXPECT_FALSE(w.stalled(3, 101, 18.0));  // 9 s since it
  EXPECT_TRUE(w.stalled(3, 101, 19.5));
}

TEST(ProgressWatch, ANewSuperstepOrNoneAwaitedStartsAfresh) {
  ProgressWatch w(10.0);
  EXPECT_FALSE(w.stalled(3, 100, 0.0));
  EXPECT_FALSE(w.stalled(4, 100, 9.0));   // superstep 4 awaited from now (same mark by chance)
  EXPECT_FALSE(w.stalled(4, 100, 18.0));
  EXPECT_TRUE(w.stalled(4, 100, 19.5));
  EXPECT_FALSE(w.stalled(-1, 0, 100.0));  // nothing awaited (computing, finishing): never stalled
  EXPECT_FALSE(w.stalled(-1, 0, 1000.0));
  EXPECT_FALSE(w.stalled(5, 0, 1000.5));
}

TEST(DescribeStall, SaysWhichSuperstepForHowLongAndWhatIsMissing) {
  SuperstepLedger l(2, 0);
  l.open(9);
  wire::EndPayload end{};
  end.buckets_to_dst = 3;
  end.messages_to_dst = 300;
  ASSERT_TRUE(l.on_end(1, 9, end));
  const std::string e = describe_stall(l, 9, "superstep 9", 40, 50, 120);
  EXPECT_EQ(e.rfind("superstep 9 made no progress for 120 s (--progress-timeout) while every peer is alive: "
                    "node 1: its END(9) announced 3 buckets and 300 records, 0 buckets and 0 records arrived; "
                    "this node's own records: 40 of 50 folded",
                    0),
            0u)
      << e;
}

}  // namespace
}  // namespace wg
