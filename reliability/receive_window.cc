#include "reliability/receive_window.h"

#include <bit>
#include <stdexcept>

namespace wg {

namespace {
uint32_t checked(uint32_t capacity) {
  if (capacity == 0 || capacity > (1u << 16))
    throw std::invalid_argument("reorder window must hold 1 to 65536 frames");
  return capacity;
}
}  // namespace

ReceiveWindow::ReceiveWindow(uint32_t capacity, uint32_t initial_seq)
    : capacity_(checked(capacity)), mask_(std::bit_ceil(capacity_) - 1), slots_(std::bit_ceil(capacity_), nullptr),
      rcv_next_(initial_seq) {}

ReceiveWindow::Verdict ReceiveWindow::accept(uint32_t seq, void* frame) {
  if (seq_lt(seq, rcv_next_)) {
    ++stats_.duplicates;
    return Verdict::kDuplicate;
  }
  if (seq == rcv_next_) {
    ++rcv_next_;
    ++stats_.delivered;
    return Verdict::kDeliver;
  }
  if (seq_distance(rcv_next_, seq) >= capacity_) {
    ++stats_.beyond_window;
    return Verdict::kBeyondWindow;
  }
  void*& slot = slots_[seq & mask_];
  if (slot != nullptr) {
    ++stats_.duplicates;
    return Verdict::kDuplicate;
  }
  slot = frame;
  ++stats_.held;
  return Verdict::kHold;
}

void* ReceiveWindow::next_in_order() {
  void*& slot = slots_[rcv_next_ & mask_];
  void* f = slot;
  if (f == nullptr) return nullptr;
  slot = nullptr;
  ++rcv_next_;
  ++stats_.delivered;
  return f;
}

}  // namespace wg
