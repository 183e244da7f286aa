// Signed 64-bit vertex ids to dense 32-bit ids: an open-addressing hash table
// (linear probing, capacity a power of two at most half full, a multiplicative
// hash), 12 bytes per slot, so at most 24 per id. The loader's id mapping
// (compute/load/graph_loader_ids.cc) collects the distinct ids of a node's edge
// lines in one and translates every endpoint through another: one probe per
// endpoint, where a sorted array cost a binary search (18 random reads for
// 2^18 ids) and a sort of the collected ids each time they doubled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wg {

class IdTable {
 public:
  explicit IdTable(size_t expected = 0) { reserve(expected); }

  // Adds id -> dense unless id is there; true if it was new.
  bool insert(int64_t id, uint32_t dense = 0) {
    bool added = false;
    uint32_t& value = find_or_add(id, added);
    if (added) value = dense;
    return added;
  }
  // The value of `id`, adding it with the value size() (its rank in order of
  // first insertion) when it is new: a number for every distinct id, in the
  // order they were first seen.
  uint32_t number(int64_t id) {
    const uint32_t next = static_cast<uint32_t>(size());
    bool added = false;
    uint32_t& value = find_or_add(id, added);
    if (added) value = next;
    return value;
  }
  // The dense id of `id`, or nullptr.
  const uint32_t* find(int64_t id) const {
    if (id == kEmpty) return has_empty_key_ ? &empty_key_value_ : nullptr;
    if (keys_.empty()) return nullptr;
    for (size_t i = slot(id);; i = (i + 1) & mask_) {
      if (keys_[i] == id) return &values_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  uint32_t* find(int64_t id) { return const_cast<uint32_t*>(static_cast<const IdTable&>(*this).find(id)); }
  // Starts loading the cache lines `id`'s probe will read first: callers
  // that know a batch of ids ahead prefetch them all, then insert or find,
  // so that the misses of a table larger than the cache overlap.
  void prefetch(int64_t id) const {
    if (keys_.empty()) return;
    const size_t i = slot(id);
    __builtin_prefetch(&keys_[i]);
    __builtin_prefetch(&values_[i]);
  }
  size_t size() const { return used_ + (has_empty_key_ ? 1 : 0); }
  // f(id, dense) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    if (has_empty_key_) f(kEmpty, empty_key_value_);
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != kEmpty) f(keys_[i], values_[i]);
  }
  void clear() { *this = IdTable(); }
  void reserve(size_t expected) {
    size_t capacity = 16;
    while (capacity < 2 * expected) capacity *= 2;
    if (capacity > keys_.size()) rehash(capacity);
  }

 private:
  static constexpr int64_t kEmpty = INT64_MIN;  // the key INT64_MIN is held aside
  // The value slot of `id`, added (value 0, `added` set) when it is new.
  uint32_t& find_or_add(int64_t id, bool& added) {
    if (id == kEmpty) {
      added = !has_empty_key_;
      if (added) empty_key_value_ = 0, has_empty_key_ = true;
      return empty_key_value_;
    }
    if (2 * (used_ + 1) > keys_.size()) grow();
    size_t i = slot(id);
    while (keys_[i] != kEmpty) {
      if (keys_[i] == id) return values_[i];
      i = (i + 1) & mask_;
    }
    keys_[i] = id;
    values_[i] = 0;
    ++used_;
    added = true;
    return values_[i];
  }
  size_t slot(int64_t id) const { return static_cast<size_t>((static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ULL) >> shift_); }
  void grow() { rehash(keys_.empty() ? 16 : 2 * keys_.size()); }
  void rehash(size_t capacity) {
    std::vector<int64_t> keys(capacity, kEmpty);
    std::vector<uint32_t> values(capacity, 0);
    keys.swap(keys_);
    values.swap(values_);
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    used_ = 0;
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != kEmpty) insert(keys[i], values[i]);
  }

  std::vector<int64_t> keys_;
  std::vector<uint32_t> values_;
  size_t used_ = 0, mask_ = 0;
  unsigned shift_ = 64;
  bool has_empty_key_ = false;
  uint32_t empty_key_value_ = 0;
};

}  // namespace wg
