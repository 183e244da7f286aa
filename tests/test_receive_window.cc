// ReceiveWindow (reliability/receive_window.h): in-order exactly-once
// delivery with a reorder buffer, driven frame by frame with fake handles;
// then a differential test of SendWindow + ReceiveWindow together over a
// lossy, duplicating, reordering channel model against the trivial reference
// (frames 0..N-1, each delivered once, in order; each released once).
#include "reliability/receive_window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <set>
#include <stdexcept>
#include <vector>

#include "reliability/send_window.h"

namespace wg {
namespace {

using Verdict = ReceiveWindow::Verdict;

void* handle(uintptr_t i) { return reinterpret_cast<void*>(i); }
uintptr_t id_of(void* f) { return reinterpret_cast<uintptr_t>(f); }

std::vector<uintptr_t> drain(ReceiveWindow& r) {
  std::vector<uintptr_t> out;
  while (void* f = r.next_in_order()) out.push_back(id_of(f));
  return out;
}

std::multiset<uintptr_t> held_of(const ReceiveWindow& r) {
  std::multiset<uintptr_t> s;
  r.for_each_held([&](void* f) { s.insert(id_of(f)); });
  return s;
}

TEST(ReceiveWindow, ConstructorRejectsCapacityZeroAndAbove65536) {
  EXPECT_THROW(ReceiveWindow(0, 0), std::invalid_argument);
  EXPECT_THROW(ReceiveWindow(65537, 0), std::invalid_argument);
  EXPECT_NO_THROW(ReceiveWindow(1, 0));
  EXPECT_NO_THROW(ReceiveWindow(65536, 0));
}

TEST(ReceiveWindow, InOrderFramesAreDeliveredAndAdvanceTheAck) {
  ReceiveWindow r(8, 10);
  EXPECT_EQ(r.ack(), 10u);
  EXPECT_EQ(r.accept(10, handle(1)), Verdict::kDeliver);
  EXPECT_EQ(r.ack(), 11u);
  EXPECT_EQ(r.accept(11, handle(2)), Verdict::kDeliver);
  EXPECT_EQ(r.accept(12, handle(3)), Verdict::kDeliver);
  EXPECT_EQ(r.ack(), 13u);
  EXPECT_EQ(r.next_in_order(), nullptr) << "nothing is held";
  EXPECT_EQ(r.stats().delivered, 3u);
  EXPECT_EQ(r.stats().held, 0u);
  EXPECT_EQ(r.stats().duplicates, 0u);
  EXPECT_EQ(r.stats().beyond_window, 0u);
  EXPECT_TRUE(held_of(r).empty());
}

TEST(ReceiveWindow, GapHoldsLaterFramesUntilItFills) {
  ReceiveWindow r(8, 10);
  ASSERT_EQ(r.accept(10, handle(10)), Verdict::kDeliver);
  EXPECT_EQ(r.accept(13, handle(13)), Verdict::kHold);
  EXPECT_EQ(r.accept(12, handle(12)), Verdict::kHold);
  EXPECT_EQ(r.accept(15, handle(15)), Verdict::kHold);
  EXPECT_EQ(r.ack(), 11u) << "the ack stays at the gap";
  EXPECT_EQ(r.next_in_order(), nullptr) << "11 is missing";
  EXPECT_EQ(held_of(r), (std::multiset<uintptr_t>{12, 13, 15}));

  EXPECT_EQ(r.accept(11, handle(11)), Verdict::kDeliver);
  EXPECT_EQ(r.ack(), 12u);
  EXPECT_EQ(drain(r), (std::vector<uintptr_t>{12, 13})) << "15 waits for 14";
  EXPECT_EQ(r.ack(), 14u);
  EXPECT_EQ(held_of(r), (std::multiset<uintptr_t>{15}));

  EXPECT_EQ(r.accept(14, handle(14)), Verdict::kDeliver);
  EXPECT_EQ(drain(r), (std::vector<uintptr_t>{15}));
  EXPECT_EQ(r.ack(), 16u);
  EXPECT_TRUE(held_of(r).empty());
  EXPECT_EQ(r.stats().delivered, 6u);  // 10, 11, 12, 13, 14, 15
  EXPECT_EQ(r.stats().held, 3u);
}

TEST(ReceiveWindow, DuplicatesOfDeliveredAndOfHeldFrames) {
  ReceiveWindow r(8, 0);
  ASSERT_EQ(r.accept(0, handle(100)), Verdict::kDeliver);
  ASSERT_EQ(r.accept(1, handle(101)), Verdict::kDeliver);
  EXPECT_EQ(r.accept(0, handle(200)), Verdict::kDuplicate);
  EXPECT_EQ(r.accept(1, handle(201)), Verdict::kDuplicate);
  ASSERT_EQ(r.accept(3, handle(103)), Verdict::kHold);
  EXPECT_EQ(r.accept(3, handle(203)), Verdict::kDuplicate) << "already held";
  EXPECT_EQ(held_of(r), (std::multiset<uintptr_t>{103})) << "the first copy stays";
  EXPECT_EQ(r.ack(), 2u);
  ASSERT_EQ(r.accept(2, handle(102)), Verdict::kDeliver);
  EXPECT_EQ(drain(r), (std::vector<uintptr_t>{103}));
  EXPECT_EQ(r.accept(3, handle(303)), Verdict::kDuplicate) << "held, then delivered";
  EXPECT_EQ(r.accept(2, handle(302)), Verdict::kDuplicate);
  // Far behind (but less than 2^31) is a duplicate too.
  EXPECT_EQ(r.accept(0xF0000000u, handle(400)), Verdict::kDuplicate);
  EXPECT_EQ(r.stats().duplicates, 6u);
  EXPECT_EQ(r.stats().delivered, 4u);
  EXPECT_EQ(r.stats().held, 1u);
  EXPECT_EQ(r.ack(), 4u);
}

TEST(ReceiveWindow, BeyondTheWindowIsDroppedAndCounted) {
  ReceiveWindow r(4, 10);  // holds 11..13 while 10 is expected
  EXPECT_EQ(r.accept(13, handle(13)), Verdict::kHold);
  EXPECT_EQ(r.accept(14, handle(14)), Verdict::kBeyondWindow);
  EXPECT_EQ(r.accept(1000, handle(1000)), Verdict::kBeyondWindow);
  EXPECT_EQ(r.stats().beyond_window, 2u);
  EXPECT_EQ(held_of(r), (std::multiset<uintptr_t>{13}));
  // The window slides with the ack: 14 fits once 10 is in.
  ASSERT_EQ(r.accept(10, handle(10)), Verdict::kDeliver);
  EXPECT_EQ(r.accept(14, handle(14)), Verdict::kHold);
  EXPECT_EQ(r.accept(15, handle(15)), Verdict::kBeyondWindow);
  EXPECT_EQ(r.stats().beyond_window, 3u);
}

TEST(ReceiveWindow, WindowOfOneHoldsNothing) {
  ReceiveWindow r(1, 5);
  EXPECT_EQ(r.accept(6, handle(6)), Verdict::kBeyondWindow);
  EXPECT_EQ(r.accept(5, handle(5)), Verdict::kDeliver);
  EXPECT_EQ(r.accept(6, handle(6)), Verdict::kDeliver);
  EXPECT_EQ(r.accept(5, handle(5)), Verdict::kDuplicate);
  EXPECT_EQ(r.ack(), 7u);
}

TEST(ReceiveWindow, NonPowerOfTwoCapacityHoldsExactlyCapacityMinusOneAhead) {
  ReceiveWindow r(5, 0);  // 8 slots behind it, but only seqs 1..4 may be held
  for (uint32_t s = 1; s <= 4; ++s) EXPECT_EQ(r.accept(s, handle(s)), Verdict::kHold) << s;
  EXPECT_EQ(r.accept(5, handle(5)), Verdict::kBeyondWindow);
  EXPECT_EQ(r.accept(7, handle(7)), Verdict::kBeyondWindow);
  ASSERT_EQ(r.accept(0, handle(99)), Verdict::kDeliver);
  EXPECT_EQ(drain(r), (std::vector<uintptr_t>{1, 2, 3, 4}));
  EXPECT_EQ(r.ack(), 5u);
}

TEST(ReceiveWindow, SequenceNumbersWrapAround) {
  ReceiveWindow r(8, 0xFFFFFFFEu);
  EXPECT_EQ(r.accept(0xFFFFFFFEu, handle(1)), Verdict::kDeliver);
  EXPECT_EQ(r.ack(), 0xFFFFFFFFu);
  EXPECT_EQ(r.accept(1, handle(4)), Verdict::kHold);
  EXPECT_EQ(r.accept(0, handle(3)), Verdict::kHold);
  EXPECT_EQ(r.accept(0xFFFFFFFEu, handle(9)), Verdict::kDuplicate);
  EXPECT_EQ(r.accept(6, handle(9)), Verdict::kHold) << "0xFFFFFFFF + 7 = 6: last slot in the window";
  EXPECT_EQ(r.accept(7, handle(9)), Verdict::kBeyondWindow);
  EXPECT_EQ(r.accept(0xFFFFFFFFu, handle(2)), Verdict::kDeliver);
  EXPECT_EQ(r.ack(), 0u);
  EXPECT_EQ(drain(r), (std::vector<uintptr_t>{3, 4}));
  EXPECT_EQ(r.ack(), 2u);
  EXPECT_EQ(r.accept(0xFFFFFFFFu, handle(2)), Verdict::kDuplicate);
  EXPECT_EQ(r.accept(0, handle(3)), Verdict::kDuplicate);
  EXPECT_EQ(held_of(r), (std::multiset<uintptr_t>{9}));
  EXPECT_EQ(r.accept(10, handle(10)), Verdict::kBeyondWindow) << "2 + 8 = 10 is the first seq outside";
  EXPECT_EQ(r.accept(9, handle(11)), Verdict::kHold);
  EXPECT_EQ(r.stats().delivered, 4u);
  EXPECT_EQ(r.stats().held, 4u);
  EXPECT_EQ(r.stats().duplicates, 3u);
  EXPECT_EQ(r.stats().beyond_window, 1u + 1u);
}

TEST(ReceiveWindow, ForEachHeldVisitsExactlyTheHeldFrames) {
  ReceiveWindow r(16, 100);
  EXPECT_TRUE(held_of(r).empty());
  r.accept(102, handle(2));
  r.accept(105, handle(5));
  r.accept(115, handle(15));
  r.accept(116, handle(16));  // beyond: not held
  r.accept(99, handle(99));   // duplicate: not held
  r.accept(105, handle(55));  // duplicate of a held frame: not held
  EXPECT_EQ(held_of(r), (std::multiset<uintptr_t>{2, 5, 15}));
  r.accept(100, handle(0));
  r.accept(101, handle(1));
  EXPECT_EQ(drain(r), (std::vector<uintptr_t>{2}));
  EXPECT_EQ(held_of(r), (std::multiset<uintptr_t>{5, 15}));
  EXPECT_EQ(r.stats().held, 3u);
  EXPECT_EQ(r.stats().delivered, 3u);
  EXPECT_EQ(r.stats().duplicates, 2u);
  EXPECT_EQ(r.stats().beyond_window, 1u);
}

// ---- differential test: SendWindow + ReceiveWindow over a bad channel ----

// splitmix64: the test's own generator, independent of the code under test.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
};

struct DataInFlight {
  uint32_t seq;
  void* frame;
};
struct AckInFlight {
  uint32_t ack;
  bool pure;
};

// Removes and returns a random one of the first `span` items: reordering.
template <class T>
T take(std::deque<T>& q, Rng& rng, uint32_t span) {
  const uint32_t i = rng.below(std::min<uint32_t>(span, static_cast<uint32_t>(q.size())));
  T v = q[i];
  q.erase(q.begin() + i);
  return v;
}

void run_differential(uint64_t seed) {
  Rng rng{seed * 7919 + 17};
  constexpr uint32_t kFrames = 300;
  const uint32_t windows[] = {1, 2, 3, 8, 32, 64};
  const uint32_t send_cap = windows[rng.below(6)];
  const uint32_t recv_caps[] = {1, 4, send_cap, 64};
  const uint32_t recv_cap = recv_caps[rng.below(4)];
  uint32_t initial = 0;
  switch (rng.below(3)) {
    case 0: initial = 0; break;
    case 1: initial = 0xFFFFFFFFu - rng.below(2 * kFrames); break;  // wraps mid-run
    default: initial = static_cast<uint32_t>(rng.next()); break;
  }
  const double drop = rng.below(31) / 100.0;  // 0..30 %
  const double dup = rng.below(21) / 100.0;
  const double ack_drop = rng.below(31) / 100.0;
  const uint32_t span = 1 + rng.below(8);  // 1: FIFO, no reordering
  SCOPED_TRACE(testing::Message() << "seed " << seed << ": send window " << send_cap << ", receive window "
                                  << recv_cap << ", initial seq " << initial << ", drop " << drop << ", dup " << dup
                                  << ", ack drop " << ack_drop << ", reorder span " << span);

  CongestionConfig cc;
  cc.ast_init_ticks = 1;
  cc.max_n = 16;
  cc.rto_min_ticks = 32;
  cc.rto_max_ticks = 512;
  cc.rto_init_ticks = 64;
  SendWindow snd(send_cap, initial, cc);
  ReceiveWindow rcv(recv_cap, initial);

  std::deque<DataInFlight> data;
  std::deque<AckInFlight> acks;
  std::vector<uint32_t> delivered;  // frame numbers, in delivery order
  std::vector<uint32_t> released;   // frame numbers, in release order
  std::vector<unsigned> times_released(kFrames, 0);
  bool safety_ok = true;
  auto on_release = [&](void* f) {
    const uintptr_t id = id_of(f);
    if (id < 1 || id > kFrames) {
      safety_ok = false;
      ADD_FAILURE() << "released a handle never pushed: " << id;
      return;
    }
    const uint32_t frame = static_cast<uint32_t>(id - 1);
    // Cumulative acks only cover what the receiver has delivered.
    if (frame >= delivered.size()) {
      safety_ok = false;
      ADD_FAILURE() << "frame " << frame << " released before it was delivered";
    }
    ++times_released[frame];
    released.push_back(frame);
  };
  auto deliver = [&](void* f) { delivered.push_back(static_cast<uint32_t>(id_of(f) - 1)); };

  uint32_t pushed = 0;
  uint64_t now = 1000;
  uint64_t step = 0;
  constexpr uint64_t kMaxSteps = 1'000'000;
  for (; step < kMaxSteps && safety_ok; ++step) {
    if (pushed == kFrames && snd.empty() && delivered.size() == kFrames) break;
    now += 1;
    if (snd.timed_out(now)) snd.on_timeout(now);
    switch (rng.below(4)) {
      case 0:  // the application queues frames
        if (pushed < kFrames && !snd.full()) {
          const uint32_t seq = snd.push(handle(pushed + 1));
          if (seq != initial + pushed) {
            ADD_FAILURE() << "frame " << pushed << " got seq " << seq;
            safety_ok = false;
          }
          ++pushed;
        }
        break;
      case 1:  // the sender transmits the next frame to send (a resend first), after a tail-loss probe if due
        if (snd.probe_due(now)) snd.probe(now);
        if (snd.has_pending() && snd.may_send(now)) {
          uint32_t seq = 0;
          snd.to_transmit(&seq, 1);
          void* f = snd.frame(seq);
          snd.transmitted(seq, now);
          snd.paced(now, 1, rng.below(3));
          if (!rng.chance(drop)) data.push_back({seq, f});
          if (rng.chance(dup)) data.push_back({seq, f});
        }
        break;
      case 2:  // the channel delivers a data frame; the receiver acks
        if (!data.empty()) {
          const DataInFlight d = take(data, rng, span);
          if (rcv.accept(d.seq, d.frame) == ReceiveWindow::Verdict::kDeliver) {
            deliver(d.frame);
            while (void* f = rcv.next_in_order()) deliver(f);
          }
          if (!rng.chance(ack_drop)) acks.push_back({rcv.ack(), rng.chance(0.7)});
        }
        break;
      default:  // the channel delivers an ack
        if (!acks.empty()) {
          const AckInFlight a = take(acks, rng, span);
          if (snd.on_ack(a.ack, a.pure, now, on_release) == SendWindow::AckKind::kInvalid) {
            ADD_FAILURE() << "ack " << a.ack << " beyond snd_nxt " << snd.snd_nxt();
            safety_ok = false;
          }
        }
        break;
    }
  }
  ASSERT_TRUE(safety_ok);
  ASSERT_LT(step, kMaxSteps) << "did not finish: delivered " << delivered.size() << ", snd_una "
                             << snd.snd_una() - initial;

  std::vector<uint32_t> expected(kFrames);
  for (uint32_t i = 0; i < kFrames; ++i) expected[i] = i;
  EXPECT_EQ(delivered, expected) << "exactly once, in order";
  EXPECT_EQ(released, expected) << "every frame released once, in order";
  for (uint32_t i = 0; i < kFrames; ++i) EXPECT_EQ(times_released[i], 1u) << "frame " << i;
  EXPECT_EQ(rcv.ack(), initial + kFrames);
  EXPECT_EQ(snd.snd_una(), initial + kFrames);
  EXPECT_EQ(rcv.stats().delivered, kFrames);
  unsigned still_held = 0;
  rcv.for_each_held([&](void*) { ++still_held; });
  EXPECT_EQ(still_held, 0u);
  EXPECT_EQ(snd.stats().frames, kFrames) << "first transmissions";
  EXPECT_EQ(snd.stats().invalid_acks, 0u);
}

TEST(ReliabilityDifferential, LossyDuplicatingReorderingChannel200Seeds) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    run_differential(seed);
    if (HasFatalFailure() || HasNonfatalFailure()) {
      ADD_FAILURE() << "stopping at seed " << seed;
      return;
    }
  }
}

}  // namespace
}  // namespace wg
