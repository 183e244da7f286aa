// Authenticated frames: the primitives (docs/DESIGN-NOTES.md, "Authenticated
// frames"). The nodes of a job share a 32-byte secret, the master key K
// (--key-file, WIREGRAPH_KEY); every frame carries a 16-byte AES-128-GMAC
// tag over its wiregraph header (the tag field taken as zero) and payload.
//
// Keys, all derived with HKDF-SHA256 (RFC 5869, OpenSSL 3) from K:
//  - each node draws a random 16-byte salt per run, announced in its HELLO;
//    its frame key (the AES-128 key of every frame it sends) is
//    HKDF(K, salt, "wiregraph 5 frame key" | rank), so a key file used for
//    many runs still gives every run fresh keys;
//  - the initial sequence number of flow (src -> dst, queue) is
//    HKDF(K, the receiver's salt, "wiregraph 5 isn" | src | dst | queue):
//    unpredictable without K, known to the receiver from the start and to
//    the sender once it has the receiver's authenticated HELLO.
// GMAC fails completely if one key ever authenticates two frames under the
// same IV, so the IV is (sealing context, 48-bit counter): a context is one
// sender role (its receive queue q) or the control frames (HELLO, ABORT);
// each owns its counter, which the header carries (BucketHeader::nonce), and
// never goes back within a run; a retransmission is sealed again with the
// next value.
//
// Why GMAC through intel-ipsec-mb: bench/bench_mac.cc measured every
// candidate on this machine (docs/design/performance-history.md): AES-GMAC with AES-NI and
// PCLMULQDQ was the fastest at MTU 1500 and for small (ACK) frames;
// intel-ipsec-mb (Debian's libipsec-mb-dev, the library DPDK's own AES-GCM
// crypto driver uses) calls it without OpenSSL EVP's per-frame overhead.
//
// Pure functions and plain data: no EAL, unit-tested directly.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "dataplane/wire.h"

namespace wg {

inline constexpr size_t kMasterKeyBytes = 32;
inline constexpr size_t kSaltBytes = 16;
using MasterKey = std::array<uint8_t, kMasterKeyBytes>;
using Salt = std::array<uint8_t, kSaltBytes>;

// HKDF with SHA-256 (RFC 5869): extract with `salt`, expand with `info`
// into out.size() bytes. Throws std::runtime_error if OpenSSL fails.
void hkdf_sha256(std::span<const uint8_t> ikm, std::span<const uint8_t> salt, std::span<const uint8_t> info,
                 std::span<uint8_t> out);

// A fresh random salt (getrandom), never with 8 leading zero bytes (a HELLO's
// echo of 0 means "none heard").
Salt random_salt();
// The first 8 bytes of a salt: what a HELLO echoes.
uint64_t salt_prefix(const Salt& s);

// An AES-128-GMAC key, expanded once (AES key schedule and the GHASH key's
// powers: intel-ipsec-mb's gcm_key_data, held here as opaque bytes so that
// this header does not pull in the library's macros). Plain data: copying
// it gives another owner its own copy.
class FrameKey {
 public:
  FrameKey() = default;  // zero bytes: a placeholder until assigned
  explicit FrameKey(const std::array<uint8_t, 16>& raw);
  // GMAC of `len` bytes under the 12-byte iv.
  void gmac(const uint8_t iv[12], const uint8_t* data, size_t len, uint8_t tag[16]) const;

  static constexpr size_t kScheduleBytes = 1008;  // sizeof(gcm_key_data) in intel-ipsec-mb 1.3

 private:
  alignas(64) uint8_t schedule_[kScheduleBytes] = {};
};

// The frame key of node `rank` that drew `salt`.
FrameKey derive_frame_key(const MasterKey& k, const Salt& salt, unsigned rank);
// The initial sequence number of flow (src -> dst, queue), from the receiver's salt.
uint32_t derive_isn(const MasterKey& k, const Salt& receiver_salt, unsigned src, unsigned dst, unsigned queue);

// ---- frames ----------------------------------------------------------------

// Sealing contexts: sender role q seals with context q (the frames of flow
// (peer, q) and their ACKs carry queue q), the control frames (HELLO, ABORT)
// with kControlContext.
inline constexpr uint8_t kControlContext = 0x80;
inline constexpr uint64_t kNonceLimit = uint64_t{1} << 48;  // counters stay below
uint8_t sealing_context(const wire::BucketHeader& h);

// GMAC of a frame's bucket (wiregraph header with the tag field taken as
// zero, then the payload: frame[kHeaderOffset, len)) under the IV of its
// header's context and nonce. The tag field is zeroed in place for one
// call over the whole bucket (three calls around it cost 30-60 ns more per
// frame: measured) and restored. Owner: whoever owns the frame.
void frame_tag(const FrameKey& k, uint8_t* frame, uint32_t len, uint8_t tag[16]);
// Writes the nonce counter, the MAC flag and the tag. counter < kNonceLimit,
// never twice for one key and context.
void seal_frame(const FrameKey& k, uint64_t counter, uint8_t* frame, uint32_t len);
// The frame's tag is its GMAC under k (compared in constant time). The
// frame is unchanged afterwards.
bool frame_mac_ok(const FrameKey& k, uint8_t* frame, uint32_t len);

inline uint64_t frame_nonce(const wire::BucketHeader& h) {
  uint64_t n = 0;
  std::memcpy(&n, h.nonce, sizeof h.nonce);
  return n;
}
inline void set_frame_nonce(wire::BucketHeader& h, uint64_t n) { std::memcpy(h.nonce, &n, sizeof h.nonce); }

}  // namespace wg
