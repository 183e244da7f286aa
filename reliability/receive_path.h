// The transport's receive path. Owner: the accumulator role (one lcore).
//
// Owns rx_burst on every port (through the port's receive fault injector),
// frame validation, checksums, the ReceiveWindows (in-order exactly-once
// delivery, reorder buffer, duplicate suppression) and delivery.
//
// Hands to the send path, never calling into it:
//  - every ack a frame carries, as an AckEvent on the AckChannel (SPSC; the
//    send path applies them in order, stale ones included), with an ACK
//    frame's selective ack and receive-drop count;
//  - what the send path must ack, in each peer's AckState (single-writer
//    atomics: cumulative ack, deliveries, ack-now requests, the frames held
//    beyond the ack for the selective ack, and this node's receive drops
//    from the port the peer's frames arrive on).
#pragma once

#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "dataplane/dataplane.h"
#include "reliability/ack_channel.h"
#include "reliability/ack_state.h"
#include "reliability/fault_injector.h"
#include "reliability/receive_window.h"
#include "reliability/transport_config.h"

namespace wg {

class ReceivePath {
 public:
  ReceivePath(Dataplane& dp, const TransportConfig& cfg, AckChannel& acks_out, AckState* ack_states);
  ~ReceivePath();
  ReceivePath(const ReceivePath&) = delete;
  ReceivePath& operator=(const ReceivePath&) = delete;

  // rx_burst on every port, validate, verify the checksum, run the receive
  // windows, and call deliver(mbuf, port, frame, header) for every frame to
  // process, exactly once and in order per peer. Frees every frame after
  // deliver returns. Returns frames received.
  template <class Deliver>
  unsigned step(Deliver&& deliver);

  const ReceiveStats& stats(unsigned peer) const { return windows_[peer]->stats(); }
  FaultCounts fault_counts() const;
  // AckEvents the channel had no room for (never with the send path
  // draining it after every step; counted, not hidden).
  uint64_t acks_overflowed() const { return acks_overflowed_; }

 private:
  // Checksum, acks carried, receive window. kNone and !*held: deliver now;
  // kNone and *held: the window keeps the frame; otherwise drop it.
  DropReason classify(rte_mbuf* m, const uint8_t* frame, const wire::BucketHeader* h, uint64_t now, bool* held);
  void publish_ack(unsigned peer) {
    ack_states_[peer].rcv_ack.store(windows_[peer]->ack(), std::memory_order_release);
  }
  void request_ack_now(unsigned peer) {
    AckState& a = ack_states_[peer];
    a.ack_now.store(a.ack_now.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }
  void note_delivery(unsigned peer, uint64_t now) {
    AckState& a = ack_states_[peer];
    const uint64_t d = a.delivered.load(std::memory_order_relaxed);  // ours
    if (d == a.covered.load(std::memory_order_acquire)) a.pending_since.store(now, std::memory_order_relaxed);
    a.delivered.store(d + 1, std::memory_order_release);
  }
  // The peer's frame (tsval, seq) arrived: keep the latest-sent one for the echo.
  void note_transmission(unsigned peer, uint32_t tsval, uint32_t seq);
  // Frames the ports dropped on receive (rte_eth_stats imissed +
  // rx_nombuf), passed on to the peers behind each port (AckState::rx_drops,
  // sent in every ACK frame: the sender's congestion signal). Polled every
  // kDropsPollUs, not per burst: reading the stats is a driver call.
  void poll_port_drops(uint64_t now);
  [[noreturn]] static void rejected(const wire::BucketHeader* h, DropReason why);
  static constexpr double kDropsPollUs = 1000;

  // All fields: accumulator role.
  Dataplane& dp_;
  AckChannel& acks_out_;
  AckState* ack_states_;
  std::vector<std::unique_ptr<ReceiveWindow>> windows_;  // per peer
  std::vector<std::unique_ptr<FaultInjector>> faults_;   // per port
  uint64_t acks_overflowed_ = 0;
  std::vector<uint64_t> port_drops_;  // per port: receive drops as last read
  uint64_t drops_poll_ticks_ = 0;
  uint64_t next_drops_poll_ = 0;
};

// Header-only: deliver is the engine's fold, inlined.
template <class Deliver>
unsigned ReceivePath::step(Deliver&& deliver) {
  unsigned total = 0;
  rte_mbuf* burst[2 * Dataplane::kBurst];
  const uint64_t now = rte_rdtsc();
  for (unsigned q = 0; q < dp_.num_ports(); ++q) {
    uint16_t n = dp_.rx_burst(q, burst, Dataplane::kBurst);
    if (faults_[q]) n = faults_[q]->apply(burst, n, 2 * Dataplane::kBurst, now);
    total += n;
    for (uint16_t i = 0; i < n; ++i) {
      if (i + 1 < n) rte_prefetch0(rte_pktmbuf_mtod(burst[i + 1], void*));
      rte_mbuf* m = burst[i];
      const uint8_t* frame = rte_pktmbuf_mtod(m, const uint8_t*);
      ++dp_.rx.frames;
      dp_.rx.bytes += m->pkt_len;
      DropReason why = m->nb_segs == 1 ? validate_frame(frame, m->data_len, dp_.validation())
                                       : DropReason::kTooShort;
      bool held = false;
      const wire::BucketHeader* h = bucket_header(frame);
      if (why == DropReason::kNone) why = classify(m, frame, h, now, &held);
      if (why != DropReason::kNone) {
        dp_.rx.drop(why);
        rte_pktmbuf_free(m);
        continue;
      }
      if (held) continue;
      const unsigned src = h->src_rank;
      const bool sequenced = wire::is_sequenced(static_cast<wire::Kind>(h->kind));
      // The last frame of a superstep (END) or of the job (FIN): its sender
      // waits for nothing after it, so its ack should not wait either.
      bool ack_at_once = h->kind != static_cast<uint8_t>(wire::Kind::kData);
      why = deliver(m, q, frame, h);
      if (why != DropReason::kNone) {
        dp_.rx.drop(why);
        // Acked and in sequence, yet unusable: the peer's counts now include
        // a frame this node can never account for, so the superstep could
        // never complete. Stop with the reason instead of hanging.
        if (sequenced) rejected(h, why);
      }
      rte_pktmbuf_free(m);
      if (!sequenced) continue;
      note_delivery(src, now);
      // The gap may have closed: deliver what was held behind it.
      bool released = false;
      ReceiveWindow& window = *windows_[src];
      for (uint32_t seq = window.ack(); void* next = window.next_in_order(); seq = window.ack()) {
        released = true;
        ack_states_[src].held.clear(seq);  // before the ack that covers it is published
        rte_mbuf* hm = static_cast<rte_mbuf*>(next);
        const uint8_t* hf = rte_pktmbuf_mtod(hm, const uint8_t*);
        ack_at_once |= bucket_header(hf)->kind != static_cast<uint8_t>(wire::Kind::kData);
        why = deliver(hm, q, hf, bucket_header(hf));
        if (why != DropReason::kNone) {
          dp_.rx.drop(why);
          rejected(bucket_header(hf), why);
        }
        rte_pktmbuf_free(hm);
        note_delivery(src, now);
      }
      if (released) publish_ack(src);
      if (ack_at_once) request_ack_now(src);
    }
  }
  if (now >= next_drops_poll_) poll_port_drops(now);
  return total;
}

}  // namespace wg
