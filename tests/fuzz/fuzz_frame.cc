// libFuzzer target for what a node does with a frame off the wire before the
// engine folds it: validate_frame (dataplane/frame.h), authentication
// (dataplane/frame_verifier.h: MAC, address pinning, hellos and aborts with
// their own salts) and, for an accepted data bucket, the receive-side checks
// (compute/engine/data_bucket_check.h: index range, superstep in the ledger) and
// the fold into a scalar and a slot accumulator; for an accepted END, the
// ledger.
//
// The first input byte chooses the receiver (record size 8, 12 or 20 bytes,
// one or two NUMA domains) and, with bit 3, has the frame sealed first as its
// sender would (its salt in a hello or abort, the MAC with its key): such a
// frame from a taken-on peer's address must authenticate, and the same frame
// with any one byte of its bucket changed (input byte 2 says which) must not.
// The rest is the frame, copied into a buffer of exactly its length and the
// alignment of an mbuf's data, so that any read past what validate_frame
// vouched for is an AddressSanitizer report. Without bit 3 the frame's own
// tag is checked: the fuzzer cannot forge a MAC, so authentication must fail.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "apps/bfs.h"
#include "compute/engine/accumulator.h"
#include "compute/engine/capabilities/wide_message.h"
#include "compute/engine/data_bucket_check.h"
#include "dataplane/frame.h"
#include "dataplane/frame_auth.h"
#include "dataplane/frame_verifier.h"
#include "dataplane/peer_table.h"
#include "reliability/superstep_ledger.h"

namespace {

using namespace wg;

constexpr uint32_t kJob = 0x5eed0001;
constexpr unsigned kMyRank = 1, kNodes = 3;
constexpr uint32_t kDomainSize = 64;  // vertices per domain on this receiver
// Peers 0 and 2 are taken on at port 0 from the seeds' source MAC.
constexpr MacAddress kPeerMac{0x02, 0, 0, 0, 0, 0x01};
constexpr MacAddress kPortMac{0x02, 0, 0, 0, 0, 0x02};

MasterKey job_key() {
  MasterKey k{};
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(0x11 * i + 7);
  return k;
}
Salt salt_of(unsigned rank) {
  Salt s{};
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(0x30 + 16 * rank + i);
  return s;
}

// The receiver's keys and peer table, and each sender's keys: built once.
struct Cluster {
  Cluster() : peers(kNodes, kJob, kMyRank, wire::kDefaultUdpPort) {
    const AuthOptions o{true, job_key()};
    for (unsigned r = 0; r < kNodes; ++r) {
      const Salt s = salt_of(r);
      auths.push_back(std::make_unique<FrameAuth>(o, kNodes, r, 1, &s));
    }
    for (unsigned r : {0u, 2u}) {
      peers.learn(r, 0, kPortMac, kPeerMac);
      auths[kMyRank]->confirm(r, salt_of(r));
    }
  }
  PeerTable peers;
  std::vector<std::unique_ptr<FrameAuth>> auths;  // by rank; auths[kMyRank] is the receiver's
};
Cluster& cluster() {
  static Cluster c;
  return c;
}

// What the sender does to a frame before it leaves: its salt (and port MAC)
// in a hello or abort, then the MAC.
void seal_as_sender(uint8_t* frame, uint32_t len) {
  wire::BucketHeader& h = *bucket_header(frame);
  FrameAuth& sender = *cluster().auths[h.src_rank];
  const auto kind = static_cast<wire::Kind>(h.kind);
  uint8_t* payload = frame + wire::kPayloadOffset;
  if (kind == wire::Kind::kHello) {
    std::memcpy(payload + offsetof(wire::HelloPayload, salt), sender.salt().data(), kSaltBytes);
    std::memcpy(payload + offsetof(wire::HelloPayload, port_mac), frame + 6, 6);
  } else if (kind == wire::Kind::kAbort) {
    std::memcpy(payload + offsetof(wire::AbortPayload, salt), sender.salt().data(), kSaltBytes);
  }
  if (kind == wire::Kind::kHello || kind == wire::Kind::kAbort) {
    sender.seal_control(frame, len);
  } else {
    FrameSealer sealer(sender, h.queue, false);
    sealer.seal(frame, len);
  }
}

// A receiver's local graph: `domains` domains of kDomainSize vertices, each
// with two in-edges (so two slots per vertex and superstep).
LocalGraph receiver_graph(unsigned domains) {
  LocalGraph g;
  g.partition.nodes = kNodes;
  g.rank = kMyRank;
  g.domains = domains;
  g.num_local = kDomainSize * domains;
  for (unsigned d = 0; d <= domains; ++d) g.domain_offset.push_back(d * kDomainSize);
  g.in_degree.assign(g.num_local, 2);
  g.out_degree.assign(g.num_local, 0);
  return g;
}

template <class Message>
void fold(const uint8_t* records, unsigned count, const LocalGraph& g, unsigned domain) {
  using Record = wire::RecordOf<Message>;
  SlotAccumulator<Message> slots(g, domain);
  const auto* r = reinterpret_cast<const Record*>(records);
  slots.fold(r, count);
  slots.fold(r, count);
  (void)slots.take(r[0].index);
  if constexpr (sizeof(Message) == 4) {
    ScalarAccumulator<Bfs> scalar(g, domain);
    scalar.fold(reinterpret_cast<const wire::Record*>(records), count);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static constexpr unsigned kRecordBytes[4] = {8, 12, 20, 68};  // 68: a 16-float wide message
  const unsigned record_bytes = kRecordBytes[data[0] % 4];
  const unsigned domains = 1 + (data[0] >> 2) % 2;
  const bool reseal = (data[0] & 8) != 0;
  const size_t len = size - 1;
  std::unique_ptr<uint8_t[]> frame(new uint8_t[len ? len : 1]);  // operator new[]: 16-byte aligned, as mbuf data
  if (len) std::memcpy(frame.get(), data + 1, len);
  const auto n = static_cast<uint32_t>(len);

  // By field name: ValidationContext grew fields (queues, mtu) between the
  // port and record_bytes, and positional init put record_bytes in the wrong one.
  ValidationContext ctx{kJob, kMyRank, kNodes, wire::kDefaultUdpPort};
  ctx.domains = domains;
  ctx.record_bytes = record_bytes;
  if (validate_frame(frame.get(), n, ctx) != DropReason::kNone) return 0;
  const wire::BucketHeader* h = bucket_header(frame.get());
  FrameVerifier verifier(*cluster().auths[kMyRank], cluster().peers, false);
  if (reseal) {
    seal_as_sender(frame.get(), n);
    const DropReason why = verifier.check(frame.get(), n, 0);
    const bool pinned = std::memcmp(frame.get() + 6, kPeerMac.data(), 6) == 0 && h->src_rank != 1;
    if (pinned && why != DropReason::kNone) std::abort();  // a frame sealed by its sender must pass
    // Any one byte of the bucket changed: never authentic.
    std::unique_ptr<uint8_t[]> bent(new uint8_t[n]);
    std::memcpy(bent.get(), frame.get(), n);
    const uint32_t at = wire::kHeaderOffset + (size > 2 ? data[2] : 0) % (n - wire::kHeaderOffset);
    bent[at] ^= 0x5a;
    if (validate_frame(bent.get(), n, ctx) == DropReason::kNone && verifier.check(bent.get(), n, 0) == DropReason::kNone)
      std::abort();
  } else if (verifier.check(frame.get(), n, 0) == DropReason::kNone) {
    // The fuzzer cannot forge a MAC under a key it does not have.
    std::abort();
  }
  SuperstepLedger ledger(kNodes, kMyRank);
  // Supersteps 4k and 4k+1 are open (in flight), 4k+2 and 4k+3 are not.
  ledger.open(h->superstep & ~3u);
  ledger.open((h->superstep & ~3u) + 1);
  const uint8_t* payload = frame.get() + wire::kPayloadOffset;
  if (h->kind == static_cast<uint8_t>(wire::Kind::kData)) {
    uint32_t max = 0;
    for (unsigned i = 0; i < h->count; ++i) {
      uint32_t index;
      std::memcpy(&index, payload + size_t{i} * record_bytes, sizeof index);
      max = index > max ? index : max;
    }
    if (check_data_bucket_index(*h, max, kDomainSize, ledger) != DropReason::kNone) return 0;
    if (ledger.buckets(h->src_rank, h->superstep) != 1) std::abort();
    const LocalGraph g = receiver_graph(domains);
    switch (record_bytes) {
      case 8: fold<uint32_t>(payload, h->count, g, h->domain); break;
      case 12: fold<uint64_t>(payload, h->count, g, h->domain); break;
      case 20: fold<__uint128_t>(payload, h->count, g, h->domain); break;
      default: fold<WideMessage<float, 16>>(payload, h->count, g, h->domain); break;
    }
  } else if (h->kind == static_cast<uint8_t>(wire::Kind::kEnd)) {
    wire::EndPayload end;
    std::memcpy(&end, payload, sizeof end);
    if (ledger.on_end(h->src_rank, h->superstep, end)) {
      (void)ledger.complete(h->superstep);
      (void)ledger.first_overfull_peer(h->superstep);
    }
  }
  return 0;
}
