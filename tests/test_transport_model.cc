// A model of the transport's protocol (reliability/transport.cc) without
// DPDK: two endpoints, each with a SendWindow and a ReceiveWindow, exchange
// data both ways over a lossy, duplicating, reordering channel. The rules are
// Transport's: every data frame carries the sender's current cumulative ack
// (piggybacked: pure = false), ACK-only frames carry it with the selective
// ack (HeldFrames, pure = true); a held, duplicate or beyond-window frame is
// acked at once; deliveries are acked after ack_delay ticks or every
// ack_every deliveries; an idle connection sends a keepalive ACK; frames
// marked lost (time-based rule, tail-loss probe, timeout) are resent first;
// bursts are paced.
//
// Reference: each direction delivers 0..N-1 exactly once, in order, and each
// sender releases every frame exactly once, only after it was delivered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "dataplane/wire.h"
#include "reliability/ack_state.h"
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
  uint32_t tsval = 0;       // data: when this transmission left
  bool echo_valid = false;  // ACK-only: the latest-sent transmission received
  uint32_t echo_tsval = 0, echo_seq = 0;
  unsigned sack_words = 0;  // ACK-only: the selective ack
  uint64_t sack[wire::kMaxSackWords] = {};
};

struct Channel {
  std::deque<Wire> q;
  double drop = 0, dup = 0;
  uint32_t span = 1;
  uint64_t dropped_data = 0;  // sequenced frames lost
  void send(Rng& rng, const Wire& w) {
    if (!rng.chance(drop)) q.push_back(w);
    else if (w.data) ++dropped_data;
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
// Time: one model step is kTick TSC ticks, so that every step has its own
// tsval (wire::kTsShift) as every burst does on a real machine.
constexpr uint64_t kTick = uint64_t{1} << wire::kTsShift;
constexpr uint64_t kAckDelay = 20 * kTick;
constexpr unsigned kAckEvery = 3;
constexpr uint64_t kKeepalive = 150 * kTick;
constexpr uint64_t kMaxSteps = 1'000'000;

struct Endpoint {
  Endpoint(uint32_t window, uint32_t my_initial, uint32_t peer_initial, const CongestionConfig& cc, uintptr_t base)
      : snd(window, my_initial, cc), rcv(window, peer_initial), handle_base(base), released_times(kFrames, 0) {
    held.init(window);
  }

  SendWindow snd;
  ReceiveWindow rcv;
  HeldFrames held;  // the selective ack's view of rcv
  bool echo_valid = false;  // the latest-sent transmission received from the peer
  uint32_t echo_tsval = 0, echo_seq = 0;
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

// SendPath::send_connection, minus DPDK.
void send_step(Endpoint& e, Channel& out, Rng& rng, uint64_t now) {
  if (e.snd.timed_out(now)) e.snd.on_timeout(now);
  else if (e.snd.reorder_timer_due(now)) e.snd.detect_losses(now);
  // The application queues a few frames; admit what fits.
  const unsigned offered = rng.below(4);
  for (unsigned i = 0; i < offered && e.pushed < kFrames && !e.snd.full(); ++i)
    e.snd.push(reinterpret_cast<void*>(e.handle_base + e.pushed++));
  if (e.snd.probe_due(now)) e.snd.probe(now);
  if (e.snd.has_pending() && e.snd.may_send(now)) {
    const uint32_t ack = e.rcv.ack();
    uint32_t seqs[kBurst];
    const unsigned k = e.snd.to_transmit(seqs, kBurst);
    for (unsigned i = 0; i < k; ++i) {
      out.send(rng, Wire{true, seqs[i], ack, e.snd.frame(seqs[i]), static_cast<uint32_t>(now >> wire::kTsShift)});
      e.snd.transmitted(seqs[i], now);
    }
    e.snd.paced(now, k, k * rng.below(3) * kTick);
    e.last_tx = now;
    e.ack_pending = e.ack_now = false;  // the ack rode on the data
    e.unacked = 0;
  }
  const bool ack_due = e.ack_pending && (e.ack_now || now >= e.ack_due);
  if (ack_due || e.ack_now || now - e.last_tx > kKeepalive) {
    Wire w{false, 0, e.rcv.ack(), nullptr};
    w.sack_words = e.held.encode(w.ack, w.sack, wire::kMaxSackWords);
    w.echo_valid = e.echo_valid;
    w.echo_tsval = e.echo_tsval;
    w.echo_seq = e.echo_seq;
    out.send(rng, w);
    e.last_tx = now;
    e.ack_pending = e.ack_now = false;
    e.unacked = 0;
    ++e.acks_sent;
  }
}

// ReceivePath::classify + step, minus DPDK.
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
  const AckInfo info{w.ack, !w.data, w.sack, w.sack_words, false, 0, w.echo_valid, w.echo_tsval, w.echo_seq};
  const uint64_t invalid = e.snd.stats().invalid_acks;
  if (e.snd.on_ack(info, now, release) == SendWindow::AckKind::kInvalid || e.snd.stats().invalid_acks != invalid) {
    ADD_FAILURE() << "ack " << w.ack << " (or its selective ack) beyond what was sent: " << e.snd.snd_nxt();
    e.failed = true;
  }
  if (!w.data) return;
  if (!e.echo_valid || sent_after(w.tsval, w.seq, e.echo_tsval, e.echo_seq)) {
    e.echo_valid = true;
    e.echo_tsval = w.tsval;
    e.echo_seq = w.seq;
  }
  auto deliver = [&](void* f) {
    e.delivered.push_back(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(f) - peer_base));
    e.note_delivery(now);
  };
  switch (e.rcv.accept(w.seq, w.frame)) {
    case ReceiveWindow::Verdict::kDeliver:
      deliver(w.frame);
      for (uint32_t seq = e.rcv.ack(); void* f = e.rcv.next_in_order(); seq = e.rcv.ack()) {
        e.held.clear(seq);
        deliver(f);
      }
      break;
    case ReceiveWindow::Verdict::kHold:
      e.held.set(w.seq);
      e.ack_now = true;
      break;
    case ReceiveWindow::Verdict::kDuplicate:
    case ReceiveWindow::Verdict::kBeyondWindow:
      e.ack_now = true;
      break;
  }
}

constexpr uintptr_t kBaseA = 0x1000, kBaseB = 0x100000;

// Runs both endpoints until each has delivered and had acked all kFrames
// frames (or kMaxSteps ticks): one tick is one random action, a send step
// of either endpoint or one frame taken off either channel. Returns ticks.
uint64_t run_pair(Rng& rng, Endpoint& a, Endpoint& b, Channel& ab, Channel& ba) {
  auto done = [&](const Endpoint& e) { return e.pushed == kFrames && e.snd.empty() && e.delivered.size() == kFrames; };
  uint64_t now = kTick;
  uint64_t step = 0;
  for (; step < kMaxSteps && !(done(a) && done(b)) && !a.failed && !b.failed; ++step) {
    now += kTick;
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
  return step;
}

CongestionConfig model_config() {
  CongestionConfig cc;
  cc.ast_init_ticks = kTick;
  cc.max_n = 8;
  cc.rto_min_ticks = 40 * kTick;
  cc.rto_max_ticks = 400 * kTick;
  cc.rto_init_ticks = 40 * kTick;
  cc.max_ack_delay_ticks = kAckDelay;
  return cc;
}

// Each direction delivered 0..kFrames-1 exactly once, in order; each
// sender released every frame once; nothing acked that was never sent.
void expect_exactly_once(const Endpoint& a, const Endpoint& b, uint32_t init_a, uint32_t init_b) {
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
  Endpoint a(window, init_a, init_b, model_config(), kBaseA);
  Endpoint b(window, init_b, init_a, model_config(), kBaseB);
  const uint64_t steps = run_pair(rng, a, b, ab, ba);
  ASSERT_FALSE(a.failed || b.failed);
  ASSERT_LT(steps, kMaxSteps) << "did not finish: b got " << b.delivered.size() << ", a got " << a.delivered.size();
  expect_exactly_once(a, b, init_a, init_b);
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

// On a link that loses frames (and acks) but never reorders them, the
// time-based rule declares lost only frames that were really lost: every
// frame it resends was dropped on the channel, and every duplicate the
// receiver sees comes from a tail-loss probe or a timeout, never from it.
TEST(TransportModel, InOrderLinkResendsOnlyWhatWasLost) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Rng rng{seed * 7919 + 11};
    Channel ab, ba;  // FIFO
    ab.drop = (1 + rng.below(30)) / 100.0;
    ba.drop = (1 + rng.below(30)) / 100.0;
    SCOPED_TRACE(testing::Message() << "seed " << seed << ", drop a->b " << ab.drop << ", b->a " << ba.drop);
    Endpoint a(64, 1000, 2000, model_config(), kBaseA);
    Endpoint b(64, 2000, 1000, model_config(), kBaseB);
    ASSERT_LT(run_pair(rng, a, b, ab, ba), kMaxSteps);
    ASSERT_FALSE(a.failed || b.failed);
    expect_exactly_once(a, b, 1000, 2000);
    EXPECT_LE(a.snd.stats().lost, ab.dropped_data) << "a declared lost more frames than the channel dropped";
    EXPECT_LE(b.snd.stats().lost, ba.dropped_data);
    EXPECT_LE(b.rcv.stats().duplicates, a.snd.stats().probes + a.snd.stats().timeouts);
    EXPECT_LE(a.rcv.stats().duplicates, b.snd.stats().probes + b.snd.stats().timeouts);
    if (HasFailure()) return;
  }
}

// Without loss the protocol needs no timeout and declares nothing lost; the
// only frames sent twice are tail-loss probes (speculative by design: the
// last ack was slow), and no ACK is stale.
TEST(TransportModel, CleanChannelResendsOnlyProbes) {
  Rng rng{99};
  CongestionConfig cc = model_config();
  cc.rto_min_ticks = cc.rto_max_ticks = cc.rto_init_ticks = 100000 * kTick;
  Endpoint a(64, 5, 77, cc, kBaseA);
  Endpoint b(64, 77, 5, cc, kBaseB);
  Channel ab, ba;  // FIFO, no loss
  ASSERT_LT(run_pair(rng, a, b, ab, ba), kMaxSteps);
  expect_exactly_once(a, b, 5, 77);
  EXPECT_EQ(a.snd.stats().retransmissions, a.snd.stats().probes);
  EXPECT_EQ(b.snd.stats().retransmissions, b.snd.stats().probes);
  EXPECT_EQ(a.snd.stats().lost + b.snd.stats().lost, 0u);
  EXPECT_EQ(a.snd.stats().timeouts + b.snd.stats().timeouts, 0u);
  EXPECT_EQ(a.rcv.stats().held + b.rcv.stats().held, 0u);
  EXPECT_EQ(a.snd.stats().stale_acks + b.snd.stats().stale_acks, 0u);
  // No loss, so no loss signal raised N. (The channel is an unbounded queue
  // that does grow when a sender outpaces the other side: queue growth may.)
  for (const Endpoint* e : {&a, &b}) {
    EXPECT_EQ(e->snd.stats().signal_burst, 0u);
    EXPECT_EQ(e->snd.stats().signal_rto, 0u);
    EXPECT_EQ(e->snd.stats().signal_rx_drops, 0u);
    EXPECT_EQ(e->snd.stats().congestion_rounds, e->snd.stats().signal_queue);
  }
}

}  // namespace
}  // namespace wg
