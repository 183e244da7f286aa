// How a frame of flow (peer, queue q) reaches receive queue q of the peer's
// port: the frame names q (UDP destination port base + q, and the header's
// `queue`), and the port delivers it there by one of these means, found per
// port at start-up (Ports::open) and announced to the peers in the hello:
//
//   kSingle       one receive queue: nothing to steer
//   kQueuePairs   memif: what the sender's tx queue q carries arrives on the
//                 receiver's rx queue q, so senders transmit flow q on tx queue q
//   kFlowRule     rte_flow rules on the port: UDP destination port base + q ->
//                 queue q (real NICs whose PMD supports them)
//   kRss          RSS without rte_flow: the port runs Toeplitz with
//                 wiregraph's key (kRssKey) and a RETA whose entry i is queue
//                 i mod K; a sender to such a port picks, per queue, a UDP
//                 source port whose hash lands on q (rss_source_port)
//   kKernelFlows  net_tap: the kernel's tun device has one queue per DPDK
//                 queue pair and no rte_flow here (no sch_multiq), but its
//                 automatic flow steering sends a flow to the queue this node
//                 last transmitted that flow on (its symmetric hash): since a
//                 node transmits flow q only on tx queue q (acks, END), a
//                 peer's flow-q frames land on rx queue q once this node has
//                 sent one; before that, on the queue of the flow's hash
//   kNone         none of these: frames land on any queue
// Whatever the port does, a frame that lands on another queue than its own is
// handed to that queue's accumulator in software (ReceivePath: the receiving
// queue's `handed_over` counts them), so steering is a matter of speed, never
// of correctness.
//
// Pure functions: no EAL (tests check them against a plain Toeplitz).
#pragma once

#include <cstdint>

namespace wg {

enum class Steering : uint8_t { kSingle = 0, kQueuePairs, kFlowRule, kRss, kKernelFlows, kNone };
const char* steering_name(Steering s);

// wiregraph's RSS key (40 bytes; a port whose key is longer gets it zero
// padded: an IPv4/UDP tuple reads the first 16 bytes only).
inline constexpr unsigned kRssKeyBytes = 40;
alignas(4) extern const uint8_t kRssKey[kRssKeyBytes];

// Toeplitz hash of an IPv4/UDP tuple (addresses and ports in host order),
// as a NIC computes it with `key` (rte_softrss).
uint32_t rss_hash(const uint8_t* key, uint32_t src_ip, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port);

// The queue a port with wiregraph's RETA (entry i -> queue i mod `queues`,
// any power-of-two size from 64 to 2048 entries) gives `hash`, or -1 when
// the answer depends on the RETA's size. rss_source_port only returns ports
// whose hash does not.
int rss_queue(uint32_t hash, unsigned queues);

// A UDP source port from `first` on whose tuple (src_ip, dst_ip, port,
// dst_port) lands on `queue` of `queues` at a kRss receiver. The search
// takes about 32 x queues candidates.
uint16_t rss_source_port(uint32_t src_ip, uint32_t dst_ip, uint16_t dst_port, unsigned queue, unsigned queues,
                         uint16_t first);

}  // namespace wg
