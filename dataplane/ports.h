// Every ethdev port the EAL created: one port on a switch or bridge, or one
// port per peer for point-to-point links such as memif. One RX and one TX
// queue each; bursts run inside memif guard sections (dataplane/memif_guard.h).
//
// Threading: the sender role owns tx_burst, the accumulator role rx_burst.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dataplane/counters.h"
#include "dataplane/frame.h"

namespace wg {

class Ports {
 public:
  static constexpr uint16_t kRxDescriptors = 2048;  // per port (fewer if the PMD allows fewer)
  static constexpr uint16_t kTxDescriptors = 2048;

  struct Port {
    uint16_t id = 0;
    MacAddress mac{};
    bool memif = false;
  };

  // Configures and starts every port the EAL knows, RX queues filling from
  // `rx_pool`. Throws std::runtime_error naming the port and the step.
  void open_all(rte_mempool* rx_pool);
  // Stops and closes every port that may be closed; true if memif ports were
  // left open (dataplane/memif_quirks.h: their pools must then stay too).
  bool close_all();

  unsigned size() const { return static_cast<unsigned>(ports_.size()); }
  const Port& operator[](unsigned i) const { return ports_[i]; }
  bool has_memif() const;

  // rte_eth_tx_burst on port index `port`, counted in `tx`.
  uint16_t tx_burst(unsigned port, rte_mbuf** pkts, uint16_t n, TxCounters& tx);
  uint16_t rx_burst(unsigned port, rte_mbuf** out, uint16_t n);
  // Frames the port dropped on receive so far: rte_eth_stats imissed (RX
  // ring full) + rx_nombuf (no mbuf to receive into). 0 where the PMD does
  // not count them (memif pushes back on the sender instead of dropping;
  // net_tap loses frames in the kernel, before the PMD sees them).
  uint64_t rx_drops(unsigned port) const;

  // The fastest port's reported link speed in Gbps (0 if none reports one).
  double link_speed_gbps() const;
  std::string summary() const;
  // "port 0 up, port 1 down, "
  std::string link_state() const;

 private:
  void open(uint16_t id, rte_mempool* rx_pool);
  std::vector<Port> ports_;
};

}  // namespace wg
