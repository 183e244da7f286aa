// Cluster membership and control frames.
//
// Discovery: every node broadcasts HELLO on each of its ports until it has
// heard every peer and every peer has reported hearing it. A HELLO names the
// job (app, P, graph size and fingerprint, parameters): a node whose job
// differs is refused with an error naming the differing field. It also
// carries the sender's salt for this run and, for every node, the salt it
// last heard from it (the echo). A peer is taken on (confirmed) when its
// verified HELLO echoes our salt: it has heard us in this run, so the hello
// is no replay from an earlier one; its salt then gives its frame key and
// the sequence numbers of our flows to it (dataplane/frame_auth.h), and the
// source MAC and port of that HELLO are how we reach it afterwards and the
// only address its frames are accepted from. A verified HELLO for a rank
// already taken on from another address or with another salt stops the run
// if it echoes our salt (two live nodes claim the rank); otherwise it is an
// old hello replayed and is dropped.
//
// Liveness: the time each peer was last heard from (any valid frame), kept
// per receive queue (each accumulator writes its own row) and read as the
// latest of them. The engine declares a peer dead when it waits on it and it
// has been silent for the peer timeout. ABORT frames carry a fatal error to
// the other nodes so they stop at once instead of timing out.
//
// Owner: accumulator role 0 receives HELLO and ABORT (frames on queue 0; the
// other accumulators hand them over) and discovers; hellos go out through
// sender role 0 (Dataplane::broadcast). The coordinator queues END and FIN
// (compute/engine/superstep_runtime.h handles them on receipt) through send_control (a
// per-flow ring, multi-producer); ABORT goes out directly after the other
// roles stopped.
#pragma once

#include <rte_cycles.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dataplane/dataplane.h"

namespace wg {

struct MembershipInfo {
  unsigned nodes;
  uint32_t app;
  uint32_t input_kind;    // what the nodes load (compute/graph/graph_input.h): kind and format
  uint64_t input_size;    // its size
  uint64_t input_digest;  // its header's digest, or the generator's spec
  uint64_t params_digest;
  // Names an input for the mismatch message (nullptr: numbers only).
  std::string (*describe_input)(uint32_t kind, uint64_t size, uint64_t digest) = nullptr;
  // Names a program for the mismatch message ("'bfs'"; empty: its id).
  std::function<std::string(uint32_t app)> name_program;
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
  Membership(const Membership&) = delete;
  Membership& operator=(const Membership&) = delete;

  // Blocks (pumping) until every peer is known and knows us. Throws PeerError
  // naming the peers not heard from when timeout_s passes.
  void discover(double timeout_s, const Pump& pump);

  // Queues a control frame for flow (peer, queue) behind any data already queued to it.
  void send_control(unsigned peer, wire::Kind kind, uint32_t superstep, const void* payload,
                    uint16_t bytes, const Pump& pump, unsigned queue = 0);
  // Best effort, immediate: tells every node on every port that this node
  // failed (broadcast, so peers not yet discovered hear it too).
  void broadcast_abort(const std::string& reason) { abort_cluster(dp_, reason); }
  static void abort_cluster(Dataplane& dp, const std::string& reason);

  // Handles a validated and verified (dataplane/frame_verifier.h) HELLO,
  // ABORT or ACK frame from port `port`.
  DropReason on_control(const uint8_t* frame, const wire::BucketHeader* h, unsigned port);
  // Accumulator role `queue`: a valid frame from `rank` arrived.
  void heard_from(unsigned rank, unsigned queue = 0) {
    last_heard_tsc_[queue * info_.nodes + rank].store(rte_rdtsc(), std::memory_order_relaxed);
  }
  double silent_for(unsigned rank) const;

  uint64_t all_peers() const { return all_peers_; }  // bit per peer rank

 private:
  // A request while discovering (every kHelloIntervalS), or a reply to a
  // peer's request (at most one per kReplyIntervalS).
  void send_hello(bool reply);
  void check_same_job(unsigned peer, const wire::HelloPayload& h) const;
  DropReason on_hello(const uint8_t* frame, const wire::BucketHeader* h, unsigned port);
  // Why discovery has not finished, for its timeout's error.
  std::string discovery_failure(double timeout_s) const;

  Dataplane& dp_;
  MembershipInfo info_;
  unsigned rank_;
  uint64_t all_peers_;       // bit per peer rank (not us)
  uint64_t heard_any_ = 0;   // peers whose verified HELLO we have seen
  uint64_t heard_ = 0;       // peers taken on (their HELLO echoes our salt)
  uint64_t heard_us_ = 0;    // peers whose latest HELLO echoes our salt
  std::vector<uint64_t> echo_;  // per rank: salt_prefix of its latest verified HELLO (0: none), echoed in ours
  uint64_t last_hello_tsc_ = 0;
  uint64_t last_reply_tsc_ = 0;
  // [queue * nodes + rank], written by accumulator role `queue` only
  std::unique_ptr<std::atomic<uint64_t>[]> last_heard_tsc_;
};

}  // namespace wg
