// The runtime's network role (sender + accumulator): one pass over the
// transport and the same-node queues, the end-of-superstep ledger, END and
// FIN frames on receipt, liveness. Every field it writes is documented as the
// network role's in compute/runtime.h.
#include <rte_branch_prediction.h>
#include <rte_lcore.h>

#include <cstring>

#include "compute/runtime.h"

#include "compute/data_bucket_check.h"

namespace wg {

int Runtime::network_main(void* arg) {
  Runtime* rt = static_cast<Runtime*>(arg);
  try {
    rt->membership_.discover(rt->opt_.hello_timeout_s, rt->pump_fn_);
    rt->clock().charge(Role::kWait);  // discovery: charged before the coordinator's first mark
    rt->discovered_.store(true, std::memory_order_release);
    IdleBackoff idle;
    while (!rt->stop_network_.load(std::memory_order_acquire)) {
      if (rt->timed_network_step()) {
        idle.reset();
      } else {
        idle.wait();
        rt->check_peers_alive();
      }
      if (rt->finished_.load(std::memory_order_relaxed)) {
        rt->linger();
        // Stay (quietly) until the coordinator stops us.
        while (!rt->stop_network_.load(std::memory_order_acquire)) idle.wait();
      }
    }
  } catch (const std::exception& ex) {
    rt->fail(ex.what());
  }
  return 0;
}

// One pass over every queue, then publish progress. True if anything moved.
bool Runtime::network_step() {
  bool work = transport_.send_step() > 0;
  work |= transport_.receive_step([this](rte_mbuf*, unsigned port, const uint8_t* frame,
                                         const wire::BucketHeader* h) { return receive(frame, h, port); }) > 0;
  const unsigned local = fold_local();
  publish_progress();
  network_passes_.fetch_add(1, std::memory_order_release);
  return work || local > 0;
}

DropReason Runtime::receive(const uint8_t* frame, const wire::BucketHeader* h, unsigned port) {
  DropReason why;
  switch (static_cast<wire::Kind>(h->kind)) {
    case wire::Kind::kData: why = receive_data(frame, h); break;
    case wire::Kind::kEnd:
    case wire::Kind::kFin: why = receive_end_or_fin(frame, h); break;
    default: why = membership_.on_control(frame, h, port); break;
  }
  if (why == DropReason::kNone) membership_.heard_from(h->src_rank);
  return why;
}

// A data bucket of epoch t, for the current phase's driver (see "Phases" in
// runtime.h: no bucket of another phase is ever delivered here).
DropReason Runtime::receive_data(const uint8_t* frame, const wire::BucketHeader* h) {
  ProgramDriver* current = program_.load(std::memory_order_acquire);
  if (current == nullptr) [[unlikely]]
    return DropReason::kBadSuperstep;  // between phases no peer sends data (the barrier)
  ProgramDriver& prog = *current;
  const uint32_t t = h->superstep;
  const uint8_t* records = frame + wire::kPayloadOffset;
  // validate_frame checked the count against the smallest record; the
  // phase's driver knows its own.
  if (uint32_t{h->count} * prog.record_bytes() > frame_payload_bytes(frame)) [[unlikely]]
    return DropReason::kBadCount;
  const unsigned d = h->domain;
  if (d >= prog.domains()) [[unlikely]]
    return DropReason::kBadDomain;
  const DropReason why = check_data_bucket_index(*h, prog.max_index(records, h->count), prog.domain_size(d), ledger_);
  if (why != DropReason::kNone) [[unlikely]]
    return why;
  ++dp_.rx.data_buckets;
  dp_.rx.records += h->count;
  accumulated_[t & 1] += h->count;
  return fold_verdict(prog.fold(records, h->count, t - base_.load(std::memory_order_relaxed), d));
}

DropReason Runtime::receive_end_or_fin(const uint8_t* frame, const wire::BucketHeader* h) {
  const unsigned src = h->src_rank;
  const uint8_t* payload = frame + wire::kPayloadOffset;
  if (h->kind == static_cast<uint8_t>(wire::Kind::kEnd)) {
    wire::EndPayload end;
    std::memcpy(&end, payload, sizeof end);
    return ledger_.on_end(src, h->superstep, end) ? DropReason::kNone : DropReason::kBadSuperstep;
  }
  wire::FinPayload fin;
  std::memcpy(&fin, payload, sizeof fin);
  if (fin.entries > wire::kTopK) return DropReason::kBadControl;
  fins_[src] = fin;
  fins_seen_ |= uint64_t{1} << src;
  return DropReason::kNone;
}

// Same-node buckets, from each domain's own queue to its accumulator.
unsigned Runtime::fold_local() {
  ProgramDriver* current = program_.load(std::memory_order_acquire);
  if (current == nullptr) return 0;  // discovery: no phase yet
  ProgramDriver& prog = *current;
  const uint32_t base = base_.load(std::memory_order_relaxed);
  unsigned local = 0;
  for (unsigned d = 0; d < prog.domains(); ++d) {
    rte_mbuf* burst[Dataplane::kBurst];
    const unsigned n = dp_.dequeue_local(d, burst, Dataplane::kBurst);
    for (unsigned i = 0; i < n; ++i) {
      const uint8_t* frame = rte_pktmbuf_mtod(burst[i], const uint8_t*);
      const wire::BucketHeader* h = bucket_header(frame);
      const uint32_t t = h->superstep;
      accumulated_[t & 1] += h->count;
      if (!prog.fold(frame + wire::kPayloadOffset, h->count, t - base, d)) dp_.rx.drop(DropReason::kSlotOverflow);
      local_folded_[t & 1] += h->count;
      rte_pktmbuf_free(burst[i]);
    }
    local += n;
  }
  return local;
}

void Runtime::publish_progress() {
  const int64_t target = await_target_.load(std::memory_order_acquire);
  if (target > completed_.load(std::memory_order_relaxed)) {
    const auto s = static_cast<uint32_t>(target);
    const int bad = ledger_.first_overfull_peer(s);
    if (bad >= 0)
      throw EngineError("node " + std::to_string(bad) + " sent more buckets in superstep " + std::to_string(s) +
                        " than its END announced");
    if (ledger_.complete(s) && local_folded_[s & 1] == local_expected_[s & 1].load(std::memory_order_relaxed)) {
      links_snapshot_[s & 1] = transport_.report();
      tx_snapshot_[s & 1] = dp_.tx;
      completed_.store(target, std::memory_order_release);
    }
  }
  if (finish_requested_.load(std::memory_order_acquire) && !finishing_keepalives_) {
    // From our FIN on, peers may take our silence for our exit (all_peers_done):
    // keep it from happening by chance, even at 30% loss (0.3^50 per grace).
    transport_.set_keepalive_ms(kFinishKeepaliveMs);
    finishing_keepalives_ = true;
  }
  if (finish_requested_.load(std::memory_order_acquire) && !finished_.load(std::memory_order_relaxed) &&
      fins_seen_ == membership_.all_peers() && all_peers_done())
    finished_.store(true, std::memory_order_release);
}

// Every peer has acked all we sent, or has sent its FIN and gone quiet: it
// only exits once it holds our FIN, our last frame, so it has everything
// (our ack of its FIN was lost, and it stopped retransmitting).
bool Runtime::all_peers_done() const {
  for (unsigned p = 0; p < nodes_; ++p)
    if (p != rank_ && !transport_.acked_by(p) && membership_.silent_for(p) < kFinGraceSeconds) return false;
  return true;
}

// Any peer silent past the timeout is dead, whatever we are waiting for:
// live peers send keepalives. A superstep that gets nothing for
// --progress-timeout while they do ends the run too (progress_watch.h).
void Runtime::check_peers_alive() {
  const int64_t waiting = await_target_.load(std::memory_order_relaxed);
  const bool awaited = waiting > completed_.load(std::memory_order_relaxed);
  for (unsigned p = 0; p < nodes_; ++p) {
    if (p == rank_ || membership_.silent_for(p) <= opt_.peer_timeout_s) continue;
    std::string what = "node " + std::to_string(p) + " silent for " +
                       std::to_string(static_cast<int>(membership_.silent_for(p))) + " s";
    if (awaited) what += " while this node waits for the end of " + describe_epoch(waiting);
    throw EngineError(what + ": it stopped answering (crashed, killed or cut off)");
  }
  const auto s = static_cast<uint32_t>(waiting);
  const uint64_t local = awaited ? local_folded_[s & 1] : 0;
  const double now = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  if (progress_.stalled(awaited ? waiting : -1, awaited ? ledger_.progress(s) + local : 0, now))
    throw EngineError(describe_stall(ledger_, s, describe_epoch(waiting), local,
                                     local_expected_[s & 1].load(std::memory_order_relaxed), progress_.limit()));
}

// Epochs are the runtime's count (compute/runtime.h, "Phases"); people know
// the phase and its superstep.
std::string Runtime::describe_epoch(int64_t epoch) const {
  const uint32_t base = base_.load(std::memory_order_relaxed);
  const char* phase = phase_name_.load(std::memory_order_relaxed);
  const std::string name = phase != nullptr ? phase : "the run";
  if (epoch < static_cast<int64_t>(base)) return "the barrier before " + name + " (epoch " + std::to_string(epoch) + ")";
  return "superstep " + std::to_string(epoch - base) + " of " + name;
}

}  // namespace wg
