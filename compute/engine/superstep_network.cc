// The runtime's network roles: sender role q and accumulator role q for
// each receive queue, on the lcores the layout gives them: one pass over the
// transport and the same-node rings, the end-of-superstep ledgers, END and
// FIN frames on receipt, liveness. Every field they write is documented as
// theirs in compute/engine/superstep_runtime.h.
#include <rte_branch_prediction.h>
#include <rte_lcore.h>

#include <cstring>

#include "compute/engine/superstep_runtime.h"

#include "compute/engine/data_bucket_check.h"

namespace wg {

namespace {
constexpr unsigned kDrainBursts = 8;  // a pass reads at most this many bursts per receive queue
}  // namespace

int SuperstepRuntime::network_main(void* arg) {
  const auto* a = static_cast<const NetworkArg*>(arg);
  SuperstepRuntime* rt = a->runtime;
  const NetworkRoles& roles = rt->network_roles_[a->index];
  try {
    if (roles.primary) {
      rt->membership_.discover(rt->opt_.hello_timeout_s, rt->pump_fn_);
      rt->clock().charge(Role::kWait);  // discovery: charged before the coordinator's first mark
      rt->discovered_.store(true, std::memory_order_release);
    }
    IdleBackoff idle;
    for (;;) {
      // Finished comes before stop (SuperstepRuntime::finish): every lcore lingers,
      // answering its queues' retransmissions, then stays quiet until stopped.
      if (rt->finished_.load(std::memory_order_acquire)) {
        rt->linger(roles);
        while (!rt->stop_network_.load(std::memory_order_acquire)) idle.wait();
        break;
      }
      if (rt->stop_network_.load(std::memory_order_acquire)) break;
      if (rt->timed_network_step()) {
        idle.reset();
      } else {
        idle.wait();
        rt->check_peers_alive(roles);
      }
    }
  } catch (const std::exception& ex) {
    rt->fail(ex.what());
  }
  return 0;
}

// One pass over this lcore's roles (an entry of network_roles_), then
// publish progress. True if anything moved.
bool SuperstepRuntime::network_step(const NetworkRoles& roles) {
  bool work = false;
  // Receive before sending, until the ports hold no more than a part burst
  // (bounded): the send path judges its timers by the acks received, and
  // after a worker's chunk without network passes the ports hold frames
  // that acked everything. Sending first, it timed out on acks it had not
  // read yet (P = 2 kron:16:16 PageRank at 0.1% loss: 20 timeouts a run,
  // with windows of 512 frames in flight and acks waiting in the ring).
  for (unsigned q : roles.accumulators) {
    // Sender role q here too: its acks take effect at once (transport.h).
    const bool here = layout_.sender_lcore(q) == roles.lcore;
    for (unsigned bursts = 0; bursts < kDrainBursts; ++bursts) {
      const unsigned n = transport_.receive_step(
          q,
          [this, q](rte_mbuf*, unsigned port, const uint8_t* frame, const wire::BucketHeader* h) {
            return receive(frame, h, port, q);
          },
          here);
      work |= n > 0;
      if (n < Dataplane::kBurst) break;
    }
    work |= fold_local(q) > 0;
    publish_progress(q);
  }
  for (unsigned q : roles.senders) {
    take_send_snapshot(q);
    work |= transport_.send_step(q) > 0;
  }
  if (roles.primary) publish_finish();
  passes_[&roles - network_roles_.data()].n.fetch_add(1, std::memory_order_release);
  return work;
}

DropReason SuperstepRuntime::receive(const uint8_t* frame, const wire::BucketHeader* h, unsigned port, unsigned q) {
  DropReason why;
  switch (static_cast<wire::Kind>(h->kind)) {
    case wire::Kind::kData: why = receive_data(frame, h, q); break;
    case wire::Kind::kEnd:
    case wire::Kind::kFin: why = receive_end_or_fin(frame, h, q); break;
    case wire::Kind::kAck: why = DropReason::kNone; break;  // the transport used its ack; it proves liveness
    default:
      // HELLO and ABORT travel on queue 0 (other queues hand them over).
      why = q == 0 ? membership_.on_control(frame, h, port) : DropReason::kBadQueue;
      break;
  }
  if (why == DropReason::kNone) membership_.heard_from(h->src_rank, q);
  return why;
}

// A data bucket of epoch t, for the current phase's driver (see "Phases" in
// superstep_superstep_runtime.h: no bucket of another phase is ever delivered here), for a range
// queue q owns.
DropReason SuperstepRuntime::receive_data(const uint8_t* frame, const wire::BucketHeader* h, unsigned q) {
  ProgramDriver* current = program_.load(std::memory_order_acquire);
  if (current == nullptr) [[unlikely]]
    return DropReason::kBadSuperstep;  // between phases no peer sends data (the barrier)
  ProgramDriver& prog = *current;
  Accumulator& acc = *accumulators_[q];
  const uint32_t t = h->superstep;
  const uint8_t* records = frame + wire::kPayloadOffset;
  // validate_frame checked the count against the smallest record; the
  // phase's driver knows its own.
  if (uint32_t{h->count} * prog.record_bytes() > frame_payload_bytes(frame)) [[unlikely]]
    return DropReason::kBadCount;
  const unsigned d = h->domain;
  // Another queue's range: folding it here would race with its owner.
  if (d >= prog.domains() || prog.routes().queue(d) != q) [[unlikely]]
    return DropReason::kBadDomain;
  const DropReason why =
      check_data_bucket_index(*h, prog.max_index(records, h->count), prog.domain_size(d), acc.ledger);
  if (why != DropReason::kNone) [[unlikely]]
    return why;
  RxCounters& rx = dp_.rx_q[q];
  ++rx.data_buckets;
  rx.records += h->count;
  acc.accumulated[t & 1] += h->count;
  return fold_verdict(prog.fold(records, h->count, driver_superstep(t), d));
}

DropReason SuperstepRuntime::receive_end_or_fin(const uint8_t* frame, const wire::BucketHeader* h, unsigned q) {
  const unsigned src = h->src_rank;
  const uint8_t* payload = frame + wire::kPayloadOffset;
  if (h->kind == static_cast<uint8_t>(wire::Kind::kEnd)) {
    wire::EndPayload end;
    std::memcpy(&end, payload, sizeof end);
    return accumulators_[q]->ledger.on_end(src, h->superstep, end) ? DropReason::kNone : DropReason::kBadSuperstep;
  }
  if (q != 0) return DropReason::kBadQueue;  // FIN travels on flow (peer, 0)
  wire::FinPayload fin;
  std::memcpy(&fin, payload, sizeof fin);
  if (fin.entries > wire::kTopK || fin.stats_bytes > wire::kMaxSummaryStatsBytes) return DropReason::kBadControl;
  fins_[src] = fin;
  fins_seen_ |= uint64_t{1} << src;
  return DropReason::kNone;
}

// Same-node buckets of queue q's ranges, from its local ring.
unsigned SuperstepRuntime::fold_local(unsigned q) {
  ProgramDriver* current = program_.load(std::memory_order_acquire);
  if (current == nullptr) return 0;  // discovery: no phase yet
  ProgramDriver& prog = *current;
  Accumulator& acc = *accumulators_[q];
  rte_mbuf* burst[Dataplane::kBurst];
  const unsigned n = dp_.dequeue_local(q, burst, Dataplane::kBurst);
  for (unsigned i = 0; i < n; ++i) {
    const uint8_t* frame = rte_pktmbuf_mtod(burst[i], const uint8_t*);
    const wire::BucketHeader* h = bucket_header(frame);
    const uint32_t t = h->superstep;
    acc.accumulated[t & 1] += h->count;
    if (!prog.fold(frame + wire::kPayloadOffset, h->count, driver_superstep(t), h->domain))
      dp_.rx_q[q].drop(DropReason::kSlotOverflow);
    acc.local_folded[t & 1] += h->count;
    rte_pktmbuf_free(burst[i]);
  }
  return n;
}

void SuperstepRuntime::publish_progress(unsigned q) {
  Accumulator& acc = *accumulators_[q];
  const int64_t target = await_target_.load(std::memory_order_acquire);
  if (target <= acc.completed.load(std::memory_order_relaxed)) return;
  const auto s = static_cast<uint32_t>(target);
  const int bad = acc.ledger.first_overfull_peer(s);
  if (bad >= 0)
    throw EngineError("node " + std::to_string(bad) + " sent more buckets in superstep " + std::to_string(s) +
                      " to queue " + std::to_string(q) + " than its END announced");
  if (acc.ledger.complete(s) && acc.local_folded[s & 1] == acc.local_expected[s & 1].load(std::memory_order_relaxed)) {
    transport_.report_receive(q, acc.receive_snapshot[s & 1]);
    acc.completed.store(target, std::memory_order_release);
  }
}

// Sender role q: its flows' state for the superstep every accumulator has
// completed, when the coordinator asks.
void SuperstepRuntime::take_send_snapshot(unsigned q) {
  SenderSnapshot& snap = *senders_[q];
  const int64_t want = snapshot_request_.load(std::memory_order_acquire);
  if (want <= snap.taken.load(std::memory_order_relaxed)) return;
  transport_.report_send(q, snap.links[want & 1]);
  snap.tx[want & 1] = dp_.tx_q[q];
  snap.taken.store(want, std::memory_order_release);
}

// Accumulator 0: the end of the job.
void SuperstepRuntime::publish_finish() {
  if (!finish_requested_.load(std::memory_order_acquire) || finished_.load(std::memory_order_relaxed)) return;
  if (!finishing_keepalives_) {
    // From our FIN on, peers may take our silence for our exit (all_peers_done):
    // keep it from happening by chance, even at 30% loss (0.3^50 per grace).
    transport_.set_keepalive_ms(kFinishKeepaliveMs);
    finishing_keepalives_ = true;
    for (unsigned q = 0; q < queues_; ++q) finish_marks_[q] = transport_.send_path(q).steps();
  }
  if (fins_seen_ == membership_.all_peers() && all_peers_done()) finished_.store(true, std::memory_order_release);
}

// Every flow to `peer` has everything acked, as a send step that began
// after our FIN was queued says (a step counts at its end: two of them).
bool SuperstepRuntime::acked_by(unsigned peer) const {
  for (unsigned q = 0; q < queues_; ++q) {
    const SendPath& s = transport_.send_path(q);
    if (s.steps() < finish_marks_[q] + 2 || !s.published_acked_by(peer)) return false;
  }
  return true;
}

// Every peer has acked all we sent, or has sent its FIN and gone quiet: it
// only exits once it holds our FIN, our last frame, so it has everything
// (our ack of its FIN was lost, and it stopped retransmitting).
bool SuperstepRuntime::all_peers_done() const {
  for (unsigned p = 0; p < nodes_; ++p)
    if (p != rank_ && !acked_by(p) && membership_.silent_for(p) < kFinGraceSeconds) return false;
  return true;
}

// Any peer silent past the timeout is dead, whatever we are waiting for:
// live peers send keepalives (accumulator 0's lcore judges). An awaited
// superstep that gets nothing on an accumulator's queue for
// --progress-timeout while they do ends the run too (progress_watch.h).
void SuperstepRuntime::check_peers_alive(const NetworkRoles& roles) {
  const int64_t waiting = await_target_.load(std::memory_order_relaxed);
  if (roles.primary) {
    bool awaited = false;
    for (const auto& a : accumulators_) awaited |= waiting > a->completed.load(std::memory_order_relaxed);
    for (unsigned p = 0; p < nodes_; ++p) {
      if (p == rank_ || membership_.silent_for(p) <= opt_.peer_timeout_s) continue;
      std::string what = "node " + std::to_string(p) + " silent for " +
                         std::to_string(static_cast<int>(membership_.silent_for(p))) + " s";
      if (awaited) what += " while this node waits for the end of " + describe_epoch(waiting);
      throw EngineError(what + ": it stopped answering (crashed, killed or cut off)" + likely_mtu_cause());
    }
  }
  const double now = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  for (unsigned q : roles.accumulators) {
    Accumulator& acc = *accumulators_[q];
    const bool awaited = waiting > acc.completed.load(std::memory_order_relaxed);
    const auto s = static_cast<uint32_t>(waiting);
    const uint64_t local = awaited ? acc.local_folded[s & 1] : 0;
    if (acc.progress.stalled(awaited ? waiting : -1, awaited ? acc.ledger.progress(s) + local : 0, now)) {
      std::string what = describe_stall(acc.ledger, s, describe_epoch(waiting), local,
                                        acc.local_expected[s & 1].load(std::memory_order_relaxed),
                                        acc.progress.limit());
      if (queues_ > 1) what += " (receive queue " + std::to_string(q) + ")";
      throw EngineError(what + likely_mtu_cause());
    }
  }
}

// When a timeout fires: this node's own netdevs re-read, and "; likely
// cause: frames of N bytes may exceed the path's MTU (...)" when one's MTU
// is now below --mtu (lowered mid-run: the port refuses to start otherwise).
std::string SuperstepRuntime::likely_mtu_cause() const {
  const std::string why = dp_.mtu_lowered();
  return why.empty() ? "" : "; likely cause: " + why;
}

// Epochs are the runtime's count (compute/engine/superstep_runtime.h, "Phases"); people know
// the phase and its superstep.
std::string SuperstepRuntime::describe_epoch(int64_t epoch) const {
  const uint32_t base = base_.load(std::memory_order_relaxed);
  const char* phase = phase_name_.load(std::memory_order_relaxed);
  const std::string name = phase != nullptr ? phase : "the run";
  if (epoch < static_cast<int64_t>(base)) return "the barrier before " + name + " (epoch " + std::to_string(epoch) + ")";
  return "superstep " + std::to_string(epoch - base + first_.load(std::memory_order_relaxed)) + " of " + name;
}

}  // namespace wg
