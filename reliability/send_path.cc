#include "reliability/send_path.h"

#include <rte_cycles.h>

#include <algorithm>
#include <cstring>

#include "reliability/transport_time.h"

namespace wg {

namespace {

void free_frame(void* f) { rte_pktmbuf_free(static_cast<rte_mbuf*>(f)); }

static_assert(TxPort::kMaxBurst >= Dataplane::kBurst, "a TxPort takes a whole dataplane burst");

}  // namespace

CongestionConfig congestion_config(const TransportConfig& cfg) {
  CongestionConfig cc;
  cc.ast_init_ticks = us_to_ticks(cfg.ast_us);
  cc.rto_min_ticks = us_to_ticks(cfg.rto_min_us);
  cc.rto_max_ticks = us_to_ticks(cfg.rto_max_us);
  // Before the first round trip is measured: the old 10 ms floor, within the bounds.
  cc.rto_init_ticks = std::clamp(us_to_ticks(kInitialRtoUs), cc.rto_min_ticks, cc.rto_max_ticks);
  cc.max_ack_delay_ticks = us_to_ticks(cfg.ack_delay_us);
  // Round trips here include the peer's ack delay and idle back-off: queue
  // growth must stand out from both.
  cc.queue_slack_ticks = us_to_ticks(2 * cfg.ack_delay_us + kQueueSlackUs);
  cc.stall_half_life_ticks = us_to_ticks(kStallHalfLifeUs);
  return cc;
}

uint16_t SendPath::burst(void* target, unsigned port, rte_mbuf** tx, uint16_t n) {
  const TxTarget* t = static_cast<const TxTarget*>(target);
  return t->dp->tx_burst(port, t->queue, tx, n);
}

SendPath::SendPath(Dataplane& dp, const TransportConfig& cfg, unsigned queue, AckChannel& acks_in,
                   AckState* ack_states)
    : dp_(dp), cfg_(cfg), rank_(dp.options().rank), target_{&dp, queue},
      sealer_(dp.auth(), queue, dp.options().checksum), acks_in_(acks_in), ack_states_(ack_states),
      conns_(dp.options().nodes), ack_delay_ticks_(us_to_ticks(cfg.ack_delay_us)),
      keepalive_ticks_(us_to_ticks(cfg.keepalive_ms * 1000)),
      published_acked_(std::make_unique<std::atomic<bool>[]>(dp.options().nodes)) {
  for (unsigned p = 0; p < dp.options().nodes; ++p) published_acked_[p].store(true, std::memory_order_relaxed);
  const CongestionConfig cc = congestion_config(cfg);
  for (unsigned p = 0; p < conns_.size(); ++p)
    if (p != rank_) conns_[p].window = std::make_unique<SendWindow>(cfg.window, 0, cc);
  const uint64_t delay = us_to_ticks(cfg.fault_delay_us);
  ports_.reserve(dp.num_ports());
  for (unsigned q = 0; q < dp.num_ports(); ++q) {
    // Distinct, reproducible streams per node, port, queue and direction
    // (the receive path's injector uses fault_seed(rank, port, queue)).
    ports_.emplace_back(q, burst, &target_,
                        cfg.tx_faults.any() ? std::make_unique<FaultInjector>(cfg.tx_faults,
                                                                              fault_seed(cfg, rank_, q, queue) + 1,
                                                                              delay, dp.pool(), true)
                                            : nullptr);
  }
}

SendPath::~SendPath() {
  for (Connection& c : conns_) {
    if (!c.window) continue;
    for (uint32_t s = c.window->snd_una(); s != c.window->snd_nxt(); ++s) free_frame(c.window->frame(s));
  }
}

// Acks of a flow not started yet say nothing about it (its window has no
// sequence numbers yet).
void SendPath::apply_received_acks() {
  apply_acks(
      acks_in_,
      [this](uint32_t peer) {
        return peer < conns_.size() && conns_[peer].started ? conns_[peer].window.get() : nullptr;
      },
      free_frame);
}

bool SendPath::start(unsigned peer) {
  Connection& c = conns_[peer];
  if (c.started) return true;
  if (!dp_.auth().confirmed(peer)) return false;
  // Nothing was pushed before: send_connection admits frames only from here on.
  c.window->restart_at(dp_.auth().send_isn(peer, target_.queue));
  c.started = true;
  return true;
}

void SendPath::stamp(rte_mbuf* m, uint32_t seq, uint32_t ack, uint64_t now) {
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  wire::BucketHeader* h = bucket_header(frame);
  h->seq = seq;
  h->ack = ack;
  h->tsval = static_cast<uint32_t>(now >> wire::kTsShift);  // the time SendWindow::transmitted records
  sealer_.seal(frame, rte_pktmbuf_data_len(m));
}

SendPath::AckSnapshot SendPath::snapshot(unsigned peer) const {
  const AckState& a = ack_states_[peer];
  AckSnapshot s;
  s.delivered = a.delivered.load(std::memory_order_acquire);
  s.requests = a.ack_now.load(std::memory_order_acquire);
  s.ack = a.rcv_ack.load(std::memory_order_acquire);
  return s;
}

// The peer has now heard of everything the snapshot saw.
void SendPath::acked(unsigned peer, const AckSnapshot& s, uint64_t now) {
  Connection& c = conns_[peer];
  c.last_tx_tsc = now;
  c.acked_to_peer = s.ack;
  AckState& a = ack_states_[peer];
  a.covered.store(s.delivered, std::memory_order_release);
  a.served.store(s.requests, std::memory_order_release);
}

unsigned SendPath::step() {
  const uint64_t now = rte_rdtsc();
  // Frames a fault injector held back (reorder, delay) go out when due.
  for (TxPort& p : ports_) p.flush(now);
  unsigned sent = target_.queue == 0 ? dp_.send_broadcasts() : 0;
  const unsigned nodes = static_cast<unsigned>(conns_.size());
  for (unsigned k = 1; k < nodes; ++k) sent += send_connection((rank_ + k) % nodes, now);
  for (unsigned p = 0; p < nodes; ++p) published_acked_[p].store(acked_by(p), std::memory_order_release);
  steps_.fetch_add(1, std::memory_order_release);
  return sent;
}

unsigned SendPath::send_connection(unsigned peer, uint64_t now) {
  if (!start(peer)) return 0;
  Connection& c = conns_[peer];
  SendWindow& w = *c.window;
  w.run_timers(now);

  // Admit queued buckets into the window (this is where they get their sequence number).
  while (!w.full()) {
    rte_mbuf* batch[Dataplane::kBurst];
    const unsigned room = std::min<unsigned>(Dataplane::kBurst, cfg_.window - w.in_flight());
    const unsigned n = dp_.dequeue(peer, target_.queue, batch, room);
    for (unsigned i = 0; i < n; ++i) w.push(batch[i]);
    if (n < room) break;
  }
  if (w.probe_due(now)) w.probe(now);

  unsigned sent = 0;
  if (w.has_pending() && w.may_send(now)) {
    // Frames marked lost first (oldest first), then new ones.
    uint32_t seqs[Dataplane::kBurst];
    rte_mbuf* tx[Dataplane::kBurst];
    const unsigned want = w.to_transmit(seqs, Dataplane::kBurst);
    uint16_t k = 0;
    const AckSnapshot snap = snapshot(peer);
    for (; k < want; ++k) {
      rte_mbuf* m = static_cast<rte_mbuf*>(w.frame(seqs[k]));
      // A zero-copy PMD (or a NIC still DMAing) may hold the previous
      // transmission: never rewrite a frame someone else can still read.
      if (rte_mbuf_refcnt_read(m) > 1) break;
      stamp(m, seqs[k], snap.ack, now);
      rte_mbuf_refcnt_update(m, 1);  // the port frees its reference; the window keeps ours
      tx[k] = m;
    }
    if (k > 0) {
      const uint64_t t0 = rte_rdtsc();
      const uint16_t n = ports_[dp_.port_of(peer)].send(tx, k, now);
      for (uint16_t i = 0; i < n; ++i) w.transmitted(seqs[i], now);
      for (uint16_t i = n; i < k; ++i) rte_mbuf_refcnt_update(tx[i], -1);  // not taken: drop the port's reference
      sent = n;
      w.paced(now, sent, rte_rdtsc() - t0);
      if (sent > 0) acked(peer, snap, now);
    }
  }

  const AckState& a = ack_states_[peer];
  const uint64_t delivered = a.delivered.load(std::memory_order_acquire);
  const uint64_t covered = a.covered.load(std::memory_order_relaxed);  // ours
  const bool pending = delivered != covered;
  const bool ack_now = a.ack_now.load(std::memory_order_acquire) != a.served.load(std::memory_order_relaxed) ||
                       delivered - covered >= cfg_.ack_every;
  const bool ack_due =
      pending && (ack_now || now >= a.pending_since.load(std::memory_order_acquire) + ack_delay_ticks_);
  if (ack_due || ack_now || now - c.last_tx_tsc > keepalive_ticks_.load(std::memory_order_relaxed)) send_ack(peer, now);
  return sent;
}

void SendPath::announce_quiet() {
  const uint64_t now = rte_rdtsc();
  for (unsigned p = 0; p < conns_.size(); ++p)
    if (p != rank_ && conns_[p].started) send_ack(p, now, true);
}

void SendPath::send_ack(unsigned peer, uint64_t now, bool quiet) {
  Connection& c = conns_[peer];
  rte_mbuf* m = dp_.alloc_control();
  if (m == nullptr) return;  // try again on the next step
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  const AckSnapshot snap = snapshot(peer);
  const AckState& a = ack_states_[peer];
  // The selective ack: which frames past the cumulative ack we hold.
  uint64_t sack[wire::kMaxSackWords];
  wire::AckPayload p{};
  p.rx_drops = a.rx_drops.load(std::memory_order_acquire);
  p.sack_words = static_cast<uint16_t>(a.held.encode(snap.ack, sack, wire::kMaxSackWords));
  if (a.echo_valid.load(std::memory_order_acquire)) {
    const uint64_t echo = a.echo.load(std::memory_order_acquire);
    p.flags = wire::kAckEchoValid;
    p.echo_tsval = static_cast<uint32_t>(echo >> 32);
    p.echo_seq = static_cast<uint32_t>(echo);
  }
  if (quiet) p.flags |= wire::kAckQuiet;
  const uint64_t dup = a.duplicate.load(std::memory_order_acquire);
  if (static_cast<uint32_t>(dup >> 32) != c.duplicates_reported) {
    c.duplicates_reported = static_cast<uint32_t>(dup >> 32);
    p.flags |= wire::kAckDsack;
    p.dsack_seq = static_cast<uint32_t>(dup);
  }
  std::memcpy(p.sack, sack, 8u * p.sack_words);
  const uint16_t bytes = wire::ack_payload_bytes(p.sack_words);
  write_bucket_header(frame, wire::Kind::kAck, dp_.options().job_token, rank_, peer, 0, bytes);
  std::memcpy(frame + wire::kPayloadOffset, &p, bytes);
  dp_.address(m, peer, static_cast<uint16_t>(sizeof(wire::BucketHeader) + bytes), target_.queue);
  stamp(m, 0, snap.ack, 0);
  // An ACK the port cannot take is as good as lost on the wire: the peer
  // recovers with the next one. Mark the ack sent either way (as always).
  if (ports_[dp_.port_of(peer)].send(&m, 1, now) == 0) rte_pktmbuf_free(m);
  acked(peer, snap, now);
  ++c.acks_sent;
}

bool SendPath::acked_by(unsigned peer) const {
  return peer == rank_ || (conns_[peer].window->empty() && dp_.queued(peer, target_.queue) == 0);
}

FaultCounts SendPath::fault_counts() const {
  FaultCounts t;
  for (const TxPort& p : ports_) {
    const FaultInjector* f = p.faults();
    if (f == nullptr) continue;
    t += f->counts();
  }
  return t;
}

}  // namespace wg
