// The receive path's hand-off of acks to the send path
// (reliability/ack_channel.h): an SPSC channel of AckEvents, applied to the
// SendWindows by apply_acks(). Pure logic, no EAL.
//
// What must hold: the channel is FIFO, refuses (never overwrites) when full,
// and acks that went through it leave a SendWindow exactly as if on_ack had
// been called directly: stale ACK-only acks counted, stale piggybacked acks
// not, new acks release frames in order, an ACK frame's selective ack,
// echo and receive-drop count arrive intact.
#include "reliability/ack_channel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

namespace wg {
namespace {

void* handle(uintptr_t i) { return reinterpret_cast<void*>(i); }

CongestionConfig config() {
  CongestionConfig cc;
  cc.max_n = 1024;
  cc.rto_min_ticks = 100;
  cc.rto_max_ticks = 100000;
  cc.rto_init_ticks = 1000;
  return cc;
}

std::vector<uintptr_t> range_ids(uintptr_t first, uintptr_t last) {  // [first, last]
  std::vector<uintptr_t> v;
  for (uintptr_t i = first; i <= last; ++i) v.push_back(i);
  return v;
}

struct Released {
  std::vector<uintptr_t> ids;
  void operator()(void* f) { ids.push_back(reinterpret_cast<uintptr_t>(f)); }
};

void push_and_send(SendWindow& w, uintptr_t first, uintptr_t last, uint64_t t0) {
  for (uintptr_t i = first; i <= last; ++i) w.push(handle(i));
  for (uintptr_t i = first; i <= last; ++i) w.transmitted(w.snd_tx(), t0 + (i - first));
}

// An event as the receive path queues it for a frame that carried `ack`.
AckEvent event(uint32_t peer, uint32_t ack, bool pure, uint64_t now) {
  AckEvent e;
  e.peer = peer;
  e.ack = ack;
  e.pure = pure;
  e.now = now;
  return e;
}

TEST(SpscChannel, FifoAndRefusesWhenFull) {
  SpscChannel<uint32_t, 4> ch;
  EXPECT_EQ(ch.capacity(), 4u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_TRUE(ch.push(i));
  EXPECT_FALSE(ch.push(99)) << "full: refused, nothing overwritten";
  EXPECT_EQ(ch.size(), 4u);
  std::vector<uint32_t> got;
  EXPECT_EQ(ch.drain([&](uint32_t v) { got.push_back(v); }), 4u);
  EXPECT_EQ(got, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(ch.size(), 0u);
  // Wraps around.
  for (uint32_t round = 0; round < 10; ++round) {
    EXPECT_TRUE(ch.push(round));
    EXPECT_TRUE(ch.push(round + 100));
    got.clear();
    EXPECT_EQ(ch.drain([&](uint32_t v) { got.push_back(v); }), 2u);
    EXPECT_EQ(got, (std::vector<uint32_t>{round, round + 100}));
  }
}

TEST(AckHandOff, StaleAckOnlyAcksCountedNewAcksReleaseFrames) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 8, 1000);  // seq 0..7
  AckChannel ch;
  Released rel;
  auto window_of = [&](uint32_t peer) { return peer == 3 ? &w : nullptr; };

  // Two stale piggybacked acks: not counted. Three stale ACK-only acks:
  // counted, and nothing more (no congestion signal, nothing to resend).
  ASSERT_TRUE(ch.push(event(3, 0, false, 2000)));
  ASSERT_TRUE(ch.push(event(3, 0, false, 2001)));
  for (uint64_t t = 0; t < 3; ++t) ASSERT_TRUE(ch.push(event(3, 0, true, 2002 + t)));
  EXPECT_EQ(apply_acks(ch, window_of, rel), 5u);
  EXPECT_EQ(w.stats().stale_acks, 3u);
  EXPECT_EQ(w.n(), 0u);
  EXPECT_FALSE(w.has_pending());
  EXPECT_TRUE(rel.ids.empty()) << "stale acks release nothing";

  // A new ack releases the frames below it, in order; an old one says nothing.
  ASSERT_TRUE(ch.push(event(3, 5, false, 3000)));
  ASSERT_TRUE(ch.push(event(3, 2, true, 3001)));
  ASSERT_TRUE(ch.push(event(7, 8, true, 3002))) << "another peer's ack: not this window's";
  EXPECT_EQ(apply_acks(ch, window_of, rel), 3u);
  EXPECT_EQ(rel.ids, (std::vector<uintptr_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(w.snd_una(), 5u);
  EXPECT_EQ(w.stats().new_acks, 1u);
  EXPECT_EQ(w.stats().stale_acks, 3u);

  // An ack beyond anything sent is invalid, as with on_ack.
  ASSERT_TRUE(ch.push(event(3, 100, true, 3100)));
  apply_acks(ch, window_of, rel);
  EXPECT_EQ(w.stats().invalid_acks, 1u);
  EXPECT_EQ(w.snd_una(), 5u);
}

// An ACK frame's payload goes through the channel in the event's own slot
// (emplace): the selective ack (up to its last word), the echo and the
// receive drops reach the window.
TEST(AckHandOff, SelectiveAckEchoAndDropsArriveIntact) {
  SendWindow w(2048, 0, config());
  for (uintptr_t i = 1; i <= 1100; ++i) w.push(handle(i));
  for (uint32_t i = 0; i < 1100; ++i) w.transmitted(i, 1000 + i);
  AckChannel ch;
  Released rel;
  auto window_of = [&](uint32_t) { return &w; };
  // Cumulative ack 10; held: 12 (word 0, bit 1) and 11 + 64 x 15 + 63 = 1034 (the last bit of the last word).
  ASSERT_TRUE(ch.emplace([](AckEvent& e) {
    e = event(0, 10, true, 5000);
    e.sack_words = wire::kMaxSackWords;
    for (uint64_t& word : e.sack) word = 0;
    e.sack[0] = uint64_t{1} << 1;
    e.sack[wire::kMaxSackWords - 1] = uint64_t{1} << 63;
    e.has_echo = true;
    e.echo_tsval = static_cast<uint32_t>(2000 >> wire::kTsShift);
    e.echo_seq = 1034;
    e.has_rx_drops = true;
    e.rx_drops = 7;
  }));
  apply_acks(ch, window_of, rel);
  EXPECT_EQ(w.snd_una(), 10u);
  EXPECT_EQ(rel.ids, range_ids(1, 10));
  EXPECT_TRUE(w.is_sacked(12));
  EXPECT_TRUE(w.is_sacked(11 + 64 * (wire::kMaxSackWords - 1) + 63));
  EXPECT_FALSE(w.is_sacked(11));
  EXPECT_FALSE(w.is_sacked(13));
  EXPECT_EQ(w.stats().sacked, 2u);
  EXPECT_EQ(w.min_rtt_ticks(), 5000u - (2000u >> wire::kTsShift << wire::kTsShift)) << "the echo's round trip";
}

// The same random ack sequence applied directly and through the channel
// leaves two windows with equal statistics, N, RTT and released frames. As
// in the transport, the send path drains the channel before it touches the
// window again (Transport::receive_step ends with apply_received_acks), so
// several acks queue up between two sender steps.
TEST(AckHandOff, SameAsCallingOnAckDirectly) {
  SendWindow direct(64, 0, config()), handed(64, 0, config());
  Released rd, rh;
  AckChannel ch;
  uint64_t s = 12345, now = 1000;
  auto rnd = [&] {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return s >> 33;
  };
  auto window_of = [&](uint32_t) { return &handed; };
  uintptr_t next = 1;
  for (int round = 0; round < 2000; ++round) {
    apply_acks(ch, window_of, rh);  // sender step: acks first
    while (!direct.full() && rnd() % 2) {
      direct.push(handle(next));
      handed.push(handle(next));
      ++next;
    }
    while (direct.has_pending() && rnd() % 3) {
      uint32_t seq_d = 0, seq_h = 0;
      ASSERT_EQ(direct.to_transmit(&seq_d, 1), 1u);
      ASSERT_EQ(handed.to_transmit(&seq_h, 1), 1u);
      ASSERT_EQ(seq_d, seq_h);
      direct.transmitted(seq_d, now);
      handed.transmitted(seq_h, now);
      if (rnd() % 5 == 0 && direct.timed_out(now + 5000)) {  // now and then a timeout
        direct.on_timeout(now + 5000);
        handed.on_timeout(now + 5000);
      }
    }
    // Receive step: a few acks, old, stale, new or invalid, pure or not.
    for (uint64_t k = rnd() % 6; k > 0; --k) {
      now += 1 + rnd() % 50;
      const uint32_t span = direct.snd_nxt() - direct.snd_una();
      const uint32_t ack =
          direct.snd_una() + static_cast<uint32_t>(rnd() % (span + 2)) - static_cast<uint32_t>(rnd() % 4 == 0);
      AckEvent e = event(1, ack, rnd() % 2 != 0, now);
      if (e.pure) {  // ACK frames: a selective ack of a few frames past the ack, an echo
        e.sack_words = 1;
        e.sack[0] = rnd() & rnd();
        e.has_echo = rnd() % 2;
        e.echo_tsval = static_cast<uint32_t>((now - rnd() % 40) >> wire::kTsShift);
        e.echo_seq = direct.snd_una() + static_cast<uint32_t>(rnd() % (span + 1));
      }
      direct.on_ack(e.info(), now, rd);
      ASSERT_TRUE(ch.push(e));
    }
  }
  apply_acks(ch, window_of, rh);
  EXPECT_EQ(rd.ids, rh.ids);
  EXPECT_EQ(direct.stats().new_acks, handed.stats().new_acks);
  EXPECT_EQ(direct.stats().stale_acks, handed.stats().stale_acks);
  EXPECT_EQ(direct.stats().invalid_acks, handed.stats().invalid_acks);
  EXPECT_EQ(direct.stats().sacked, handed.stats().sacked);
  EXPECT_EQ(direct.stats().lost, handed.stats().lost);
  EXPECT_EQ(direct.lost_pending(), handed.lost_pending());
  EXPECT_EQ(direct.min_rtt_ticks(), handed.min_rtt_ticks());
  EXPECT_GT(direct.stats().sacked, 0u);
  EXPECT_GT(direct.stats().stale_acks, 0u);
  EXPECT_GT(direct.stats().new_acks, 0u);
  EXPECT_EQ(direct.n(), handed.n());
  EXPECT_EQ(direct.srtt_ticks(), handed.srtt_ticks());
  EXPECT_EQ(direct.snd_una(), handed.snd_una());
}

// Producer and consumer on two threads: every event arrives once, in order.
TEST(SpscChannel, TwoThreadsEveryEventOnceInOrder) {
  auto ch = std::make_unique<AckChannel>();
  constexpr uint32_t kEvents = 1u << 20;
  std::thread producer([&] {
    for (uint32_t i = 0; i < kEvents;)
      if (ch->push(event(i % 7, i, (i & 1) != 0, i))) ++i;
  });
  uint32_t expect = 0;
  bool ok = true;
  while (expect < kEvents)
    ch->drain([&](const AckEvent& e) {
      ok &= e.ack == expect && e.peer == expect % 7 && e.pure == ((expect & 1) != 0) && e.now == expect;
      ++expect;
    });
  producer.join();
  EXPECT_TRUE(ok);
  EXPECT_EQ(expect, kEvents);
}

}  // namespace
}  // namespace wg
