// The receive path's hand-off of received acks to the send path.
//
// Writer: the receive path (accumulator role) pushes one AckEvent per frame
// that carried an ack. Reader: the send path (sender role) pops them and
// applies them to its SendWindows, in arrival order. Single producer, single
// consumer, lock-free: head_ is written only by the producer, tail_ only by
// the consumer; each reads the other's with acquire.
//
// Every ack goes through, stale ones included, with the flag that says
// whether it came alone (ACK-only frame): the SendWindow counts three stale
// ACK-only acks as a loss signal (N rises, the head frame is resent at once),
// so coalescing them into the latest cumulative ack would change the
// congestion control, not just the bookkeeping. Same semantics as when the
// receive path called SendWindow::on_ack itself.
#pragma once

#include <atomic>
#include <cstdint>
#include <new>

#include "reliability/send_window.h"

namespace wg {

struct AckEvent {
  uint32_t peer = 0;
  uint32_t ack = 0;      // cumulative ack the frame carried
  bool pure = false;     // an ACK-only frame (stale acks count only then)
  uint64_t now = 0;      // receive time: RTT samples and progress use it
};

template <class T, uint32_t Capacity>
class SpscChannel {
  static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0, "capacity must be a power of two");

 public:
  // Producer only. False (and the event is not queued) when full.
  bool push(const T& v) {
    const uint32_t h = head_.load(std::memory_order_relaxed);
    if (h - tail_cache_ == Capacity) {
      tail_cache_ = tail_.load(std::memory_order_acquire);
      if (h - tail_cache_ == Capacity) return false;
    }
    slots_[h & (Capacity - 1)] = v;
    head_.store(h + 1, std::memory_order_release);
    return true;
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

// Send path: apply every queued ack to the peer's SendWindow, exactly as the
// receive path used to (SendWindow::on_ack: stale ACK-only acks drive N and
// fast retransmit, new acks release frames through `release`).
// window(peer) returns the SendWindow* of a peer (nullptr: ignore).
template <class WindowOf, class Release>
uint32_t apply_acks(AckChannel& ch, WindowOf&& window, Release&& release) {
  return ch.drain([&](const AckEvent& e) {
    if (SendWindow* w = window(e.peer)) w->on_ack(e.ack, e.pure, e.now, release);
  });
}

}  // namespace wg
