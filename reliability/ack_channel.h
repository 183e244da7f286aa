// The receive path's hand-off of received acks to the send path.
//
// Writer: the receive path (accumulator role) pushes one AckEvent per frame
// that carried an ack. Reader: the send path (sender role) pops them and
// applies them to its SendWindows, in arrival order. Single producer, single
// consumer, lock-free: head_ is written only by the producer, tail_ only by
// the consumer; each reads the other's with acquire. An event is written in
// place in its slot (emplace) and published by the head_ store, so a
// selective ack travels without a lock and without a second copy.
//
// Every ack goes through, stale and reordered ones included, each with what
// its frame said: the cumulative ack, whether the frame was an ACK-only frame
// (only those count as stale), and for ACK frames the selective ack (which
// frames past the cumulative ack the peer holds) and the peer port's receive
// drops (a congestion signal). The SendWindow judges them in order
// (SendWindow::on_ack), exactly as if the receive path had called it.
#pragma once

#include <atomic>
#include <cstdint>
#include <new>

#include "dataplane/wire.h"
#include "reliability/send_window.h"

namespace wg {

struct AckEvent {
  uint32_t peer = 0;
  uint32_t ack = 0;        // cumulative ack the frame carried
  bool pure = false;       // an ACK-only frame (stale acks count only then)
  bool has_rx_drops = false;  // ACK frames: rx_drops and sack are valid
  uint16_t sack_words = 0;    // words of `sack` in use (0 for frames without an AckPayload)
  bool has_echo = false;   // ACK frames once a frame arrived: echo_* are valid
  uint32_t rx_drops = 0;   // the peer port's receive drops so far (wire::AckPayload)
  uint32_t echo_tsval = 0; // the latest-sent transmission the peer received (wire::AckPayload)
  uint32_t echo_seq = 0;
  bool quiet = false;      // ACK frames: the peer goes quiet (wire::kAckQuiet)
  bool has_dsack = false;  // ACK frames: dsack_seq arrived twice (wire::kAckDsack)
  uint32_t dsack_seq = 0;
  uint64_t now = 0;        // receive time: RTT samples and progress use it
  uint64_t sack[wire::kMaxSackWords];  // bit i of sack[w]: frame ack + 1 + 64 w + i is held (first sack_words only)

  AckInfo info() const {
    return AckInfo{ack,      pure,       sack,     sack_words, has_rx_drops, rx_drops,
                   has_echo, echo_tsval, echo_seq, quiet,      has_dsack,    dsack_seq};
  }
};

template <class T, uint32_t Capacity>
class SpscChannel {
  static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0, "capacity must be a power of two");

 public:
  // Producer only. fill(T&) writes the next slot in place, then it is
  // published. False (fill not called, nothing queued) when full.
  template <class Fill>
  bool emplace(Fill&& fill) {
    const uint32_t h = head_.load(std::memory_order_relaxed);
    if (h - tail_cache_ == Capacity) {
      tail_cache_ = tail_.load(std::memory_order_acquire);
      if (h - tail_cache_ == Capacity) return false;
    }
    fill(slots_[h & (Capacity - 1)]);
    head_.store(h + 1, std::memory_order_release);
    return true;
  }
  bool push(const T& v) {
    return emplace([&](T& slot) { slot = v; });
  }
  // Consumer only: f(event) for every queued event, oldest first. Returns how many.
  template <class F>
  uint32_t drain(F&& f) {
    const uint32_t t = tail_.load(std::memory_order_relaxed);
    const uint32_t h = head_.load(std::memory_order_acquire);
    for (uint32_t i = t; i != h; ++i) f(slots_[i & (Capacity - 1)]);
    tail_.store(h, std::memory_order_release);
    return h - t;
  }
  // Either side (a snapshot).
  uint32_t size() const { return head_.load(std::memory_order_acquire) - tail_.load(std::memory_order_acquire); }
  static constexpr uint32_t capacity() { return Capacity; }

 private:
  static constexpr size_t kLine = 64;
  alignas(kLine) std::atomic<uint32_t> head_{0};  // written by the producer (receive path)
  uint32_t tail_cache_ = 0;                       // producer's copy of tail_ (producer only)
  alignas(kLine) std::atomic<uint32_t> tail_{0};  // written by the consumer (send path)
  alignas(kLine) T slots_[Capacity];              // slot i written by the producer before head_ passes it
};

// Enough for every frame one receive step can take from every port
// (2 x kBurst per port after a duplicating injector) many times over; the
// send path drains it at least once per step.
using AckChannel = SpscChannel<AckEvent, 4096>;

// Send path: apply every queued ack to the peer's SendWindow
// (SendWindow::on_ack: cumulative ack, selective ack, receive drops; acked
// frames are released through `release`). window(peer) returns the
// SendWindow* of a peer (nullptr: ignore).
template <class WindowOf, class Release>
uint32_t apply_acks(AckChannel& ch, WindowOf&& window, Release&& release) {
  return ch.drain([&](const AckEvent& e) {
    if (SendWindow* w = window(e.peer)) w->on_ack(e.info(), e.now, release);
  });
}

}  // namespace wg
