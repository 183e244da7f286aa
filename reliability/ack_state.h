// What the receive path tells the send path about acking one peer, through
// single-writer atomics (no field has two writers).
//
// The receive path publishes its cumulative ack, a count of sequenced frames
// delivered, when the oldest delivery not yet acked happened, a count of
// "ack now" requests (a frame held behind a gap, a duplicate, a frame beyond
// the window: the sender must hear of it at once), which frames it holds
// beyond the cumulative ack (HeldFrames: the selective ack) and how many
// frames the port they arrive on dropped, and the latest-sent transmission it
// received (its send time and sequence number, echoed back). The send path publishes how many
// deliveries and requests its last ack covered. "An ack is pending" is
// deliveries != covered; "ack now" is requests != served, or ack_every
// deliveries not yet acked.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>

namespace wg {

// The receive window's occupancy, mirrored for the send path's selective
// acks: bit (seq & mask) is set while frame `seq` is held beyond the
// cumulative ack. Writer: the receive path (set when it holds a frame, clear
// when it delivers it, before it publishes the ack that covers it). Reader:
// the send path, which encodes the bits after the ack into an ACK frame.
//
// No lock and no retry: every bit a reader sees set belongs to a frame that
// really arrived. A reader that loads the ack first (acquire) sees every bit
// cleared before that ack was published; a bit set later is a frame held
// later, or, read against the older ack, position p stands for a sequence
// number p + k x size below the newer ack, which was delivered. The picture
// may be a little old, never false, so a selective ack never claims a frame
// that did not arrive (the receive window never discards a held frame).
class HeldFrames {
 public:
  // Before either path runs: a window of `window` frames (the receive
  // window's capacity; bits cover bit_ceil(window) sequence numbers).
  void init(uint32_t window) {
    window_ = window;
    size_ = std::bit_ceil(window);
    words_ = (size_ + 63) / 64;
    bits_ = std::make_unique<std::atomic<uint64_t>[]>(words_);
  }
  // Receive path only.
  void set(uint32_t seq) { update(seq, true); }
  void clear(uint32_t seq) { update(seq, false); }
  // Send path: bit i of out[w] says whether frame ack + 1 + 64 w + i is
  // held, for the window's frames after the ack (at most 64 x max_words of
  // them). Returns the words up to the last one with a bit set (0: no hole).
  unsigned encode(uint32_t ack, uint64_t* out, unsigned max_words) const;
  bool test(uint32_t seq) const {
    const uint32_t p = seq & (size_ - 1);
    return (bits_[p / 64].load(std::memory_order_acquire) >> (p % 64)) & 1;
  }

 private:
  void update(uint32_t seq, bool held) {
    const uint32_t p = seq & (size_ - 1);
    std::atomic<uint64_t>& w = bits_[p / 64];
    const uint64_t bit = uint64_t{1} << (p % 64);
    const uint64_t v = w.load(std::memory_order_relaxed);  // ours: single writer, no read-modify-write needed
    w.store(held ? v | bit : v & ~bit, std::memory_order_release);
  }
  uint32_t window_ = 0, size_ = 0, words_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> bits_;
};

inline unsigned HeldFrames::encode(uint32_t ack, uint64_t* out, unsigned max_words) const {
  if (window_ <= 1) return 0;
  // Frames ack+1 .. ack+window-1 can be held: window-1 bits.
  const uint32_t span = window_ - 1 < 64 * max_words ? window_ - 1 : 64 * max_words;
  const unsigned n = (span + 63) / 64;
  unsigned used = 0;
  for (unsigned w = 0; w < n; ++w) {
    uint64_t v = 0;
    const uint32_t first = ack + 1 + 64 * w;
    const unsigned bits = span - 64 * w < 64 ? span - 64 * w : 64;
    if (size_ >= 64) {
      // 64 bits starting at position p, read from at most two words.
      const uint32_t p = first & (size_ - 1);
      const unsigned word = p / 64, shift = p % 64;
      v = bits_[word].load(std::memory_order_acquire) >> shift;
      if (shift != 0) v |= bits_[(word + 1) % words_].load(std::memory_order_acquire) << (64 - shift);
    } else {
      for (unsigned i = 0; i < bits; ++i) v |= uint64_t{test(first + i)} << i;
    }
    if (bits < 64) v &= (uint64_t{1} << bits) - 1;
    out[w] = v;
    if (v != 0) used = w + 1;
  }
  return used;
}

struct alignas(64) AckState {
  // Written by the receive path (accumulator role).
  std::atomic<uint32_t> rcv_ack{0};          // cumulative ack: next sequence number expected
  std::atomic<uint64_t> delivered{0};        // sequenced frames delivered
  std::atomic<uint64_t> pending_since{0};    // tsc of the first delivery after `covered`
  std::atomic<uint64_t> ack_now{0};          // requests to ack at once
  std::atomic<uint32_t> rx_drops{0};         // frames the peer's port dropped on receive (wraps): receive path 0 writes it
  // The latest-sent transmission received from the peer, (tsval << 32) |
  // seq, one store so the pair is consistent; 0 with echo_valid false
  // before the first. ACK frames echo it (RACK's clock on the peer's side).
  std::atomic<uint64_t> echo{0};
  std::atomic<bool> echo_valid{false};
  // Frames that arrived again after their delivery, (count << 32) | the
  // latest one's seq, one store: ACK frames report it (wire::kAckDsack).
  std::atomic<uint64_t> duplicate{0};
  HeldFrames held;                           // frames held beyond rcv_ack (selective ack)
  // Written by the send path (sender role).
  alignas(64) std::atomic<uint64_t> covered{0};  // `delivered` as of the last ack sent
  std::atomic<uint64_t> served{0};               // `ack_now` as of the last ack sent
};

}  // namespace wg
