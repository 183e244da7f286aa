#include "reliability/receive_path.h"

#include <stdexcept>
#include <string>

#include "reliability/transport_time.h"

namespace wg {

namespace {
void free_frame(void* f) { rte_pktmbuf_free(static_cast<rte_mbuf*>(f)); }
}  // namespace

ReceivePath::ReceivePath(Dataplane& dp, const TransportConfig& cfg, AckChannel& acks_out, AckState* ack_states)
    : dp_(dp), acks_out_(acks_out), ack_states_(ack_states), windows_(dp.options().nodes) {
  const unsigned rank = dp.options().rank;
  for (unsigned p = 0; p < windows_.size(); ++p)
    if (p != rank) windows_[p] = std::make_unique<ReceiveWindow>(cfg.window, 0);
  const uint64_t delay = us_to_ticks(cfg.fault_delay_us);
  for (unsigned q = 0; q < dp.num_ports(); ++q)
    faults_.emplace_back(cfg.rx_faults.any()
                             ? std::make_unique<FaultInjector>(cfg.rx_faults, fault_seed(cfg, rank, q), delay,
                                                               dp.rx_pool() ? dp.rx_pool() : dp.pool(), false)
                             : nullptr);
}

ReceivePath::~ReceivePath() {
  for (auto& w : windows_)
    if (w) w->for_each_held(free_frame);
}

DropReason ReceivePath::classify(rte_mbuf* m, const uint8_t* frame, const wire::BucketHeader* h, uint64_t now,
                                 bool* held) {
  const auto kind = static_cast<wire::Kind>(h->kind);
  // HELLO and ABORT always carry a CRC, whatever --checksum says (they are
  // rare): a node whose --checksum differs must still get the hello that
  // names the mismatch, and a flipped bit must not fake one.
  if (kind == wire::Kind::kHello || kind == wire::Kind::kAbort)
    return bucket_crc_ok(frame, rte_pktmbuf_data_len(m)) ? DropReason::kNone : DropReason::kBadChecksum;
  if (dp_.options().checksum && !bucket_crc_ok(frame, rte_pktmbuf_data_len(m))) return DropReason::kBadChecksum;
  const unsigned src = h->src_rank;
  // The ack goes to the send path, which applies it as the receive path used
  // to (SendWindow::on_ack), stale ACK-only acks included: see ack_channel.h.
  if (!acks_out_.push(AckEvent{src, h->ack, kind == wire::Kind::kAck, now})) ++acks_overflowed_;
  if (!wire::is_sequenced(kind)) return DropReason::kNone;
  ReceiveWindow& w = *windows_[src];
  switch (w.accept(h->seq, m)) {
    case ReceiveWindow::Verdict::kDeliver:
      publish_ack(src);
      return DropReason::kNone;
    case ReceiveWindow::Verdict::kHold:
      *held = true;
      request_ack_now(src);  // tell the sender about the gap at once (a stale ack)
      return DropReason::kNone;
    case ReceiveWindow::Verdict::kDuplicate:
      request_ack_now(src);  // our ack was lost or late: repeat it
      return DropReason::kDuplicate;
    case ReceiveWindow::Verdict::kBeyondWindow:
      request_ack_now(src);
      return DropReason::kBeyondWindow;
  }
  return DropReason::kNone;
}

void ReceivePath::rejected(const wire::BucketHeader* h, DropReason why) {
  throw std::runtime_error("node " + std::to_string(h->src_rank) + " sent frame " + std::to_string(h->seq) +
                           " (kind " + std::to_string(h->kind) + ", superstep " + std::to_string(h->superstep) +
                           ") that passed the transport but cannot be used here: " + drop_reason_name(why) +
                           " (corrupted in flight without --checksum on, or the nodes run different jobs)");
}

FaultCounts ReceivePath::fault_counts() const {
  FaultCounts t;
  for (const auto& f : faults_)
    if (f) t += f->counts();
  return t;
}

}  // namespace wg
