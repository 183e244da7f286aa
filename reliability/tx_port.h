// One transmit function for every frame the transport sends (data,
// retransmissions, ACK-only frames, keepalives), with the port's transmit
// fault injector, if any, in front of the wire.
//
// The one rule for "sent": send(tx, n) returns r, and tx[0..r) are no longer
// the caller's: they left through the port, or the injector took them. The
// injector stands for the wire: what it does to a frame (drop, duplicate,
// hold back, corrupt) and a port that then refuses what the injector let
// through are losses on the wire, which the send window recovers; TxPort
// frees such refused frames itself and counts them (wire_lost()). tx[r..n)
// were not taken and are still the caller's, untouched (without an injector:
// the port's transmit ring was full); the caller frees them or drops its
// extra reference. Without an injector r is what the port took; with one r
// is n.
//
// Owner: the sender role (one TxPort per port, used only on its lcore).
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <memory>

#include "reliability/fault_injector.h"

namespace wg {

class TxPort {
 public:
  // The port's burst function (Dataplane::tx_burst in the runtime, a fake in
  // tests): like rte_eth_tx_burst, takes tx[0..ret) and leaves the rest.
  using Burst = uint16_t (*)(void* ctx, unsigned port, rte_mbuf** tx, uint16_t n);
  // Most frames one send() takes: the injector may return twice as many
  // (duplicates, frames held back that are now due).
  static constexpr uint16_t kMaxBurst = 32;

  TxPort(unsigned port, Burst burst, void* ctx, std::unique_ptr<FaultInjector> faults)
      : port_(port), burst_(burst), ctx_(ctx), faults_(std::move(faults)) {}

  // See the rule above. n <= kMaxBurst.
  uint16_t send(rte_mbuf** tx, uint16_t n, uint64_t now) {
    if (!faults_) return burst_(ctx_, port_, tx, n);
    rte_mbuf* out[2 * kMaxBurst];
    for (uint16_t i = 0; i < n; ++i) out[i] = tx[i];
    wire(out, faults_->apply(out, n, 2 * kMaxBurst, now));
    return n;
  }
  // Frames the injector held back (reorder, delay) that are due now.
  void flush(uint64_t now) {
    if (!faults_) return;
    rte_mbuf* out[2 * kMaxBurst];
    wire(out, faults_->apply(out, 0, 2 * kMaxBurst, now));
  }

  const FaultInjector* faults() const { return faults_.get(); }
  uint64_t wire_lost() const { return wire_lost_; }
  unsigned port() const { return port_; }

 private:
  void wire(rte_mbuf** out, uint16_t n) {
    const uint16_t left = burst_(ctx_, port_, out, n);
    for (uint16_t i = left; i < n; ++i) rte_pktmbuf_free(out[i]);
    wire_lost_ += n - left;
  }

  unsigned port_;
  Burst burst_;
  void* ctx_;
  std::unique_ptr<FaultInjector> faults_;
  uint64_t wire_lost_ = 0;
};

}  // namespace wg
