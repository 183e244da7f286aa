// A worker's frontier: the vertices of its slice that are active (scatter)
// in the current superstep, indexed relative to the slice (slot - lo).
//
//   - a bitmap, one bit per vertex of the slice: what a dense pull tests per
//     in-edge (kron:20:16 at P=2: 64 KiB per node, in L2, where one byte per
//     vertex took 512 KiB) and what a sparse scatter over a block's sources
//     tests per source;
//   - while the frontier is small (at most a given share of the slice:
//     the worker lists up to a quarter), also the list of its members, so
//     that a sparse scatter visits only them instead of every source of
//     every block (BFS and SSSP run many supersteps with a handful of
//     active vertices).
//
// apply builds it (add(), each member once, in any order, or add_all())
// after reset(), which clears the previous superstep's bits through its
// list when it had one.
// Owner: the worker.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "compute/engine/bitmap.h"

namespace wg {

class Frontier {
 public:
  // Listed while at most size / list_fraction + 1 vertices are members.
  explicit Frontier(uint32_t size, uint32_t list_fraction = 16)
      : bits_(size), list_(size / list_fraction + 1), size_(size) {}

  void reset() {
    if (listed()) {
      for (uint64_t k = 0; k < count_; ++k) bits_.reset(list_[k]);
    } else {
      bits_.clear();
    }
    count_ = 0;
  }
  // Each vertex at most once per superstep.
  void add(uint32_t i) {
    bits_.set(i);
    if (count_ < list_.size()) list_[count_] = i;
    ++count_;
  }

  // Every vertex of the slice, after reset(): a superstep in which all are
  // active (PageRank), set in one pass rather than vertex by vertex.
  void add_all() {
    bits_.set_first(size_);
    count_ = size_;
    if (listed())
      for (uint32_t i = 0; i < size_; ++i) list_[i] = i;
  }

  bool contains(uint32_t i) const { return bits_.test(i); }
  const Bitmap& bits() const { return bits_; }
  uint64_t count() const { return count_; }
  uint32_t size() const { return size_; }
  bool all() const { return count_ == size_; }
  // Whether list() holds every member.
  bool listed() const { return count_ <= list_.size(); }
  std::span<const uint32_t> list() const { return {list_.data(), static_cast<size_t>(listed() ? count_ : 0)}; }

 private:
  Bitmap bits_;
  std::vector<uint32_t> list_;
  uint64_t count_ = 0;
  uint32_t size_;
};

}  // namespace wg
