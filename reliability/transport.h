// The reliable, congestion-aware transport between this node and each peer.
//
// Two paths, one owner each (see send_path.h, receive_path.h):
//   sender role      - SendPath: SendWindows (sequence numbers, frames kept
//                      for retransmission by mbuf reference, cumulative and
//                      selective acks, time-based loss detection, tail-loss
//                      probes, timeouts, pacing by AST x N), ack stamping,
//                      ACK frames, keepalives, every tx (TxPort: one rule for
//                      "sent", with the tx injector)
//   accumulator role - ReceivePath: rx, validation, checksum, ReceiveWindows
//                      (in-order exactly-once delivery, reorder buffer,
//                      duplicate suppression), delivery
// Between them, single-writer hand-offs only: received acks (with an ACK
// frame's selective ack and the peer's receive drops) go from the receive
// path to the send path through an SPSC AckChannel; what to ack (cumulative
// ack, deliveries, ack-now requests, frames held past the ack, this node's
// receive drops) through per-peer AckStates. Cumulative acks ride on every
// sequenced frame; ACK frames carry the selective ack too and go when a peer
// has nothing to carry the ack, when a frame arrives out of order or twice,
// and as keepalives.
//
// Data buckets, END and FIN frames are sequenced; HELLO (repeated until
// answered), ACK and ABORT (best effort, the sender is about to exit) are not.
//
// This version runs both roles in turn on one lcore (the engine's network
// role calls send_step() and receive_step()); receive_step() hands the acks
// it queued to the send path before returning, so that acked_by() and the
// next send_step() see them exactly as when the receive path applied them
// itself. With the roles on separate lcores (issue #12) the sender calls
// SendPath::apply_received_acks() and SendPath::step(), the accumulator
// ReceivePath::step().
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "dataplane/dataplane.h"
#include "reliability/ack_channel.h"
#include "reliability/ack_state.h"
#include "reliability/fault_injector.h"
#include "reliability/receive_path.h"
#include "reliability/receive_window.h"
#include "reliability/send_path.h"
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
  double min_rtt_us = 0;
  uint64_t acks_sent = 0;  // ACK-only frames
};

class Transport {
 public:
  Transport(Dataplane& dp, const TransportConfig& cfg);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Sender role: apply received acks, admit queued buckets into the
  // windows, (re)transmit what pacing allows, handle timeouts, send due
  // acks. Returns frames sent.
  unsigned send_step() {
    send_.apply_received_acks();
    return send_.step();
  }
  // True when every frame queued for any peer has been acked.
  bool all_acked() const;
  bool acked_by(unsigned peer) const { return send_.acked_by(peer); }
  // Keepalives from now on every `ms` (sender role). At the end of a run
  // peers judge from our silence whether we have left (Engine::finish), so
  // we must not look silent while we stay: frequent keepalives make a run of
  // lost ones improbable even under heavy loss.
  void set_keepalive_ms(double ms);

  // Accumulator role: see ReceivePath::step. The transport frees every
  // frame after deliver returns. Returns frames received.
  template <class Deliver>
  unsigned receive_step(Deliver&& deliver) {
    const unsigned n = receive_.step(deliver);
    send_.apply_received_acks();  // one lcore runs both roles: see above
    return n;
  }

  std::vector<ConnectionReport> report() const;
  FaultCounts rx_fault_counts() const { return receive_.fault_counts(); }
  FaultCounts tx_fault_counts() const { return send_.fault_counts(); }

  SendPath& send_path() { return send_; }
  ReceivePath& receive_path() { return receive_; }

 private:
  unsigned nodes_;
  unsigned rank_;
  // Declared before the paths, which keep references to them.
  std::unique_ptr<AckChannel> acks_;
  std::unique_ptr<AckState[]> ack_states_;  // per peer
  SendPath send_;
  ReceivePath receive_;
};

}  // namespace wg
