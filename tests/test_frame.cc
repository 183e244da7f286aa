// Frame encoding and validation (dataplane/frame.h). No EAL: these are pure
// functions over byte buffers.
//
// Expected values are written from the wire layout in dataplane/wire.h and the
// Ethernet/IPv4/UDP standards, reading fields by byte offset (never through
// the structs the code under test uses), and the IPv4 header checksum is
// recomputed here with the RFC 1071 algorithm.
#include "dataplane/frame.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "dataplane/wire.h"

namespace wg {
namespace {

constexpr uint32_t kJob = 0x12345678;
constexpr uint16_t kPort = 47000;  // 0xb798
constexpr unsigned kNodes = 3;
constexpr unsigned kMe = 1;
constexpr unsigned kPeer = 2;

const ValidationContext kCtx{kJob, kMe, kNodes, kPort};

// ---- independent readers --------------------------------------------------

uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
uint32_t be32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}
uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint32_t le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
void put_be16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
void put_le16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
void put_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// RFC 1071: one's complement of the one's complement sum of 16-bit words.
uint16_t rfc1071(const uint8_t* p, size_t n) {
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < n; i += 2) sum += uint32_t{p[i]} << 8 | p[i + 1];
  if (n & 1) sum += uint32_t{p[n - 1]} << 8;
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum & 0xffff);
}

// Byte offsets (Ethernet 14, IPv4 20, UDP 8, then our 54-byte header).
constexpr size_t kEthType = 12;
constexpr size_t kIp = 14;
constexpr size_t kIpTotalLen = kIp + 2;
constexpr size_t kIpProto = kIp + 9;
constexpr size_t kIpCksum = kIp + 10;
constexpr size_t kUdp = 34;
constexpr size_t kHdr = 42;
constexpr size_t kHdrVersion = kHdr + 2;
constexpr size_t kHdrKind = kHdr + 3;
constexpr size_t kHdrJob = kHdr + 4;
constexpr size_t kHdrSrc = kHdr + 8;
constexpr size_t kHdrDst = kHdr + 9;
constexpr size_t kHdrCount = kHdr + 10;
constexpr size_t kHdrFlags = kHdr + 28;
constexpr size_t kHdrQueue = kHdr + 29;
constexpr size_t kHdrDomain = kHdr + 30;
constexpr size_t kHdrNonce = kHdr + 32;
constexpr size_t kHdrTag = kHdr + 38;
constexpr size_t kHeaderBytes = 54;
constexpr size_t kRecords = 96;

// ---- frame builders -------------------------------------------------------

FrameAddress address_from(unsigned src, unsigned dst) {
  FrameAddress a;
  a.src_mac = {0x02, 0x00, 0x00, 0x00, 0x00, static_cast<uint8_t>(src)};
  a.dst_mac = {0x02, 0x00, 0x00, 0x00, 0x00, static_cast<uint8_t>(dst)};
  a.src_ip = node_ipv4(kJob, src);
  a.dst_ip = node_ipv4(kJob, dst);
  a.src_port = kPort;
  a.dst_port = kPort;
  return a;
}

// A data frame from kPeer to kMe with `count` records (index i*3, value i+100).
std::vector<uint8_t> data_frame(uint16_t count, unsigned src = kPeer, unsigned dst = kMe) {
  std::vector<uint8_t> f(kRecords + count * 8u + 8, 0xee);  // slack, trimmed below
  write_bucket_header(f.data(), wire::Kind::kData, kJob, src, dst, 7, count);
  for (unsigned i = 0; i < count; ++i) {
    put_le32(&f[kRecords + 8 * i], i * 3);
    put_le32(&f[kRecords + 8 * i + 4], i + 100);
  }
  const uint16_t len = write_l2_l4(f.data(), address_from(src, dst),
                                   static_cast<uint16_t>(kHeaderBytes + count * 8));
  f.resize(len);
  return f;
}

std::vector<uint8_t> control_frame(wire::Kind kind, uint16_t payload, unsigned dst = kMe) {
  std::vector<uint8_t> f(kRecords + payload, 0);
  write_bucket_header(f.data(), kind, kJob, kPeer, dst, 3, payload);
  for (size_t i = kRecords; i < f.size(); ++i) f[i] = static_cast<uint8_t>(i);
  const uint16_t len = write_l2_l4(f.data(), address_from(kPeer, kMe), static_cast<uint16_t>(kHeaderBytes + payload));
  EXPECT_EQ(len, f.size());
  return f;
}

// Validates a copy in a heap block of exactly `len` bytes, so that a read past
// the end is caught by AddressSanitizer in the sanitizer build.
DropReason validate_exact(const uint8_t* bytes, size_t len, const ValidationContext& ctx = kCtx) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[len]);
  if (len != 0) std::memcpy(copy.get(), bytes, len);
  return validate_frame(copy.get(), static_cast<uint32_t>(len), ctx);
}
DropReason validate_exact(const std::vector<uint8_t>& f, const ValidationContext& ctx = kCtx) {
  return validate_exact(f.data(), f.size(), ctx);
}

// Rewrites the IPv4 total length (and the UDP length) to say `ip_len`.
void set_ip_len(std::vector<uint8_t>& f, uint16_t ip_len) {
  put_be16(&f[kIpTotalLen], ip_len);
  put_be16(&f[kUdp + 4], static_cast<uint16_t>(ip_len - 20));
}

// ---- encoding -------------------------------------------------------------

TEST(FrameEncode, DataFrameLayout) {
  constexpr uint16_t kCount = 5;
  const std::vector<uint8_t> f = data_frame(kCount);
  // 14 + 20 + 8 + 54 + 5 * 8
  ASSERT_EQ(f.size(), 136u);
  const uint8_t* p = f.data();

  // Ethernet: dst then src MAC, type IPv4.
  const uint8_t dst_mac[6] = {0x02, 0, 0, 0, 0, kMe};
  const uint8_t src_mac[6] = {0x02, 0, 0, 0, 0, kPeer};
  EXPECT_EQ(std::memcmp(p, dst_mac, 6), 0);
  EXPECT_EQ(std::memcmp(p + 6, src_mac, 6), 0);
  EXPECT_EQ(p[kEthType], 0x08);
  EXPECT_EQ(p[kEthType + 1], 0x00);

  // IPv4: version 4, IHL 5 words, total length = 136 - 14, DF, TTL > 0, UDP.
  EXPECT_EQ(p[kIp] >> 4, 4);
  EXPECT_EQ(p[kIp] & 0xf, 5);
  EXPECT_EQ(be16(p + kIpTotalLen), 122);
  EXPECT_EQ(be16(p + kIp + 6) & 0x4000, 0x4000) << "DF flag";
  EXPECT_EQ(be16(p + kIp + 6) & 0x3fff, 0) << "no fragment offset / MF";
  EXPECT_GT(p[kIp + 8], 0) << "TTL";
  EXPECT_EQ(p[kIpProto], 17);
  // 169.254.<job & 0xff>.<rank + 1>
  EXPECT_EQ(be32(p + kIp + 12), (169u << 24) | (254u << 16) | (0x78u << 8) | (kPeer + 1));
  EXPECT_EQ(be32(p + kIp + 16), (169u << 24) | (254u << 16) | (0x78u << 8) | (kMe + 1));

  // Header checksum: recompute with the field zeroed, and verify the whole
  // header sums to 0xffff (i.e. RFC 1071 over it gives 0).
  std::vector<uint8_t> ip(p + kIp, p + kIp + 20);
  ip[10] = ip[11] = 0;
  EXPECT_EQ(be16(p + kIpCksum), rfc1071(ip.data(), ip.size()));
  EXPECT_EQ(rfc1071(p + kIp, 20), 0);

  // UDP: ports 47000 = 0xb798 in network order, length 8 + 54 + 40, checksum 0.
  EXPECT_EQ(p[kUdp], 0xb7);
  EXPECT_EQ(p[kUdp + 1], 0x98);
  EXPECT_EQ(p[kUdp + 2], 0xb7);
  EXPECT_EQ(p[kUdp + 3], 0x98);
  EXPECT_EQ(be16(p + kUdp + 4), 102);
  EXPECT_EQ(be16(p + kUdp + 6), 0);

  // Our header at 42, little-endian: "WG" = 0x57 0x47 in memory.
  EXPECT_EQ(p[kHdr], 0x57);
  EXPECT_EQ(p[kHdr + 1], 0x47);
  EXPECT_EQ(p[kHdrVersion], 8);
  EXPECT_EQ(p[kHdrKind], 1);  // data
  EXPECT_EQ(le32(p + kHdrJob), kJob);
  EXPECT_EQ(p[kHdrJob], 0x78) << "job token must be little-endian";
  EXPECT_EQ(p[kHdrSrc], kPeer);
  EXPECT_EQ(p[kHdrDst], kMe);
  EXPECT_EQ(le16(p + kHdrCount), kCount);
  EXPECT_EQ(le32(p + kHdr + 12), 7u);  // superstep
  EXPECT_EQ(le32(p + kHdr + 16), 0u);  // seq
  EXPECT_EQ(le32(p + kHdr + 20), 0u);  // ack
  EXPECT_EQ(le32(p + kHdr + 24), 0u);  // tsval (stamped by the transport)
  EXPECT_EQ(p[kHdrFlags], 0);
  EXPECT_EQ(p[kHdrQueue], 0);
  EXPECT_EQ(le16(p + kHdrDomain), 0);
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(p[kHdrNonce + i], 0) << "nonce byte " << i << " (sealed by the transport)";
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(p[kHdrTag + i], 0) << "tag byte " << i << " (sealed by the transport)";
  EXPECT_EQ(kHdrTag + 16, kRecords) << "the tag ends the header";
  EXPECT_EQ((kHdrTag + 128) % 16, 0u) << "the tag is 16-byte aligned in an mbuf with 128 bytes of headroom";
  EXPECT_EQ((kRecords + 128) % 16, 0u) << "and so are the records";

  // Records untouched at 96, and the accessors point there.
  for (unsigned i = 0; i < kCount; ++i) {
    EXPECT_EQ(le32(p + kRecords + 8 * i), i * 3);
    EXPECT_EQ(le32(p + kRecords + 8 * i + 4), i + 100);
  }
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(records(p)), p + 96);
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(bucket_header(p)), p + 42);
}

TEST(FrameEncode, ChecksumForOtherAddressesAndLengths) {
  // The checksum must follow every header field that varies: lengths and IPs.
  for (uint16_t count : {1, 2, 60, 177}) {
    for (unsigned src = 0; src < 3; ++src) {
      const std::vector<uint8_t> f = data_frame(count, src, (src + 1) % 3);
      ASSERT_EQ(f.size(), 96u + count * 8u);
      EXPECT_EQ(be16(&f[kIpTotalLen]), f.size() - 14);
      EXPECT_EQ(rfc1071(&f[kIp], 20), 0) << "count " << count << " src " << src;
    }
  }
  // A full frame: 96 + 177 * 8 = 1512 bytes, within the MTU plus Ethernet
  // header (1514), and one more record would not fit.
  EXPECT_EQ(data_frame(wire::kMaxRecords).size(), 1512u);
  EXPECT_LE(data_frame(wire::kMaxRecords).size(), wire::kMaxFrameBytes);
  EXPECT_GT(data_frame(wire::kMaxRecords).size() + 8, wire::kMaxFrameBytes);
}

TEST(FrameEncode, NodeAddresses) {
  EXPECT_EQ(node_ipv4(0xabcdef01, 0), 0xa9fe0101u);   // 169.254.1.1
  EXPECT_EQ(node_ipv4(0xabcdef01, 63), 0xa9fe0140u);  // 169.254.1.64
  EXPECT_EQ(node_ipv4(0x000000ff, 4), 0xa9feff05u);   // 169.254.255.5
}

// ---- validation: accepted -------------------------------------------------

TEST(FrameValidate, AcceptsWellFormedFrames) {
  EXPECT_EQ(validate_exact(data_frame(1)), DropReason::kNone);
  EXPECT_EQ(validate_exact(data_frame(37)), DropReason::kNone);
  EXPECT_EQ(validate_exact(data_frame(wire::kMaxRecords)), DropReason::kNone);
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kEnd, sizeof(wire::EndPayload))), DropReason::kNone);
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kHello, sizeof(wire::HelloPayload))), DropReason::kNone);
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kFin, sizeof(wire::FinPayload))), DropReason::kNone);
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kAbort, sizeof(wire::AbortPayload))), DropReason::kNone);
  // Hellos go to every node.
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kHello, sizeof(wire::HelloPayload), wire::kBroadcastRank)),
            DropReason::kNone);
  // Source rank 0 is as good as any (rank 0 is not a sentinel).
  EXPECT_EQ(validate_exact(data_frame(3, 0, kMe)), DropReason::kNone);
}

TEST(FrameValidate, AcceptsEthernetPaddingAfterTheIpPacket) {
  // A short frame padded to the 60-byte Ethernet minimum or beyond: bytes past
  // the IP total length are not payload, but they do not make it invalid.
  std::vector<uint8_t> f = data_frame(2);
  f.resize(f.size() + 30, 0);
  EXPECT_EQ(validate_exact(f), DropReason::kNone);
}

// ---- validation: rejected, one field at a time -----------------------------

TEST(FrameValidate, TruncatedAtEveryLength) {
  const std::vector<uint8_t> f = data_frame(3);  // 120 bytes
  ASSERT_EQ(f.size(), 120u);
  for (size_t len = 0; len < f.size(); ++len) {
    DropReason want;
    if (len < 42)
      want = DropReason::kNotWiregraph;  // cannot even see the UDP port: not known to be ours
    else if (len < 96)
      want = DropReason::kTooShort;      // ours (our port) but shorter than our header
    else
      want = DropReason::kBadIpHeader;   // IP total length says more than the frame holds
    EXPECT_EQ(validate_exact(f.data(), len), want) << "length " << len;
  }
  EXPECT_EQ(validate_exact(f.data(), f.size()), DropReason::kNone);
}

TEST(FrameValidate, TruncatedControlFrames) {
  const std::vector<uint8_t> f = control_frame(wire::Kind::kEnd, sizeof(wire::EndPayload));
  for (size_t len = 96; len < f.size(); ++len)
    EXPECT_EQ(validate_exact(f.data(), len), DropReason::kBadIpHeader) << "length " << len;
}

TEST(FrameValidate, NotIpv4Udp) {
  std::vector<uint8_t> arp = data_frame(3);
  arp[kEthType] = 0x08;
  arp[kEthType + 1] = 0x06;
  EXPECT_EQ(validate_exact(arp), DropReason::kNotWiregraph);

  // A real-looking IPv6 neighbour solicitation: type 0x86dd, version nibble 6.
  std::vector<uint8_t> v6(86, 0);
  v6[kEthType] = 0x86;
  v6[kEthType + 1] = 0xdd;
  v6[14] = 0x60;
  v6[14 + 6] = 58;  // next header ICMPv6
  EXPECT_EQ(validate_exact(v6), DropReason::kNotWiregraph);
  // Even when its bytes happen to look like ours further on.
  std::vector<uint8_t> v6ours = data_frame(3);
  v6ours[kEthType] = 0x86;
  v6ours[kEthType + 1] = 0xdd;
  EXPECT_EQ(validate_exact(v6ours), DropReason::kNotWiregraph);

  // VLAN-tagged frames are not ours either.
  std::vector<uint8_t> vlan = data_frame(3);
  vlan[kEthType] = 0x81;
  vlan[kEthType + 1] = 0x00;
  EXPECT_EQ(validate_exact(vlan), DropReason::kNotWiregraph);

  std::vector<uint8_t> tcp = data_frame(3);
  tcp[kIpProto] = 6;
  EXPECT_EQ(validate_exact(tcp), DropReason::kNotWiregraph);

  std::vector<uint8_t> other_port = data_frame(3);
  put_be16(&other_port[kUdp + 2], kPort + 1);
  EXPECT_EQ(validate_exact(other_port), DropReason::kNotWiregraph);
  // Byte-swapped port (47000 in little-endian is 0x98b7 = 39095): must differ.
  std::vector<uint8_t> swapped = data_frame(3);
  swapped[kUdp + 2] = 0x98;
  swapped[kUdp + 3] = 0xb7;
  EXPECT_EQ(validate_exact(swapped), DropReason::kNotWiregraph);
  // The context's port is what counts.
  ValidationContext ctx = kCtx;
  ctx.udp_port = 9999;
  EXPECT_EQ(validate_exact(data_frame(3), ctx), DropReason::kNotWiregraph);
}

TEST(FrameValidate, BadIpHeader) {
  std::vector<uint8_t> options = data_frame(3);
  options[kIp] = 0x46;  // IHL 6: options would move the UDP header
  EXPECT_EQ(validate_exact(options), DropReason::kBadIpHeader);

  std::vector<uint8_t> too_long = data_frame(3);
  set_ip_len(too_long, static_cast<uint16_t>(too_long.size() - 14 + 1));
  EXPECT_EQ(validate_exact(too_long), DropReason::kBadIpHeader);
  set_ip_len(too_long, 0xffff);
  EXPECT_EQ(validate_exact(too_long), DropReason::kBadIpHeader);

  // Total length below IP + UDP + our header.
  std::vector<uint8_t> too_short = data_frame(3);
  set_ip_len(too_short, 65);
  EXPECT_EQ(validate_exact(too_short), DropReason::kBadIpHeader);
  set_ip_len(too_short, 0);
  EXPECT_EQ(validate_exact(too_short), DropReason::kBadIpHeader);
}

TEST(FrameValidate, HeaderFields) {
  std::vector<uint8_t> f = data_frame(3);
  f[kHdr] ^= 0xff;
  EXPECT_EQ(validate_exact(f), DropReason::kBadMagic);
  f = data_frame(3);
  std::swap(f[kHdr], f[kHdr + 1]);  // big-endian magic
  EXPECT_EQ(validate_exact(f), DropReason::kBadMagic);

  f = data_frame(3);
  f[kHdrVersion] = 1;  // the previous format
  EXPECT_EQ(validate_exact(f), DropReason::kBadVersion);
  f[kHdrVersion] = 0;
  EXPECT_EQ(validate_exact(f), DropReason::kBadVersion);

  f = data_frame(3);
  put_le32(&f[kHdrJob], kJob + 1);
  EXPECT_EQ(validate_exact(f), DropReason::kWrongJob);
  f = data_frame(3);
  put_le32(&f[kHdrJob], 0x78563412);  // byte-swapped token
  EXPECT_EQ(validate_exact(f), DropReason::kWrongJob);
}

TEST(FrameValidate, Ranks) {
  std::vector<uint8_t> f = data_frame(3);
  f[kHdrSrc] = kNodes;  // == P
  EXPECT_EQ(validate_exact(f), DropReason::kBadRank);
  f[kHdrSrc] = 0xff;
  EXPECT_EQ(validate_exact(f), DropReason::kBadRank);
  f[kHdrSrc] = kMe;  // from ourselves: a looped-back frame
  EXPECT_EQ(validate_exact(f), DropReason::kBadRank);
  f[kHdrSrc] = 0;
  EXPECT_EQ(validate_exact(f), DropReason::kNone);

  f = data_frame(3);
  f[kHdrDst] = 0;  // another node's
  EXPECT_EQ(validate_exact(f), DropReason::kNotForMe);
  f[kHdrDst] = 2;
  EXPECT_EQ(validate_exact(f), DropReason::kNotForMe);
  f[kHdrDst] = 40;  // not a node at all
  EXPECT_EQ(validate_exact(f), DropReason::kNotForMe);

  // The same frame is fine for the node it is addressed to, if that node is
  // not its source.
  f = data_frame(3, 0, 2);
  ValidationContext ctx2 = kCtx;
  ctx2.my_rank = 2;
  EXPECT_EQ(validate_exact(f, ctx2), DropReason::kNone);
  EXPECT_EQ(validate_exact(f), DropReason::kNotForMe);  // we are rank 1
  ValidationContext ctx_small = ctx2;
  ctx_small.nodes = 2;  // rank 2 cannot exist: source 0 is fine, we are out of range
  ctx_small.my_rank = 1;
  EXPECT_EQ(validate_exact(f, ctx_small), DropReason::kNotForMe);
}

TEST(FrameValidate, BroadcastDataIsRejected) {
  std::vector<uint8_t> f = data_frame(3, kPeer, wire::kBroadcastRank);
  EXPECT_EQ(validate_exact(f), DropReason::kNotForMe);
}

TEST(FrameValidate, DataDomainMustExistHere) {
  std::vector<uint8_t> f = data_frame(3);
  ValidationContext two = kCtx;
  two.domains = 2;
  put_le16(&f[kHdrDomain], 1);
  EXPECT_EQ(validate_exact(f, two), DropReason::kNone) << "domain 1 of 2";
  EXPECT_EQ(validate_exact(f, kCtx), DropReason::kBadDomain) << "a one-domain node has no domain 1";
  put_le16(&f[kHdrDomain], 2);
  EXPECT_EQ(validate_exact(f, two), DropReason::kBadDomain);
}

TEST(FrameValidate, DataCounts) {
  // count 0
  {
    std::vector<uint8_t> f = data_frame(3);
    put_le16(&f[kHdrCount], 0);
    EXPECT_EQ(validate_exact(f), DropReason::kBadCount);
  }
  // count > kMaxRecords, in a frame that really carries that many records
  // (with a consistent IP length), so only the maximum can reject it.
  {
    const uint16_t n = wire::kMaxRecords + 1;
    std::vector<uint8_t> f(kRecords + n * 8u, 0);
    write_bucket_header(f.data(), wire::Kind::kData, kJob, kPeer, kMe, 0, n);
    const uint16_t len = write_l2_l4(f.data(), address_from(kPeer, kMe), static_cast<uint16_t>(kHeaderBytes + n * 8));
    ASSERT_EQ(len, f.size());
    EXPECT_EQ(validate_exact(f), DropReason::kBadCount);
    put_le16(&f[kHdrCount], 0xffff);
    EXPECT_EQ(validate_exact(f), DropReason::kBadCount);
    put_le16(&f[kHdrCount], wire::kMaxRecords);  // the boundary itself is fine
    EXPECT_EQ(validate_exact(f), DropReason::kNone);
  }
  // count larger than the payload: one record more than the frame has.
  {
    std::vector<uint8_t> f = data_frame(3);
    put_le16(&f[kHdrCount], 4);
    EXPECT_EQ(validate_exact(f), DropReason::kBadCount);
  }
  // The payload is bounded by the IP total length, not by the frame: records
  // in the Ethernet padding do not count.
  {
    std::vector<uint8_t> f = data_frame(3);
    f.resize(f.size() + 8, 0);  // frame has room for 4 records ...
    put_le16(&f[kHdrCount], 4);  // ... but the IP packet for 3
    EXPECT_EQ(validate_exact(f), DropReason::kBadCount);
    set_ip_len(f, static_cast<uint16_t>(f.size() - 14));  // now the IP packet has 4
    EXPECT_EQ(validate_exact(f), DropReason::kNone);
  }
  // A payload that is not a whole number of records, with count rounded up.
  {
    std::vector<uint8_t> f = data_frame(3);
    f.pop_back();
    set_ip_len(f, static_cast<uint16_t>(f.size() - 14));
    EXPECT_EQ(validate_exact(f), DropReason::kBadCount);
    put_le16(&f[kHdrCount], 2);
    EXPECT_EQ(validate_exact(f), DropReason::kNone);
  }
}

// Jumbo frames (--mtu 9000): a bucket holds as many records as the MTU
// allows, and no more; a node at the default MTU refuses the larger count.
TEST(FrameValidate, DataCountsFollowTheMtu) {
  const uint16_t n = wire::records_per_bucket(8, 9000);
  ASSERT_EQ(n, 1114u) << "(9000 - 20 - 8 - 54) / 8";
  std::vector<uint8_t> f(kRecords + (n + 1) * 8u, 0);
  write_bucket_header(f.data(), wire::Kind::kData, kJob, kPeer, kMe, 0, n);
  const uint16_t len = write_l2_l4(f.data(), address_from(kPeer, kMe), static_cast<uint16_t>(kHeaderBytes + n * 8));
  ASSERT_LE(len, 9014u) << "an MTU of 9000 plus the Ethernet header";
  ASSERT_GT(len + 8, 9014u) << "a full bucket: no room for one more record";
  f.resize(len);
  ValidationContext jumbo = kCtx;
  jumbo.mtu = 9000;
  EXPECT_EQ(validate_exact(f, jumbo), DropReason::kNone);
  EXPECT_EQ(validate_exact(f, kCtx), DropReason::kBadCount) << "1114 records do not fit a 1500-byte frame";
  put_le16(&f[kHdrCount], n + 1);
  EXPECT_EQ(validate_exact(f, jumbo), DropReason::kBadCount);
}

// Receive queues (--rx-queues): a frame names its queue twice, by UDP
// destination port base + q (for the NIC) and in the header (under the MAC);
// both must agree and lie below the node's queue count.
TEST(FrameValidate, QueueAndPortMustAgree) {
  ValidationContext three = kCtx;
  three.queues = 3;
  auto with = [](unsigned queue, unsigned port) {
    std::vector<uint8_t> f = data_frame(2);
    f[kHdrQueue] = static_cast<uint8_t>(queue);
    put_be16(&f[kUdp + 2], static_cast<uint16_t>(port));
    return f;
  };
  EXPECT_EQ(validate_exact(with(0, kPort), three), DropReason::kNone);
  EXPECT_EQ(validate_exact(with(2, kPort + 2), three), DropReason::kNone);
  EXPECT_EQ(validate_exact(with(2, kPort + 1), three), DropReason::kBadQueue) << "the port names queue 1";
  EXPECT_EQ(validate_exact(with(3, kPort + 3), three), DropReason::kNotWiregraph) << "no fourth port";
  EXPECT_EQ(validate_exact(with(1, kPort + 1), kCtx), DropReason::kNotWiregraph) << "one queue: one port";
  EXPECT_EQ(validate_exact(with(1, kPort), kCtx), DropReason::kBadQueue) << "one queue: queue 0 only";
  EXPECT_EQ(validate_exact(with(5, kPort), three), DropReason::kBadQueue);
}

TEST(FrameValidate, UnknownKind) {
  for (uint8_t k : {0, 7, 8, 0x81, 0xff}) {
    std::vector<uint8_t> f = control_frame(wire::Kind::kEnd, sizeof(wire::EndPayload));
    f[kHdrKind] = k;
    EXPECT_EQ(validate_exact(f), DropReason::kBadKind) << "kind " << int{k};
  }
}

TEST(FrameValidate, ControlPayloadSizes) {
  struct K {
    wire::Kind kind;
    uint16_t size;
  };
  const K kinds[] = {{wire::Kind::kEnd, 6 * 8 + 256},  // six counters, the program's aggregate (256 bytes)
                     // counts, digests, salt, port MAC and padding, an echo per possible node
                     {wire::Kind::kHello, 4 * 4 + 3 * 8 + 16 + 8 + 64 * 8},
                     {wire::Kind::kFin, 8 + 10 * 16 + 4 * 8 + 1024},  // top entries, run figures, summary statistics
                     {wire::Kind::kAbort, 16 + 4 + 400}};  // salt, length, text
  for (const K& k : kinds) {
    SCOPED_TRACE(static_cast<int>(k.kind));
    // The hand-computed sizes are the packed sizes of the payload structs.
    EXPECT_EQ(validate_exact(control_frame(k.kind, k.size)), DropReason::kNone);
    // count says one byte less / more than the kind's payload (frame matches count).
    EXPECT_EQ(validate_exact(control_frame(k.kind, static_cast<uint16_t>(k.size - 1))), DropReason::kBadControl);
    EXPECT_EQ(validate_exact(control_frame(k.kind, static_cast<uint16_t>(k.size + 1))), DropReason::kBadControl);
    EXPECT_EQ(validate_exact(control_frame(k.kind, 0)), DropReason::kBadControl);
    // count is right but the IP packet is shorter than the payload.
    std::vector<uint8_t> f = control_frame(k.kind, k.size);
    set_ip_len(f, static_cast<uint16_t>(f.size() - 14 - 1));
    EXPECT_EQ(validate_exact(f), DropReason::kBadControl);
    // count is right, the frame is longer: accepted (padding).
    std::vector<uint8_t> g = control_frame(k.kind, k.size);
    g.resize(g.size() + 10, 0);
    EXPECT_EQ(validate_exact(g), DropReason::kNone);
    // A data-sized count on a control frame.
    std::vector<uint8_t> h = control_frame(k.kind, k.size);
    put_le16(&h[kHdrCount], 3);
    EXPECT_EQ(validate_exact(h), DropReason::kBadControl);
  }
}

// An ACK frame with `words` words of selective ack, its sack_words field
// set to `field` (the count says the truth only when they agree).
std::vector<uint8_t> ack_frame(unsigned words, unsigned field, unsigned dst = kMe) {
  std::vector<uint8_t> f = control_frame(wire::Kind::kAck, static_cast<uint16_t>(20 + 8 * words), dst);
  put_le16(&f[kRecords + 4], static_cast<uint16_t>(field));
  return f;
}

TEST(FrameValidate, AckFrames) {
  // An ack carries an AckPayload: 20 bytes, then sack_words words of 8
  // (0 to 16), the count saying how many bytes; addressed to one node.
  EXPECT_EQ(wire::kAckPayloadFixedBytes, 20u);
  EXPECT_EQ(sizeof(wire::AckPayload), 20u + 8 * wire::kMaxSackWords);
  for (unsigned words : {0u, 1u, 7u, 16u}) EXPECT_EQ(validate_exact(ack_frame(words, words)), DropReason::kNone) << words;
  EXPECT_EQ(validate_exact(ack_frame(17, 17)), DropReason::kBadControl) << "more than kMaxSackWords";
  EXPECT_EQ(validate_exact(ack_frame(2, 3)), DropReason::kBadControl) << "sack_words disagrees with the count";
  EXPECT_EQ(validate_exact(ack_frame(3, 2)), DropReason::kBadControl);
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kAck, 0)), DropReason::kBadControl) << "no payload";
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kAck, 19)), DropReason::kBadControl);
  EXPECT_EQ(validate_exact(control_frame(wire::Kind::kAck, 24)), DropReason::kBadControl) << "not whole words";
  EXPECT_EQ(validate_exact(ack_frame(0, 0, wire::kBroadcastRank)), DropReason::kNotForMe);
  EXPECT_EQ(validate_exact(ack_frame(0, 0, 0)), DropReason::kNotForMe);
  // A count beyond the frame's bytes: the IP length holds the truth.
  std::vector<uint8_t> f = ack_frame(1, 1);
  put_le16(&f[kHdrCount], 20 + 8 * 2);
  put_le16(&f[kRecords + 4], 2);
  EXPECT_EQ(validate_exact(f), DropReason::kBadControl);
  // The shortest ack: the headers and the fixed part.
  f = ack_frame(0, 0);
  ASSERT_EQ(f.size(), 116u);
  for (size_t len = 42; len < 96; ++len) EXPECT_EQ(validate_exact(f.data(), len), DropReason::kTooShort) << len;
}

TEST(FrameValidate, DropReasonNamesAreDistinct) {
  std::vector<std::string> names;
  for (int r = 0; r < static_cast<int>(DropReason::kNumReasons); ++r) {
    const std::string n = drop_reason_name(static_cast<DropReason>(r));
    EXPECT_NE(n, "unknown") << r;
    EXPECT_EQ(std::count(names.begin(), names.end(), n), 0) << n;
    names.push_back(n);
  }
  EXPECT_STREQ(drop_reason_name(DropReason::kNone), "none");
  EXPECT_STREQ(drop_reason_name(DropReason::kBadCount), "bad_count");
}

// ---- CRC32C of the bucket ------------------------------------------------------

// Bit-at-a-time CRC32C (Castagnoli, reflected polynomial 0x82f63b78), no final
// inversion: the running state that rte_hash_crc returns.
uint32_t crc32c_state(const uint8_t* p, size_t n, uint32_t crc) {
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
  }
  return crc;
}

TEST(BucketCrc, ReferenceImplementationMatchesTheStandardCheckValue) {
  // RFC 3720 / iSCSI check value of "123456789": 0xe3069283 after the final inversion.
  const char* check = "123456789";
  EXPECT_EQ(~crc32c_state(reinterpret_cast<const uint8_t*>(check), 9, 0xffffffffu), 0xe3069283u);
}

TEST(BucketCrc, CoversHeaderAndPayloadWithTheTagFieldAsZero) {
  for (uint16_t count : {1, 3, 177}) {
    std::vector<uint8_t> f = data_frame(count);
    for (size_t i = 0; i < 16; ++i) f[kHdrTag + i] = static_cast<uint8_t>(0xa0 + i);  // whatever is there does not count
    std::vector<uint8_t> bucket(f.begin() + kHdr, f.end());
    std::fill(bucket.begin() + 38, bucket.begin() + 54, 0);
    const uint32_t want = crc32c_state(bucket.data(), bucket.size(), 0xffffffffu);
    EXPECT_EQ(bucket_crc(f.data(), static_cast<uint32_t>(f.size())), want) << count;
    seal_bucket(f.data(), static_cast<uint32_t>(f.size()));
    EXPECT_EQ(le32(&f[kHdrTag]), want) << "sealed into the tag's first 4 bytes (frame offset 80)";
    EXPECT_TRUE(bucket_crc_ok(f.data(), static_cast<uint32_t>(f.size())));
    // Sealing again changes nothing: the field itself is not covered.
    seal_bucket(f.data(), static_cast<uint32_t>(f.size()));
    EXPECT_EQ(le32(&f[kHdrTag]), want);
  }
  // Control frames too.
  std::vector<uint8_t> e = control_frame(wire::Kind::kEnd, sizeof(wire::EndPayload));
  seal_bucket(e.data(), static_cast<uint32_t>(e.size()));
  EXPECT_TRUE(bucket_crc_ok(e.data(), static_cast<uint32_t>(e.size())));
  EXPECT_EQ(validate_exact(e), DropReason::kNone) << "a sealed frame is still well-formed";
}

TEST(BucketCrc, EverySingleBitFlipInTheBucketIsDetected) {
  std::vector<uint8_t> f = data_frame(3);
  const uint32_t len = static_cast<uint32_t>(f.size());
  seal_bucket(f.data(), len);
  for (size_t byte = 0; byte < f.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      f[byte] ^= static_cast<uint8_t>(1u << bit);
      // L2-L4 headers are not covered (the NIC and the IPv4 checksum guard
      // them), nor the 12 bytes of the tag the CRC leaves unused.
      const bool covered = byte >= kHdr && !(byte >= kHdrTag + 4 && byte < kHdrTag + 16);
      EXPECT_EQ(bucket_crc_ok(f.data(), len), !covered) << "byte " << byte << " bit " << bit;
      f[byte] ^= static_cast<uint8_t>(1u << bit);
    }
  }
  EXPECT_TRUE(bucket_crc_ok(f.data(), len));
}

// ---- max_record_index ------------------------------------------------------

TEST(MaxRecordIndex, Values) {
  std::vector<wire::Record> r;
  EXPECT_EQ(max_record_index(r.data(), 0), 0u);
  r = {{5, 0}};
  EXPECT_EQ(max_record_index(r.data(), 1), 5u);
  r = {{9, 1}, {2, 100}, {3, 7}};
  EXPECT_EQ(max_record_index(r.data(), 3), 9u);  // first
  r = {{1, 0}, {2, 0}, {77, 0}};
  EXPECT_EQ(max_record_index(r.data(), 3), 77u);  // last
  r = {{1, 0}, {0xfffffffe, 0}, {3, 0}};
  EXPECT_EQ(max_record_index(r.data(), 3), 0xfffffffeu);  // middle
  r = {{4, 0xffffffff}, {0xffffffff, 0}, {3, 0}};
  EXPECT_EQ(max_record_index(r.data(), 3), 0xffffffffu);
  // Only the first `count` records are looked at.
  r = {{1, 0}, {2, 0}, {1000, 0}};
  EXPECT_EQ(max_record_index(r.data(), 2), 2u);
  // A full bucket, maximum in the last slot (vectorised loops tail handling).
  r.assign(wire::kMaxRecords, wire::Record{10, 0});
  r.back().index = 11;
  EXPECT_EQ(max_record_index(r.data(), wire::kMaxRecords), 11u);
  // The value field does not count.
  EXPECT_EQ(max_record_index(std::vector<wire::Record>{{1, 999}}.data(), 1), 1u);
}

// ---- robustness -------------------------------------------------------------

// What an accepted frame must satisfy, written from the spec independently of
// validate_frame: every byte it lets the engine read lies inside the frame.
::testing::AssertionResult acceptable(const uint8_t* p, size_t len, const ValidationContext& ctx) {
  auto bad = [](const char* why) { return ::testing::AssertionFailure() << why; };
  if (len < 96) return bad("shorter than our header");
  if (be16(p + kEthType) != 0x0800) return bad("not IPv4");
  if (p[kIp] != 0x45) return bad("IPv4 version/IHL");
  if (p[kIpProto] != 17) return bad("not UDP");
  const unsigned port = be16(p + kUdp + 2);
  if (port < ctx.udp_port || port - ctx.udp_port >= ctx.queues) return bad("port");
  const size_t ip_len = be16(p + kIpTotalLen);
  if (ip_len + 14 > len || ip_len + 14 < 96) return bad("IP length");
  const size_t payload = ip_len + 14 - 96;
  if (le16(p + kHdr) != wire::kMagic) return bad("magic");
  if (p[kHdrVersion] != 8) return bad("version");
  if (le32(p + kHdrJob) != ctx.job_token) return bad("job");
  const unsigned src = p[kHdrSrc], dst = p[kHdrDst], count = le16(p + kHdrCount);
  if (src >= ctx.nodes || src == ctx.my_rank) return bad("src rank");
  if (dst != ctx.my_rank && dst != 0xff) return bad("dst");
  const unsigned queue = p[kHdrQueue];
  if (queue >= ctx.queues || port != ctx.udp_port + queue) return bad("queue");
  const unsigned kind = p[kHdrKind];
  if (kind == 1) {
    if (dst != ctx.my_rank) return bad("data dst");
    if (count < 1 || count > (ctx.mtu - 20 - 8 - 54) / 8 || count * 8 > payload) return bad("data count");
    if (le16(p + kHdrDomain) >= ctx.domains) return bad("data domain");
    return ::testing::AssertionSuccess();
  }
  if (dst != ctx.my_rank && dst != 0xff) return bad("control dst");
  if (kind == 6) {  // ack: 20 bytes + sack_words (payload bytes 4-5) words of 8, never broadcast
    if (dst != ctx.my_rank) return bad("ack dst");
    if (count < 20 || count > 20 + 8 * 16 || payload < count) return bad("ack count");
    if (count != 20 + 8u * le16(p + 96 + 4)) return bad("ack sack_words");
    return ::testing::AssertionSuccess();
  }
  const unsigned need = kind == 2 ? 304 : kind == 3 ? 576 : kind == 4 ? 1224 : kind == 5 ? 420 : 0;
  if (need == 0) return bad("kind");
  if (count != need || payload < need) return bad("control size");
  return ::testing::AssertionSuccess();
}

TEST(FrameValidate, RandomMutationsNeverCrashAndAcceptOnlyValidFrames) {
  // std::mt19937's output sequence is fixed by the standard; distributions are
  // not, so positions and values are taken with plain modulo.
  std::mt19937 rng(20240611);
  const std::vector<std::vector<uint8_t>> seeds = {
      data_frame(1), data_frame(4), data_frame(wire::kMaxRecords),
      control_frame(wire::Kind::kEnd, sizeof(wire::EndPayload)),
      control_frame(wire::Kind::kHello, sizeof(wire::HelloPayload), wire::kBroadcastRank),
      control_frame(wire::Kind::kFin, sizeof(wire::FinPayload)),
      control_frame(wire::Kind::kAbort, sizeof(wire::AbortPayload)),
      ack_frame(0, 0), ack_frame(3, 3)};
  // Fields worth hitting often: the header bytes that the checks read.
  const size_t hot[] = {12, 13, 14, 16, 17, 23, 36, 37, 42, 43, 44, 45, 46, 50, 51, 52, 53, 70, 71, 72};

  unsigned accepted = 0;
  unsigned by_reason[static_cast<size_t>(DropReason::kNumReasons)] = {};
  for (int iter = 0; iter < 10000; ++iter) {
    std::vector<uint8_t> f = seeds[rng() % seeds.size()];
    // Length: unchanged, shorter or longer (the new tail is random bytes).
    switch (rng() % 4) {
      case 0: break;
      case 1: f.resize(rng() % (f.size() + 1)); break;
      case 2: {
        const size_t old = f.size();
        f.resize(old + rng() % 64);
        for (size_t i = old; i < f.size(); ++i) f[i] = static_cast<uint8_t>(rng());
        break;
      }
      case 3: f.resize(rng() % 2048); break;  // may zero-extend
    }
    // 0..7 byte mutations: random flips anywhere, or a random byte in a field.
    const unsigned mutations = rng() % 8;
    for (unsigned m = 0; m < mutations && !f.empty(); ++m) {
      const size_t at = (rng() & 1) ? hot[rng() % (sizeof hot / sizeof hot[0])] % f.size() : rng() % f.size();
      if (rng() & 1)
        f[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
      else
        f[at] = static_cast<uint8_t>(rng());
    }
    ValidationContext ctx = kCtx;
    if (rng() % 8 == 0) ctx.my_rank = rng() % 4;
    if (rng() % 8 == 0) ctx.nodes = 1 + rng() % 64;
    if (rng() % 4 == 0) ctx.queues = 1 + rng() % 4;
    const DropReason r = validate_exact(f.data(), f.size(), ctx);
    ASSERT_LT(static_cast<unsigned>(r), static_cast<unsigned>(DropReason::kNumReasons)) << "iteration " << iter;
    ++by_reason[static_cast<size_t>(r)];
    if (r == DropReason::kNone) {
      ++accepted;
      ASSERT_TRUE(acceptable(f.data(), f.size(), ctx)) << "iteration " << iter << " accepted a bad frame";
    } else {
      // The converse: a frame the independent check accepts must not be dropped.
      ASSERT_FALSE(acceptable(f.data(), f.size(), ctx))
          << "iteration " << iter << " dropped a good frame as " << drop_reason_name(r);
    }
  }
  // The mix must exercise both outcomes and most reasons, or it tests nothing.
  EXPECT_GT(accepted, 100u);
  EXPECT_LT(accepted, 9000u);
  for (DropReason r : {DropReason::kNotWiregraph, DropReason::kTooShort, DropReason::kBadIpHeader,
                       DropReason::kBadMagic, DropReason::kBadVersion, DropReason::kWrongJob,
                       DropReason::kBadRank, DropReason::kNotForMe, DropReason::kBadKind,
                       DropReason::kBadCount, DropReason::kBadControl})
    EXPECT_GT(by_reason[static_cast<size_t>(r)], 0u) << drop_reason_name(r);
}

}  // namespace
}  // namespace wg
