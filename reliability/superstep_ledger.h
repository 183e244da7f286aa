// End-of-superstep accounting: for every peer and superstep, how many data
// buckets and records arrived against how many the peer says it sent (its END
// frame). A superstep is complete on this node when every peer's END has
// arrived and the counts match: this is the proof that every message sent to
// this node in that superstep was accumulated, whatever the arrival order.
//
// Two slots per peer, indexed by superstep parity: a peer can be at most one
// superstep ahead of us (it needs our END to finish the current one), so at
// most two supersteps are ever in flight.
//
// Owner: the network role writes the slots of the supersteps in flight; the
// coordinator opens the slot of superstep s+1 (which no frame can touch yet)
// and reads a slot after the network role has published its completion
// (release/acquire), so no slot has two writers at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataplane/wire.h"

namespace wg {

class SuperstepLedger {
 public:
  SuperstepLedger(unsigned nodes, unsigned my_rank) : my_rank_(my_rank), peers_(nodes) {}

  // Opens superstep s: its slots start empty. Call before any of its frames can arrive.
  void open(uint32_t s);

  // Accounts one data bucket. False if s is not open (a protocol error).
  bool on_data(unsigned peer, uint32_t s, uint32_t records);
  // Records the peer's END for s. False if s is not open or END came twice.
  bool on_end(unsigned peer, uint32_t s, const wire::EndPayload& end);

  bool complete(uint32_t s) const;
  // A peer whose END or buckets for s are missing (for error messages), or -1.
  int first_incomplete_peer(uint32_t s) const;
  // A peer that sent more buckets than its END announced, or -1.
  int first_overfull_peer(uint32_t s) const;

  // Everything received for s so far as one number: it grows with every
  // bucket, record and END, so an unchanged value means nothing arrived
  // (reliability/progress_watch.h). 0 if s is not open.
  uint64_t progress(uint32_t s) const;
  // What s still lacks from each peer, for the error that ends a stalled run:
  // "node 2: no END(5) yet, 3 buckets and 500 records so far; node 3: its
  // END(5) announced 12 buckets and 2000 records, 11 buckets and 1821 records
  // arrived". Empty when s is complete.
  std::string missing(uint32_t s) const;

  const wire::EndPayload& end(unsigned peer, uint32_t s) const { return slot(peer, s).end; }
  uint64_t buckets(unsigned peer, uint32_t s) const { return slot(peer, s).buckets; }
  uint64_t records(unsigned peer, uint32_t s) const { return slot(peer, s).records; }

 private:
  struct Slot {
    uint32_t superstep = UINT32_MAX;
    bool end_seen = false;
    wire::EndPayload end{};
    uint64_t buckets = 0;
    uint64_t records = 0;
  };
  struct PeerSlots {
    Slot slot[2];
  };
  const Slot& slot(unsigned peer, uint32_t s) const { return peers_[peer].slot[s & 1]; }
  Slot& slot(unsigned peer, uint32_t s) { return peers_[peer].slot[s & 1]; }

  unsigned my_rank_;
  std::vector<PeerSlots> peers_;
};

}  // namespace wg
