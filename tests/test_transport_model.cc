// A model of the transport's protocol (reliability/transport.cc) without
// DPDK: two endpoints, each with a SendWindow and a ReceiveWindow, exchange
// data both ways over a lossy, duplicating, reordering channel. The rules are
// Transport's: every data frame carries the sender's current cumulative ack
// (piggybacked: pure = false), ACK-only frames carry it alone (pure = true);
// a held, duplicate or beyond-window frame is acked at once; deliveries are
// acked after ack_delay ticks or every ack_every deliveries; an idle
// connection sends a keepalive ACK; timeouts go back N; three stale acks
// resend the head frame (fast retransmit); bursts are paced.
//
// Reference: each direction delivers 0..N-1 exactly once, in order, and each
// sender releases every frame exactly once, only after it was delivered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "reliability/receive_window.h"
#include "reliability/send_window.h"

namespace wg {
namespace {

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

struct Wire {
  bool data;  // sequenced data frame, or ACK-only
  uint32_t seq;
  uint32_t ack;
  void* frame;
};

struct Channel {
  std::deque<Wire> q;
  double drop = 0, dup = 0;
  uint32_t span = 1;
  void send(Rng& rng, const Wire& w) {
    if (!rng.chance(drop)) q.push_back(w);
    if (rng.chance(dup)) q.push_back(w);
  }
  bool receive(Rng& rng, Wire* w) {
    if (q.empty()) return false;
    const uint32_t i = rng.below(std::min<uint32_t>(span, static_cast<uint32_t>(q.size())));
    *w = q[i];
    q.erase(q.begin() + i);
    return true;
  }
};

constexpr uint32_t kFrames = 200;
constexpr unsigned kBurst = 4;
constexpr uint64_t kAckDelay = 20;
constexpr unsigned kAckEvery = 3;
constexpr uint64_t kKeepalive = 150;

struct Endpoint {
  Endpoint(uint32_t window, uint32_t my_initial, uint32_t peer_initial, const CongestionConfig& cc, uintptr_t base)
      : snd(window, my_initial, cc), rcv(window, peer_initial), handle_base(base), released_times(kFrames, 0) {}

  SendWindow snd;
  ReceiveWindow rcv;
  uintptr_t handle_base;  // this endpoint's frames are handle_base + 0 .. + kFrames-1
  uint32_t pushed = 0;
  std::vector<uint32_t> delivered;  // the peer's frame numbers
  std::vector<unsigned> released_times;
  bool ack_pending = false, ack_now = false;
  unsigned unacked = 0;
  uint64_t ack_due = 0, last_tx = 0;
  uint64_t acks_sent = 0;
  uint64_t acks_received = 0;  // ACK-only frames that arrived (duplicates included)
  bool failed = false;

  void note_delivery(uint64_t now) {
    if (!ack_pending) ack_due = now + kAckDelay;
    ack_pending = true;
    if (++unacked >= kAckEvery) ack_now = true;
  }
};

// Transport::send_connection, minus DPDK.
void send_step(Endpoint& e, Channel& out, Rng& rng, uint64_t now) {
  if (e.snd.timed_out(now)) e.snd.on_timeout(now);
  // The application queues a few frames; admit what fits.
  const unsigned offered = rng.below(4);
  for (unsigned i = 0; i < offered && e.pushed < kFrames && !e.snd.full(); ++i)
    e.snd.push(reinterpret_cast<void*>(e.handle_base + e.pushed++));
  // Fast retransmit of the head after three stale acks, whether or not
  // anything new is pending (as transport.cc does).
  if (e.snd.head_resend_wanted()) {
    const uint32_t head = e.snd.snd_una();
    out.send(rng, Wire{true, head, e.rcv.ack(), e.snd.frame(head)});
    e.snd.head_resent(now);
  }
  if (e.snd.has_pending() && e.snd.may_send(now)) {
    const uint32_t ack = e.rcv.ack();
    unsigned k = 0;
    while (k < kBurst && e.snd.has_pending()) {
      const uint32_t seq = e.snd.next_to_transmit();
      out.send(rng, Wire{true, seq, ack, e.snd.frame(seq)});
      e.snd.transmitted(now);
      ++k;
    }
    e.snd.paced(now, k, k * rng.below(3));
    e.last_tx = now;
    e.ack_pending = e.ack_now = false;  // the ack rode on the data
    e.unacked = 0;
  }
  const bool ack_due = e.ack_pending && (e.ack_now || now >= e.ack_due);
  if (ack_due || e.ack_now || now - e.last_tx > kKeepalive) {
    out.send(rng, Wire{false, 0, e.rcv.ack(), nullptr});
    e.last_tx = now;
    e.ack_pending = e.ack_now = false;
    e.unacked = 0;
    ++e.acks_sent;
  }
}

// Transport::classify + receive_step, minus DPDK.
void receive(Endpoint& e, const Wire& w, uint64_t now, uintptr_t peer_base) {
  auto release = [&](void* f) {
    const uintptr_t h = reinterpret_cast<uintptr_t>(f);
    if (h < e.handle_base || h >= e.handle_base + kFrames) {
      ADD_FAILURE() << "released a foreign handle " << h;
      e.failed = true;
      return;
    }
    ++e.released_times[h - e.handle_base];
  };
  if (!w.data) ++e.acks_received;
  if (e.snd.on_ack(w.ack, !w.data, now, release) == SendWindow::AckKind::kInvalid) {
    ADD_FAILURE() << "ack " << w.ack << " beyond snd_nxt " << e.snd.snd_nxt();
    e.failed = true;
  }
  if (!w.data) return;
  auto deliver = [&](void* f) {
    e.delivered.push_back(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(f) - peer_base));
    e.note_delivery(now);
  };
  switch (e.rcv.accept(w.seq, w.frame)) {
    case ReceiveWindow::Verdict::kDeliver:
      deliver(w.frame);
      while (void* f = e.rcv.next_in_order()) deliver(f);
      break;
    case ReceiveWindow::Verdict::kHold:
    case ReceiveWindow::Verdict::kDuplicate:
    case ReceiveWindow::Verdict::kBeyondWindow:
      e.ack_now = true;
      break;
  }
}

void run_model(uint64_t seed) {
  Rng rng{seed * 104729 + 3};
  const uint32_t windows[] = {1, 4, 16, 64};
  const uint32_t window = windows[rng.below(4)];
  const uint32_t init_a = rng.chance(0.5) ? 0xFFFFFFFFu - rng.below(kFrames) : static_cast<uint32_t>(rng.next());
  const uint32_t init_b = static_cast<uint32_t>(rng.next());
  Channel ab, ba;
  ab.drop = rng.below(26) / 100.0;
  ba.drop = rng.below(26) / 100.0;
  ab.dup = ba.dup = rng.below(16) / 100.0;
  ab.span = ba.span = 1 + rng.below(6);
  SCOPED_TRACE(testing::Message() << "seed " << seed << ": window " << window << ", drop a->b " << ab.drop
                                  << ", b->a " << ba.drop << ", dup " << ab.dup << ", reorder span " << ab.span);

  CongestionConfig cc;
  cc.ast_init_ticks = 1;
  cc.max_n = 8;
  cc.rto_min_ticks = 40;
  cc.rto_max_ticks = 400;
  cc.rto_init_ticks = 40;
  constexpr uintptr_t kBaseA = 0x1000, kBaseB = 0x100000;
  Endpoint a(window, init_a, init_b, cc, kBaseA);
  Endpoint b(window, init_b, init_a, cc, kBaseB);

  auto done = [&](const Endpoint& e) { return e.pushed == kFrames && e.snd.empty() && e.delivered.size() == kFrames; };
  uint64_t now = 1;
  uint64_t step = 0;
  constexpr uint64_t kMaxSteps = 1'000'000;
  for (; step < kMaxSteps && !(done(a) && done(b)) && !a.failed && !b.failed; ++step) {
    ++now;
    Wire w;
    switch (rng.below(4)) {
      case 0: send_step(a, ab, rng, now); break;
      case 1: send_step(b, ba, rng, now); break;
      case 2:
        if (ab.receive(rng, &w)) receive(b, w, now, kBaseA);
        break;
      default:
        if (ba.receive(rng, &w)) receive(a, w, now, kBaseB);
        break;
    }
  }
  ASSERT_FALSE(a.failed || b.failed);
  ASSERT_LT(step, kMaxSteps) << "did not finish: b got " << b.delivered.size() << ", a got " << a.delivered.size();

  std::vector<uint32_t> expected(kFrames);
  for (uint32_t i = 0; i < kFrames; ++i) expected[i] = i;
  EXPECT_EQ(b.delivered, expected) << "a -> b: exactly once, in order";
  EXPECT_EQ(a.delivered, expected) << "b -> a: exactly once, in order";
  for (uint32_t i = 0; i < kFrames; ++i) {
    EXPECT_EQ(a.released_times[i], 1u) << "a's frame " << i;
    EXPECT_EQ(b.released_times[i], 1u) << "b's frame " << i;
  }
  EXPECT_EQ(a.snd.snd_una(), init_a + kFrames);
  EXPECT_EQ(b.snd.snd_una(), init_b + kFrames);
  EXPECT_EQ(a.rcv.ack(), init_b + kFrames);
  EXPECT_EQ(b.rcv.ack(), init_a + kFrames);
  EXPECT_EQ(a.snd.stats().frames, kFrames);
  EXPECT_EQ(b.snd.stats().frames, kFrames);
  EXPECT_EQ(a.snd.stats().invalid_acks + b.snd.stats().invalid_acks, 0u);
  // Only ACK-only frames count as stale: never more than the ACKs that arrived.
  EXPECT_LE(a.snd.stats().stale_acks, a.acks_received);
  EXPECT_LE(b.snd.stats().stale_acks, b.acks_received);
}

TEST(TransportModel, BothDirectionsExactlyOnceInOrder150Seeds) {
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    run_model(seed);
    if (HasFailure()) {
      ADD_FAILURE() << "stopping at seed " << seed;
      return;
    }
  }
}

// Without loss the protocol needs no timeout and no retransmission, and
// piggybacked acks alone (no ACK frames lost, none stale) keep N at 0.
TEST(TransportModel, CleanChannelNeedsNoRetransmission) {
  Rng rng{99};
  CongestionConfig cc;
  cc.ast_init_ticks = 1;
  cc.max_n = 8;
  cc.rto_min_ticks = 100000;
  cc.rto_max_ticks = 100000;
  cc.rto_init_ticks = 100000;
  constexpr uintptr_t kBaseA = 0x1000, kBaseB = 0x100000;
  Endpoint a(64, 5, 77, cc, kBaseA);
  Endpoint b(64, 77, 5, cc, kBaseB);
  Channel ab, ba;  // FIFO, no loss
  uint64_t now = 1;
  for (int step = 0; step < 200000; ++step) {
    if (a.delivered.size() == kFrames && b.delivered.size() == kFrames && a.snd.empty() && b.snd.empty()) break;
    ++now;
    Wire w;
    switch (rng.below(4)) {
      case 0: send_step(a, ab, rng, now); break;
      case 1: send_step(b, ba, rng, now); break;
      case 2:
        if (ab.receive(rng, &w)) receive(b, w, now, kBaseA);
        break;
      default:
        if (ba.receive(rng, &w)) receive(a, w, now, kBaseB);
        break;
    }
  }
  std::vector<uint32_t> expected(kFrames);
  for (uint32_t i = 0; i < kFrames; ++i) expected[i] = i;
  EXPECT_EQ(b.delivered, expected);
  EXPECT_EQ(a.delivered, expected);
  EXPECT_TRUE(a.snd.empty());
  EXPECT_TRUE(b.snd.empty());
  EXPECT_EQ(a.snd.stats().retransmissions + b.snd.stats().retransmissions, 0u);
  EXPECT_EQ(a.snd.stats().timeouts + b.snd.stats().timeouts, 0u);
  EXPECT_EQ(a.rcv.stats().duplicates + b.rcv.stats().duplicates, 0u);
  EXPECT_EQ(a.rcv.stats().held + b.rcv.stats().held, 0u);
  EXPECT_EQ(a.snd.stats().stale_acks + b.snd.stats().stale_acks, 0u);
  EXPECT_EQ(a.snd.n(), 0u);
  EXPECT_EQ(b.snd.n(), 0u);
}

}  // namespace
}  // namespace wg
