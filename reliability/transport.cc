#include "reliability/transport.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wg {

namespace {

uint64_t us_to_ticks(double us) { return static_cast<uint64_t>(us * 1e-6 * static_cast<double>(rte_get_tsc_hz())); }
double ticks_to_us(uint64_t t) { return static_cast<double>(t) * 1e6 / static_cast<double>(rte_get_tsc_hz()); }

void free_frame(void* f) { rte_pktmbuf_free(static_cast<rte_mbuf*>(f)); }

}  // namespace

Transport::Transport(Dataplane& dp, const TransportConfig& cfg)
    : dp_(dp), cfg_(cfg), rank_(dp.options().rank), conns_(dp.options().nodes),
      ack_delay_ticks_(us_to_ticks(cfg.ack_delay_us)), keepalive_ticks_(us_to_ticks(cfg.keepalive_ms * 1000)) {
  CongestionConfig cc;
  cc.ast_init_ticks = us_to_ticks(cfg.ast_us);
  cc.rto_min_ticks = us_to_ticks(cfg.rto_min_us);
  cc.rto_max_ticks = us_to_ticks(cfg.rto_max_us);
  cc.rto_init_ticks = cc.rto_min_ticks;
  for (unsigned p = 0; p < conns_.size(); ++p) {
    if (p == rank_) continue;
    conns_[p].send = std::make_unique<SendWindow>(cfg.window, 0, cc);
    conns_[p].receive = std::make_unique<ReceiveWindow>(cfg.window, 0);
  }
  const uint64_t delay = us_to_ticks(cfg.fault_delay_us);
  for (unsigned q = 0; q < dp.num_ports(); ++q) {
    // Distinct, reproducible streams per node, port and direction.
    const uint64_t seed = cfg.fault_seed * 1000003 + rank_ * 131 + q * 2;
    rx_faults_.emplace_back(cfg.rx_faults.any()
                                ? std::make_unique<FaultInjector>(cfg.rx_faults, seed, delay,
                                                                  dp.rx_pool() ? dp.rx_pool() : dp.pool(), false)
                                : nullptr);
    tx_faults_.emplace_back(cfg.tx_faults.any()
                                ? std::make_unique<FaultInjector>(cfg.tx_faults, seed + 1, delay, dp.pool(), true)
                                : nullptr);
  }
}

Transport::~Transport() {
  for (Connection& c : conns_) {
    if (!c.send) continue;
    for (uint32_t s = c.send->snd_una(); s != c.send->snd_nxt(); ++s) free_frame(c.send->frame(s));
    c.receive->for_each_held(free_frame);
  }
}

void Transport::stamp(rte_mbuf* m, uint32_t seq, uint32_t ack) const {
  wire::BucketHeader* h = bucket_header(rte_pktmbuf_mtod(m, uint8_t*));
  h->seq = seq;
  h->ack = ack;
  dp_.seal(m);
}

unsigned Transport::send_step() {
  const uint64_t now = rte_rdtsc();
  // Frames a fault injector held back (reorder, delay) go out when due.
  for (unsigned q = 0; q < tx_faults_.size(); ++q) {
    if (!tx_faults_[q]) continue;
    rte_mbuf* out[2 * Dataplane::kBurst];
    const uint16_t n = tx_faults_[q]->apply(out, 0, 2 * Dataplane::kBurst, now);
    const uint16_t sent = dp_.tx_burst(q, out, n);
    for (uint16_t i = sent; i < n; ++i) rte_pktmbuf_free(out[i]);
  }
  unsigned sent = 0;
  const unsigned nodes = static_cast<unsigned>(conns_.size());
  for (unsigned k = 1; k < nodes; ++k) sent += send_connection((rank_ + k) % nodes, now);
  return sent;
}

unsigned Transport::send_connection(unsigned peer, uint64_t now) {
  if (!dp_.peer_known(peer)) return 0;
  Connection& c = conns_[peer];
  SendWindow& w = *c.send;
  if (w.timed_out(now)) w.on_timeout(now);

  // Admit queued buckets into the window (this is where they get their sequence number).
  while (!w.full()) {
    rte_mbuf* batch[Dataplane::kBurst];
    const unsigned room = std::min<unsigned>(Dataplane::kBurst, cfg_.window - w.in_flight());
    const unsigned n = dp_.dequeue(peer, batch, room);
    for (unsigned i = 0; i < n; ++i) w.push(batch[i]);
    if (n < room) break;
  }

  if (w.head_resend_wanted()) fast_retransmit(peer, now);

  unsigned sent = 0;
  if (w.has_pending() && w.may_send(now)) {
    rte_mbuf* tx[2 * Dataplane::kBurst];
    uint16_t k = 0;
    const uint32_t ack = c.receive->ack();
    for (uint32_t seq = w.next_to_transmit(); k < Dataplane::kBurst && seq != w.snd_nxt(); ++seq) {
      rte_mbuf* m = static_cast<rte_mbuf*>(w.frame(seq));
      // A zero-copy PMD (or a NIC still DMAing) may hold the previous
      // transmission: never rewrite a frame someone else can still read.
      if (rte_mbuf_refcnt_read(m) > 1) break;
      stamp(m, seq, ack);
      rte_mbuf_refcnt_update(m, 1);  // the PMD frees its reference; the window keeps ours
      tx[k++] = m;
    }
    if (k > 0) {
      const uint64_t t0 = rte_rdtsc();
      const unsigned port = dp_.port_of(peer);
      if (tx_faults_[port]) {
        // Under injected faults every frame handed over counts as sent: the
        // injector decides its fate and the window recovers what is lost.
        for (uint16_t i = 0; i < k; ++i) w.transmitted(now);
        const uint16_t n = tx_faults_[port]->apply(tx, k, 2 * Dataplane::kBurst, now);
        const uint16_t out = dp_.tx_burst(port, tx, n);
        for (uint16_t i = out; i < n; ++i) rte_pktmbuf_free(tx[i]);
        sent = k;
      } else {
        const uint16_t n = dp_.tx_burst(port, tx, k);
        for (uint16_t i = 0; i < n; ++i) w.transmitted(now);
        for (uint16_t i = n; i < k; ++i) rte_mbuf_refcnt_update(tx[i], -1);
        sent = n;
      }
      w.paced(now, sent, rte_rdtsc() - t0);
      if (sent > 0) {
        c.last_tx_tsc = now;
        c.acked_to_peer = ack;
        if (ack == c.receive->ack()) {
          c.ack_pending = c.ack_now = false;
          c.unacked = 0;
        }
      }
    }
  }

  const bool ack_due = c.ack_pending && (c.ack_now || now >= c.ack_due_tsc);
  if (ack_due || c.ack_now || now - c.last_tx_tsc > keepalive_ticks_) send_ack(peer, now);
  return sent;
}

void Transport::fast_retransmit(unsigned peer, uint64_t now) {
  Connection& c = conns_[peer];
  SendWindow& w = *c.send;
  rte_mbuf* m = static_cast<rte_mbuf*>(w.frame(w.snd_una()));
  if (rte_mbuf_refcnt_read(m) != 1) return;  // its last transmission is still out: try later
  stamp(m, w.snd_una(), c.receive->ack());
  rte_mbuf_refcnt_update(m, 1);
  if (transmit_one(dp_.port_of(peer), m, now)) w.head_resent(now);
}

// One frame (the caller's reference goes with it) through the port's
// transmit fault injector, if any. True if it left (or the injector took it).
bool Transport::transmit_one(unsigned port, rte_mbuf* m, uint64_t now) {
  rte_mbuf* tx[2 * Dataplane::kBurst] = {m};
  uint16_t n = 1;
  if (tx_faults_[port]) n = tx_faults_[port]->apply(tx, 1, 2 * Dataplane::kBurst, now);
  const uint16_t out = dp_.tx_burst(port, tx, n);
  if (!tx_faults_[port] && out == 0) {
    rte_pktmbuf_free(m);
    return false;
  }
  for (uint16_t i = out; i < n; ++i) rte_pktmbuf_free(tx[i]);
  return true;
}

void Transport::send_ack(unsigned peer, uint64_t now) {
  Connection& c = conns_[peer];
  rte_mbuf* m = dp_.alloc_control();
  if (m == nullptr) return;  // try again on the next step
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  write_bucket_header(frame, wire::Kind::kAck, dp_.options().job_token, rank_, peer, 0, 0);
  dp_.address(m, peer, sizeof(wire::BucketHeader));
  const uint32_t ack = c.receive->ack();
  stamp(m, 0, ack);
  transmit_one(dp_.port_of(peer), m, now);
  c.last_tx_tsc = now;
  c.acked_to_peer = ack;
  c.ack_pending = c.ack_now = false;
  c.unacked = 0;
  ++c.acks_sent;
}

DropReason Transport::classify(rte_mbuf* m, const uint8_t* frame, const wire::BucketHeader* h, uint64_t now,
                               bool* held) {
  const auto kind = static_cast<wire::Kind>(h->kind);
  // HELLO and ABORT always carry a CRC, whatever --checksum says (they are
  // rare): a node whose --checksum differs must still get the hello that
  // names the mismatch, and a flipped bit must not fake one.
  if (kind == wire::Kind::kHello || kind == wire::Kind::kAbort)
    return bucket_crc_ok(frame, rte_pktmbuf_data_len(m)) ? DropReason::kNone : DropReason::kBadChecksum;
  if (dp_.options().checksum && !bucket_crc_ok(frame, rte_pktmbuf_data_len(m))) return DropReason::kBadChecksum;
  Connection& c = conns_[h->src_rank];
  c.send->on_ack(h->ack, kind == wire::Kind::kAck, now, free_frame);
  if (!wire::is_sequenced(kind)) return DropReason::kNone;
  switch (c.receive->accept(h->seq, m)) {
    case ReceiveWindow::Verdict::kDeliver:
      return DropReason::kNone;
    case ReceiveWindow::Verdict::kHold:
      *held = true;
      c.ack_now = true;  // tell the sender about the gap at once (a stale ack)
      return DropReason::kNone;
    case ReceiveWindow::Verdict::kDuplicate:
      c.ack_now = true;  // our ack was lost or late: repeat it
      return DropReason::kDuplicate;
    case ReceiveWindow::Verdict::kBeyondWindow:
      c.ack_now = true;
      return DropReason::kBeyondWindow;
  }
  return DropReason::kNone;
}

void Transport::rejected(const wire::BucketHeader* h, DropReason why) {
  throw std::runtime_error("node " + std::to_string(h->src_rank) + " sent frame " + std::to_string(h->seq) +
                           " (kind " + std::to_string(h->kind) + ", superstep " + std::to_string(h->superstep) +
                           ") that passed the transport but cannot be used here: " + drop_reason_name(why) +
                           " (corrupted in flight without --checksum on, or the nodes run different jobs)");
}

void Transport::note_delivery(unsigned peer, uint64_t now) {
  Connection& c = conns_[peer];
  if (!c.ack_pending) c.ack_due_tsc = now + ack_delay_ticks_;
  c.ack_pending = true;
  if (++c.unacked >= cfg_.ack_every) c.ack_now = true;
}

void Transport::set_keepalive_ms(double ms) { keepalive_ticks_ = us_to_ticks(ms * 1000); }

bool Transport::acked_by(unsigned peer) const {
  return peer == rank_ || (conns_[peer].send->empty() && dp_.queued(peer) == 0);
}

bool Transport::all_acked() const {
  for (unsigned p = 0; p < conns_.size(); ++p)
    if (!acked_by(p)) return false;
  return true;
}

std::vector<ConnectionReport> Transport::report() const {
  std::vector<ConnectionReport> out;
  for (unsigned p = 0; p < conns_.size(); ++p) {
    if (p == rank_) continue;
    const Connection& c = conns_[p];
    ConnectionReport r;
    r.peer = p;
    r.send = c.send->stats();
    r.receive = c.receive->stats();
    r.n = c.send->n();
    r.ast_us = ticks_to_us(c.send->ast_ticks());
    r.rto_us = ticks_to_us(c.send->rto_ticks());
    r.srtt_us = ticks_to_us(c.send->srtt_ticks());
    r.acks_sent = c.acks_sent;
    out.push_back(r);
  }
  return out;
}

namespace {
FaultCounts sum(const std::vector<std::unique_ptr<FaultInjector>>& v) {
  FaultCounts t;
  for (const auto& f : v) {
    if (!f) continue;
    const FaultCounts& c = f->counts();
    t.seen += c.seen;
    t.dropped += c.dropped;
    t.duplicated += c.duplicated;
    t.reordered += c.reordered;
    t.corrupted += c.corrupted;
    t.delayed += c.delayed;
  }
  return t;
}
}  // namespace

FaultCounts Transport::rx_fault_counts() const { return sum(rx_faults_); }
FaultCounts Transport::tx_fault_counts() const { return sum(tx_faults_); }

}  // namespace wg
