// The transport's send path of one queue q. Owner: sender role q (one lcore).
//
// Owns the SendWindows of the flows (peer, q) to every peer (sequence
// numbers, frames kept for retransmission by mbuf reference, loss recovery:
// selective acks, time-based loss detection, tail-loss probes, timeouts;
// pacing by AST x N), ack stamping, ACK frames (cumulative + selective ack,
// receive drops) and keepalives of those flows, and every transmission on tx
// queue q of every port (TxPort, one per port, with its transmit fault
// injector). Flow q travels on tx queue q only, which is what steers it on
// memif (queue pairs) and net_tap (tun flow steering: dataplane/steering.h).
// Sender role 0 also sends the hellos (Dataplane::broadcast). Every frame is
// sealed here at each transmission (FrameSealer: the MAC with this role's
// next nonce, or the CRC without a key). A flow starts once membership has
// confirmed its peer: its first sequence number comes from the peer's salt
// (FrameAuth::send_isn).
//
// Reads from receive path q: received acks through its AckChannel (applied
// by apply_received_acks(), in arrival order) and what to ack through each
// peer's AckState of queue q (single-writer atomics).
#pragma once

#include <rte_mbuf.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "dataplane/dataplane.h"
#include "reliability/ack_channel.h"
#include "reliability/ack_state.h"
#include "reliability/send_window.h"
#include "reliability/transport_config.h"
#include "reliability/tx_port.h"

namespace wg {

// The SendWindows' settings from the command line's.
inline constexpr double kInitialRtoUs = 10000;  // RTO before the first RTT sample
inline constexpr double kQueueSlackUs = 100;     // queue growth: see CongestionConfig::queue_slack_ticks
inline constexpr double kStallHalfLifeUs = 100000;  // a slow peer's floor on the timers halves every 100 ms
CongestionConfig congestion_config(const TransportConfig& cfg);

class SendPath {
 public:
  // ack_states: queue q's, one per peer.
  SendPath(Dataplane& dp, const TransportConfig& cfg, unsigned queue, AckChannel& acks_in, AckState* ack_states);
  ~SendPath();
  SendPath(const SendPath&) = delete;
  SendPath& operator=(const SendPath&) = delete;

  // Admit queued buckets, (re)transmit what pacing allows (frames marked
  // lost first), run the loss-detection, probe and timeout timers, send due
  // acks and keepalives. Returns data frames sent.
  unsigned step();
  // Apply the acks the receive path queued (SendWindow::on_ack, in order).
  void apply_received_acks();

  // Every frame queued for flow (peer, q) has been acked: exact on the
  // owner's lcore. Other lcores read what the last step published, and the
  // count of steps, to know it is fresh (see the runtime's finish).
  bool acked_by(unsigned peer) const;
  bool published_acked_by(unsigned peer) const { return published_acked_[peer].load(std::memory_order_acquire); }
  uint64_t steps() const { return steps_.load(std::memory_order_acquire); }
  // Any lcore (the runtime's finish shortens the keepalive interval).
  void set_keepalive_ticks(uint64_t t) { keepalive_ticks_.store(t, std::memory_order_relaxed); }
  unsigned queue() const { return target_.queue; }
  const SendWindow& window(unsigned peer) const { return *conns_[peer].window; }
  uint64_t acks_sent(unsigned peer) const { return conns_[peer].acks_sent; }
  FaultCounts fault_counts() const;
  // This lcore is about to compute without network passes (every role on
  // one lcore, the loader's build): an ACK to every confirmed peer says so
  // (wire::kAckQuiet), and they hold their timers until our next frame.
  void announce_quiet();

 private:
  // All fields: sender role.
  struct Connection {
    std::unique_ptr<SendWindow> window;
    bool started = false;        // the window starts at the flow's ISN (the peer is confirmed)
    uint32_t acked_to_peer = 0;  // last ack value sent
    uint64_t last_tx_tsc = 0;
    uint64_t acks_sent = 0;      // ACK-only frames
    uint32_t duplicates_reported = 0;  // AckState::duplicate's count as of the last ACK
  };
  // What an ack stamped now covers (read before the ack value: an ack newer
  // than the counts only makes us ack again, never too little).
  struct AckSnapshot {
    uint64_t delivered, requests;
    uint32_t ack;
  };

  unsigned send_connection(unsigned peer, uint64_t now);
  static uint16_t burst(void* target, unsigned port, rte_mbuf** tx, uint16_t n);
  void send_ack(unsigned peer, uint64_t now, bool quiet = false);
  void stamp(rte_mbuf* m, uint32_t seq, uint32_t ack, uint64_t now);
  // The peer is confirmed and its flow's window starts at its ISN.
  bool start(unsigned peer);
  AckSnapshot snapshot(unsigned peer) const;
  void acked(unsigned peer, const AckSnapshot& s, uint64_t now);

  struct TxTarget {
    Dataplane* dp;
    unsigned queue;
  };

  Dataplane& dp_;
  TransportConfig cfg_;
  unsigned rank_;
  TxTarget target_;  // what the TxPorts transmit through: tx queue q
  FrameSealer sealer_;
  AckChannel& acks_in_;
  AckState* ack_states_;
  std::vector<Connection> conns_;
  std::vector<TxPort> ports_;
  uint64_t ack_delay_ticks_;
  std::atomic<uint64_t> keepalive_ticks_;
  // Published at the end of every step (sender role), read anywhere.
  std::unique_ptr<std::atomic<bool>[]> published_acked_;
  std::atomic<uint64_t> steps_{0};
};

}  // namespace wg
