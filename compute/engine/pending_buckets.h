// A worker's vertices that improved but have not scattered yet, by priority
// bucket (delta-stepping, Meyer and Sanders; GAP's sssp.cc): a prioritized
// program (compute/engine/vertex_program.h: bucket(y)) scatters, each superstep,
// only the lowest bucket a worker holds, so that a vertex sends its distance
// once it is (nearly) final instead of at every improvement.
//
// A window of kWindow buckets from base() and an overflow list behind it;
// entries are vertex slots relative to the worker's slice, inserted at every
// improvement and dropped lazily: take() hands out an entry only if the
// vertex is still pending and its bucket now is no higher than the one
// taken (it may have improved into a lower bucket since, and stayed
// pending). An entry below the window goes into the window's first bucket,
// which lowest() then reports as low as its lowest entry: taken at once,
// with the window's first bucket, which only costs a relaxation.
// Owner: the worker.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/bitmap.h"

namespace wg {

class PendingBuckets {
 public:
  static constexpr uint64_t kNone = UINT64_MAX;

  explicit PendingBuckets(uint32_t slice = 0) : pending_(slice), window_(kWindow) {}

  // Vertex i (relative to the slice) improved into bucket b.
  void add(uint32_t i, uint64_t b) {
    if (!pending_.test(i)) {
      pending_.set(i);
      ++count_;
    }
    if (b < base_ + kWindow)
      window_[b <= base_ ? 0 : b - base_].push_back(i);
    else
      overflow_.push_back({i, b});
  }

  uint64_t pending() const { return count_; }

  // The lowest bucket holding a pending vertex (moving the window when its
  // own are spent), or kNone. bucket_of(i) is vertex i's bucket now.
  template <class BucketOf>
  uint64_t lowest(BucketOf&& bucket_of) {
    if (count_ == 0) {
      clear();
      return kNone;
    }
    do {
      for (uint64_t k = 0; k < kWindow; ++k) {
        std::vector<uint32_t>& list = window_[k];
        size_t kept = 0;
        uint64_t low = base_ + k;  // slot 0 may hold entries from below the window
        for (uint32_t i : list) {
          const uint64_t b = bucket_of(i);
          if (!pending_.test(i) || b > base_ + k) continue;  // a stale entry
          list[kept++] = i;
          low = std::min(low, b);
        }
        list.resize(kept);
        if (kept > 0) {
          drop_front(k);
          return low;
        }
      }
    } while (refill(bucket_of));
    count_ = 0;  // unreachable: every pending vertex has an entry at or above its bucket
    clear();
    return kNone;
  }

  // Calls f(i) for every pending vertex of bucket b = lowest(), which stop
  // being pending (a b below the window is its first bucket).
  template <class F>
  void take(uint64_t b, F&& f) {
    std::vector<uint32_t>& list = window_[b <= base_ ? 0 : b - base_];
    for (uint32_t i : list) {
      if (!pending_.test(i)) continue;  // twice in the list
      pending_.reset(i);
      --count_;
      f(i);
    }
    list.clear();
  }

 private:
  static constexpr uint64_t kWindow = 64;

  // The window starts k buckets later; the first k are empty.
  void drop_front(uint64_t k) {
    if (k == 0) return;
    std::rotate(window_.begin(), window_.begin() + static_cast<ptrdiff_t>(k), window_.end());
    base_ += k;
  }
  // The window is empty: it restarts at the overflow's lowest pending bucket
  // (false if the overflow holds none).
  template <class BucketOf>
  bool refill(BucketOf& bucket_of) {
    uint64_t low = kNone;
    size_t kept = 0;
    for (const Entry& e : overflow_)
      if (pending_.test(e.i)) {
        overflow_[kept++] = Entry{e.i, std::min(e.b, bucket_of(e.i))};
        low = std::min(low, overflow_[kept - 1].b);
      }
    overflow_.resize(kept);
    if (low == kNone) return false;
    base_ = low;
    std::vector<Entry> later;
    for (const Entry& e : overflow_) {
      if (e.b < base_ + kWindow)
        window_[e.b - base_].push_back(e.i);
      else
        later.push_back(e);
    }
    overflow_.swap(later);
    return true;
  }
  void clear() {
    pending_.clear();
    for (auto& list : window_) list.clear();
    overflow_.clear();
    base_ = 0;
  }

  struct Entry {
    uint32_t i;
    uint64_t b;
  };
  Bitmap pending_;
  uint64_t count_ = 0;
  uint64_t base_ = 0;
  std::vector<std::vector<uint32_t>> window_;
  std::vector<Entry> overflow_;
};

}  // namespace wg
