#include "reliability/send_window.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace wg {

uint32_t SendWindow::checked(uint32_t capacity) {
  if (capacity == 0 || capacity > (1u << 16))
    throw std::invalid_argument("send window must hold 1 to 65536 frames");
  return capacity;
}

SendWindow::SendWindow(uint32_t capacity, uint32_t initial_seq, const CongestionConfig& cc)
    : capacity_(checked(capacity)),
      mask_(std::bit_ceil(capacity_) - 1),
      cc_(cc),
      slots_(std::bit_ceil(capacity_)),
      snd_una_(initial_seq),
      snd_tx_(initial_seq),
      snd_nxt_(initial_seq),
      snd_max_(initial_seq),
      ast_ticks_(cc.ast_init_ticks),
      rto_ticks_(cc.rto_init_ticks) {}

uint32_t SendWindow::push(void* frame) {
  Slot& s = slots_[snd_nxt_ & mask_];
  s = Slot{frame, 0, false, false};
  return snd_nxt_++;
}

void SendWindow::transmitted(uint64_t now) {
  Slot& s = slots_[snd_tx_ & mask_];
  if (!s.sent) {
    s.sent = true;
    s.sent_tsc = now;
    ++stats_.frames;
  } else {
    s.resent = true;
    last_resend_tsc_ = now;
    ++stats_.retransmissions;
  }
  // The timer runs from the oldest unacked frame's (re)transmission.
  if (snd_tx_ == snd_una_) progress_tsc_ = now;
  ++snd_tx_;
  if (seq_gt(snd_tx_, snd_max_)) snd_max_ = snd_tx_;
}

void SendWindow::paced(uint64_t now, unsigned frames, uint64_t elapsed) {
  if (frames == 0) return;
  // AST is "amended from measured send times": an EWMA (1/8) of the ticks one
  // frame took to hand to the NIC.
  const uint64_t per_frame = elapsed / frames;
  ast_ticks_ = ast_ticks_ == 0 ? per_frame : (7 * ast_ticks_ + per_frame) / 8;
  next_send_tsc_ = now + ast_ticks_ * n_ * frames;
}

void SendWindow::on_timeout(uint64_t now) {
  ++stats_.timeouts;
  snd_tx_ = snd_una_;
  head_resend_ = false;
  progress_tsc_ = now;
  if (n_ < cc_.max_n) ++n_;
  stale_run_ = new_run_ = 0;
  rto_ticks_ = std::min(rto_ticks_ * 2, cc_.rto_max_ticks);
}

void SendWindow::sample_rtt(uint64_t rtt) {
  // RFC 6298 with alpha 1/8, beta 1/4.
  if (srtt_ticks_ == 0) {
    srtt_ticks_ = rtt;
    rttvar_ticks_ = rtt / 2;
  } else {
    const uint64_t err = rtt > srtt_ticks_ ? rtt - srtt_ticks_ : srtt_ticks_ - rtt;
    rttvar_ticks_ = (3 * rttvar_ticks_ + err) / 4;
    srtt_ticks_ = (7 * srtt_ticks_ + rtt) / 8;
  }
  rto_ticks_ = std::clamp(srtt_ticks_ + 4 * rttvar_ticks_, cc_.rto_min_ticks, cc_.rto_max_ticks);
}

}  // namespace wg
