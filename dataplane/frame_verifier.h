// The receiving side of authenticated frames (dataplane/frame_mac.h): is a
// validated frame from the rank its header names, and may it be believed?
//
//  - HELLO: its MAC under the key of the salt it announces (a salt not seen
//    before costs one key derivation), sent from the port MAC it names;
//    membership then decides whether that node is taken on (its hello must
//    echo our salt) and from which address (the peer table).
//  - Every other frame: from a rank whose HELLO membership has confirmed
//    (else unverified_peer: no key to check it yet; the sender resends it),
//    from the port and source MAC the rank was learned on (address pinning:
//    wrong_address), with a valid MAC under that rank's frame key (bad_mac).
//    An ABORT from a rank not yet confirmed counts only if its salt is the
//    one of a verified HELLO of that rank in this run: an abort recorded in
//    an earlier run under the same key must not stop this one.
// Without a key (--no-auth) the same pinning applies, with the CRC
// (--checksum; always for HELLO and ABORT) in place of the MAC.
//
// One per accumulator role, with its own copies of each confirmed peer's key
// and address (taken once, after FrameAuth::confirmed), so that a frame's
// check reads no state another lcore writes. Owner: that role's lcore.
#pragma once

#include <cstdint>
#include <vector>

#include "dataplane/frame.h"
#include "dataplane/frame_auth.h"
#include "dataplane/peer_table.h"

namespace wg {

class FrameVerifier {
 public:
  FrameVerifier(const FrameAuth& auth, const PeerTable& peers, bool checksum);

  // The frame (validate_frame passed) arrived on port index `port`. The
  // MAC check writes the frame's tag field and restores it (frame_tag).
  DropReason check(uint8_t* frame, uint32_t len, unsigned port);

 private:
  struct Peer {
    bool confirmed = false;
    unsigned port = 0;
    MacAddress mac{};
    Salt salt{};
    FrameKey key;
  };
  // The latest salt a verified HELLO of an unconfirmed rank announced, with its key.
  struct Candidate {
    bool valid = false;
    Salt salt{};
    FrameKey key;
  };
  bool refresh(unsigned rank);
  DropReason check_hello(uint8_t* frame, uint32_t len);
  DropReason check_early_abort(uint8_t* frame, uint32_t len);
  bool crc_ok(const uint8_t* frame, uint32_t len, bool always) const {
    return !(checksum_ || always) || bucket_crc_ok(frame, len);
  }

  const FrameAuth& auth_;
  const PeerTable& peers_;
  const bool checksum_;
  std::vector<Peer> peer_;
  std::vector<Candidate> candidate_;  // used by accumulator role 0 only (HELLO and ABORT travel on queue 0)
};

}  // namespace wg
