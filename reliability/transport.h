// The reliable, congestion-aware transport between this node and each peer:
// one flow per (peer, queue) for each of the node's K receive queues
// (--rx-queues), each flow with its own sequence numbers, windows, acks and
// pacing.
//
// Per queue q, two paths with one owner each (see send_path.h, receive_path.h):
//   sender role q      - SendPath q: the SendWindows of flows (*, q)
//                        (sequence numbers, frames kept for retransmission by
//                        mbuf reference, cumulative and selective acks,
//                        time-based loss detection, tail-loss probes,
//                        timeouts, pacing by AST x N), ack stamping, ACK
//                        frames, keepalives, every tx on tx queue q (TxPort:
//                        one rule for "sent", with the tx injector)
//   accumulator role q - ReceivePath q: rx queue q, validation, checksum, the
//                        ReceiveWindows of flows (*, q) (in-order exactly-once
//                        delivery, reorder buffer, duplicate suppression),
//                        delivery; frames steered to another queue are handed
//                        to that queue's path
// Between the two paths of queue q, single-writer hand-offs only: received
// acks of flow q (with an ACK frame's selective ack and the peer's receive
// drops) go from receive path q to send path q through an SPSC AckChannel;
// what to ack (cumulative ack, deliveries, ack-now requests, frames held
// past the ack, this node's receive drops) through per-peer AckStates of
// queue q. Acks of flow q ride on flow q's frames in the other direction, so
// they arrive on queue q: where the acks go is where the data of the
// opposite direction goes, and the sender role that owns a flow's send
// window also sends that flow's acks. Cumulative acks ride on every sequenced
// frame; ACK frames carry the selective ack too and go when a flow has
// nothing to carry the ack, when a frame arrives out of order or twice, and
// as keepalives.
//
// Data buckets, END and FIN frames are sequenced; HELLO (repeated until
// answered), ACK and ABORT (best effort, the sender is about to exit) are not.
//
// The runtime (compute/engine/superstep_runtime.h) runs sender role q and accumulator role q
// on whichever lcores its layout gives them (all on one, or each its own);
// send_step(q) applies the acks receive path q queued before it sends, and
// receive_step(q) does the same after it receives when asked to (both roles
// of q on one lcore: the acks then take effect exactly where they did before
// the paths were split). send_step() and receive_step(deliver) run every
// queue in turn (one lcore).
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
  unsigned queue = 0;  // the flow (peer, queue)
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
  // dp.queue_count() flows per peer.
  Transport(Dataplane& dp, const TransportConfig& cfg);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  unsigned queues() const { return static_cast<unsigned>(send_.size()); }

  // Sender role q: apply received acks, admit queued buckets into the
  // windows, (re)transmit what pacing allows, handle timeouts, send due
  // acks. Returns frames sent.
  unsigned send_step(unsigned q) {
    send_[q]->apply_received_acks();
    return send_[q]->step();
  }
  unsigned send_step() {
    unsigned n = 0;
    for (unsigned q = 0; q < queues(); ++q) n += send_step(q);
    return n;
  }
  // True when every frame queued for any flow to any peer has been acked
  // (the caller owns every sender role: one lcore, or tests).
  bool all_acked() const;
  bool acked_by(unsigned peer) const;
  // Keepalives from now on every `ms` (any lcore). At the end of a run
  // peers judge from our silence whether we have left (SuperstepRuntime::finish), so
  // we must not look silent while we stay: frequent keepalives make a run of
  // lost ones improbable even under heavy loss.
  void set_keepalive_ms(double ms);

  // Accumulator role q: see ReceivePath::step. The transport frees every
  // frame after deliver returns. With `apply_acks` (sender role q runs on
  // this lcore too) the acks received go to the send path at once. Returns
  // frames received.
  template <class Deliver>
  unsigned receive_step(unsigned q, Deliver&& deliver, bool apply_acks) {
    const unsigned n = receive_[q]->step(deliver);
    if (apply_acks) send_[q]->apply_received_acks();
    return n;
  }
  // Every queue in turn on one lcore.
  template <class Deliver>
  unsigned receive_step(Deliver&& deliver) {
    unsigned n = 0;
    for (unsigned q = 0; q < queues(); ++q) n += receive_step(q, deliver, true);
    return n;
  }

  // Per flow of queue q: the send half (sender role q's lcore) and the
  // receive half (accumulator role q's lcore), each read on its owner's lcore.
  void report_send(unsigned q, std::vector<ConnectionReport>& out) const;
  void report_receive(unsigned q, std::vector<ConnectionReport>& out) const;
  // Both halves of every flow (the caller owns every role, or they stopped).
  std::vector<ConnectionReport> report() const;
  FaultCounts rx_fault_counts() const;
  FaultCounts tx_fault_counts() const;

  SendPath& send_path(unsigned q = 0) { return *send_[q]; }
  const SendPath& send_path(unsigned q = 0) const { return *send_[q]; }
  ReceivePath& receive_path(unsigned q = 0) { return *receive_[q]; }

 private:
  unsigned nodes_;
  unsigned rank_;
  // Declared before the paths, which keep references to them.
  std::vector<std::unique_ptr<AckChannel>> acks_;  // per queue
  std::unique_ptr<AckState[]> ack_states_;         // [queue * nodes + peer]
  std::vector<std::unique_ptr<SendPath>> send_;     // per queue
  std::vector<std::unique_ptr<ReceivePath>> receive_;
};

}  // namespace wg
