// Encoding and validation of message-bucket frames (dataplane/wire.h). Pure
// functions over byte buffers: no EAL needed, so they are unit-tested directly.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "dataplane/wire.h"

namespace wg {

using MacAddress = std::array<uint8_t, 6>;

// Who a frame is from and to, at L2-L4. Built once per peer.
struct FrameAddress {
  MacAddress src_mac{};
  MacAddress dst_mac{};
  uint32_t src_ip = 0;  // host order
  uint32_t dst_ip = 0;
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
};

inline constexpr MacAddress kBroadcastMac{0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

// The IPv4 address wiregraph gives node `rank`: 169.254.<job>.<rank+1>, a
// link-local address that never leaves the wiregraph segment.
uint32_t node_ipv4(uint32_t job_token, unsigned rank);

// Writes Ethernet, IPv4 and UDP headers for a bucket whose wiregraph header +
// payload is `bucket_bytes` long. Returns the frame length.
uint16_t write_l2_l4(uint8_t* frame, const FrameAddress& a, uint16_t bucket_bytes);

// Fills the wiregraph header (nonce and tag 0).
void write_bucket_header(uint8_t* frame, wire::Kind kind, uint32_t job_token, unsigned src,
                         unsigned dst, uint32_t superstep, uint16_t count);

inline wire::BucketHeader* bucket_header(uint8_t* frame) {
  return reinterpret_cast<wire::BucketHeader*>(frame + wire::kHeaderOffset);
}
inline const wire::BucketHeader* bucket_header(const uint8_t* frame) {
  return reinterpret_cast<const wire::BucketHeader*>(frame + wire::kHeaderOffset);
}
inline wire::Record* records(uint8_t* frame) {
  return reinterpret_cast<wire::Record*>(frame + wire::kPayloadOffset);
}
inline const wire::Record* records(const uint8_t* frame) {
  return reinterpret_cast<const wire::Record*>(frame + wire::kPayloadOffset);
}

// Why a received frame was dropped. Each has a counter in the node report.
enum class DropReason : uint8_t {
  kNone = 0,
  kNotWiregraph,    // not IPv4/UDP to our port: ARP, IPv6 neighbour discovery, strangers
  kTooShort,        // shorter than the headers it claims
  kBadIpHeader,     // IPv4 header length/total length inconsistent with the frame
  kBadMagic,
  kBadVersion,
  kWrongJob,        // another wiregraph job on the same segment
  kBadRank,         // source rank >= P, or our own rank
  kNotForMe,        // destination rank is another node
  kBadKind,
  kBadCount,        // record count above the maximum, or payload shorter than count says
  kBadSuperstep,    // data for a superstep this node cannot accept now
  kIndexOutOfRange, // a record's local index >= this node's vertex count
  kBadControl,      // control payload too short or inconsistent
  kBadChecksum,     // CRC32C of the bucket does not match (bits flipped on the way)
  kDuplicate,       // a retransmitted or duplicated frame already delivered
  kBeyondWindow,    // too far ahead of the next expected frame; it will be resent
  kSlotOverflow,    // more messages for a vertex than it has in-edges (slot accumulators)
  kBadDomain,       // destination range beyond this node's ranges, or a range another queue owns
  kBadQueue,        // receive queue beyond --rx-queues, or not the one its UDP port names
  kBadMac,          // the tag is not the frame's MAC under its sender's key (forged, corrupted, another key)
  kWrongAddress,    // from a rank learned at another port or source MAC (or a HELLO naming another)
  kUnverifiedPeer,  // from a rank whose HELLO has not been verified yet: no key to check it; it is resent
  kAuthMismatch,    // a MAC at a node without a key, or none at a node with one (--no-auth on some nodes)
  kNumReasons,
};
const char* drop_reason_name(DropReason r);
// Whether a drop for this reason says something is wrong: a forgery, a
// corruption, a misconfigured or foreign sender, a bug. A healthy link gives
// only the others: frames that are not wiregraph's or not for this node (a
// bridge floods), copies of frames already delivered and frames too far ahead
// (both retransmitted), frames that came before their sender's hello.
bool drop_is_alarming(DropReason r);

struct ValidationContext {
  uint32_t job_token;
  unsigned my_rank;
  unsigned nodes;
  uint16_t udp_port;
  unsigned domains = 1;  // a data bucket's range (its header's domain) is below this
  unsigned queues = 1;   // receive queues: UDP ports udp_port .. udp_port + queues - 1
  uint32_t mtu = wire::kMtu;  // the largest frame is this plus the Ethernet header
  // The smallest record of any phase (8 bytes): the count is checked against
  // it here, and against the phase's own record size by the runtime.
  unsigned record_bytes = sizeof(wire::Record);
};

// Checks everything about a frame that does not depend on engine state:
// L2-L4 framing, magic, version, job, ranks, kind, queue (the header's and
// the UDP port's agree), count vs length.
DropReason validate_frame(const uint8_t* frame, uint32_t len, const ValidationContext& ctx);

// CRC32C of a bucket (wiregraph header + payload, up to `len` bytes of the
// frame) with the tag field taken as zero: dataplane/crc32c.h, the fastest
// way the CPU offers. Frames of nodes without a key (--no-auth) carry it in
// the tag's first 4 bytes.
uint32_t bucket_crc(const uint8_t* frame, uint32_t len);
inline void seal_bucket(uint8_t* frame, uint32_t len) {
  const uint32_t crc = bucket_crc(frame, len);
  std::memcpy(bucket_header(frame)->tag, &crc, sizeof crc);
}
inline bool bucket_crc_ok(const uint8_t* frame, uint32_t len) {
  uint32_t crc;
  std::memcpy(&crc, bucket_header(frame)->tag, sizeof crc);
  return crc == bucket_crc(frame, len);
}

// Payload bytes of a validated frame (after the wiregraph header), from its
// IPv4 total length.
inline uint32_t frame_payload_bytes(const uint8_t* frame) {
  uint16_t ip_len_be;
  std::memcpy(&ip_len_be, frame + wire::kEthHeaderBytes + 2, 2);
  return static_cast<uint32_t>(__builtin_bswap16(ip_len_be)) + wire::kEthHeaderBytes - wire::kPayloadOffset;
}

// Largest record index in a data bucket (for the range check before folding;
// a separate pass vectorises and keeps the fold loop free of branches).
inline uint32_t max_record_index(const wire::Record* r, unsigned count) {
  uint32_t m = 0;
  for (unsigned i = 0; i < count; ++i) m = r[i].index > m ? r[i].index : m;
  return m;
}

}  // namespace wg
