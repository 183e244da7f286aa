// The send half of a connection (this node -> one peer): sequence numbers,
// the window of frames kept for retransmission, cumulative-ack processing,
// go-back-N on timeout, and BlitzG's "delayed sending" (pacing by AST x N).
//
// Pure logic: frames are opaque handles and time is TSC ticks passed in, so
// the state machine is driven frame by frame in unit tests. The dataplane
// owns the mbufs (it takes a reference per transmission).
//
// Owner: the sender role writes every field. The accumulator role reports
// received acks through on_ack(), called on the sender's lcore (all roles
// share one lcore in this version; see docs/DESIGN-NOTES.md).
#pragma once

#include <cstdint>
#include <vector>

#include "reliability/sequence.h"

namespace wg {

struct CongestionConfig {
  uint64_t ast_init_ticks = 0;     // initial average send time (AST) per frame
  unsigned stale_acks_up = 3;      // N += 1 after this many consecutive stale acks
  unsigned new_acks_down = 3;      // N -= 1 after this many consecutive new acks
  unsigned max_n = 1024;           // cap on N
  uint64_t rto_min_ticks = 0;      // retransmission timeout bounds
  uint64_t rto_max_ticks = 0;
  uint64_t rto_init_ticks = 0;
};

struct SendStats {
  uint64_t frames = 0;          // first transmissions
  uint64_t retransmissions = 0; // frames sent again
  uint64_t timeouts = 0;        // ack timeouts (each a go-back-N round)
  uint64_t new_acks = 0;
  uint64_t stale_acks = 0;
  uint64_t invalid_acks = 0;    // acks for frames never sent
  uint64_t fast_retransmits = 0; // single-frame resends after three stale acks
};

class SendWindow {
 public:
  enum class AckKind { kNew, kStale, kOld, kInvalid, kIdle };

  SendWindow(uint32_t capacity, uint32_t initial_seq, const CongestionConfig& cc);

  // ---- queueing ----
  bool full() const { return snd_nxt_ - snd_una_ >= capacity_; }
  bool empty() const { return snd_nxt_ == snd_una_; }
  uint32_t in_flight() const { return snd_nxt_ - snd_una_; }
  // Adds a frame; returns its sequence number. Precondition: !full().
  uint32_t push(void* frame);

  // ---- transmission ----
  // Frames [next_to_transmit, end) have never been sent, or must be resent
  // after a timeout rewound next_to_transmit.
  bool has_pending() const { return snd_tx_ != snd_nxt_; }
  uint32_t next_to_transmit() const { return snd_tx_; }
  void* frame(uint32_t seq) const { return slots_[seq & mask_].frame; }
  bool is_retransmission(uint32_t seq) const { return slots_[seq & mask_].sent; }
  // Marks the next pending frame as sent at `now`.
  void transmitted(uint64_t now);

  // ---- pacing: next-send-time = last send + AST x N per frame ----
  bool may_send(uint64_t now) const { return now >= next_send_tsc_; }
  // After a burst of `frames` frames that took `elapsed` ticks to hand to the NIC.
  void paced(uint64_t now, unsigned frames, uint64_t elapsed);

  // ---- acks ----
  // Processes a cumulative ack (next sequence number the peer expects).
  // `pure`: carried by an ACK-only frame (only those count as stale: a data
  // frame repeats whatever ack was current when it was sent). Frames acked
  // are passed to release(frame).
  template <class Release>
  AckKind on_ack(uint32_t ack, bool pure, uint64_t now, Release&& release);

  // ---- fast retransmit ----
  // Three stale acks say the peer holds frames past a gap at snd_una: resend
  // that one frame now instead of waiting for the timeout (the peer's reorder
  // window keeps the rest).
  bool head_resend_wanted() const { return head_resend_ && seq_lt(snd_una_, snd_tx_); }
  void head_resent(uint64_t now) {
    head_resend_ = false;
    last_resend_tsc_ = now;
    slots_[snd_una_ & mask_].resent = true;
    ++stats_.retransmissions;
    ++stats_.fast_retransmits;
  }

  // ---- timeout ----
  // Only frames handed to the NIC can time out: queued-but-unsent ones are
  // not late, and after a go-back-N rewind the clock restarts on the resend.
  bool timed_out(uint64_t now) const { return snd_una_ != snd_tx_ && now - progress_tsc_ > rto_ticks_; }
  // Go-back-N: everything unacked is sent again. N += 1, RTO doubles.
  void on_timeout(uint64_t now);

  // ---- state for reports and tests ----
  uint32_t snd_una() const { return snd_una_; }
  uint32_t snd_nxt() const { return snd_nxt_; }
  unsigned n() const { return n_; }
  uint64_t ast_ticks() const { return ast_ticks_; }
  uint64_t rto_ticks() const { return rto_ticks_; }
  uint64_t srtt_ticks() const { return srtt_ticks_; }
  const SendStats& stats() const { return stats_; }

 private:
  struct Slot {
    void* frame = nullptr;
    uint64_t sent_tsc = 0;  // first transmission
    bool sent = false;
    bool resent = false;    // Karn: no RTT sample from retransmitted frames
  };
  static uint32_t checked(uint32_t capacity);
  void sample_rtt(uint64_t rtt);

  const uint32_t capacity_;
  const uint32_t mask_;
  const CongestionConfig cc_;
  std::vector<Slot> slots_;
  uint32_t snd_una_;  // oldest unacked
  uint32_t snd_tx_;   // next to (re)transmit
  uint32_t snd_nxt_;  // next to assign
  uint32_t snd_max_;  // one past the highest sequence number ever transmitted
  uint64_t progress_tsc_ = 0;   // last ack progress, or the first send into an empty window
  uint64_t last_resend_tsc_ = 0;  // latest retransmission (fast or go-back-N)
  uint64_t next_send_tsc_ = 0;  // NST
  uint64_t ast_ticks_;
  unsigned n_ = 0;
  unsigned stale_run_ = 0;
  unsigned new_run_ = 0;
  bool head_resend_ = false;
  uint64_t rto_ticks_;
  uint64_t srtt_ticks_ = 0;
  uint64_t rttvar_ticks_ = 0;
  SendStats stats_;
};

template <class Release>
SendWindow::AckKind SendWindow::on_ack(uint32_t ack, bool pure, uint64_t now, Release&& release) {
  if (seq_gt(ack, snd_max_)) {  // covers frames never sent: corrupt or forged
    ++stats_.invalid_acks;
    return AckKind::kInvalid;
  }
  if (seq_lt(ack, snd_una_)) return AckKind::kOld;  // reordered or repeated: says nothing
  if (ack == snd_una_) {
    if (empty() || !pure) return AckKind::kIdle;
    ++stats_.stale_acks;
    new_run_ = 0;
    if (++stale_run_ >= cc_.stale_acks_up) {
      stale_run_ = 0;
      if (n_ < cc_.max_n) ++n_;
      head_resend_ = true;
    }
    return AckKind::kStale;
  }
  // New: release every frame below ack, sample the RTT of the newest one.
  const Slot& newest = slots_[(ack - 1) & mask_];
  // Karn, extended: no sample from a retransmitted frame, nor from one sent
  // before the last retransmission (the peer may have held it behind the
  // gap until the resend arrived, which would inflate the RTT and the RTO).
  if (newest.sent && !newest.resent && now > newest.sent_tsc && newest.sent_tsc > last_resend_tsc_)
    sample_rtt(now - newest.sent_tsc);
  while (snd_una_ != ack) {
    Slot& s = slots_[snd_una_ & mask_];
    release(s.frame);
    s = Slot{};
    ++snd_una_;
  }
  if (seq_lt(snd_tx_, snd_una_)) snd_tx_ = snd_una_;
  head_resend_ = false;
  progress_tsc_ = now;
  ++stats_.new_acks;
  stale_run_ = 0;
  if (++new_run_ >= cc_.new_acks_down) {
    new_run_ = 0;
    if (n_ > 0) --n_;
  }
  return AckKind::kNew;
}

}  // namespace wg
