// Cluster membership and control frames.
//
// Discovery: every node broadcasts HELLO on each of its ports until it has
// heard every peer and every peer has reported hearing it. A HELLO names the
// job (app, P, graph size and fingerprint, parameters): a node whose job
// differs is refused with an error naming the differing field. The source MAC
// and port of a peer's HELLO are how we reach it afterwards.
//
// Liveness: the time each peer was last heard from (any valid frame). The
// engine declares a peer dead when it waits on it and it has been silent for
// the peer timeout. ABORT frames carry a fatal error to the other nodes so
// they stop at once instead of timing out.
//
// Owner: the network role receives (on_control, heard_from) and discovers;
// the coordinator queues END and FIN (compute/runtime.h handles them on
// receipt) through send_control (a per-peer ring, multi-producer); ABORT goes
// out directly after the other roles stopped.
#pragma once

#include <rte_cycles.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dataplane/dataplane.h"

namespace wg {

struct MembershipInfo {
  unsigned nodes;
  uint32_t app;
  uint32_t input_kind;    // what the nodes load (compute/graph_input.h): kind and format
  uint64_t input_size;    // its size
  uint64_t input_digest;  // its header's digest, or the generator's spec
  uint64_t params_digest;
  // Names an input for the mismatch message (nullptr: numbers only).
  std::string (*describe_input)(uint32_t kind, uint64_t size, uint64_t digest) = nullptr;
};

// A fatal condition caused by another node (mismatched job, abort, silence).
class PeerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Membership {
 public:
  using Pump = std::function<bool()>;

  Membership(Dataplane& dp, const MembershipInfo& info);

  // Blocks (pumping) until every peer is known and knows us. Throws PeerError
  // naming the peers not heard from when timeout_s passes.
  void discover(double timeout_s, const Pump& pump);

  // Queues a control frame for `peer` behind any data already queued to it.
  void send_control(unsigned peer, wire::Kind kind, uint32_t superstep, const void* payload,
                    uint16_t bytes, const Pump& pump);
  // Best effort, immediate: tells every node on every port that this node
  // failed (broadcast, so peers not yet discovered hear it too).
  void broadcast_abort(const std::string& reason) { abort_cluster(dp_, reason); }
  static void abort_cluster(Dataplane& dp, const std::string& reason);

  // Handles a validated HELLO, ABORT or ACK frame from port `port`.
  DropReason on_control(const uint8_t* frame, const wire::BucketHeader* h, unsigned port);
  void heard_from(unsigned rank) { last_heard_tsc_[rank] = rte_rdtsc(); }
  double silent_for(unsigned rank) const;

  uint64_t all_peers() const { return all_peers_; }  // bit per peer rank

 private:
  // A request while discovering (every kHelloIntervalS), or a reply to a
  // peer's request (at most one per kReplyIntervalS).
  void send_hello(bool reply);
  void check_same_job(unsigned peer, const wire::HelloPayload& h) const;

  Dataplane& dp_;
  MembershipInfo info_;
  unsigned rank_;
  uint64_t all_peers_;       // bit per peer rank (not us)
  uint64_t heard_ = 0;       // peers whose HELLO we have
  uint64_t heard_us_ = 0;    // peers whose HELLO lists us
  uint64_t last_hello_tsc_ = 0;
  uint64_t last_reply_tsc_ = 0;
  std::vector<uint64_t> last_heard_tsc_;
};

}  // namespace wg
