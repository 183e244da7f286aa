// Which port and which addresses reach each rank: filled by the hello
// exchange (reliability/membership.h), read by everything that addresses a
// frame. Written only during discovery, before data flows to that peer.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <vector>

#include "dataplane/frame.h"

namespace wg {

class PeerTable {
 public:
  PeerTable(unsigned nodes, uint32_t job_token, unsigned rank, uint16_t udp_port);

  bool known(unsigned rank) const { return peers_[rank].known; }
  // Records that `rank` answers on port index `port` (whose own MAC is
  // `port_mac`) from `mac`. False if the rank was already known at another
  // address (two nodes claim it).
  bool learn(unsigned rank, unsigned port, const MacAddress& port_mac, const MacAddress& mac);
  const FrameAddress& address_of(unsigned rank) const { return peers_[rank].addr; }
  unsigned port_of(unsigned rank) const { return peers_[rank].port; }
  // Fills L2-L4 headers for `rank` and sets the mbuf lengths; the wiregraph
  // header and payload (bucket_bytes of them) must already be written.
  void address(rte_mbuf* m, unsigned rank, uint16_t bucket_bytes) const;

 private:
  struct Peer {
    bool known = false;
    unsigned port = 0;
    FrameAddress addr;
  };
  std::vector<Peer> peers_;
  uint32_t job_token_;
  unsigned rank_;
  uint16_t udp_port_;
};

}  // namespace wg
