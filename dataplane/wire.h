// The message bucket on the wire: one MTU-sized Ethernet frame.
//
//   Ethernet (14) | IPv4 (20) | UDP (8) | BucketHeader (54) | records (8 B each) | -
//
// Decisions (DIGEST 6.1):
// - UDP over IPv4 so that captures decode with standard tools and real NICs can
//   spread flows over RX queues by port (RSS). UDP checksum 0 (allowed for IPv4);
//   the IPv4 header checksum is filled in.
// - Our header is little-endian: wiregraph clusters are homogeneous x86/ARM
//   little-endian machines and byte swaps on every field would be pure cost.
//   The standard headers (Ethernet, IPv4, UDP) are in network order as usual.
// - The header is 54 bytes so that records start 96 bytes into the frame: with
//   DPDK's default 128-byte headroom, records are then 16-byte aligned in the
//   mbuf on both send and receive (and so is the 16-byte tag, at frame offset 80).
// - Every frame is authenticated (dataplane/frame_mac.h): a 16-byte
//   AES-128-GMAC tag over the header (tag taken as zero) and payload, under
//   the sender's frame key and an IV made of the sealing context and the
//   header's 48-bit nonce counter. Without a key (--no-auth) the tag field
//   holds the bucket's CRC32C in its first 4 bytes (--checksum on; HELLO and
//   ABORT always), else zeros.
// - Records are fixed-size (index, value) pairs: the index is the
//   destination vertex's index within its NUMA domain on its owner node
//   (with one domain, v / P: round-robin), so 32 bits suffice; the value is
//   the program's message, any multiple of 4 bytes up to kMaxMessageBytes
//   (compute/engine/vertex_program.h): 4, 8 or 16 for the scalar programs,
//   up to 64 for a wide message of K values (16 floats: personalized PageRank
//   from 16 seeds, compute/engine/capabilities/wide_message.h), so a record is
//   8 to 68 bytes. Packed with 4-byte alignment: a 12-byte record wastes
//   nothing, and the 4-byte-message record is exactly the 8-byte pair it
//   always was. Every node of a job runs the same program, so
//   the record size is implied by the job (the hello checks the program).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace wg::wire {

inline constexpr uint16_t kMagic = 0x4757;  // "WG" in little-endian memory order
// 2: records sized by the program, END carries 64 bytes of aggregate;
// 3: the hello names the input (nodes load their share after discovery);
// 4: and ACK frames carry an AckPayload (selective ack, receive drops);
// 5: authenticated frames: a 16-byte tag (MAC, or the CRC) and a 48-bit nonce
//    counter in the header, 8-bit ranks; HELLO carries the sender's salt,
//    port MAC and echoes of the salts it heard, ABORT the salt;
// 6: FIN carries the sender's run figures and its program's summary statistics;
// 7: ACK frames can say the sender goes quiet and report a duplicate (dsack_seq);
//    FIN's figures count needless resends;
// 8: END carries 256 bytes of aggregate (a wide program's per-lane figures).
inline constexpr uint8_t kVersion = 8;
inline constexpr uint16_t kDefaultUdpPort = 47000;
inline constexpr uint32_t kMtu = 1500;     // IP packet size (without Ethernet header): the default
inline constexpr uint32_t kMaxMtu = 9000;  // jumbo frames (--mtu), where the port takes them
// Receive queues per port (--rx-queues): one accumulator role each. A
// frame's flow is (peer, queue); UDP destination port base + queue names it
// to the NIC (steering), the header's `queue` to the receiver (under the CRC).
inline constexpr unsigned kMaxQueues = 16;

enum class Kind : uint8_t {
  kData = 1,   // records for the destination's accumulators
  kEnd = 2,    // end of superstep from the source: counts + aggregates
  kHello = 3,  // membership: who I am, what I run, whom I have heard
  kFin = 4,    // the source has finished the job (carries its top results)
  kAbort = 5,  // the source hit a fatal error; every node should stop
  kAck = 6,    // cumulative + selective ack (AckPayload) alone, also the keepalive
};

// Frames that take a sequence number and are delivered exactly once, in order.
inline constexpr bool is_sequenced(Kind k) { return k == Kind::kData || k == Kind::kEnd || k == Kind::kFin; }

enum Flags : uint8_t {
  kFlagNone = 0,
  kFlagHelloReply = 1,  // a hello sent in answer to another: never answered itself
  kFlagMac = 2,         // the tag is a MAC (the sender has a key); else the CRC or nothing
};

struct __attribute__((packed)) BucketHeader {
  uint16_t magic;
  uint8_t version;
  uint8_t kind;         // Kind
  uint32_t job_token;   // frames of another job or a stranger are dropped
  uint8_t src_rank;
  uint8_t dst_rank;     // 0xff = every node (hello, abort)
  uint16_t count;       // data: records; control: payload bytes
  uint32_t superstep;
  uint32_t seq;         // per-connection bucket number (reliability/)
  uint32_t ack;         // cumulative ack (reliability/)
  uint32_t tsval;       // sequenced frames: when this transmission left (sender's TSC >> kTsShift,
                        // wraps), echoed in ACK frames (reliability/); else 0
  uint8_t flags;        // Flags
  uint8_t queue;        // the flow's receive queue at the destination (0 for HELLO, ABORT): see kMaxQueues
  uint16_t domain;      // data: destination range (compute/engine/range_plan.h: a cache-sized part of one NUMA
                        // domain), whose accumulator folds it; else 0
  uint8_t nonce[6];     // the sealing context's 48-bit frame counter, little-endian: with the context,
                        // the MAC's IV (dataplane/frame_mac.h); 0 without a key
  uint8_t tag[16];      // AES-128-GMAC of header (this field as zero) and payload; without a key
                        // (--no-auth) the CRC32C of the same bytes in the first 4 (when checksummed)
};
static_assert(sizeof(BucketHeader) == 54);
static_assert(offsetof(BucketHeader, tag) == 38);
static_assert(std::is_standard_layout_v<BucketHeader>);

template <class Value>
struct __attribute__((packed, aligned(4))) RecordOf {
  uint32_t index;  // destination vertex's index within its domain on the destination node
  Value value;     // Program::Message
};
using Record = RecordOf<uint32_t>;  // the record of every 4-byte message
static_assert(sizeof(Record) == 8 && alignof(Record) == 4);
static_assert(sizeof(RecordOf<double>) == 12 && sizeof(RecordOf<uint64_t[2]>) == 20);
// The widest message: 64 bytes, a 68-byte record, 20 to a 1500-byte frame
// (a wider one would leave too few records per frame to amortise its header).
inline constexpr size_t kMaxMessageBytes = 64;
static_assert(sizeof(RecordOf<float[16]>) == 68);

inline constexpr uint8_t kBroadcastRank = 0xff;
inline constexpr size_t kEthHeaderBytes = 14;
inline constexpr size_t kIpv4HeaderBytes = 20;
inline constexpr size_t kUdpHeaderBytes = 8;
inline constexpr size_t kHeaderOffset = kEthHeaderBytes + kIpv4HeaderBytes + kUdpHeaderBytes;
inline constexpr size_t kPayloadOffset = kHeaderOffset + sizeof(BucketHeader);
static_assert(kPayloadOffset == 96);
// Payload bytes (after the wiregraph header) of a frame of `mtu`.
constexpr size_t payload_bytes(uint32_t mtu) { return mtu - kIpv4HeaderBytes - kUdpHeaderBytes - sizeof(BucketHeader); }
inline constexpr size_t kMaxPayloadBytes = payload_bytes(kMtu);  // control payloads fit any MTU
// Records of `record_bytes` each that fit one bucket of `mtu`.
constexpr uint16_t records_per_bucket(size_t record_bytes, uint32_t mtu = kMtu) {
  return static_cast<uint16_t>(payload_bytes(mtu) / record_bytes);
}
static_assert(records_per_bucket(8, kMaxMtu) == 1114);
inline constexpr uint16_t kMaxRecords = records_per_bucket(sizeof(Record));  // 8-byte records
static_assert(kMaxRecords == 177);
inline constexpr size_t kMaxFrameBytes = kEthHeaderBytes + kMtu;  // 1514, FCS not counted
constexpr size_t frame_bytes(uint32_t mtu) { return kEthHeaderBytes + mtu; }

// On-the-wire cost of a frame for line-rate accounting: FCS (4) plus preamble,
// start delimiter and inter-frame gap (20).
inline constexpr size_t kWireOverheadBytes = 24;

// ---- control payloads ------------------------------------------------------

inline constexpr unsigned kMaxNodes = 64;  // membership keeps its sets of peers in one 64-bit word

struct __attribute__((packed)) HelloPayload {
  uint32_t nodes;             // P
  uint32_t app;               // program id: a hash of its name (compute/engine/program_traits.h)
  uint32_t input_kind;        // what the node loads: kind << 8 | format (compute/graph/graph_input.h)
  uint32_t rx_steering;       // how the sender's ports steer flows to its queues (dataplane/steering.h)
  uint64_t input_size;        // file bytes, or generated edges
  uint64_t input_digest;      // the file header's digest, or the generator's spec
  uint64_t params_digest;     // iterations, source, ...: every node must run the same job
  uint8_t salt[16];           // the sender's salt for this run: its frame key and its flows' ISNs
  uint8_t port_mac[6];        // the sending port's MAC: the hello counts only from that address
  uint8_t pad[2];
  uint64_t echo[kMaxNodes];   // echo[r]: the first 8 bytes of the salt the sender last heard in node r's
                              // hello (0: none yet); a peer is taken on only once its hello echoes ours
};
struct __attribute__((packed)) EndPayload {
  uint64_t buckets_to_dst;    // data buckets the source sent to the destination this superstep
  uint64_t messages_to_dst;   // records in them
  uint64_t active_vertices;   // source's active vertices this superstep
  uint64_t messages_sent;     // source's total records this superstep (all destinations, local too)
  uint64_t buckets_sent;      // source's total buckets (remote only)
  uint64_t bytes_sent;        // source's data frame bytes this superstep (remote only, L2)
  uint8_t aggregate[256];     // the program's own Aggregate, as bytes (PageRank: dangling rank mass; a wide
                              // program's: one figure per lane, personalized PageRank's 2 x 16 doubles)
};
inline constexpr size_t kMaxAggregateBytes = sizeof(EndPayload::aggregate);

inline constexpr unsigned kTopK = 10;
struct __attribute__((packed)) TopEntry {
  int64_t vertex;  // the input's id (the original one when the loader mapped ids; a dense id fills the low word)
  double value;
};
// What every node tells the others at the end of the job for the end-of-run
// summary that rank 0 prints (compute/report/run_summary.h).
struct __attribute__((packed)) FinFigures {
  uint64_t peak_rss_bytes;
  uint64_t frames_sent;      // by the transport, to every peer (retransmissions included)
  uint64_t retransmissions;
  uint64_t needless;         // of them, resends the peer turned out to hold already (spurious)
};
// The program's own summary statistics (its Summary type, compute/engine/summary_stats.h), as bytes.
inline constexpr size_t kMaxSummaryStatsBytes = 1024;
struct __attribute__((packed)) FinPayload {
  uint32_t entries;          // in `top`
  uint16_t stats_bytes;      // used in `stats`
  uint16_t pad;
  TopEntry top[kTopK];
  FinFigures figures;
  uint8_t stats[kMaxSummaryStatsBytes];
};

struct __attribute__((packed)) AbortPayload {
  uint8_t salt[16];           // the sender's salt (an abort may come from a node not yet taken on)
  uint32_t reason_len;
  char reason[400];           // printed only after sanitising (reliability/wire_text.h)
};

// ACK frames: which frames beyond the cumulative ack (the header's `ack`)
// the receiver holds in its reorder window, and how many frames its port
// reported dropped on receive. Only the words up to the last one with a bit
// set are sent: count = kAckPayloadFixedBytes + 8 x sack_words.
inline constexpr unsigned kMaxSackWords = 16;  // 1024 frames past the ack (the default window entirely)
inline constexpr unsigned kTsShift = 4;        // tsval = TSC >> 4: 16-tick units, wraps after ~2^36 ticks
enum AckFlags : uint16_t {
  kAckEchoValid = 1,  // echo_tsval/echo_seq hold a transmission (none arrived yet otherwise)
  // The sender computes without network passes from now until its next
  // frame (a node with every role on one lcore, building its graph): frames
  // sent to it wait unacked, and no timer should take that for loss.
  kAckQuiet = 2,
  // dsack_seq arrived twice since the last ACK (RFC 2883's D-SACK): if it
  // was resent, the resend was needless.
  kAckDsack = 4,
};
struct __attribute__((packed)) AckPayload {
  uint32_t rx_drops;     // frames the receiver's port dropped (imissed + rx_nombuf), cumulative, wraps
  uint16_t sack_words;   // 64-bit words in `sack`
  uint16_t flags;        // AckFlags
  uint32_t echo_tsval;   // the latest-sent transmission received so far: its tsval ...
  uint32_t echo_seq;     // ... and sequence number (one burst shares a tsval)
  uint32_t dsack_seq;    // kAckDsack: the latest frame that arrived again
  uint64_t sack[kMaxSackWords];  // bit i of word w: frame ack + 1 + 64 w + i is held
};
inline constexpr uint16_t kAckPayloadFixedBytes = offsetof(AckPayload, sack);
static_assert(kAckPayloadFixedBytes == 20);
constexpr uint16_t ack_payload_bytes(unsigned sack_words) {
  return static_cast<uint16_t>(kAckPayloadFixedBytes + 8 * sack_words);
}

static_assert(sizeof(FinPayload) <= kMaxPayloadBytes);
static_assert(sizeof(AckPayload) <= kMaxPayloadBytes);
static_assert(sizeof(HelloPayload) <= kMaxPayloadBytes);
static_assert(sizeof(EndPayload) <= kMaxPayloadBytes);
static_assert(sizeof(AbortPayload) <= kMaxPayloadBytes);

}  // namespace wg::wire
