#include "dataplane/frame.h"

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "dataplane/crc32c.h"

namespace wg {

uint32_t node_ipv4(uint32_t job_token, unsigned rank) {
  return (169u << 24) | (254u << 16) | ((job_token & 0xff) << 8) | ((rank + 1) & 0xff);
}

uint16_t write_l2_l4(uint8_t* frame, const FrameAddress& a, uint16_t bucket_bytes) {
  auto* eth = reinterpret_cast<rte_ether_hdr*>(frame);
  std::memcpy(eth->dst_addr.addr_bytes, a.dst_mac.data(), 6);
  std::memcpy(eth->src_addr.addr_bytes, a.src_mac.data(), 6);
  eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);

  const uint16_t ip_len = wire::kIpv4HeaderBytes + wire::kUdpHeaderBytes + bucket_bytes;
  auto* ip = reinterpret_cast<rte_ipv4_hdr*>(frame + wire::kEthHeaderBytes);
  ip->version_ihl = RTE_IPV4_VHL_DEF;
  ip->type_of_service = 0;
  ip->total_length = rte_cpu_to_be_16(ip_len);
  ip->packet_id = 0;
  ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
  ip->time_to_live = 64;
  ip->next_proto_id = IPPROTO_UDP;
  ip->hdr_checksum = 0;
  ip->src_addr = rte_cpu_to_be_32(a.src_ip);
  ip->dst_addr = rte_cpu_to_be_32(a.dst_ip);
  ip->hdr_checksum = rte_ipv4_cksum(ip);

  auto* udp = reinterpret_cast<rte_udp_hdr*>(frame + wire::kEthHeaderBytes + wire::kIpv4HeaderBytes);
  udp->src_port = rte_cpu_to_be_16(a.src_port);
  udp->dst_port = rte_cpu_to_be_16(a.dst_port);
  udp->dgram_len = rte_cpu_to_be_16(wire::kUdpHeaderBytes + bucket_bytes);
  udp->dgram_cksum = 0;
  return wire::kEthHeaderBytes + ip_len;
}

void write_bucket_header(uint8_t* frame, wire::Kind kind, uint32_t job_token, unsigned src,
                         unsigned dst, uint32_t superstep, uint16_t count) {
  wire::BucketHeader* h = bucket_header(frame);
  h->magic = wire::kMagic;
  h->version = wire::kVersion;
  h->kind = static_cast<uint8_t>(kind);
  h->job_token = job_token;
  h->src_rank = static_cast<uint8_t>(src);
  h->dst_rank = static_cast<uint8_t>(dst);
  h->count = count;
  h->superstep = superstep;
  h->seq = 0;
  h->ack = 0;
  h->tsval = 0;
  h->flags = wire::kFlagNone;
  h->queue = 0;
  h->domain = 0;
  std::memset(h->nonce, 0, sizeof h->nonce);
  std::memset(h->tag, 0, sizeof h->tag);
}

uint32_t bucket_crc(const uint8_t* frame, uint32_t len) {
  constexpr uint32_t kField = offsetof(wire::BucketHeader, tag);
  constexpr uint32_t kFieldBytes = sizeof(wire::BucketHeader::tag);
  const uint8_t* h = frame + wire::kHeaderOffset;
  const uint32_t n = len - wire::kHeaderOffset;
  static constexpr uint8_t kZero[kFieldBytes] = {};
  uint32_t crc = crc32c_serial(h, kField, 0xffffffffu);
  crc = crc32c_serial(kZero, kFieldBytes, crc);
  return crc32c(h + kField + kFieldBytes, n - kField - kFieldBytes, crc);
}

const char* drop_reason_name(DropReason r) {
  switch (r) {
    case DropReason::kNone: return "none";
    case DropReason::kNotWiregraph: return "not_wiregraph";
    case DropReason::kTooShort: return "too_short";
    case DropReason::kBadIpHeader: return "bad_ip_header";
    case DropReason::kBadMagic: return "bad_magic";
    case DropReason::kBadVersion: return "bad_version";
    case DropReason::kWrongJob: return "wrong_job";
    case DropReason::kBadRank: return "bad_rank";
    case DropReason::kNotForMe: return "not_for_me";
    case DropReason::kBadKind: return "bad_kind";
    case DropReason::kBadCount: return "bad_count";
    case DropReason::kBadSuperstep: return "bad_superstep";
    case DropReason::kIndexOutOfRange: return "index_out_of_range";
    case DropReason::kBadControl: return "bad_control";
    case DropReason::kBadChecksum: return "bad_checksum";
    case DropReason::kDuplicate: return "duplicate";
    case DropReason::kBeyondWindow: return "beyond_window";
    case DropReason::kSlotOverflow: return "slot_overflow";
    case DropReason::kBadDomain: return "bad_domain";
    case DropReason::kBadQueue: return "bad_queue";
    case DropReason::kBadMac: return "bad_mac";
    case DropReason::kWrongAddress: return "wrong_address";
    case DropReason::kUnverifiedPeer: return "unverified_peer";
    case DropReason::kAuthMismatch: return "auth_mismatch";
    case DropReason::kNumReasons: break;
  }
  return "unknown";
}

bool drop_is_alarming(DropReason r) {
  switch (r) {
    case DropReason::kNone:
    case DropReason::kNotWiregraph:
    case DropReason::kNotForMe:
    case DropReason::kDuplicate:
    case DropReason::kBeyondWindow:
    case DropReason::kUnverifiedPeer:
    case DropReason::kNumReasons: return false;
    default: return true;
  }
}

namespace {
uint16_t control_payload_bytes(wire::Kind k) {
  switch (k) {
    case wire::Kind::kEnd: return sizeof(wire::EndPayload);
    case wire::Kind::kHello: return sizeof(wire::HelloPayload);
    case wire::Kind::kFin: return sizeof(wire::FinPayload);
    case wire::Kind::kAbort: return sizeof(wire::AbortPayload);
    case wire::Kind::kAck: return 0;  // variable: validated on its own
    case wire::Kind::kData: break;
  }
  return 0;
}
}  // namespace

DropReason validate_frame(const uint8_t* frame, uint32_t len, const ValidationContext& ctx) {
  if (len < wire::kEthHeaderBytes + wire::kIpv4HeaderBytes) return DropReason::kNotWiregraph;
  const auto* eth = reinterpret_cast<const rte_ether_hdr*>(frame);
  if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4)) return DropReason::kNotWiregraph;
  const auto* ip = reinterpret_cast<const rte_ipv4_hdr*>(frame + wire::kEthHeaderBytes);
  if (ip->next_proto_id != IPPROTO_UDP) return DropReason::kNotWiregraph;
  if (ip->version_ihl != RTE_IPV4_VHL_DEF) return DropReason::kBadIpHeader;
  if (len < wire::kPayloadOffset) {
    // Could be someone else's tiny UDP datagram: only ours if the port matches.
    if (len < wire::kHeaderOffset) return DropReason::kNotWiregraph;
  }
  const auto* udp =
      reinterpret_cast<const rte_udp_hdr*>(frame + wire::kEthHeaderBytes + wire::kIpv4HeaderBytes);
  const uint16_t dst_port = rte_be_to_cpu_16(udp->dst_port);
  if (dst_port < ctx.udp_port || unsigned{dst_port} - ctx.udp_port >= ctx.queues) return DropReason::kNotWiregraph;
  if (len < wire::kPayloadOffset) return DropReason::kTooShort;

  // The IP total length bounds what we may read: padding after it is not payload.
  const uint32_t ip_len = rte_be_to_cpu_16(ip->total_length);
  if (ip_len + wire::kEthHeaderBytes > len ||
      ip_len < wire::kPayloadOffset - wire::kEthHeaderBytes)
    return DropReason::kBadIpHeader;
  const uint32_t payload_len = ip_len + wire::kEthHeaderBytes - wire::kPayloadOffset;

  const wire::BucketHeader* h = bucket_header(frame);
  if (h->magic != wire::kMagic) return DropReason::kBadMagic;
  if (h->version != wire::kVersion) return DropReason::kBadVersion;
  if (h->job_token != ctx.job_token) return DropReason::kWrongJob;
  if (h->src_rank >= ctx.nodes || h->src_rank == ctx.my_rank) return DropReason::kBadRank;
  if (h->dst_rank != ctx.my_rank && h->dst_rank != wire::kBroadcastRank) return DropReason::kNotForMe;
  if (h->queue >= ctx.queues || unsigned{dst_port} != unsigned{ctx.udp_port} + h->queue) return DropReason::kBadQueue;

  const auto kind = static_cast<wire::Kind>(h->kind);
  if (kind == wire::Kind::kData) {
    if (h->dst_rank == wire::kBroadcastRank) return DropReason::kNotForMe;
    if (h->count == 0 || h->count > wire::records_per_bucket(ctx.record_bytes, ctx.mtu)) return DropReason::kBadCount;
    if (uint32_t{h->count} * ctx.record_bytes > payload_len) return DropReason::kBadCount;
    if (h->domain >= ctx.domains) return DropReason::kBadDomain;
    return DropReason::kNone;
  }
  if (kind == wire::Kind::kAck) {
    if (h->dst_rank == wire::kBroadcastRank) return DropReason::kNotForMe;
    // An AckPayload whose sack_words agrees with the count.
    if (h->count < wire::kAckPayloadFixedBytes || h->count > sizeof(wire::AckPayload) ||
        (h->count - wire::kAckPayloadFixedBytes) % 8 != 0 || payload_len < h->count)
      return DropReason::kBadControl;
    uint16_t words;
    std::memcpy(&words, frame + wire::kPayloadOffset + offsetof(wire::AckPayload, sack_words), sizeof words);
    return wire::ack_payload_bytes(words) == h->count ? DropReason::kNone : DropReason::kBadControl;
  }
  const uint16_t need = control_payload_bytes(kind);
  if (need == 0) return DropReason::kBadKind;
  if (h->count != need || payload_len < need) return DropReason::kBadControl;
  return DropReason::kNone;
}

}  // namespace wg
