// The transport's receive path of one queue q. Owner: accumulator role q
// (one lcore).
//
// Owns rx_burst on rx queue q of every port (through its receive fault
// injector), frame validation, authentication (its FrameVerifier: MACs,
// address pinning; the CRC without a key), the ReceiveWindows of the flows
// (peer, q) (in-order exactly-once delivery, reorder buffer, duplicate
// suppression) and delivery. A frame whose header names another queue (the
// port steered it elsewhere: dataplane/steering.h) is handed to that queue's
// receive path through its hand-over ring, after validation and before any
// window sees it, so every flow's state keeps one owner; the hand-over ring
// is read like another port.
//
// Hands to send path q, never calling into it:
//  - every ack a frame carries, as an AckEvent on queue q's AckChannel
//    (SPSC; the send path applies them in order, stale ones included), with
//    an ACK frame's selective ack and receive-drop count;
//  - what the send path must ack, in each peer's AckState of queue q
//    (single-writer atomics: cumulative ack, deliveries, ack-now requests,
//    the frames held beyond the ack for the selective ack). Receive path 0
//    also reads the ports' receive drops and writes them into the AckStates
//    of every queue (their rx_drops field has that one writer).
#pragma once

#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "dataplane/dataplane.h"
#include "dataplane/frame_verifier.h"
#include "reliability/ack_channel.h"
#include "reliability/ack_state.h"
#include "reliability/fault_injector.h"
#include "reliability/receive_window.h"
#include "reliability/transport_config.h"

namespace wg {

class ReceivePath {
 public:
  // ack_states: queue q's, one per peer; all_ack_states: every queue's, by
  // queue * nodes + peer (receive path 0 writes their rx_drops).
  ReceivePath(Dataplane& dp, const TransportConfig& cfg, unsigned queue, AckChannel& acks_out, AckState* ack_states,
              AckState* all_ack_states);
  ~ReceivePath();
  ReceivePath(const ReceivePath&) = delete;
  ReceivePath& operator=(const ReceivePath&) = delete;

  // rx_burst on queue q of every port and the frames handed over to q,
  // validate, verify the checksum, run the receive windows, and call
  // deliver(mbuf, port, frame, header) for every frame to process, exactly
  // once and in order per flow. Frees every frame after deliver returns.
  // Returns frames received (handed over ones included).
  template <class Deliver>
  unsigned step(Deliver&& deliver);

  const ReceiveStats& stats(unsigned peer) const { return windows_[peer]->stats(); }
  FaultCounts fault_counts() const;
  // AckEvents the channel had no room for (never with the send path
  // draining it after every step; counted, not hidden).
  uint64_t acks_overflowed() const { return acks_overflowed_; }
  unsigned queue() const { return queue_; }

 private:
  template <class Deliver>
  void take(rte_mbuf* m, unsigned port, bool handed, uint64_t now, Deliver& deliver);
  // Authentication (or checksum), acks carried, receive window. kNone and
  // !*held: deliver now; kNone and *held: the window keeps the frame;
  // otherwise drop it.
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

  // All fields: accumulator role q.
  Dataplane& dp_;
  unsigned queue_;
  RxCounters& rx_;  // dp_.rx_q[queue_]
  AckChannel& acks_out_;
  AckState* ack_states_;
  AckState* all_ack_states_;
  FrameVerifier verifier_;
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
  for (unsigned p = 0; p < dp_.num_ports(); ++p) {
    uint16_t n = dp_.rx_burst(p, queue_, burst, Dataplane::kBurst);
    if (faults_[p]) n = faults_[p]->apply(burst, n, 2 * Dataplane::kBurst, now);
    total += n;
    for (uint16_t i = 0; i < n; ++i) {
      if (i + 1 < n) rte_prefetch0(rte_pktmbuf_mtod(burst[i + 1], void*));
      take(burst[i], p, false, now, deliver);
    }
  }
  if (dp_.queue_count() > 1) {
    const unsigned n = dp_.take_handed(queue_, burst, Dataplane::kBurst);
    total += n;
    for (unsigned i = 0; i < n; ++i) take(burst[i], burst[i]->port, true, now, deliver);
  }
  if (queue_ == 0 && now >= next_drops_poll_) poll_port_drops(now);
  return total;
}

// One received frame, from port index `port` (handed: from another queue's
// receive path, already counted and validated there).
template <class Deliver>
void ReceivePath::take(rte_mbuf* m, unsigned port, bool handed, uint64_t now, Deliver& deliver) {
  const uint8_t* frame = rte_pktmbuf_mtod(m, const uint8_t*);
  const wire::BucketHeader* h = bucket_header(frame);
  if (!handed) {
    ++rx_.frames;
    rx_.bytes += m->pkt_len;
    const DropReason why = m->nb_segs == 1 ? validate_frame(frame, m->data_len, dp_.validation())
                                           : DropReason::kTooShort;
    if (why != DropReason::kNone) {
      rx_.drop(why);
      rte_pktmbuf_free(m);
      return;
    }
    m->port = static_cast<uint16_t>(port);  // the port index, for frames delivered later (held, handed over)
    if (h->queue != queue_) {  // steered to the wrong queue: its owner takes it
      ++rx_.handed_over;
      dp_.hand_over(h->queue, m);
      return;
    }
  }
  bool held = false;
  DropReason why = classify(m, frame, h, now, &held);
  if (why != DropReason::kNone) {
    rx_.drop(why);
    rte_pktmbuf_free(m);
    return;
  }
  if (held) return;
  const unsigned src = h->src_rank;
  const bool sequenced = wire::is_sequenced(static_cast<wire::Kind>(h->kind));
  // The last frame of a superstep (END) or of the job (FIN): its sender
  // waits for nothing after it, so its ack should not wait either.
  bool ack_at_once = h->kind != static_cast<uint8_t>(wire::Kind::kData);
  why = deliver(m, port, frame, h);
  if (why != DropReason::kNone) {
    rx_.drop(why);
    // Acked and in sequence, yet unusable: the peer's counts now include
    // a frame this node can never account for, so the superstep could
    // never complete. Stop with the reason instead of hanging.
    if (sequenced) rejected(h, why);
  }
  rte_pktmbuf_free(m);
  if (!sequenced) return;
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
    why = deliver(hm, hm->port, hf, bucket_header(hf));
    if (why != DropReason::kNone) {
      rx_.drop(why);
      rejected(bucket_header(hf), why);
    }
    rte_pktmbuf_free(hm);
    note_delivery(src, now);
  }
  if (released) publish_ack(src);
  if (ack_at_once) request_ack_now(src);
}

}  // namespace wg
