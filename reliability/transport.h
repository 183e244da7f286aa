// The reliable, congestion-aware transport between this node and each peer.
//
// One Connection per peer: a SendWindow (sequence numbers, frames kept for
// retransmission by mbuf reference, cumulative acks, go-back-N on timeout,
// pacing by AST x N) and a ReceiveWindow (in-order exactly-once delivery with
// a reorder buffer and duplicate suppression). Acks ride on every sequenced
// frame and go alone (ACK frames) when a peer has nothing to carry them, when
// a frame arrives out of order or twice, and as keepalives.
//
// Data buckets, END and FIN frames are sequenced; HELLO (repeated until
// answered), ACK and ABORT (best effort, the sender is about to exit) are not.
//
// Ownership (one lcore runs both roles in this version):
//   sender role      - send_step(): SendWindow, pacing, ack stamping, tx
//   accumulator role - receive(): validation, checksum, ReceiveWindow, and it
//                      hands received acks to the SendWindow (on_ack)
#pragma once

#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dataplane/dataplane.h"
#include "reliability/fault_injector.h"
#include "reliability/receive_window.h"
#include "reliability/send_window.h"
#include "reliability/transport_config.h"

namespace wg {

struct ConnectionReport {
  unsigned peer = 0;
  SendStats send;
  ReceiveStats receive;
  unsigned n = 0;
  double ast_us = 0;
  double rto_us = 0;
  double srtt_us = 0;
  uint64_t acks_sent = 0;  // ACK-only frames
};

class Transport {
 public:
  Transport(Dataplane& dp, const TransportConfig& cfg);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Sender role: admit queued buckets into the windows, (re)transmit what
  // pacing allows, handle timeouts, send due acks. Returns frames sent.
  unsigned send_step();
  // True when every frame queued for any peer has been acked.
  bool all_acked() const;
  bool acked_by(unsigned peer) const;
  // Keepalives from now on every `ms` (sender role). At the end of a run
  // peers judge from our silence whether we have left (Engine::finish), so
  // we must not look silent while we stay: frequent keepalives make a run of
  // lost ones improbable even under heavy loss.
  void set_keepalive_ms(double ms);

  // Accumulator role: rx_burst on every port (through the fault injector),
  // validate, verify the checksum, run the receive windows, and call
  // deliver(mbuf, header) for every frame to process, exactly once and in
  // order per peer. The transport frees every frame after deliver returns.
  // Returns frames received.
  template <class Deliver>
  unsigned receive_step(Deliver&& deliver);

  std::vector<ConnectionReport> report() const;
  FaultCounts rx_fault_counts() const;
  FaultCounts tx_fault_counts() const;

 private:
  struct Connection {
    std::unique_ptr<SendWindow> send;
    std::unique_ptr<ReceiveWindow> receive;
    uint32_t acked_to_peer = 0;   // last ack value we sent
    bool ack_pending = false;     // deliveries not yet acked
    bool ack_now = false;         // out-of-order or duplicate frame: ack at once
    unsigned unacked = 0;
    uint64_t ack_due_tsc = 0;
    uint64_t last_tx_tsc = 0;
    uint64_t acks_sent = 0;
  };

  unsigned send_connection(unsigned peer, uint64_t now);
  void send_ack(unsigned peer, uint64_t now);
  void fast_retransmit(unsigned peer, uint64_t now);
  bool transmit_one(unsigned port, rte_mbuf* m, uint64_t now);
  void stamp(rte_mbuf* m, uint32_t seq, uint32_t ack) const;
  bool checksum_ok(const uint8_t* frame, uint32_t len) const;
  // Checksum, acks carried, receive window. kNone and !*held: deliver now;
  // kNone and *held: the window keeps the frame; otherwise drop it.
  DropReason classify(rte_mbuf* m, const uint8_t* frame, const wire::BucketHeader* h, uint64_t now, bool* held);
  void note_delivery(unsigned peer, uint64_t now);
  [[noreturn]] static void rejected(const wire::BucketHeader* h, DropReason why);

  Dataplane& dp_;
  TransportConfig cfg_;
  unsigned rank_;
  std::vector<Connection> conns_;
  std::vector<std::unique_ptr<FaultInjector>> rx_faults_;  // per port
  std::vector<std::unique_ptr<FaultInjector>> tx_faults_;
  uint64_t ack_delay_ticks_;
  uint64_t keepalive_ticks_;
};

// ---- receive path (header-only: deliver is the engine's fold, inlined) ----

template <class Deliver>
unsigned Transport::receive_step(Deliver&& deliver) {
  unsigned total = 0;
  rte_mbuf* burst[2 * Dataplane::kBurst];
  const uint64_t now = rte_rdtsc();
  for (unsigned q = 0; q < dp_.num_ports(); ++q) {
    uint16_t n = dp_.rx_burst(q, burst, Dataplane::kBurst);
    if (rx_faults_[q]) n = rx_faults_[q]->apply(burst, n, 2 * Dataplane::kBurst, now);
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
      while (void* next = conns_[src].receive->next_in_order()) {
        rte_mbuf* hm = static_cast<rte_mbuf*>(next);
        const uint8_t* hf = rte_pktmbuf_mtod(hm, const uint8_t*);
        why = deliver(hm, q, hf, bucket_header(hf));
        if (why != DropReason::kNone) {
          dp_.rx.drop(why);
          rejected(bucket_header(hf), why);
        }
        rte_pktmbuf_free(hm);
        note_delivery(src, now);
      }
    }
  }
  return total;
}

}  // namespace wg
