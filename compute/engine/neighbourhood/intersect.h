// The merge at the heart of the neighbourhood service: two sorted lists of
// ranks, their common entries.
#pragma once

#include <algorithm>
#include <cstdint>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace wg {

// Intersects sorted x[0, nx) and y[0, ny) (ranks; with kMasked, bit 31 is a
// flag of the entry, not part of the rank), calling hit(i, j) once for each
// x[i] == y[j], in no set order (the callers sum); the shorter searched in
// the longer when their sizes differ much.
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
#if defined(__SSE4_1__)
  // Four entries of each list at a time: every pair of the two blocks
  // compared at once (the second block rotated three times), then the block
  // with the smaller last entry (or both) moves on. A hit is rare next to the
  // steps, so only a block pair with one looks at the lanes.
  const __m128i mask = _mm_set1_epi32(static_cast<int>(kMask));
  while (i + 4 <= nx && j + 4 <= ny) {
    const __m128i a = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)), mask);
    const __m128i b0 = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + j)), mask);
    const __m128i b1 = _mm_shuffle_epi32(b0, _MM_SHUFFLE(0, 3, 2, 1));
    const __m128i b2 = _mm_shuffle_epi32(b0, _MM_SHUFFLE(1, 0, 3, 2));
    const __m128i b3 = _mm_shuffle_epi32(b0, _MM_SHUFFLE(2, 1, 0, 3));
    const __m128i e0 = _mm_cmpeq_epi32(a, b0), e1 = _mm_cmpeq_epi32(a, b1);
    const __m128i e2 = _mm_cmpeq_epi32(a, b2), e3 = _mm_cmpeq_epi32(a, b3);
    const __m128i any = _mm_or_si128(_mm_or_si128(e0, e1), _mm_or_si128(e2, e3));
    if (!_mm_testz_si128(any, any)) {
      // Lane k of e_r: x[i + k] == y[j + (k + r) % 4].
      const int hits[4] = {_mm_movemask_ps(_mm_castsi128_ps(e0)), _mm_movemask_ps(_mm_castsi128_ps(e1)),
                           _mm_movemask_ps(_mm_castsi128_ps(e2)), _mm_movemask_ps(_mm_castsi128_ps(e3))};
      for (uint32_t r = 0; r < 4; ++r)
        for (uint32_t k = 0; k < 4; ++k)
          if (hits[r] >> k & 1) hit(i + k, j + ((k + r) & 3));
    }
    const uint32_t last_x = x[i + 3] & kMask, last_y = y[j + 3] & kMask;
    i += last_x <= last_y ? 4 : 0;
    j += last_y <= last_x ? 4 : 0;
  }
#endif
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
