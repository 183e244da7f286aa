#include "dataplane/peer_table.h"

namespace wg {

PeerTable::PeerTable(unsigned nodes, uint32_t job_token, unsigned rank, uint16_t udp_port)
    : peers_(nodes), job_token_(job_token), rank_(rank), udp_port_(udp_port) {}

bool PeerTable::learn(unsigned rank, unsigned port, const MacAddress& port_mac, const MacAddress& mac) {
  Peer& peer = peers_[rank];
  if (peer.known) return peer.port == port && peer.addr.dst_mac == mac;
  peer.known = true;
  peer.port = port;
  peer.addr.src_mac = port_mac;
  peer.addr.dst_mac = mac;
  peer.addr.src_ip = node_ipv4(job_token_, rank_);
  peer.addr.dst_ip = node_ipv4(job_token_, rank);
  peer.addr.src_port = udp_port_;
  peer.addr.dst_port = udp_port_;
  return true;
}

void PeerTable::address(rte_mbuf* m, unsigned rank, uint16_t bucket_bytes) const {
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  const uint16_t len = write_l2_l4(frame, peers_[rank].addr, bucket_bytes);
  m->data_len = len;
  m->pkt_len = len;
}

}  // namespace wg
