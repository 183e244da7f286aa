#include "dataplane/steering.h"

#include <rte_thash.h>

#include <bit>

namespace wg {

// The key most NICs ship with (Microsoft's RSS verification suite; DPDK's
// testpmd default): set explicitly, so a sender knows it without asking.
alignas(4) const uint8_t kRssKey[kRssKeyBytes] = {0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
                                       0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
                                       0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
                                       0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};

const char* steering_name(Steering s) {
  switch (s) {
    case Steering::kSingle: return "one queue";
    case Steering::kQueuePairs: return "memif queue pairs (tx queue q -> peer's rx queue q)";
    case Steering::kFlowRule: return "rte_flow (UDP destination port -> queue)";
    case Steering::kRss: return "RSS (senders pick UDP source ports through wiregraph's key and RETA)";
    case Steering::kKernelFlows: return "tun flow steering (a flow follows this node's last transmission of it)";
    case Steering::kNone: return "none (frames handed to their queue's accumulator in software)";
  }
  return "?";
}

uint32_t rss_hash(const uint8_t* key, uint32_t src_ip, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port) {
  rte_ipv4_tuple t{};
  t.src_addr = src_ip;
  t.dst_addr = dst_ip;
  t.sport = src_port;
  t.dport = dst_port;
  return rte_softrss(reinterpret_cast<uint32_t*>(&t), RTE_THASH_V4_L4_LEN, key);
}

int rss_queue(uint32_t hash, unsigned queues) {
  // Entry (hash mod N) of a RETA of N entries holds queue (hash mod N) mod K.
  if (std::has_single_bit(queues) && queues <= 64) return static_cast<int>(hash & (queues - 1));
  if ((hash & 2047) < 64) return static_cast<int>((hash & 63) % queues);  // the same entry for N = 64 .. 2048
  return -1;
}

uint16_t rss_source_port(uint32_t src_ip, uint32_t dst_ip, uint16_t dst_port, unsigned queue, unsigned queues,
                         uint16_t first) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto port = static_cast<uint16_t>(first + i);
    if (rss_queue(rss_hash(kRssKey, src_ip, dst_ip, port, dst_port), queues) == static_cast<int>(queue)) return port;
  }
  return first;  // unreachable for queue < queues: about 1 port in 32 x queues qualifies
}

}  // namespace wg
