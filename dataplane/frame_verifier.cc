#include "dataplane/frame_verifier.h"

#include <cstring>

namespace wg {

namespace {

bool same_mac(const uint8_t* a, const uint8_t* b) { return std::memcmp(a, b, 6) == 0; }
const uint8_t* source_mac(const uint8_t* frame) { return frame + 6; }  // Ethernet source address

template <class Payload>
Payload payload_of(const uint8_t* frame) {
  Payload p;
  std::memcpy(&p, frame + wire::kPayloadOffset, sizeof p);  // validate_frame checked the length
  return p;
}

Salt salt_of(const uint8_t (&bytes)[kSaltBytes]) {
  Salt s;
  std::memcpy(s.data(), bytes, s.size());
  return s;
}

}  // namespace

FrameVerifier::FrameVerifier(const FrameAuth& auth, const PeerTable& peers, bool checksum)
    : auth_(auth), peers_(peers), checksum_(checksum), peer_(auth.nodes()), candidate_(auth.nodes()) {}

bool FrameVerifier::refresh(unsigned rank) {
  if (!auth_.confirmed(rank)) return false;
  Peer& p = peer_[rank];
  p.port = peers_.port_of(rank);
  p.mac = peers_.address_of(rank).dst_mac;
  p.salt = auth_.peer_salt(rank);
  p.key = auth_.peer_key(rank);
  p.confirmed = true;
  return true;
}

DropReason FrameVerifier::check(uint8_t* frame, uint32_t len, unsigned port) {
  const wire::BucketHeader& h = *bucket_header(frame);
  if (((h.flags & wire::kFlagMac) != 0) != auth_.authenticated()) return DropReason::kAuthMismatch;
  const auto kind = static_cast<wire::Kind>(h.kind);
  if (kind == wire::Kind::kHello) return check_hello(frame, len);
  Peer& p = peer_[h.src_rank];
  if (!p.confirmed && !refresh(h.src_rank))
    return kind == wire::Kind::kAbort ? check_early_abort(frame, len) : DropReason::kUnverifiedPeer;
  if (port != p.port || !same_mac(source_mac(frame), p.mac.data())) return DropReason::kWrongAddress;
  if (!auth_.authenticated()) return crc_ok(frame, len, kind == wire::Kind::kAbort) ? DropReason::kNone : DropReason::kBadChecksum;
  if (kind == wire::Kind::kAbort && salt_of(payload_of<wire::AbortPayload>(frame).salt) != p.salt)
    return DropReason::kBadMac;  // not under the key of the node we know as that rank
  return frame_mac_ok(p.key, frame, len) ? DropReason::kNone : DropReason::kBadMac;
}

DropReason FrameVerifier::check_hello(uint8_t* frame, uint32_t len) {
  const auto hello = payload_of<wire::HelloPayload>(frame);
  // A copy of someone's hello sent from another address: checked before the
  // MAC, whose key may take a derivation.
  if (!same_mac(hello.port_mac, source_mac(frame))) return DropReason::kWrongAddress;
  if (!auth_.authenticated()) return crc_ok(frame, len, true) ? DropReason::kNone : DropReason::kBadChecksum;
  const unsigned src = bucket_header(frame)->src_rank;
  const Salt salt = salt_of(hello.salt);
  Peer& p = peer_[src];
  if (p.confirmed || refresh(src))
    if (p.salt == salt) return frame_mac_ok(p.key, frame, len) ? DropReason::kNone : DropReason::kBadMac;
  Candidate& c = candidate_[src];
  if (c.valid && c.salt == salt) return frame_mac_ok(c.key, frame, len) ? DropReason::kNone : DropReason::kBadMac;
  FrameKey key = auth_.key_for(salt, src);
  if (!frame_mac_ok(key, frame, len)) return DropReason::kBadMac;
  c.valid = true;
  c.salt = salt;
  c.key = key;
  return DropReason::kNone;
}

DropReason FrameVerifier::check_early_abort(uint8_t* frame, uint32_t len) {
  if (!auth_.authenticated()) return crc_ok(frame, len, true) ? DropReason::kNone : DropReason::kBadChecksum;
  const Candidate& c = candidate_[bucket_header(frame)->src_rank];
  if (!c.valid || c.salt != salt_of(payload_of<wire::AbortPayload>(frame).salt)) return DropReason::kUnverifiedPeer;
  return frame_mac_ok(c.key, frame, len) ? DropReason::kNone : DropReason::kBadMac;
}

}  // namespace wg
