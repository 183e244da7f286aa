// The node's keys for authenticated frames (dataplane/frame_mac.h) and the
// sealing side: its salt and frame key, the initial sequence numbers of the
// flows it receives, and, once discovery has verified a peer's HELLO, the
// peer's salt, frame key and the initial sequence numbers of the flows to it.
//
// Without a key (--no-auth) the same state exists with a master key of
// zeros: frames then carry the CRC (or nothing) instead of a MAC, and the
// initial sequence numbers still come from the salts (fresh per run, though
// anyone who saw the HELLOs can compute them).
//
// Threads: built before the roles run. confirm() is called by membership
// (accumulator role 0) once per peer, after the peer table has the peer's
// address: it writes the peer's entry and publishes it with a release store;
// every other role reads confirmed() (acquire) before it uses the entry or
// the peer table's address of that peer. seal_control() may be called from
// any thread (an atomic counter).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "dataplane/frame.h"
#include "dataplane/frame_mac.h"
#include "dataplane/wire.h"

namespace wg {

struct AuthOptions {
  bool authenticated = false;  // frames carry a MAC; else the CRC (DataplaneOptions::checksum) or nothing
  MasterKey key{};             // the job's secret when authenticated
};

class FrameAuth {
 public:
  // Draws this run's salt (random_salt) unless one is given (tests).
  FrameAuth(const AuthOptions& o, unsigned nodes, unsigned rank, unsigned queues, const Salt* salt = nullptr);
  FrameAuth(const FrameAuth&) = delete;
  FrameAuth& operator=(const FrameAuth&) = delete;

  bool authenticated() const { return authenticated_; }
  unsigned rank() const { return rank_; }
  unsigned nodes() const { return nodes_; }
  const Salt& salt() const { return salt_; }
  const FrameKey& own_key() const { return own_key_; }
  // Flow (src -> this node, queue): its first sequence number.
  uint32_t receive_isn(unsigned src, unsigned queue) const { return receive_isn_[src * wire::kMaxQueues + queue]; }
  // The frame key node `rank` has if it drew `salt` (a HELLO's claim, checked by its MAC).
  FrameKey key_for(const Salt& salt, unsigned rank) const { return derive_frame_key(key_, salt, rank); }

  // Membership only: `peer`'s HELLO, verified and echoing our salt, names
  // `salt`: derive its frame key and our flows' first sequence numbers, and
  // publish. Once per peer.
  void confirm(unsigned peer, const Salt& salt);
  // Any role: the peer's entry (and its address in the peer table) may be read.
  bool confirmed(unsigned peer) const { return peers_[peer].confirmed.load(std::memory_order_acquire); }
  // After confirmed(peer).
  const Salt& peer_salt(unsigned peer) const { return peers_[peer].salt; }
  const FrameKey& peer_key(unsigned peer) const { return peers_[peer].key; }
  uint32_t send_isn(unsigned peer, unsigned queue) const { return peers_[peer].send_isn[queue]; }

  // Seals a HELLO or ABORT: the MAC under the control context (an atomic
  // counter, so any thread may send them), else the CRC (always, whatever
  // --checksum says: a node whose settings differ must still get the hello
  // that names the difference, and a flipped bit must not fake one).
  void seal_control(uint8_t* frame, uint32_t len);

 private:
  struct Peer {
    std::atomic<bool> confirmed{false};
    Salt salt{};
    FrameKey key;
    std::array<uint32_t, wire::kMaxQueues> send_isn{};
  };

  const bool authenticated_;
  const MasterKey key_;
  const unsigned nodes_, rank_, queues_;
  const Salt salt_;
  const FrameKey own_key_;
  std::vector<uint32_t> receive_isn_;   // [src * kMaxQueues + queue]
  std::unique_ptr<Peer[]> peers_;       // written by confirm() before its release store
  std::atomic<uint64_t> control_nonce_{0};
};

// The sealing of one sender role: its own copy of the node's frame key and
// its own nonce counter (context = its queue). Owner: that role's lcore.
class FrameSealer {
 public:
  FrameSealer(const FrameAuth& auth, unsigned queue, bool checksum);
  // The last change to a frame before it goes out, at every transmission:
  // the MAC with the next nonce, else the CRC when checksummed. The frame's
  // header must name this sealer's queue (its IV's context).
  void seal(uint8_t* frame, uint32_t len) {
    if (authenticated_) {
      if (nonce_ >= kNonceLimit || sealing_context(*bucket_header(frame)) != context_) [[unlikely]]
        refuse(frame);
      seal_frame(key_, nonce_++, frame, len);
    } else if (checksum_) {
      seal_bucket(frame, len);
    }
  }
  uint64_t sealed() const { return nonce_; }

 private:
  [[noreturn]] void refuse(const uint8_t* frame) const;
  bool authenticated_;
  bool checksum_;
  uint8_t context_;
  uint64_t nonce_ = 0;
  FrameKey key_;
};

}  // namespace wg
