#include "reliability/receive_path.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "reliability/transport_time.h"

namespace wg {

namespace {
void free_frame(void* f) { rte_pktmbuf_free(static_cast<rte_mbuf*>(f)); }
}  // namespace

ReceivePath::ReceivePath(Dataplane& dp, const TransportConfig& cfg, unsigned queue, AckChannel& acks_out,
                         AckState* ack_states, AckState* all_ack_states)
    : dp_(dp), queue_(queue), rx_(dp.rx_q[queue]), acks_out_(acks_out), ack_states_(ack_states),
      all_ack_states_(all_ack_states), verifier_(dp.auth(), dp.peers(), dp.options().checksum),
      windows_(dp.options().nodes) {
  const unsigned rank = dp.options().rank;
  for (unsigned p = 0; p < windows_.size(); ++p)
    if (p != rank) {
      // Our salt gives the flow's first sequence number: the ack we stamp
      // on frames to p is right before p's first frame arrives.
      const uint32_t isn = dp.auth().receive_isn(p, queue);
      windows_[p] = std::make_unique<ReceiveWindow>(cfg.window, isn);
      ack_states_[p].rcv_ack.store(isn, std::memory_order_relaxed);  // before either path runs
      ack_states_[p].held.init(cfg.window);
    }
  port_drops_.assign(dp.num_ports(), 0);
  drops_poll_ticks_ = us_to_ticks(kDropsPollUs);
  for (unsigned q = 0; q < dp.num_ports(); ++q) port_drops_[q] = dp.rx_drops(q);
  const uint64_t delay = us_to_ticks(cfg.fault_delay_us);
  for (unsigned q = 0; q < dp.num_ports(); ++q)
    faults_.emplace_back(cfg.rx_faults.any()
                             ? std::make_unique<FaultInjector>(cfg.rx_faults, fault_seed(cfg, rank, q, queue), delay,
                                                               dp.rx_pool() ? dp.rx_pool() : dp.pool(), false)
                             : nullptr);
}

ReceivePath::~ReceivePath() {
  for (auto& w : windows_)
    if (w) w->for_each_held(free_frame);
}

DropReason ReceivePath::classify(rte_mbuf* m, const uint8_t* frame, const wire::BucketHeader* h, uint64_t now,
                                 bool* held) {
  const auto kind = static_cast<wire::Kind>(h->kind);
  // Before anything the frame says is believed (its ack above all).
  const DropReason why = verifier_.check(rte_pktmbuf_mtod(m, uint8_t*), rte_pktmbuf_data_len(m), m->port);
  if (why != DropReason::kNone) return why;
  if (kind == wire::Kind::kHello || kind == wire::Kind::kAbort) return DropReason::kNone;
  const unsigned src = h->src_rank;
  // The ack goes to the send path, which applies it in order
  // (SendWindow::on_ack), stale ones included: see ack_channel.h. An ACK
  // frame's payload (validated: sack_words agrees with the count) goes along.
  const bool pure = kind == wire::Kind::kAck;
  const bool queued = acks_out_.emplace([&](AckEvent& e) {
    e.peer = src;
    e.ack = h->ack;
    e.pure = pure;
    e.now = now;
    e.has_rx_drops = pure;
    e.has_echo = false;
    e.sack_words = 0;
    e.rx_drops = 0;
    e.quiet = e.has_dsack = false;
    if (pure) {
      wire::AckPayload p;  // the fixed part; the words go straight into the event
      std::memcpy(&p, frame + wire::kPayloadOffset, wire::kAckPayloadFixedBytes);
      e.rx_drops = p.rx_drops;
      e.sack_words = p.sack_words;
      e.has_echo = (p.flags & wire::kAckEchoValid) != 0;
      e.echo_tsval = p.echo_tsval;
      e.echo_seq = p.echo_seq;
      e.quiet = (p.flags & wire::kAckQuiet) != 0;
      e.has_dsack = (p.flags & wire::kAckDsack) != 0;
      e.dsack_seq = p.dsack_seq;
      std::memcpy(e.sack, frame + wire::kPayloadOffset + wire::kAckPayloadFixedBytes, 8u * e.sack_words);
    }
  });
  if (!queued) ++acks_overflowed_;
  if (!wire::is_sequenced(kind)) return DropReason::kNone;
  note_transmission(src, h->tsval, h->seq);  // duplicates too: that transmission arrived
  ReceiveWindow& w = *windows_[src];
  switch (w.accept(h->seq, m)) {
    case ReceiveWindow::Verdict::kDeliver:
      publish_ack(src);
      return DropReason::kNone;
    case ReceiveWindow::Verdict::kHold:
      *held = true;
      ack_states_[src].held.set(h->seq);  // the selective ack will say so
      request_ack_now(src);  // tell the sender about the gap at once
      return DropReason::kNone;
    case ReceiveWindow::Verdict::kDuplicate: {
      // Our ack was lost or late, or the sender resent too soon: repeat the
      // ack, and say which frame came twice (it tells a needless resend).
      std::atomic<uint64_t>& d = ack_states_[src].duplicate;
      const uint64_t count = (d.load(std::memory_order_relaxed) >> 32) + 1;
      d.store(count << 32 | h->seq, std::memory_order_release);
      request_ack_now(src);
    }
      return DropReason::kDuplicate;
    case ReceiveWindow::Verdict::kBeyondWindow:
      request_ack_now(src);
      return DropReason::kBeyondWindow;
  }
  return DropReason::kNone;
}

void ReceivePath::note_transmission(unsigned peer, uint32_t tsval, uint32_t seq) {
  AckState& a = ack_states_[peer];
  const uint64_t latest = a.echo.load(std::memory_order_relaxed);  // ours
  const bool valid = a.echo_valid.load(std::memory_order_relaxed);
  if (valid && !sent_after(tsval, seq, static_cast<uint32_t>(latest >> 32), static_cast<uint32_t>(latest))) return;
  a.echo.store(uint64_t{tsval} << 32 | seq, std::memory_order_release);
  if (!valid) a.echo_valid.store(true, std::memory_order_release);
}

void ReceivePath::poll_port_drops(uint64_t now) {
  next_drops_poll_ = now + drops_poll_ticks_;
  const unsigned nodes = static_cast<unsigned>(windows_.size());
  for (unsigned q = 0; q < dp_.num_ports(); ++q) {
    const uint64_t total = dp_.rx_drops(q);
    const uint64_t fresh = total - port_drops_[q];
    if (fresh == 0) continue;
    port_drops_[q] = total;
    // Every flow whose frames arrive on this port hears of it in our ACKs.
    for (unsigned p = 0; p < nodes; ++p) {
      if (!windows_[p] || !dp_.peer_known(p) || dp_.port_of(p) != q) continue;
      for (unsigned k = 0; k < dp_.queue_count(); ++k) {
        std::atomic<uint32_t>& d = all_ack_states_[k * nodes + p].rx_drops;
        d.store(d.load(std::memory_order_relaxed) + static_cast<uint32_t>(fresh), std::memory_order_release);
      }
    }
  }
}

void ReceivePath::rejected(const wire::BucketHeader* h, DropReason why) {
  throw std::runtime_error("node " + std::to_string(h->src_rank) + " sent frame " + std::to_string(h->seq) +
                           " (kind " + std::to_string(h->kind) + ", superstep " + std::to_string(h->superstep) +
                           ") that passed the transport but cannot be used here: " + drop_reason_name(why) +
                           " (corrupted in flight without a key or --checksum on, or the nodes run different jobs)");
}

FaultCounts ReceivePath::fault_counts() const {
  FaultCounts t;
  for (const auto& f : faults_)
    if (f) t += f->counts();
  return t;
}

}  // namespace wg
