// Loss recovery, frame by frame, on an injected clock (TSC ticks passed in;
// no sleeps): the selective ack's two halves (HeldFrames, which the receive
// path fills and the send path encodes, and SendWindow's reading of it), the
// time-based loss rule with its reordering window, the tail-loss probe, and
// the congestion rule that moves N, needless resends told by the peer's
// D-SACK and undone, and a peer that goes quiet (reliability/send_window.h).
//
// Frames are fake handles (1, 2, 3, ...). Times are multiples of 16 ticks so
// that the echo (wire::kTsShift) is exact; every expected value is worked
// out by hand from the rules in the headers.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "dataplane/wire.h"
#include "reliability/ack_state.h"
#include "reliability/send_window.h"

namespace wg {
namespace {

using AckKind = SendWindow::AckKind;

void* handle(uintptr_t i) { return reinterpret_cast<void*>(i); }

struct Released {
  std::vector<uintptr_t> ids;
  void operator()(void* f) { ids.push_back(reinterpret_cast<uintptr_t>(f)); }
};

CongestionConfig config() {
  CongestionConfig cc;
  cc.max_n = 1024;
  cc.rto_min_ticks = 100;
  cc.rto_max_ticks = 10'000'000;
  cc.rto_init_ticks = 1'000'000;
  cc.max_ack_delay_ticks = 0;
  cc.loss_burst = 8;
  cc.queue_slack_ticks = 0;
  return cc;
}

// What one ACK frame says: the cumulative ack, the frames held past it, and
// optionally the echo of the latest-sent transmission received.
struct Ack {
  uint32_t ack;
  std::vector<uint32_t> held;
  bool echo = false;
  uint64_t echo_time = 0;
  uint32_t echo_seq = 0;
  bool drops = false;
  uint32_t rx_drops = 0;
  bool quiet = false;     // wire::kAckQuiet
  bool dsack = false;     // wire::kAckDsack: dsack_seq arrived twice
  uint32_t dsack_seq = 0;
};

// The selective ack as the send path encodes it, built here from the list
// (bit i of word w: frame ack + 1 + 64 w + i), independently of HeldFrames.
struct Encoded {
  uint64_t words[wire::kMaxSackWords] = {};
  unsigned used = 0;
};
Encoded encode_by_hand(uint32_t ack, const std::vector<uint32_t>& held) {
  Encoded e;
  for (uint32_t seq : held) {
    const uint32_t i = seq - ack - 1;
    e.words[i / 64] |= uint64_t{1} << (i % 64);
    if (i / 64 + 1 > e.used) e.used = i / 64 + 1;
  }
  return e;
}

AckKind deliver_ack(SendWindow& w, const Ack& a, uint64_t now, Released& r) {
  const Encoded e = encode_by_hand(a.ack, a.held);
  AckInfo info;
  info.ack = a.ack;
  info.pure = true;
  info.sack = e.words;
  info.sack_words = e.used;
  info.has_echo = a.echo;
  info.echo_tsval = static_cast<uint32_t>(a.echo_time >> wire::kTsShift);
  info.echo_seq = a.echo_seq;
  info.has_rx_drops = a.drops;
  info.rx_drops = a.rx_drops;
  info.quiet = a.quiet;
  info.has_dsack = a.dsack;
  info.dsack_seq = a.dsack_seq;
  return w.on_ack(info, now, r);
}

// Pushes `count` frames (handles first..) and sends them all at `now`.
void push_and_send(SendWindow& w, uintptr_t first, unsigned count, uint64_t now) {
  for (unsigned i = 0; i < count; ++i) w.push(handle(first + i));
  uint32_t seqs[64];
  unsigned left = count;
  while (left > 0) {
    const unsigned k = w.to_transmit(seqs, left < 64 ? left : 64);
    ASSERT_GT(k, 0u);
    for (unsigned i = 0; i < k; ++i) w.transmitted(seqs[i], now);
    left -= k;
  }
}

std::vector<uint32_t> to_send(SendWindow& w) {
  uint32_t seqs[64];
  const unsigned k = w.to_transmit(seqs, 64);
  return std::vector<uint32_t>(seqs, seqs + k);
}

void resend_all(SendWindow& w, uint64_t now) {
  for (uint32_t seq : to_send(w)) w.transmitted(seq, now);
}

// ============================================ HeldFrames: the receive side

std::vector<uint64_t> encode(const HeldFrames& h, uint32_t ack, unsigned max_words = wire::kMaxSackWords) {
  uint64_t words[64] = {};
  const unsigned n = h.encode(ack, words, max_words);
  return std::vector<uint64_t>(words, words + n);
}

TEST(HeldFrames, BitsStartAfterTheAckAndStopAtTheLastHeldWord) {
  HeldFrames h;
  h.init(512);
  const uint32_t ack = 1000;
  EXPECT_TRUE(encode(h, ack).empty()) << "nothing held: no words";
  h.set(ack + 1);
  EXPECT_EQ(encode(h, ack), (std::vector<uint64_t>{1}));
  h.set(ack + 64);   // index 63: the last bit of word 0
  h.set(ack + 511);  // index 510: the window's last frame (capacity 512: ack .. ack + 511)
  std::vector<uint64_t> want(8, 0);
  want[0] = 1 | uint64_t{1} << 63;
  want[7] = uint64_t{1} << 62;
  EXPECT_EQ(encode(h, ack), want);
  h.clear(ack + 511);
  EXPECT_EQ(encode(h, ack), (std::vector<uint64_t>{1 | uint64_t{1} << 63})) << "trailing zero words are not sent";
  h.clear(ack + 1);
  h.clear(ack + 64);
  EXPECT_TRUE(encode(h, ack).empty());
}

TEST(HeldFrames, TheAckItselfAndFramesBeyondTheWindowAreNeverReported) {
  HeldFrames h;
  h.init(100);  // 128 positions, frames ack+1 .. ack+99 can be held
  const uint32_t ack = 5;
  h.set(ack + 99);
  h.set(ack + 128);  // the same position as ack: a stale bit of an earlier frame
  const std::vector<uint64_t> got = encode(h, ack);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 0u);
  EXPECT_EQ(got[1], uint64_t{1} << (98 - 64)) << "only ack + 99; the span is 99 bits";
}

TEST(HeldFrames, SmallWindowsAndTheWordCap) {
  HeldFrames small;
  small.init(4);  // 4 positions: ack+1 .. ack+3
  small.set(12);
  small.set(13);
  EXPECT_EQ(encode(small, 10), (std::vector<uint64_t>{0b110}));
  EXPECT_EQ(encode(small, 11), (std::vector<uint64_t>{0b011})) << "the same bits read against a newer ack";

  HeldFrames big;
  big.init(2048);
  big.set(1024);  // index 1023: the last bit that fits 16 words
  big.set(1025);  // index 1024: past the cap, not reported
  std::vector<uint64_t> want(wire::kMaxSackWords, 0);
  want.back() = uint64_t{1} << 63;
  EXPECT_EQ(encode(big, 0), want);
  EXPECT_EQ(encode(big, 0, 4).size(), 0u) << "a cap of 4 words sees neither";
}

TEST(HeldFrames, SequenceNumbersWrapAround) {
  HeldFrames h;
  h.init(512);
  const uint32_t ack = 0xFFFFFFFEu;
  h.set(0xFFFFFFFFu);  // index 0
  h.set(0x00000000u);  // index 1
  h.set(0x0000003Fu);  // index 64: word 1 bit 0
  EXPECT_EQ(encode(h, ack), (std::vector<uint64_t>{0b11, 1}));
  // The receive path delivers 0xFFFFFFFF and 0 (clearing them) and acks 1.
  h.clear(0xFFFFFFFFu);
  h.clear(0x00000000u);
  EXPECT_EQ(encode(h, 1), (std::vector<uint64_t>{uint64_t{1} << 61}));  // 0x3F = 1 + 1 + 61
  EXPECT_TRUE(h.test(0x3F));
  EXPECT_FALSE(h.test(0));
}

// =================================== selective acks on the sending side

TEST(SelectiveAck, HeldFramesAreNeverResentOnlyTheHoles) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 10, 1600);  // seqs 0..9
  Released r;
  // The peer has 0, 1 (in order), and 4, 5, 7, 8, 9 held: holes 2, 3, 6.
  Ack a{2, {4, 5, 7, 8, 9}, true, 1600, 9};
  EXPECT_EQ(deliver_ack(w, a, 3200, r), AckKind::kNew);
  EXPECT_EQ(r.ids, (std::vector<uintptr_t>{1, 2}));
  EXPECT_EQ(w.stats().sacked, 5u);
  for (uint32_t s : {4u, 5u, 7u, 8u, 9u}) EXPECT_TRUE(w.is_sacked(s)) << s;
  for (uint32_t s : {2u, 3u, 6u}) EXPECT_FALSE(w.is_sacked(s)) << s;
  // The echo's round trip: 3200 - 1600; reordering window min RTT / 4 = 400.
  EXPECT_EQ(w.min_rtt_ticks(), 1600u);
  EXPECT_EQ(w.reorder_window_ticks(), 400u);
  // The holes were sent before frame 9, which arrived: lost once their
  // reordering window is over, 1600 + 1600 + 400 = 3600, not before.
  EXPECT_TRUE(to_send(w).empty());
  EXPECT_FALSE(w.reorder_timer_due(3599));
  ASSERT_TRUE(w.reorder_timer_due(3600));
  w.detect_losses(3600);
  EXPECT_EQ(w.stats().lost, 3u);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{2, 3, 6})) << "the holes, oldest first, and nothing else";
  resend_all(w, 3616);
  EXPECT_EQ(w.stats().retransmissions, 3u);
  EXPECT_FALSE(w.has_pending());
  r.ids.clear();
  EXPECT_EQ(deliver_ack(w, Ack{10, {}, true, 3616, 6}, 5216, r), AckKind::kNew);
  EXPECT_EQ(r.ids, (std::vector<uintptr_t>{3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(w.stats().spurious, 0u);
}

TEST(SelectiveAck, DuplicateAndStaleReportsChangeNothing) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 10, 1600);
  Released r;
  ASSERT_EQ(deliver_ack(w, Ack{2, {4, 5}}, 3200, r), AckKind::kNew);
  ASSERT_EQ(w.stats().sacked, 2u);
  // The same report again (a duplicated ACK): counted once.
  EXPECT_EQ(deliver_ack(w, Ack{2, {4, 5}}, 3300, r), AckKind::kStale);
  EXPECT_EQ(w.stats().sacked, 2u);
  // An older ACK, overtaken on the way: its cumulative ack says nothing, its
  // claims are true but known (4) or below snd_una (1).
  EXPECT_EQ(deliver_ack(w, Ack{1, {4}}, 3400, r), AckKind::kOld);
  EXPECT_EQ(w.stats().sacked, 2u);
  EXPECT_EQ(w.snd_una(), 2u);
  EXPECT_EQ(w.stats().invalid_acks, 0u);
  // A new claim in an old ACK still counts: frame 7 did arrive.
  deliver_ack(w, Ack{1, {7}}, 3500, r);
  EXPECT_TRUE(w.is_sacked(7));
  EXPECT_EQ(w.stats().sacked, 3u);
}

TEST(SelectiveAck, AClaimBeyondWhatWasSentIsInvalidAndStopsTheReport) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 10, 1600);  // snd_tx = 10
  Released r;
  deliver_ack(w, Ack{2, {3, 12, 14}}, 3200, r);  // bits in order: 3 fine, 12 never sent
  EXPECT_EQ(w.stats().invalid_acks, 1u);
  EXPECT_TRUE(w.is_sacked(3));
  EXPECT_EQ(w.stats().sacked, 1u) << "nothing after the bad claim is believed";
  EXPECT_EQ(w.snd_una(), 2u) << "the cumulative ack was fine";
}

TEST(SelectiveAck, AcrossSequenceWrapAndAtTheWindowEdge) {
  const uint32_t first = 0xFFFFFFF0u;
  SendWindow w(64, first, config());
  push_and_send(w, 1, 64, 1600);  // first .. first + 63 = 0x2F: the window is full
  ASSERT_TRUE(w.full());
  // The receive side as the transport builds it: HeldFrames of the same window.
  HeldFrames h;
  h.init(64);
  const std::vector<uint32_t> held = {0xFFFFFFFFu, 0x0u, 0x2Fu};
  for (uint32_t s : held) h.set(s);
  const Encoded by_hand = encode_by_hand(first, held);
  ASSERT_EQ(by_hand.used, 1u);
  EXPECT_EQ(by_hand.words[0], uint64_t{1} << 14 | uint64_t{1} << 15 | uint64_t{1} << 62);
  EXPECT_EQ(encode(h, first), (std::vector<uint64_t>{by_hand.words[0]})) << "HeldFrames agrees";
  Released r;
  EXPECT_EQ(deliver_ack(w, Ack{first, held}, 3200, r), AckKind::kStale);
  for (uint32_t s : held) EXPECT_TRUE(w.is_sacked(s)) << s;
  EXPECT_FALSE(w.is_sacked(0xFFFFFFFEu));
  EXPECT_FALSE(w.is_sacked(0x1u));
  EXPECT_EQ(w.stats().sacked, 3u);
  EXPECT_EQ(w.stats().invalid_acks, 0u);
  // The cumulative ack crosses the wrap and releases 17 frames.
  EXPECT_EQ(deliver_ack(w, Ack{0x1u, {0x2Fu}}, 3300, r), AckKind::kNew);
  EXPECT_EQ(r.ids.size(), 17u);
  EXPECT_EQ(w.snd_una(), 0x1u);
}

TEST(SelectiveAck, AClaimCancelsAPendingResend) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 6, 1600);
  Released r;
  deliver_ack(w, Ack{0, {2, 3, 4, 5}, true, 1600, 5}, 3200, r);
  w.detect_losses(3600);  // 0 and 1 lost (deadline 1600 + 1600 + 400)
  ASSERT_EQ(to_send(w), (std::vector<uint32_t>{0, 1}));
  // Frame 1 arrives after all (late, reordered): no resend for it.
  deliver_ack(w, Ack{0, {1, 2, 3, 4, 5}}, 3700, r);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{0}));
  EXPECT_EQ(w.lost_pending(), 1u);
}

// ================================================ time-based loss rule

TEST(TimeBasedLoss, JudgesOnlyFramesSentBeforeTheLatestArrival) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 4, 1600);  // 0..3 in one burst
  push_and_send(w, 5, 2, 3200);  // 4, 5 later
  Released r;
  // At 4800 the peer holds 2 and has nothing newer: 0 and 1 were sent
  // before 2 (same burst, lower sequence numbers); 3, 4 and 5 were not.
  deliver_ack(w, Ack{0, {2}, true, 1600, 2}, 4800, r);
  EXPECT_EQ(w.min_rtt_ticks(), 3200u);
  EXPECT_EQ(w.reorder_window_ticks(), 800u);
  EXPECT_FALSE(w.reorder_timer_due(5599));  // 1600 + 3200 + 800 = 5600
  ASSERT_TRUE(w.reorder_timer_due(5600));
  w.detect_losses(5600);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{0, 1}));
  EXPECT_FALSE(w.is_lost(3));
  EXPECT_FALSE(w.is_lost(4));
  EXPECT_FALSE(w.reorder_timer_due(1'000'000)) << "3, 4, 5 wait for an arrival sent after them";
}

TEST(TimeBasedLoss, AResentFrameIsJudgedByItsResend) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 4, 1600);
  Released r;
  deliver_ack(w, Ack{0, {1, 2, 3}, true, 1600, 3}, 3200, r);
  w.detect_losses(3600);
  ASSERT_EQ(to_send(w), (std::vector<uint32_t>{0}));
  resend_all(w, 4000);
  push_and_send(w, 5, 1, 4800);  // frame 4, after the resend
  // Frame 4 arrives, the resend of 0 does not: 0 is lost again once
  // 4000 + (6400 - 4800) + 400 = 6000 has passed.
  // The ACK comes at 6400, past that: 0 is lost again at once (as a first
  // transmission would be), and nothing else.
  deliver_ack(w, Ack{0, {1, 2, 3, 4}, true, 4800, 4}, 6400, r);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{0}));
  EXPECT_EQ(w.stats().lost, 2u);
  EXPECT_EQ(w.stats().spurious, 0u);
}

TEST(TimeBasedLoss, ASpuriousResendWidensTheReorderingWindow) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 4, 1600);
  Released r;
  deliver_ack(w, Ack{0, {2, 3}, true, 1600, 3}, 3200, r);  // min RTT 1600, SRTT 1600 (2 and 3)
  ASSERT_EQ(w.srtt_ticks(), 1600u);
  w.detect_losses(3600);
  ASSERT_EQ(to_send(w), (std::vector<uint32_t>{0, 1}));
  resend_all(w, 3616);
  // The originals of 0 and 1 were only late: the next ACK covers them while
  // its echo is still 3 (sent at 1600), older than the resends.
  deliver_ack(w, Ack{4, {}, true, 1600, 3}, 4000, r);
  EXPECT_EQ(w.stats().spurious, 2u);
  EXPECT_EQ(w.reorder_window_ticks(), 1200u) << "3 x min RTT / 4";
  EXPECT_TRUE(w.empty());
}

// A pass that comes late (the lcore ran a worker's chunk) finds both the
// reordering window of a lost frame and the RTO past: the time-based rule
// goes first, names the frame and backs nothing off.
TEST(TimeBasedLoss, ComesBeforeTheTimeoutWhenBothAreDue) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 4, 1600);
  Released r;
  // 1..3 arrive and are reported (echo 3, sent at 1600) at 3200: frame 0
  // waits for its window, 1600 + 1600 + 400 = 3600.
  deliver_ack(w, Ack{0, {1, 2, 3}, true, 1600, 3}, 3200, r);
  ASSERT_EQ(w.lost_pending(), 0u);
  const uint64_t rto = w.rto_ticks();
  ASSERT_EQ(rto, 4800u);  // SRTT 1600 + 4 x RTTVAR 800
  const uint64_t late = 3200 + rto + 1000;  // past the window and the RTO
  ASSERT_TRUE(w.reorder_timer_due(late));
  w.run_timers(late);
  EXPECT_EQ(w.stats().lost, 1u);
  EXPECT_EQ(w.stats().timeouts, 0u);
  EXPECT_EQ(w.rto_ticks(), rto) << "nothing backed off";
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{0}));
}

// ==================================================== tail-loss probe

// The tail rule, its first half: the END follows the superstep's last
// bucket, so when the buckets before it are lost its arrival reveals them
// (the peer holds END past the hole and acks at once, echoing it): found
// lost one reordering window later, with no probe and no timeout.
TEST(TailLossProbe, AnEndThatArrivesRevealsTheLostBucketsBeforeIt) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 5, 1600);  // 0..3 buckets, 4 the END; 2 and 3 are lost
  Released r;
  deliver_ack(w, Ack{2, {4}, true, 1600, 4}, 3200, r);  // 0, 1 delivered, END held
  // SRTT 1600 (0, 1 and 4 sampled); min RTT 1600, reordering window 400:
  // 2 and 3 are lost at 1600 + 1600 + 400.
  EXPECT_FALSE(w.probe_due(3599));
  w.run_timers(3599);
  EXPECT_EQ(w.lost_pending(), 0u);
  w.run_timers(3600);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(w.stats().probes, 0u);
  EXPECT_EQ(w.stats().timeouts, 0u);
}

TEST(TailLossProbe, ALostTailCostsAProbeAndARoundTripNotATimeout) {
  CongestionConfig cc = config();
  cc.max_ack_delay_ticks = 160;
  SendWindow w(16, 0, cc);
  push_and_send(w, 1, 5, 1600);  // 0..4; 3 and 4 (the tail: think of 4 as END) are lost
  Released r;
  EXPECT_FALSE(w.probe_due(1'000'000)) << "no round trip measured yet: the timeout's job";
  deliver_ack(w, Ack{3, {}, true, 1600, 2}, 3200, r);
  // SRTT 1600, RTTVAR 800 (0..2 acked at 3200): probe timeout
  // max(2 x 1600, 1600 + 4 x 800) + 160 = 4960; RTO 1600 + 3200 + 160 = 4960.
  ASSERT_EQ(w.srtt_ticks(), 1600u);
  EXPECT_EQ(w.probe_timeout(0), 4960u);
  EXPECT_EQ(w.rto_ticks(), 4960u);
  EXPECT_FALSE(w.reorder_timer_due(1'000'000)) << "nothing sent after the tail arrived";
  EXPECT_FALSE(w.probe_due(6559));  // the last transmission + 4960
  ASSERT_TRUE(w.probe_due(6560));
  EXPECT_FALSE(w.timed_out(6560)) << "the timeout would come at 3200 + 4960 = 8160";
  w.probe(6560);
  EXPECT_EQ(w.stats().probes, 1u);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{4})) << "the last frame sent";
  resend_all(w, 6560);
  EXPECT_FALSE(w.probe_due(100'000)) << "one probe per tail";
  // The probe arrives; its ACK holds 4 and echoes it: 3, sent before it,
  // is lost at once (1600 + 1440 + 360 < 8000).
  deliver_ack(w, Ack{3, {4}, true, 6560, 4}, 8000, r);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{3}));
  EXPECT_EQ(w.stats().timeouts, 0u);
}

// A probe that turns out needless (the peer was computing, not losing)
// teaches the timers how long such a peer takes; the lesson fades.
TEST(TailLossProbe, ANeedlessProbeRaisesTheTimersFloorForAWhile) {
  CongestionConfig cc = config();
  cc.stall_half_life_ticks = 100000;
  SendWindow w(16, 0, cc);
  push_and_send(w, 1, 3, 1600);
  Released r;
  deliver_ack(w, Ack{1, {}, true, 1600, 0}, 3200, r);  // SRTT 1600, RTTVAR 800
  ASSERT_EQ(w.probe_timeout(3200), 4800u);             // max(2 x 1600, 1600 + 4 x 800)
  ASSERT_TRUE(w.probe_due(6400));
  w.probe(6400);
  ASSERT_EQ(to_send(w), (std::vector<uint32_t>{2}));
  resend_all(w, 6400);
  // Everything arrives at last, the echo still the original of 2 (sent at 1600).
  deliver_ack(w, Ack{3, {}, true, 1600, 2}, 20000, r);
  EXPECT_EQ(w.stats().spurious, 1u);
  EXPECT_EQ(w.reorder_window_ticks(), 400u) << "a needless probe says nothing about reordering";
  EXPECT_EQ(w.stall_floor_ticks(20000), (20000u - 1600u) * 5 / 4);
  EXPECT_EQ(w.probe_timeout(20000), 23000u);
  EXPECT_EQ(w.stall_floor_ticks(120000), 11500u) << "halved after one half-life";
  push_and_send(w, 4, 1, 120000);
  EXPECT_FALSE(w.probe_due(120000 + 11499));
  EXPECT_TRUE(w.probe_due(120000 + 11500));
  EXPECT_FALSE(w.timed_out(120000 + 11500)) << "the timeout too waits for the floor";
}

// ==================================================== needless resends (D-SACK)

// A peer that stopped polling for a while gets the original and both
// timeouts' resends of frame 2 in one burst: its echo names the last
// resend, so only its D-SACK tells the resends were needless, and what the
// timeouts did is undone.
TEST(NeedlessResend, ADsackTellsWhatTheEchoCannotAndUndoesTheTimeouts) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 4, 1600);
  Released r;
  deliver_ack(w, Ack{2, {}, true, 1600, 1}, 3200, r);  // SRTT 1600, RTTVAR 800
  ASSERT_EQ(w.rto_ticks(), 4800u);                      // 1600 + 4 x 800
  ASSERT_FALSE(w.timed_out(8000));
  ASSERT_TRUE(w.timed_out(8016));
  w.on_timeout(8016);
  EXPECT_EQ(to_send(w), (std::vector<uint32_t>{2})) << "the oldest frame only";
  resend_all(w, 8016);
  ASSERT_EQ(w.rto_ticks(), 9600u);
  ASSERT_TRUE(w.timed_out(8016 + 9600 + 16));
  w.on_timeout(17632);
  resend_all(w, 17632);
  ASSERT_EQ(w.n(), 1u) << "a second timeout in a row raises N";
  ASSERT_EQ(w.rto_ticks(), 19200u);
  // Everything arrives; the echo is the second resend of 2, as new as it gets.
  deliver_ack(w, Ack{4, {}, true, 17632, 2, false, 0, false, true, 2}, 20000, r);
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(w.stats().retransmissions, 2u);
  EXPECT_EQ(w.stats().spurious, 1u) << "one frame resent for nothing";
  EXPECT_EQ(w.stats().spurious_timers, 1u);
  EXPECT_EQ(w.rto_ticks(), 4800u) << "the backoff undone";
  EXPECT_EQ(w.n(), 0u) << "the N the timeouts raised undone";
  EXPECT_EQ(w.stats().max_n, 1u);
  EXPECT_EQ(w.stall_floor_ticks(20000), 0u) << "the original's ack may have been lost: no floor from a D-SACK";
  EXPECT_EQ(w.reorder_window_ticks(), 400u) << "a timeout says nothing about reordering";
}

TEST(NeedlessResend, ADsackAfterTheReleaseStillCountsAndALinkDuplicateDoesNot) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 4, 1600);
  Released r;
  deliver_ack(w, Ack{1, {}, true, 1600, 0}, 3200, r);
  ASSERT_TRUE(w.timed_out(3200 + w.rto_ticks() + 16));
  w.on_timeout(8016);
  resend_all(w, 8016);  // frame 1
  // 1..3 acked by an ACK that says nothing of duplicates (it was lost, or
  // the resend had not arrived yet); the D-SACK comes in the next ACK.
  deliver_ack(w, Ack{4, {}, true, 8016, 1}, 9600, r);
  ASSERT_EQ(w.stats().spurious, 0u);
  deliver_ack(w, Ack{4, {}, true, 8016, 1, false, 0, false, true, 1}, 9700, r);
  EXPECT_EQ(w.stats().spurious, 1u) << "the latest resend to leave the window is remembered";
  deliver_ack(w, Ack{4, {}, true, 8016, 1, false, 0, false, true, 1}, 9800, r);
  EXPECT_EQ(w.stats().spurious, 1u) << "counted once";
  // A frame the link duplicated, never resent: nothing needless on our side.
  push_and_send(w, 10, 2, 9800);  // 4, 5
  deliver_ack(w, Ack{5, {}, true, 9800, 4, false, 0, false, true, 4}, 11400, r);
  deliver_ack(w, Ack{6, {}, true, 9800, 5, false, 0, false, true, 3}, 11500, r);
  EXPECT_EQ(w.stats().spurious, 1u);
  EXPECT_EQ(w.stats().invalid_acks, 0u);
}

// ==================================================== a peer that goes quiet

// A node with every role on one lcore says it goes quiet before it builds
// its graph: what it has not acked meanwhile is not lost. Its next frame
// ends the quiet, and then a frame it lacks is resent at once.
TEST(QuietPeer, HoldsProbeAndTimeoutUntilItsNextFrame) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 2, 1600);
  Released r;
  deliver_ack(w, Ack{1, {}, true, 1600, 0}, 3200, r);  // SRTT 1600, RTO 4800
  Ack quiet{1, {}, true, 1600, 0};
  quiet.quiet = true;
  deliver_ack(w, quiet, 3300, r);
  EXPECT_TRUE(w.peer_quiet());
  EXPECT_EQ(w.stats().quiet, 1u);
  EXPECT_FALSE(w.timed_out(10'000'000)) << "not while the peer is quiet";
  EXPECT_FALSE(w.probe_due(10'000'000));
  // Its next frame (a data frame's ack: not pure, no flags) ends the quiet;
  // frame 1 is still missing, long past the RTO: it times out at once.
  AckInfo data;
  data.ack = 1;
  w.on_ack(data, 10'000'000, r);
  EXPECT_FALSE(w.peer_quiet());
  EXPECT_TRUE(w.timed_out(10'000'000));
  EXPECT_EQ(w.stats().quiet, 1u);
}

TEST(TailLossProbe, NotWhileThereIsSomethingToSend) {
  SendWindow w(16, 0, config());
  push_and_send(w, 1, 3, 1600);
  Released r;
  deliver_ack(w, Ack{1, {}, true, 1600, 0}, 3200, r);
  const uint64_t due = 1600 + w.probe_timeout(0);
  ASSERT_TRUE(w.probe_due(due));
  w.push(handle(9));  // new data: it will probe by itself
  EXPECT_FALSE(w.probe_due(due));
  resend_all(w, due);
  EXPECT_FALSE(w.probe_due(due)) << "the clock restarts with the last transmission";
  EXPECT_TRUE(w.probe_due(due + w.probe_timeout(0)));
}

// =============================================== the congestion rule (N)

// One round trip of `frames` new frames sent at `now`, `rtt` ticks each
// way-and-back; the peer misses the frames at the offsets in `lost` (never
// the last: a lost tail is the probe's business). Its ACK holds the rest
// and echoes the last; after the reordering window the losses are resent,
// and their ACK covers everything.
void round_trip(SendWindow& w, uintptr_t& next, unsigned frames, std::initializer_list<unsigned> lost,
                uint64_t rtt, uint64_t& now, Released& r, uint32_t rx_drops = 0) {
  const uint32_t base = w.snd_nxt();
  push_and_send(w, next, frames, now);
  next += frames;
  const uint64_t sent = now;
  std::vector<uint32_t> held;
  uint32_t first_lost = base + frames;
  for (unsigned i = 0; i < frames; ++i) {
    bool is_lost = false;
    for (unsigned l : lost) is_lost |= l == i;
    if (is_lost && first_lost == base + frames) first_lost = base + i;
    if (!is_lost && first_lost != base + frames) held.push_back(base + i);
  }
  now += rtt;
  Ack a{first_lost, held, true, sent, base + frames - 1, true, rx_drops};
  deliver_ack(w, a, now, r);
  if (lost.size() == 0) return;
  now += rtt;  // well past the reordering window
  w.detect_losses(now);
  ASSERT_EQ(w.lost_pending(), lost.size());
  const uint64_t resent = now;
  resend_all(w, now);
  now += rtt;
  deliver_ack(w, Ack{base + frames, {}, true, resent, base + frames - 1, true, rx_drops}, now, r);
  ASSERT_TRUE(w.empty());
}

TEST(CongestionRule, IsolatedLossesNeverRaiseN) {
  SendWindow w(64, 0, config());
  Released r;
  uintptr_t next = 1;
  uint64_t now = 1600;
  for (int i = 0; i < 40; ++i) {
    round_trip(w, next, 32, {static_cast<unsigned>(i % 31)}, 1600, now, r);
    round_trip(w, next, 32, {3, 9, 20, 27}, 1600, now, r);  // 12% loss, none adjacent
  }
  EXPECT_EQ(w.stats().lost, 200u);
  EXPECT_GT(w.stats().rounds, 100u);
  EXPECT_EQ(w.stats().congestion_rounds, 0u);
  EXPECT_EQ(w.stats().max_n, 0u);
  EXPECT_EQ(w.n(), 0u);
}

TEST(CongestionRule, ARunOfLossesRaisesNOnceAndCleanRoundsLowerIt) {
  SendWindow w(64, 0, config());
  Released r;
  uintptr_t next = 1;
  uint64_t now = 1600;
  round_trip(w, next, 32, {}, 1600, now, r);  // SRTT known
  round_trip(w, next, 32, {4, 5, 6, 7, 8, 9, 10}, 1600, now, r);  // 7 in a row: below the burst
  EXPECT_EQ(w.stats().congestion_rounds, 0u);
  round_trip(w, next, 32, {4, 5, 6, 7, 8, 9, 10, 11}, 1600, now, r);  // 8 in a row
  EXPECT_EQ(w.stats().signal_burst, 1u);
  EXPECT_EQ(w.n(), 1u);
  EXPECT_EQ(w.stats().max_n, 1u);
  round_trip(w, next, 32, {}, 1600, now, r);
  round_trip(w, next, 32, {}, 1600, now, r);
  EXPECT_EQ(w.n(), 0u) << "a round without a signal lowers N";
  EXPECT_EQ(w.stats().congestion_rounds, 1u);
}

TEST(CongestionRule, QueueGrowthTwoRoundsRunningRaisesN) {
  SendWindow w(64, 0, config());
  Released r;
  uintptr_t next = 1;
  uint64_t now = 1600;
  for (int i = 0; i < 3; ++i) round_trip(w, next, 16, {}, 1600, now, r);
  ASSERT_EQ(w.min_rtt_ticks(), 1600u);
  // One round of 4x round trips is noise (a peer descheduled once) ...
  round_trip(w, next, 16, {}, 6400, now, r);
  round_trip(w, next, 16, {}, 1600, now, r);
  EXPECT_EQ(w.stats().signal_queue, 0u);
  // ... and so are round trips that jump about (their variance covers them) ...
  for (int i = 0; i < 6; ++i) round_trip(w, next, 16, {}, i % 2 ? 1600 : 9600, now, r);
  EXPECT_EQ(w.stats().signal_queue, 0u);
  // ... a queue that stands, every frame waiting alike, is not.
  for (int i = 0; i < 24; ++i) round_trip(w, next, 16, {}, 12800, now, r);
  EXPECT_GE(w.stats().signal_queue, 1u);
  EXPECT_GE(w.n(), 1u);
  EXPECT_EQ(w.stats().signal_burst + w.stats().signal_rx_drops + w.stats().signal_rto, 0u);
}

TEST(CongestionRule, DropsReportedByThePeersPortRaiseN) {
  SendWindow w(64, 0, config());
  Released r;
  uintptr_t next = 1;
  uint64_t now = 1600;
  round_trip(w, next, 16, {}, 1600, now, r, 5);
  round_trip(w, next, 16, {}, 1600, now, r, 5);
  EXPECT_EQ(w.stats().signal_rx_drops, 0u) << "the first report is where counting starts";
  round_trip(w, next, 16, {}, 1600, now, r, 9);  // 4 more dropped
  EXPECT_EQ(w.stats().signal_rx_drops, 1u);
  EXPECT_EQ(w.n(), 1u);
  round_trip(w, next, 16, {}, 1600, now, r, 8);  // an older report, overtaken: nothing
  round_trip(w, next, 16, {}, 1600, now, r, 9);
  EXPECT_EQ(w.stats().signal_rx_drops, 1u);
  EXPECT_EQ(w.n(), 0u);
  // The counter wraps: 0xFFFFFFFF -> 2 is 3 more drops.
  SendWindow v(64, 0, config());
  round_trip(v, next, 16, {}, 1600, now, r, 0xFFFFFFFFu);
  round_trip(v, next, 16, {}, 1600, now, r, 2);
  EXPECT_EQ(v.stats().signal_rx_drops, 1u);
}

}  // namespace
}  // namespace wg
