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
      rtx_cursor_(initial_seq),
      ast_ticks_(cc.ast_init_ticks),
      rto_ticks_(cc.rto_init_ticks) {}

void SendWindow::restart_at(uint32_t seq) {
  if (snd_nxt_ != snd_una_ || stats_.frames != 0) throw std::logic_error("SendWindow::restart_at after frames were pushed");
  snd_una_ = snd_tx_ = snd_nxt_ = rtx_cursor_ = seq;
}

uint32_t SendWindow::push(void* frame) {
  slot(snd_nxt_) = Slot{frame};
  return snd_nxt_++;
}

unsigned SendWindow::to_transmit(uint32_t* seqs, unsigned max) {
  unsigned k = 0;
  if (lost_pending_ > 0) {
    unsigned found = 0;
    for (uint32_t seq = rtx_cursor_; seq != snd_tx_ && k < max; ++seq) {
      if (!slot(seq).lost) continue;
      if (k == 0) rtx_cursor_ = seq;  // nothing below is lost
      seqs[k++] = seq;
      if (++found == lost_pending_) break;
    }
  }
  for (uint32_t seq = snd_tx_; k < max && seq != snd_nxt_; ++seq) seqs[k++] = seq;
  return k;
}

void SendWindow::transmitted(uint32_t seq, uint64_t now) {
  Slot& s = slot(seq);
  if (!s.sent) {  // seq == snd_tx_: first transmissions go in order
    s.sent = true;
    s.first_tsc = now;
    ++stats_.frames;
    if (snd_tx_ == snd_una_) progress_tsc_ = now;  // the first frame into an idle window starts the clock
    ++snd_tx_;
  } else {
    s.resent = true;
    last_resend_tsc_ = now;
    ++stats_.retransmissions;
    if (s.lost) {
      s.lost = false;
      --lost_pending_;
    }
    if (seq == snd_una_) progress_tsc_ = now;  // the timer runs from the oldest frame's (re)transmission
  }
  s.xmit_tsc = now;
  last_xmit_tsc_ = now;
}

void SendWindow::paced(uint64_t now, unsigned frames, uint64_t elapsed) {
  if (frames == 0) return;
  // AST is "amended from measured send times": an EWMA (1/8) of the ticks one
  // frame took to hand to the NIC.
  const uint64_t per_frame = elapsed / frames;
  ast_ticks_ = ast_ticks_ == 0 ? per_frame : (7 * ast_ticks_ + per_frame) / 8;
  next_send_tsc_ = now + ast_ticks_ * n_ * frames;
}

bool SendWindow::apply_sack(const AckInfo& a, uint64_t now) {
  bool progress = false;
  for (unsigned w = 0; w < a.sack_words; ++w) {
    for (uint64_t bits = a.sack[w]; bits != 0; bits &= bits - 1) {
      const uint32_t seq = a.ack + 1 + 64 * w + static_cast<uint32_t>(std::countr_zero(bits));
      if (!seq_lt(seq, snd_tx_)) {  // a frame never sent: corrupt or forged, believe none of the rest
        ++stats_.invalid_acks;
        return progress;
      }
      if (seq_lt(seq, snd_una_)) continue;  // acked already
      Slot& s = slot(seq);
      if (s.sacked) continue;  // known
      s.sacked = true;
      ++stats_.sacked;
      if (s.lost) {  // no need to resend it after all
        s.lost = false;
        --lost_pending_;
      }
      delivered(seq, s, now, false);
      progress = true;
    }
  }
  return progress;
}

void SendWindow::on_echo(uint32_t tsval, uint32_t seq, uint64_t now) {
  // The transmission's send time, from its 32-bit tsval (recent: the peer
  // echoes what it just received). One from the future is corrupt.
  const uint32_t ago = static_cast<uint32_t>(now >> kTsShift) - tsval;
  if (static_cast<int32_t>(ago) < 0) return;
  const uint64_t when = ((now >> kTsShift) - ago) << kTsShift;
  if (rack_valid_ && !sent_before(rack_xmit_tsc_, rack_seq_, when, seq)) return;  // nothing newer
  // A round trip without Karn's ambiguity (the echo names the transmission)
  // and without the lag of lost ACKs (the next ACK echoes a newer one): the
  // path's minimum and each round's, for the congestion rule.
  const uint64_t rtt = now - when;
  if (rtt > 0) {
    if (min_rtt_ticks_ == 0 || rtt < min_rtt_ticks_) min_rtt_ticks_ = rtt;
    if (round_min_rtt_ == 0 || rtt < round_min_rtt_) round_min_rtt_ = rtt;
  }
  rack_valid_ = true;
  rack_xmit_tsc_ = when;
  rack_seq_ = seq;
  rack_rtt_ = now - when;
  rack_advanced_ = true;
}

void SendWindow::delivered(uint32_t seq, Slot& s, uint64_t now, bool cumulative) {
  // A resent frame reported while the peer had not yet received anything
  // sent as late as the resend (the echo is older), or one the peer says
  // came twice: the first transmission arrived, the resend was not needed.
  if (s.resent && !s.spurious) {
    if (echo_now_ && sent_before(rack_xmit_tsc_, rack_seq_, s.xmit_tsc, seq)) {
      s.spurious = true;
      spurious_resend(s.speculative, s.first_tsc, now, true);
    } else if (s.duplicated) {
      s.spurious = true;
      spurious_resend(s.speculative, s.first_tsc, now, false);
    }
  }
  // Karn, extended: no sample from a resent frame, nor (cumulative acks)
  // from one sent before the last resend: the peer may have held it behind
  // the gap until the resend arrived. A selective ack reports a frame when
  // it arrives.
  if (!s.resent && (!cumulative || s.first_tsc > last_resend_tsc_) && s.first_tsc > sample_from_)
    sample_from_ = s.first_tsc;
  (void)now;
}

void SendWindow::on_dsack(uint32_t seq, uint64_t now) {
  if (seq_lt(seq, snd_una_)) {  // acked already: known only if it was the latest resend to leave
    if (released_.valid && released_.seq == seq && !released_.spurious) {
      released_.spurious = true;
      spurious_resend(released_.speculative, released_.first_tsc, now, false);
    }
    return;
  }
  if (!seq_lt(seq, snd_tx_)) return;  // never sent: corrupt or forged
  Slot& s = slot(seq);
  if (!s.resent) return;  // the link duplicated it, we did not
  if (!s.sacked) {
    s.duplicated = true;  // delivered() counts it with this ack's release
  } else if (!s.spurious) {
    s.spurious = true;
    spurious_resend(s.speculative, s.first_tsc, now, false);
  }
}

void SendWindow::spurious_resend(bool speculative, uint64_t first_tsc, uint64_t now, bool by_echo) {
  ++stats_.spurious;
  if (!speculative) {
    // A loss declared too early: reordering, widen its window (RFC 8985
    // does so on D-SACK). Only on the echo's word: under loss a D-SACK
    // mostly means the original's ack was lost, and a window widened for
    // that made every later loss wait longer (1% loss, kron:16:16: half the
    // goodput).
    if (!by_echo) return;
    reo_mult_ = std::min(reo_mult_ + 1, 16u);
    clean_rounds_ = 0;
    return;
  }
  // A probe or a timeout fired for nothing. What the run of timeouts it
  // ends did is undone (Eifel's response, RFC 4015): the backed-off RTO,
  // and N if a second timeout raised it.
  ++stats_.spurious_timers;
  if (rto_run_ != 0) {
    rto_ticks_ = rto_before_run_;
    n_ -= std::min(n_, n_raised_in_run_);
    n_raised_in_run_ = 0;
  }
  // The echo (older than the resend) proves the peer was slow to ack the
  // original: how slow becomes the timers' floor for a while. A D-SACK does
  // not: the original's ack may have been lost instead, and a floor raised
  // by every lost ack would grow without end (each needless resend waits
  // longer than the last floor).
  if (by_echo) {
    stall_ticks_ = std::max(stall_floor_ticks(now), now - first_tsc);
    stall_tsc_ = now;
  }
}

void SendWindow::mark_lost(uint32_t seq) {
  Slot& s = slot(seq);
  s.lost = true;
  s.speculative = false;  // a probe or a timeout sets it after
  ++lost_pending_;
  if (seq_lt(seq, rtx_cursor_)) rtx_cursor_ = seq;
}

uint64_t SendWindow::reorder_window_ticks() const {
  const uint64_t w = reo_mult_ * min_rtt_ticks_ / 4;
  return srtt_ticks_ != 0 && w > srtt_ticks_ ? srtt_ticks_ : w;
}

void SendWindow::detect_losses(uint64_t now) {
  reorder_deadline_ = 0;
  if (!rack_valid_) return;
  const uint64_t reo = reorder_window_ticks();
  // Frames sent after the newest transmission the peer received are not
  // judged (the loop's condition skips them).
  unsigned run = 0;
  uint32_t last = 0;
  for (uint32_t seq = snd_una_; seq != snd_tx_; ++seq) {
    const Slot& s = slot(seq);
    if (!s.sent || s.sacked || s.lost) continue;
    if (!sent_before(s.xmit_tsc, seq, rack_xmit_tsc_, rack_seq_)) continue;
    const uint64_t deadline = s.xmit_tsc + rack_rtt_ + reo;
    if (deadline <= now) {
      mark_lost(seq);
      ++stats_.lost;
      run = run > 0 && seq == last + 1 ? run + 1 : 1;
      last = seq;
      if (run >= cc_.loss_burst) round_burst_ = true;
    } else if (reorder_deadline_ == 0 || deadline < reorder_deadline_) {
      reorder_deadline_ = deadline;
    }
  }
}

uint64_t SendWindow::stall_floor_ticks(uint64_t now) const {
  if (stall_ticks_ == 0) return 0;
  const uint64_t halvings = (now - stall_tsc_) / cc_.stall_half_life_ticks;
  const uint64_t floor = halvings >= 64 ? 0 : (stall_ticks_ + stall_ticks_ / 4) >> halvings;
  return std::min(floor, cc_.rto_max_ticks);
}

uint64_t SendWindow::probe_timeout(uint64_t now) const {
  if (srtt_ticks_ == 0) return rto_ticks_;
  // RFC 8985's 2 x SRTT, or more when round trips vary, plus the peer's ack
  // delay (the tail's ack may wait for it), and no less than a slow peer
  // was seen to need.
  const uint64_t pto = std::max({2 * srtt_ticks_ + cc_.max_ack_delay_ticks,
                                 srtt_ticks_ + 4 * rttvar_ticks_ + cc_.max_ack_delay_ticks, stall_floor_ticks(now)});
  return std::min(pto, std::max(rto_ticks_, stall_floor_ticks(now)));
}

bool SendWindow::probe_due(uint64_t now) const {
  return srtt_ticks_ != 0 && !probe_out_ && !peer_quiet_ && lost_pending_ == 0 && reorder_deadline_ == 0 && snd_tx_ == snd_nxt_ &&
         snd_una_ != snd_tx_ && now - last_xmit_tsc_ >= probe_timeout(now);
}

void SendWindow::probe(uint64_t) {
  probe_out_ = true;
  for (uint32_t seq = snd_tx_; seq != snd_una_;) {
    --seq;
    Slot& s = slot(seq);
    if (!s.sacked && !s.lost) {
      mark_lost(seq);
      s.speculative = true;
      ++stats_.probes;
      return;
    }
  }
}

void SendWindow::on_timeout(uint64_t now) {
  if (snd_una_ == snd_tx_) return;  // nothing in flight: nothing is late
  ++stats_.timeouts;
  if (rto_run_ == 0) {  // a new run: what to restore if it proves needless
    rto_before_run_ = rto_ticks_;
    n_raised_in_run_ = 0;
  }
  // A timeout resends the oldest frame only. If the peer was just slow
  // (busy computing, descheduled), its ack of the originals makes that the
  // only frame sent twice; if everything was lost, the resend's ack lets the
  // time-based rule find the rest within a round trip. The oldest frame is
  // resent even if a selective ack claimed it: the peer's cumulative ack
  // says it lacks it (and a claim it cannot keep, a bit flipped without
  // --checksum, must not stop the connection).
  Slot& head = slot(snd_una_);
  head.sacked = false;
  if (!head.lost) mark_lost(snd_una_);
  head.speculative = true;
  // A second timeout without any delivery in between: congestion (or a
  // peer gone).
  if (++rto_run_ >= 2) {
    ++stats_.signal_rto;
    if (n_ < cc_.max_n) ++n_raised_in_run_;
    raise_n();
  }
  reorder_deadline_ = 0;
  probe_out_ = false;
  progress_tsc_ = now;
  rto_ticks_ = std::min(rto_ticks_ * 2, cc_.rto_max_ticks);
}

void SendWindow::raise_n() {
  if (n_ < cc_.max_n) ++n_;
  stats_.max_n = std::max(stats_.max_n, n_);
}

void SendWindow::end_round_if_due(uint64_t now) {
  if (srtt_ticks_ == 0) return;
  if (round_start_tsc_ == 0) {
    round_start_tsc_ = now;
    return;
  }
  if (now - round_start_tsc_ < srtt_ticks_) return;
  ++stats_.rounds;
  // Queue growth: even the round's best round trip is well above the path's,
  // by more than round trips vary (a standing queue delays every frame
  // alike; a host that deschedules the nodes now and then does not).
  const bool queue = round_min_rtt_ != 0 &&
                     round_min_rtt_ > 2 * min_rtt_ticks_ + 2 * rttvar_ticks_ + cc_.queue_slack_ticks;
  const bool queue_signal = queue && prev_round_queue_;
  prev_round_queue_ = queue;
  if (round_burst_ || queue_signal || round_rx_drops_) {
    ++stats_.congestion_rounds;
    stats_.signal_burst += round_burst_;
    stats_.signal_queue += queue_signal;
    stats_.signal_rx_drops += round_rx_drops_;
    raise_n();
  } else if (n_ > 0) {
    --n_;
  }
  // The reordering window narrows again after 16 rounds without a spurious resend.
  if (++clean_rounds_ >= 16) {
    clean_rounds_ = 0;
    if (reo_mult_ > 1) --reo_mult_;
  }
  round_start_tsc_ = now;
  round_min_rtt_ = 0;
  round_burst_ = round_rx_drops_ = false;
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
  // The peer's ack delay is part of the clock's granularity here (RFC 6298's G).
  rto_ticks_ = std::clamp(srtt_ticks_ + 4 * rttvar_ticks_ + cc_.max_ack_delay_ticks, cc_.rto_min_ticks,
                          cc_.rto_max_ticks);
}

}  // namespace wg
