// The transport's settings as the command line sets them (config/options.h
// embeds them), and the fault-injection spec. Free of DPDK: config/ and the
// tests use it without an EAL.
#pragma once

#include <cstdint>
#include <string>

namespace wg {

// burst: the chance that a frame starts a run of kBurstFrames lost frames
// (a queue that overflows drops everything for a while: congestion, as
// opposed to drop's independent losses).
struct FaultSpec {
  double drop = 0, duplicate = 0, reorder = 0, corrupt = 0, delay = 0, burst = 0;
  bool any() const { return drop > 0 || duplicate > 0 || reorder > 0 || corrupt > 0 || delay > 0 || burst > 0; }
};
inline constexpr unsigned kBurstFrames = 16;

// Parses "drop=0.01,dup=0.05,reorder=0.1,corrupt=0.01,delay=0.1,burst=0.005";
// throws std::invalid_argument naming the bad item.
FaultSpec parse_fault_spec(const std::string& text);
std::string describe(const FaultSpec& f);

struct TransportConfig {
  uint32_t window = 512;           // frames in flight per peer (and reorder buffer size)
  double rto_min_us = 200;         // retransmission timeout bounds (floor: see docs/DESIGN-NOTES.md)
  double rto_max_us = 200000;
  double ast_us = 0.2;             // initial average send time per frame
  double ack_delay_us = 50;        // a delivered frame is acked at most this late
  unsigned ack_every = 16;         // ... or after this many deliveries
  double keepalive_ms = 100;       // an idle connection sends an ACK this often
  bool checksum = true;            // CRC32C over every bucket (measured: no cost end to end)
  FaultSpec rx_faults, tx_faults;
  uint64_t fault_seed = 1;
  double fault_delay_us = 200;     // how long a "delay" fault holds a frame
};

}  // namespace wg
