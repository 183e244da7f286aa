// Every ethdev port the EAL created: one port on a switch or bridge, or one
// port per peer for point-to-point links such as memif. K receive and K
// transmit queues each (--rx-queues), steered as dataplane/steering.h says;
// bursts run inside memif guard sections (dataplane/memif_guard.h).
//
// Threading: tx queue q of every port belongs to sender role q, rx queue q to
// accumulator role q.
#pragma once

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dataplane/counters.h"
#include "dataplane/frame.h"
#include "dataplane/ntuple_rules.h"
#include "dataplane/steering.h"

namespace wg {

class Ports {
 public:
  static constexpr uint16_t kRxDescriptors = 2048;  // per port (fewer if the PMD allows fewer)
  static constexpr uint16_t kTxDescriptors = 2048;

  struct Port {
    uint16_t id = 0;
    MacAddress mac{};
    bool memif = false;
    std::string memif_socket;   // its filesystem socket ("" if abstract or not memif)
    bool memif_client = false;  // a memif client on a filesystem socket: starts after its server
    bool rss = false;           // RSS configured (steering may use it)
    std::string driver;
    uint32_t if_index = 0;  // its kernel netdev (net_tap, net_af_xdp), 0: none
    Steering steering = Steering::kSingle;
    // Why rte_flow and RSS were not used, when they were tried (the PMD's
    // own message): what `wiregraph doctor` prints.
    std::string steering_note;
    // net_af_xdp on a netdev with more queues than the port binds: the
    // ntuple rules that steer its flows to them (dataplane/ntuple_rules.h),
    // and what was done ("UDP 9000..9001 to queues 0..1") or why not.
    ntuple::Installed ntuple_rules;
    std::string ntuple_note;
    bool ntuple_missing = false;  // rules were needed and are not there: a warning
  };

  // Configures and starts every port the EAL knows with `queues` queue
  // pairs, RX queues filling from `rx_pool` (its mbufs must hold a frame of
  // `mtu`), and sets each port's steering. Throws std::runtime_error naming
  // the port and the step (a port with too few queues, one that refuses the MTU).
  // rte_flow rules match UDP destination ports udp_base + q. Server ports
  // start first; the memif client ports wait up to `server_wait_s` in all
  // (the node's --hello-timeout) for their servers' (dataplane/memif_quirks.h,
  // workaround 5).
  void open_all(rte_mempool* rx_pool, unsigned queues, uint32_t mtu, uint16_t udp_base, double server_wait_s);
  // The same for port `id` alone (the doctor opens them one by one).
  void open(uint16_t id, rte_mempool* rx_pool, unsigned queues, uint32_t mtu, uint16_t udp_base,
            double server_wait_s);
  // The largest MTU rte_eth_dev_configure accepts for a port with `info`:
  // max_mtu, and what fits max_rx_pktlen with the port's L2 overhead (for
  // net_af_xdp: what one XDP frame holds, kernel_ports.h).
  static uint32_t largest_mtu(const rte_eth_dev_info& info);
  // Stops and closes every port that may be closed; true if memif ports were
  // left open (dataplane/memif_quirks.h: their pools must then stay too).
  bool close_all();

  // --ntuple, for the net_af_xdp ports opened after this call.
  void set_ntuple_mode(ntuple::Mode mode) { ntuple_mode_ = mode; }
  // The warnings a node prints after opening its ports (ntuple rules that
  // were needed and could not be installed), one per line.
  std::vector<std::string> warnings() const;

  unsigned size() const { return static_cast<unsigned>(ports_.size()); }
  const Port& operator[](unsigned i) const { return ports_[i]; }
  bool has_memif() const;

  // rte_eth_tx_burst on queue `queue` of port index `port`, counted in `tx`.
  uint16_t tx_burst(unsigned port, unsigned queue, rte_mbuf** pkts, uint16_t n, TxCounters& tx);
  uint16_t rx_burst(unsigned port, unsigned queue, rte_mbuf** out, uint16_t n);
  // RX descriptors per queue with `queues` queues: kRxDescriptors in all,
  // at least 256 per queue.
  static uint16_t rx_descriptors(unsigned queues);
  // The receive mbufs the EAL's ports will hold in their RX descriptors: a
  // tap or a NIC fills every descriptor at start; memif (copy mode),
  // net_null and net_ring take an mbuf per frame as it arrives.
  static unsigned held_rx_mbufs(unsigned queues);
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
  // kernel_ports::mtu_lowered of every port's netdev, "; "-joined: reads the
  // netdevs' MTU now (a few ioctls: for error messages only).
  std::string mtu_lowered(uint32_t mtu) const;
  // "port 0: memif queue pairs (...); port 1: ..." (one entry per port when they differ)
  std::string steering_summary() const;
  // The steering every port has, if they agree (else kNone): what the hello announces.
  Steering steering() const;

 private:
  // Configures port `id` and sets up its queues; start() starts it.
  static Port configure(uint16_t id, rte_mempool* rx_pool, unsigned queues, uint32_t mtu);
  // `wait_limit` names what set server_wait_s, for the error.
  static void start(Port& p, unsigned queues, uint16_t udp_base, double server_wait_s, const char* wait_limit,
                    ntuple::Mode ntuple_mode);
  // net_af_xdp: the ntuple rules `mode` asks for (dataplane/ntuple_rules.h);
  // throws naming the port when --ntuple on cannot have them.
  static void steer_kernel_queues(Port& p, const rte_eth_dev_info& info, unsigned queues, uint16_t udp_base,
                                  ntuple::Mode mode);
  static Steering steer(uint16_t id, Port& p, unsigned queues, uint16_t udp_base, bool rss_configured);
  std::vector<Port> ports_;
  ntuple::Mode ntuple_mode_ = ntuple::Mode::kAuto;
};

}  // namespace wg
