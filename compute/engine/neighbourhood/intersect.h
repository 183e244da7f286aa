// The merge at the heart of the neighbourhood service: two sorted lists of
// ranks, their common entries.
#pragma once

#include <algorithm>
#include <cstdint>

namespace wg {

// Intersects sorted x[0, nx) and y[0, ny) (ranks; with kMasked, bit 31 is a
// flag of the entry, not part of the rank), calling hit(i, j) for x[i] ==
// y[j]; the shorter searched in the longer when their sizes differ much.
template <bool kMasked, class Hit>
inline void intersect(const uint32_t* x, uint32_t nx, const uint32_t* y, uint32_t ny, Hit&& hit) {
  constexpr uint32_t kMask = kMasked ? 0x7fffffffu : 0xffffffffu;
  if (nx == 0 || ny == 0) return;
  if (uint64_t{nx} * 32 < ny) {
    const uint32_t* from = y;
    for (uint32_t i = 0; i < nx; ++i) {
      const uint32_t v = x[i] & kMask;
      from = std::lower_bound(from, y + ny, v, [](uint32_t e, uint32_t key) { return (e & kMask) < key; });
      if (from == y + ny) return;
      if ((*from & kMask) == v) hit(i, static_cast<uint32_t>(from - y));
    }
    return;
  }
  uint32_t i = 0, j = 0;
  while (i < nx && j < ny) {
    const uint32_t a = x[i] & kMask, b = y[j] & kMask;
    if (a < b) {
      ++i;
    } else if (b < a) {
      ++j;
    } else {
      hit(i, j);
      ++i, ++j;
    }
  }
}

}  // namespace wg
