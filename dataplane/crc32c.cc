#include "dataplane/crc32c.h"

#include <immintrin.h>
#include <nmmintrin.h>
#include <wmmintrin.h>

#include <array>
#include <cstring>

namespace wg {

namespace {

constexpr uint32_t kPoly = 0x82f63b78u;  // reflected
constexpr size_t kMinInterleaved = 192;  // below this, one chain is as fast
constexpr size_t kMaxBlock = 4096;       // bytes per block; longer buffers go in rounds

// v x^k mod P, v and the result in the reflected representation (bit 31 is x^0).
constexpr uint32_t times_x_pow(uint32_t v, unsigned k) {
  for (unsigned i = 0; i < k; ++i) v = (v >> 1) ^ (v & 1 ? kPoly : 0);
  return v;
}

// kShift[L / 8] = x^(8L - 33) mod P: the constant that moves a register past
// L bytes of zeros. The 33: 32 for the crc32 that folds the product back, 1
// for the carry-less product of two reflected 32-bit values landing one bit up.
constexpr std::array<uint32_t, kMaxBlock / 8 + 1> kShift = [] {
  std::array<uint32_t, kMaxBlock / 8 + 1> t{};
  t[1] = times_x_pow(0x80000000u, 64 - 33);
  for (size_t i = 2; i < t.size(); ++i) t[i] = times_x_pow(t[i - 1], 64);
  return t;
}();

// The folding constants: x^(d + 32) and x^(d - 32) mod P for a fold over d
// bits, reflected and shifted one bit up, as the low and high qword of each
// 128-bit lane (the low qword of an accumulator is its earlier half).
constexpr uint64_t fold_constant(unsigned k) { return uint64_t{times_x_pow(0x80000000u, k)} << 1; }
constexpr uint64_t kFold1024Lo = fold_constant(1024 + 32), kFold1024Hi = fold_constant(1024 - 32);
constexpr uint64_t kFold512Lo = fold_constant(512 + 32), kFold512Hi = fold_constant(512 - 32);
constexpr uint64_t kFold128Lo = fold_constant(128 + 32), kFold128Hi = fold_constant(128 - 32);
constexpr size_t kMinFolded = 256;  // two accumulators' worth, and then some

inline uint64_t load64(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);  // the bucket starts at frame offset 42: unaligned (free on x86)
  return w;
}

// The register `crc` after `block` more bytes of zeros (block % 8 == 0).
__attribute__((target("sse4.2,pclmul"))) inline uint32_t shift(uint32_t crc, size_t block) {
  const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi32_si128(static_cast<int>(crc)),
                                               _mm_cvtsi32_si128(static_cast<int>(kShift[block / 8])), 0);
  return static_cast<uint32_t>(_mm_crc32_u64(0, static_cast<uint64_t>(_mm_cvtsi128_si64(product))));
}

// a * k (each lane's low qword by k's low, high by high) + d: 0x96 is a
// three-way XOR. A function, not a lambda: a lambda does not inherit its
// enclosing function's target attribute, so it fails to compile wherever
// -march=native lacks AVX-512 (AMD Zen 3 has VPCLMULQDQ on 256 bits only).
__attribute__((target("avx512f,vpclmulqdq"))) inline __m512i fold(__m512i a, __m512i k, __m512i d) {
  return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, k, 0x00), _mm512_clmulepi64_epi128(a, k, 0x11), d,
                                   0x96);
}

__attribute__((target("pclmul"))) inline __m128i fold(__m128i a, __m128i k, __m128i d) {
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_clmulepi64_si128(a, k, 0x11)), d);
}

// Folding with carry-less multiplies on 512-bit registers (AVX-512
// VPCLMULQDQ: four 128-bit lanes per instruction), two accumulators of 64
// bytes: each step multiplies an accumulator's lanes by x^(1024 +- 32) and
// adds the 64 bytes that lie 128 bytes further on. The accumulators and the
// lanes are then folded into one 128-bit value whose CRC (two crc32) is the
// buffer's; the tail goes through the one-chain loop. Needs n >= 128.
__attribute__((target("sse4.2,pclmul,avx512f,vpclmulqdq"))) uint32_t crc32c_folded(const uint8_t* p, size_t n,
                                                                                   uint32_t crc) {
  const __m512i k1024 = _mm512_set_epi64(kFold1024Hi, kFold1024Lo, kFold1024Hi, kFold1024Lo, kFold1024Hi,
                                         kFold1024Lo, kFold1024Hi, kFold1024Lo);
  const __m512i k512 = _mm512_set_epi64(kFold512Hi, kFold512Lo, kFold512Hi, kFold512Lo, kFold512Hi, kFold512Lo,
                                        kFold512Hi, kFold512Lo);
  __m512i x0 = _mm512_loadu_si512(p);
  __m512i x1 = _mm512_loadu_si512(p + 64);
  x0 = _mm512_xor_si512(x0, _mm512_castsi128_si512(_mm_cvtsi32_si128(static_cast<int>(crc))));
  p += 128;
  n -= 128;
  for (; n >= 128; p += 128, n -= 128) {
    x0 = fold(x0, k1024, _mm512_loadu_si512(p));
    x1 = fold(x1, k1024, _mm512_loadu_si512(p + 64));
  }
  x0 = fold(x0, k512, x1);
  if (n >= 64) {
    x0 = fold(x0, k512, _mm512_loadu_si512(p));
    p += 64;
    n -= 64;
  }
  const __m128i k128 = _mm_set_epi64x(static_cast<int64_t>(kFold128Hi), static_cast<int64_t>(kFold128Lo));
  // The four lanes through memory: GCC 12 warns (wrongly) that
  // _mm512_extracti32x4_epi32 reads an uninitialized value.
  alignas(64) __m128i lanes[4];
  _mm512_store_si512(lanes, x0);
  __m128i acc = fold(fold(fold(lanes[0], k128, lanes[1]), k128, lanes[2]), k128, lanes[3]);
  uint64_t c = _mm_crc32_u64(0, static_cast<uint64_t>(_mm_cvtsi128_si64(acc)));
  c = _mm_crc32_u64(c, static_cast<uint64_t>(_mm_extract_epi64(acc, 1)));
  return crc32c_serial(p, n, static_cast<uint32_t>(c));
}

// Whether the CPU has AVX-512 carry-less multiplies (checked once; a binary
// built with -march=native for another CPU, or valgrind, may lack them).
bool have_vpclmulqdq() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("vpclmulqdq");
  return yes;
}

}  // namespace

__attribute__((target("sse4.2"))) uint32_t crc32c_serial(const uint8_t* p, size_t n, uint32_t crc) {
  uint64_t c = crc;
  for (; n >= 8; p += 8, n -= 8) c = _mm_crc32_u64(c, load64(p));
  uint32_t c32 = static_cast<uint32_t>(c);
  for (; n > 0; ++p, --n) c32 = _mm_crc32_u8(c32, *p);
  return c32;
}

__attribute__((target("sse4.2,pclmul"))) uint32_t crc32c_interleaved(const uint8_t* p, size_t n, uint32_t crc) {
  while (n >= kMinInterleaved) {
    size_t block = n / 24 * 8;  // three blocks of whole words
    if (block > kMaxBlock) block = kMaxBlock;
    const uint8_t* a = p;
    const uint8_t* b = p + block;
    const uint8_t* c = p + 2 * block;
    uint64_t ca = crc, cb = 0, cc = 0;
    for (size_t i = 0; i < block; i += 8) {
      ca = _mm_crc32_u64(ca, load64(a + i));
      cb = _mm_crc32_u64(cb, load64(b + i));
      cc = _mm_crc32_u64(cc, load64(c + i));
    }
    // crc(A B C) = shift(shift(crc(A), L) ^ crc(B), L) ^ crc(C): the CRC
    // register is linear in its input.
    crc = shift(shift(static_cast<uint32_t>(ca), block) ^ static_cast<uint32_t>(cb), block) ^
          static_cast<uint32_t>(cc);
    p += 3 * block;
    n -= 3 * block;
  }
  return crc32c_serial(p, n, crc);
}

uint32_t crc32c(const uint8_t* p, size_t n, uint32_t crc) {
  if (n >= kMinFolded && have_vpclmulqdq()) return crc32c_folded(p, n, crc);
  return crc32c_interleaved(p, n, crc);
}

}  // namespace wg
