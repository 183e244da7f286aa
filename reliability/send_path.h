// The transport's send path. Owner: the sender role (one lcore).
//
// Owns the SendWindows (sequence numbers, frames kept for retransmission by
// mbuf reference, loss recovery: selective acks, time-based loss detection,
// tail-loss probes, timeouts; pacing by AST x N), ack stamping, ACK frames
// (cumulative + selective ack, receive drops) and keepalives, and every
// transmission (TxPort, one per port, with the port's transmit fault
// injector).
//
// Reads from the receive path: received acks through the AckChannel (applied
// by apply_received_acks(), in arrival order) and what to ack through each
// peer's AckState (single-writer atomics).
#pragma once

#include <rte_mbuf.h>

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
  SendPath(Dataplane& dp, const TransportConfig& cfg, AckChannel& acks_in, AckState* ack_states);
  ~SendPath();
  SendPath(const SendPath&) = delete;
  SendPath& operator=(const SendPath&) = delete;

  // Admit queued buckets, (re)transmit what pacing allows (frames marked
  // lost first), run the loss-detection, probe and timeout timers, send due
  // acks and keepalives. Returns data frames sent.
  unsigned step();
  // Apply the acks the receive path queued (SendWindow::on_ack, in order).
  void apply_received_acks();

  bool acked_by(unsigned peer) const;
  void set_keepalive_ticks(uint64_t t) { keepalive_ticks_ = t; }
  const SendWindow& window(unsigned peer) const { return *conns_[peer].window; }
  uint64_t acks_sent(unsigned peer) const { return conns_[peer].acks_sent; }
  FaultCounts fault_counts() const;

 private:
  // All fields: sender role.
  struct Connection {
    std::unique_ptr<SendWindow> window;
    uint32_t acked_to_peer = 0;  // last ack value sent
    uint64_t last_tx_tsc = 0;
    uint64_t acks_sent = 0;      // ACK-only frames
  };
  // What an ack stamped now covers (read before the ack value: an ack newer
  // than the counts only makes us ack again, never too little).
  struct AckSnapshot {
    uint64_t delivered, requests;
    uint32_t ack;
  };

  unsigned send_connection(unsigned peer, uint64_t now);
  void send_ack(unsigned peer, uint64_t now);
  void stamp(rte_mbuf* m, uint32_t seq, uint32_t ack, uint64_t now) const;
  AckSnapshot snapshot(unsigned peer) const;
  void acked(unsigned peer, const AckSnapshot& s, uint64_t now);

  Dataplane& dp_;
  TransportConfig cfg_;
  unsigned rank_;
  AckChannel& acks_in_;
  AckState* ack_states_;
  std::vector<Connection> conns_;
  std::vector<TxPort> ports_;
  uint64_t ack_delay_ticks_;
  uint64_t keepalive_ticks_;
};

}  // namespace wg
