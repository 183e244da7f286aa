// A fixed-size bitmap over [0, size): the frontier's membership test
// (compute/engine/frontier.h) and a level-synchronous program's reached
// destinations (compute/engine/worker/level_steps.h). One owner; no atomics.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wg {

class Bitmap {
 public:
  Bitmap() = default;
  explicit Bitmap(uint64_t size) : words_((size + 63) / 64, 0) {}

  bool test(uint64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  void set(uint64_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  void reset(uint64_t i) { words_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  void clear() { std::fill(words_.begin(), words_.end(), 0); }
  // Sets [0, n) (n at most the size) and clears the rest.
  void set_first(uint64_t n) {
    std::fill(words_.begin(), words_.end(), 0);
    std::fill(words_.begin(), words_.begin() + static_cast<ptrdiff_t>(n / 64), ~uint64_t{0});
    if (n % 64) words_[n / 64] = (uint64_t{1} << (n % 64)) - 1;
  }
  uint64_t* words() { return words_.data(); }
  const uint64_t* words() const { return words_.data(); }
  uint64_t num_words() const { return words_.size(); }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace wg
