// Deterministic fault injection on a burst of frames, for tests and for users
// who want to see the transport work: drop, duplicate, reorder, corrupt and
// delay a given fraction of frames, or lose runs of kBurstFrames frames (a
// congested queue), from a seeded generator. One injector
// sits after rx_burst (receive) and one before tx_burst (transmit) on every
// port: a port wrapper, so the PMD and the rest of the dataplane are the real
// ones. Corruption flips one random bit of the wiregraph header or payload.
//
// Owner: the role that owns the port direction (accumulator: rx; sender: tx).
#pragma once

#include <rte_mbuf.h>

#include <array>
#include <cstdint>
#include <deque>
#include <string>

#include "reliability/transport_config.h"

namespace wg {

struct FaultCounts {
  uint64_t seen = 0, dropped = 0, duplicated = 0, reordered = 0, corrupted = 0, delayed = 0;
  FaultCounts& operator+=(const FaultCounts& o) {
    seen += o.seen;
    dropped += o.dropped;
    duplicated += o.duplicated;
    reordered += o.reordered;
    corrupted += o.corrupted;
    delayed += o.delayed;
    return *this;
  }
};

class FaultInjector {
 public:
  FaultInjector(const FaultSpec& spec, uint64_t seed, uint64_t delay_ticks, rte_mempool* pool, bool copy_on_corrupt);
  ~FaultInjector();
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  bool active() const { return spec_.any(); }
  // Rewrites pkts[0..n) in place (up to `cap` entries) and returns the new
  // count. Frames held for reordering or delay come out in a later call.
  uint16_t apply(rte_mbuf** pkts, uint16_t n, uint16_t cap, uint64_t now);
  const FaultCounts& counts() const { return counts_; }

 private:
  struct Held {
    rte_mbuf* m;
    uint64_t release_tsc;
  };
  double uniform();
  rte_mbuf* corrupt(rte_mbuf* m);

  FaultSpec spec_;
  uint64_t state_;
  uint64_t delay_ticks_;
  rte_mempool* pool_;
  bool copy_on_corrupt_;  // transmit side: the sender keeps the original for retransmission
  std::deque<rte_mbuf*> reordered_;  // out on the next call, behind that call's frames' predecessors
  std::deque<Held> delayed_;         // out once release_tsc has passed (FIFO: equal delays)
  unsigned burst_left_ = 0;          // frames still to drop in the current burst
  FaultCounts counts_;
};

}  // namespace wg
