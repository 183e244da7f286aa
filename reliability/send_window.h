// The send half of a connection (this node -> one peer): sequence numbers,
// the window of frames kept for retransmission, loss recovery and BlitzG's
// "delayed sending" (pacing by AST x N).
//
// Loss recovery (docs/DESIGN-NOTES.md, "Reliability"):
//  - cumulative acks release frames; selective acks (the bits an ACK frame
//    carries past its cumulative ack) mark frames the peer holds, which are
//    never resent;
//  - time-based loss detection as RACK does (RFC 8985): a frame is lost when
//    a transmission sent after it has arrived (the peer echoes the
//    latest-sent one it received) and a reordering window has passed since
//    it was sent plus the latest round trip; lost frames are resent first,
//    oldest first;
//  - a tail-loss probe: when nothing is left to send and the acks stop, the
//    last frame sent is resent after about 2 x SRTT plus the peer's ack
//    delay, so a lost tail (the END frame of a superstep) costs about a
//    round trip, not a timeout;
//  - the retransmission timeout (RFC 6298 plus the ack delay, floor
//    --rto-min-us) is the last resort: it resends the oldest frame only (a
//    slow peer costs one frame, a blackout is then recovered by the
//    time-based rule);
//  - a resend is needless (spurious) when the peer's echo shows the first
//    transmission arrived before it, or the peer reports the frame arrived
//    twice (its ACK's D-SACK, RFC 2883: the echo cannot tell when original
//    and resend reach a peer that was not polling together). A timeout
//    found needless undoes what its run of timeouts did (RTO backoff, a
//    raised N), as Eifel does (RFC 3522/4015); a probe or a timeout the echo
//    shows needless (the peer was only slow) also floors both timers at 5/4
//    of the round trip it took, fading;
//  - a peer that announces it goes quiet (its ACK's kAckQuiet: every role on
//    one lcore, computing without network passes) holds the probe and the
//    timeout until its next frame: what it has not acked meanwhile is not
//    lost, and what is lost shows when it speaks again.
//
// N, the pacing factor, rises on congestion only, judged once per round
// trip ("round"): a run of at least `loss_burst` consecutive frames lost in
// the round, queue growth (the round's smallest RTT above twice the path's
// smallest plus 2 RTTVAR plus a slack, two rounds running), more frames
// dropped by the peer's port (reported in its ACK frames), or a second
// timeout in a row. A round without any of them lowers N by one. Isolated
// losses never raise it.
//
// Pure logic: frames are opaque handles and time is TSC ticks passed in, so
// the state machine is driven frame by frame in unit tests (an injected
// clock). The dataplane owns the mbufs (it takes a reference per
// transmission).
//
// Owner: the sender role writes every field. Received acks reach it through
// the AckChannel (reliability/ack_channel.h), applied on the sender's lcore.
#pragma once

#include <cstdint>
#include <vector>

#include "dataplane/wire.h"
#include "reliability/sequence.h"

namespace wg {

struct CongestionConfig {
  uint64_t ast_init_ticks = 0;      // initial average send time (AST) per frame
  unsigned max_n = 1024;            // cap on N
  uint64_t rto_min_ticks = 0;       // retransmission timeout bounds
  uint64_t rto_max_ticks = 0;
  uint64_t rto_init_ticks = 0;      // before the first RTT sample
  uint64_t max_ack_delay_ticks = 0; // the peer's longest ack delay: the probe of a lone frame waits for it
  unsigned loss_burst = 8;          // consecutive frames lost in one round that mean congestion
  uint64_t queue_slack_ticks = 0;   // queue growth: a round's smallest RTT above 2 x min RTT + 2 RTTVAR + this
  uint64_t stall_half_life_ticks = uint64_t{1} << 28;  // how fast a slow peer's floor on the timers fades
};

struct SendStats {
  uint64_t frames = 0;           // first transmissions
  uint64_t retransmissions = 0;  // frames sent again (lost, probes, after a timeout)
  uint64_t timeouts = 0;         // retransmission timeouts
  uint64_t new_acks = 0;         // acks that moved the cumulative ack
  uint64_t stale_acks = 0;       // ACK-only frames repeating the ack while frames are out
  uint64_t invalid_acks = 0;     // acks or selective acks of frames never sent
  uint64_t sacked = 0;           // frames selectively acked before the cumulative ack reached them
  uint64_t lost = 0;             // frames declared lost by the time-based rule
  uint64_t probes = 0;           // tail-loss probes
  uint64_t spurious = 0;         // resent frames whose first transmission had arrived after all
  uint64_t spurious_timers = 0;  // ... of them resent by a probe or a timeout (the peer was slow, not losing)
  uint64_t quiet = 0;            // times the peer announced it goes quiet
  uint64_t rounds = 0;           // round trips judged for congestion
  uint64_t congestion_rounds = 0;  // rounds that raised N
  uint64_t signal_burst = 0;     // ... because of a run of losses
  uint64_t signal_queue = 0;     // ... because of queue growth
  uint64_t signal_rx_drops = 0;  // ... because the peer's port dropped frames
  uint64_t signal_rto = 0;       // second timeouts in a row (each raised N)
  unsigned max_n = 0;            // largest N so far
};

// What one received frame said about this connection's frames.
struct AckInfo {
  uint32_t ack = 0;                // cumulative ack: next sequence number the peer expects
  bool pure = false;               // an ACK-only frame (only those count as stale)
  const uint64_t* sack = nullptr;  // bit i of sack[w]: frame ack + 1 + 64 w + i is held by the peer
  unsigned sack_words = 0;
  bool has_rx_drops = false;       // rx_drops is valid (ACK frames carry it)
  uint32_t rx_drops = 0;           // the peer port's receive drops so far (wraps)
  bool has_echo = false;           // echo_* are valid (ACK frames, once a frame arrived)
  uint32_t echo_tsval = 0;         // the latest-sent transmission the peer has received:
  uint32_t echo_seq = 0;           // its tsval (wire::BucketHeader::tsval) and sequence number
  bool quiet = false;              // the peer goes quiet until its next frame (wire::kAckQuiet)
  bool has_dsack = false;          // frame dsack_seq arrived at the peer twice (wire::kAckDsack)
  uint32_t dsack_seq = 0;
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
  // The first frame pushed gets sequence number `seq` (the flow's ISN,
  // known once the peer is). Precondition: nothing was ever pushed.
  void restart_at(uint32_t seq);

  // ---- transmission ----
  // Something to send: frames marked lost (to resend), or never sent.
  bool has_pending() const { return lost_pending_ > 0 || snd_tx_ != snd_nxt_; }
  // Up to `max` sequence numbers to send now, in the order to send them:
  // frames marked lost, oldest first, then frames never sent.
  unsigned to_transmit(uint32_t* seqs, unsigned max);
  // Frame `seq` (one to_transmit() returned, in that order) went out at `now`.
  void transmitted(uint32_t seq, uint64_t now);
  void* frame(uint32_t seq) const { return slots_[seq & mask_].frame; }
  bool is_retransmission(uint32_t seq) const { return slots_[seq & mask_].sent; }
  bool is_sacked(uint32_t seq) const { return slots_[seq & mask_].sacked; }
  bool is_lost(uint32_t seq) const { return slots_[seq & mask_].lost; }
  // One past the last frame sent at least once.
  uint32_t snd_tx() const { return snd_tx_; }

  // ---- pacing: next-send-time = last send + AST x N per frame ----
  bool may_send(uint64_t now) const { return now >= next_send_tsc_; }
  // After a burst of `frames` frames that took `elapsed` ticks to hand to the NIC.
  void paced(uint64_t now, unsigned frames, uint64_t elapsed);

  // ---- acks ----
  // Processes what one received frame says: the cumulative ack (frames below
  // it are passed to release(frame) and leave the window), the selective ack
  // and the peer's receive drops. Then runs loss detection and, once per
  // round trip, the congestion rule.
  template <class Release>
  AckKind on_ack(const AckInfo& a, uint64_t now, Release&& release);
  // A cumulative ack alone.
  template <class Release>
  AckKind on_ack(uint32_t ack, bool pure, uint64_t now, Release&& release) {
    AckInfo a;
    a.ack = ack;
    a.pure = pure;
    return on_ack(a, now, release);
  }

  // ---- timers (the send path checks them every step) ----
  // Loss detection waits for a frame's reordering window to pass.
  bool reorder_timer_due(uint64_t now) const { return reorder_deadline_ != 0 && now >= reorder_deadline_; }
  void detect_losses(uint64_t now);
  // Tail-loss probe: frames are out, nothing is left to send, and no ack
  // has come for the probe timeout since the last transmission.
  bool probe_due(uint64_t now) const;
  uint64_t probe_timeout(uint64_t now) const;
  // Marks the last frame sent that the peer does not hold for resending.
  void probe(uint64_t now);
  // Only frames in flight can time out: queued-but-unsent ones are not late,
  // and frames marked lost restart the clock when they are resent.
  bool timed_out(uint64_t now) const {
    if (snd_una_ == snd_tx_ || lost_pending_ != 0 || peer_quiet_) return false;
    const uint64_t rto = rto_ticks_ > stall_floor_ticks(now) ? rto_ticks_ : stall_floor_ticks(now);
    return now - progress_tsc_ > rto;
  }
  // Marks the oldest frame lost (even one a selective ack claimed), RTO
  // doubles; a second timeout in a row raises N.
  void on_timeout(uint64_t now);
  // The send path's timers at `now`, in their order: a frame whose
  // reordering window has passed is lost by the time-based rule before the
  // timeout judges the silence (after a pass that came late both are due,
  // and the rule is the one that is right: it names the lost frames, and
  // backs off nothing).
  void run_timers(uint64_t now) {
    if (reorder_timer_due(now)) detect_losses(now);
    if (timed_out(now)) on_timeout(now);
  }

  // ---- state for reports and tests ----
  uint32_t snd_una() const { return snd_una_; }
  uint32_t snd_nxt() const { return snd_nxt_; }
  unsigned n() const { return n_; }
  uint64_t ast_ticks() const { return ast_ticks_; }
  uint64_t rto_ticks() const { return rto_ticks_; }
  uint64_t srtt_ticks() const { return srtt_ticks_; }
  uint64_t min_rtt_ticks() const { return min_rtt_ticks_; }
  uint64_t reorder_window_ticks() const;
  // The timers' floor from slow peers (see stall_ticks_), at `now`.
  uint64_t stall_floor_ticks(uint64_t now) const;
  unsigned lost_pending() const { return lost_pending_; }
  bool peer_quiet() const { return peer_quiet_; }
  const SendStats& stats() const { return stats_; }

 private:
  struct Slot {
    void* frame = nullptr;
    uint64_t first_tsc = 0;  // first transmission (RTT samples)
    uint64_t xmit_tsc = 0;   // latest transmission (RACK)
    bool sent = false;
    bool resent = false;     // Karn: no RTT sample from retransmitted frames
    bool sacked = false;     // the peer holds it
    bool lost = false;       // to be resent
    bool speculative = false;  // its latest resend was a probe's or a timeout's, not a loss found
    bool duplicated = false;   // the peer reported it arrived twice (D-SACK)
    bool spurious = false;     // counted as a needless resend
  };
  // The latest resent frame that left the window (a D-SACK may come after
  // the cumulative ack that released it).
  struct Released {
    uint32_t seq = 0;
    uint64_t first_tsc = 0;
    bool valid = false, speculative = false, spurious = false;
  };
  // Transmission a left before transmission b: by send time in tsval units
  // (what the echo carries), then by sequence number (one burst shares a
  // time, and goes out in sequence order).
  static bool sent_before(uint64_t ta, uint32_t sa, uint64_t tb, uint32_t sb) {
    ta >>= kTsShift;
    tb >>= kTsShift;
    return ta < tb || (ta == tb && seq_lt(sa, sb));
  }
  static constexpr unsigned kTsShift = wire::kTsShift;
  static uint32_t checked(uint32_t capacity);
  Slot& slot(uint32_t seq) { return slots_[seq & mask_]; }
  bool apply_sack(const AckInfo& a, uint64_t now);
  // The peer's echo of the latest-sent transmission it received: RACK's clock.
  void on_echo(uint32_t tsval, uint32_t seq, uint64_t now);
  // A frame the peer now has for the first time: spurious resends, the RTT sample.
  void delivered(uint32_t seq, Slot& s, uint64_t now, bool cumulative);
  void on_dsack(uint32_t seq, uint64_t now);
  // A needless resend: what the timers learn from it.
  void spurious_resend(bool speculative, uint64_t first_tsc, uint64_t now, bool by_echo);
  void mark_lost(uint32_t seq);
  void sample_rtt(uint64_t rtt);
  void end_round_if_due(uint64_t now);
  void raise_n();

  const uint32_t capacity_;
  const uint32_t mask_;
  const CongestionConfig cc_;
  std::vector<Slot> slots_;
  uint32_t snd_una_;  // oldest unacked
  uint32_t snd_tx_;   // next never sent
  uint32_t snd_nxt_;  // next to assign
  uint32_t rtx_cursor_;       // no frame below it is marked lost
  unsigned lost_pending_ = 0; // frames marked lost, not yet resent
  uint64_t progress_tsc_ = 0;     // last delivery reported, or the oldest frame's (re)transmission
  uint64_t last_resend_tsc_ = 0;  // latest retransmission
  uint64_t last_xmit_tsc_ = 0;    // latest transmission of any frame
  uint64_t next_send_tsc_ = 0;    // NST
  uint64_t ast_ticks_;
  unsigned n_ = 0;
  uint64_t rto_ticks_;
  unsigned rto_run_ = 0;          // timeouts since the last delivery
  // What the current run of timeouts did, to undo when it proves needless.
  uint64_t rto_before_run_ = 0;
  unsigned n_raised_in_run_ = 0;
  bool peer_quiet_ = false;       // the peer's latest ack said it goes quiet
  Released released_;
  uint64_t srtt_ticks_ = 0;
  uint64_t rttvar_ticks_ = 0;
  uint64_t min_rtt_ticks_ = 0;    // 0: no sample yet
  // The longest a peer took to ack a frame that a probe or a timeout then
  // resent for nothing (the peer was computing or descheduled, not losing):
  // the probe and the timeout wait at least 5/4 of it, the stall halving
  // every stall_half_life_ticks after it was seen.
  uint64_t stall_ticks_ = 0;
  uint64_t stall_tsc_ = 0;
  // RACK: the latest-sent transmission the peer has received (its echo).
  bool rack_valid_ = false;
  uint64_t rack_xmit_tsc_ = 0;
  uint32_t rack_seq_ = 0;
  uint64_t rack_rtt_ = 0;
  bool rack_advanced_ = false;    // on_ack: the echo moved RACK on
  bool echo_now_ = false;         // on_ack: this ack carried an echo
  unsigned reo_mult_ = 1;         // reordering window = reo_mult x min RTT / 4, at most SRTT
  uint64_t reorder_deadline_ = 0; // 0: no frame waits for its reordering window
  bool probe_out_ = false;        // a probe went out and nothing was delivered since
  // The current round (congestion rule).
  uint64_t round_start_tsc_ = 0;
  uint64_t round_min_rtt_ = 0;    // 0: no sample in this round
  bool round_burst_ = false;
  bool round_rx_drops_ = false;
  bool prev_round_queue_ = false;
  bool peer_rx_drops_known_ = false;
  uint32_t peer_rx_drops_ = 0;
  unsigned clean_rounds_ = 0;     // rounds since the last spurious retransmission
  uint64_t sample_from_ = 0;      // on_ack: first transmission of the newest frame fit for an RTT sample
  SendStats stats_;
};

template <class Release>
SendWindow::AckKind SendWindow::on_ack(const AckInfo& a, uint64_t now, Release&& release) {
  if (seq_gt(a.ack, snd_tx_)) {  // covers frames never sent: corrupt or forged
    ++stats_.invalid_acks;
    return AckKind::kInvalid;
  }
  if (a.has_rx_drops) {
    // Drops counted since the last report (a reordered, older report says nothing).
    if (peer_rx_drops_known_ && static_cast<int32_t>(a.rx_drops - peer_rx_drops_) > 0) round_rx_drops_ = true;
    if (!peer_rx_drops_known_ || static_cast<int32_t>(a.rx_drops - peer_rx_drops_) > 0) peer_rx_drops_ = a.rx_drops;
    peer_rx_drops_known_ = true;
  }
  // Any frame from the peer ends its quiet; an ACK saying quiet begins it.
  if (a.quiet && !peer_quiet_) ++stats_.quiet;
  peer_quiet_ = a.quiet;
  sample_from_ = 0;
  rack_advanced_ = false;
  echo_now_ = a.has_echo;
  if (a.has_dsack) on_dsack(a.dsack_seq, now);
  if (a.has_echo) on_echo(a.echo_tsval, a.echo_seq, now);
  bool progress = a.sack_words > 0 && apply_sack(a, now);
  AckKind kind;
  if (seq_lt(a.ack, snd_una_)) {
    kind = AckKind::kOld;  // reordered or repeated: says nothing new
  } else if (a.ack == snd_una_) {
    kind = AckKind::kIdle;
    if (!empty() && a.pure) {
      ++stats_.stale_acks;
      kind = AckKind::kStale;
    }
  } else {
    while (snd_una_ != a.ack) {
      Slot& s = slot(snd_una_);
      if (!s.sacked) delivered(snd_una_, s, now, true);
      if (s.lost) --lost_pending_;
      if (s.resent) released_ = Released{snd_una_, s.first_tsc, true, s.speculative, s.spurious};
      release(s.frame);
      s = Slot{};
      ++snd_una_;
    }
    if (seq_lt(rtx_cursor_, snd_una_)) rtx_cursor_ = snd_una_;
    ++stats_.new_acks;
    progress = true;
    kind = AckKind::kNew;
  }
  if (sample_from_ != 0 && now > sample_from_) sample_rtt(now - sample_from_);
  if (progress) {
    progress_tsc_ = now;
    rto_run_ = 0;
    probe_out_ = false;
  }
  if (progress || rack_advanced_) detect_losses(now);
  end_round_if_due(now);
  return kind;
}

}  // namespace wg
