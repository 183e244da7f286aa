// The receive half of a connection (one peer -> this node): in-order,
// exactly-once delivery over a lossy, duplicating, reordering link.
//
// A frame with the next expected sequence number is delivered; one ahead of
// it, within the reorder window, is held ("delayed processing") and
// delivered once the gap fills; one behind it is a duplicate and is dropped
// (⊕ is not idempotent: a sum must never see a bucket twice); one beyond the
// window is dropped and will be retransmitted. The cumulative ack is the next
// sequence number expected.
//
// Pure logic over opaque frame handles. Owner: the accumulator role.
#pragma once

#include <cstdint>
#include <vector>

#include "reliability/sequence.h"

namespace wg {

struct ReceiveStats {
  uint64_t delivered = 0;
  uint64_t held = 0;        // arrived early, kept until the gap filled
  uint64_t duplicates = 0;  // already delivered (or already held)
  uint64_t beyond_window = 0;
};

class ReceiveWindow {
 public:
  enum class Verdict { kDeliver, kHold, kDuplicate, kBeyondWindow };

  ReceiveWindow(uint32_t capacity, uint32_t initial_seq);

  // What to do with a frame carrying `seq`. kHold stores the frame (the caller
  // must not free it); kDeliver advances the expected sequence.
  Verdict accept(uint32_t seq, void* frame);
  // After a delivery: the next held frame that is now in order, or nullptr.
  // Each returned frame counts as delivered.
  void* next_in_order();
  // Frames still held (for cleanup at exit).
  template <class Fn>
  void for_each_held(Fn&& fn) const {
    for (void* f : slots_)
      if (f != nullptr) fn(f);
  }

  uint32_t ack() const { return rcv_next_; }
  const ReceiveStats& stats() const { return stats_; }

 private:
  const uint32_t capacity_;
  const uint32_t mask_;
  std::vector<void*> slots_;  // held frames by seq & mask
  uint32_t rcv_next_;
  ReceiveStats stats_;
};

}  // namespace wg
