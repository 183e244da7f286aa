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
constexpr size_t kMaxBlock = 4096;       // bytes per chain; longer buffers go in rounds

// v x^k mod P, v and the result in the reflected representation (bit 31 is x^0).
constexpr uint32_t times_x_pow(uint32_t v, unsigned k) {
  for (unsigned i = 0; i < k; ++i) v = (v >> 1) ^ (v & 1 ? kPoly : 0);
  return v;
}

// kShift[L / 8] = x^(8L - 33) mod P: the constant that moves a register past
// L bytes of zeros. The 33: 32 for the crc32 that folds the product back, 1
// for the carry-less product of two reflected 32-bit values landing one bit up.
// Up to three blocks: the first chain's register moves past the other two.
constexpr std::array<uint32_t, 3 * kMaxBlock / 8 + 1> kShift = [] {
  std::array<uint32_t, 3 * kMaxBlock / 8 + 1> t{};
  t[1] = times_x_pow(0x80000000u, 64 - 33);
  for (size_t i = 2; i < t.size(); ++i) t[i] = times_x_pow(t[i - 1], 64);
  return t;
}();

// The folding constants: a 128-bit lane moves d bits further on when its
// low qword (its earlier half) is multiplied by x^(d + 32) mod P and its
// high qword by x^(d - 32) mod P, each reflected and shifted one bit up.
// kFoldOver[m] is the pair for d = 128 m: kStride for the 128 bytes each
// fold loop steps over, less to gather the accumulators and the tail.
struct FoldConstant {
  uint64_t lo, hi;
};
constexpr uint64_t fold_constant(unsigned k) { return uint64_t{times_x_pow(0x80000000u, k)} << 1; }
constexpr unsigned kStride = 8;
constexpr std::array<FoldConstant, kStride + 1> kFoldOver = [] {
  std::array<FoldConstant, kStride + 1> t{};
  for (unsigned m = 1; m < t.size(); ++m) t[m] = {fold_constant(128 * m + 32), fold_constant(128 * m - 32)};
  return t;
}();
constexpr size_t kMinFolded = 256;  // AVX-512: the accumulators' 128 bytes, and then some
// VPCLMULQDQ on AVX2 registers beside three crc32 chains (measured on AMD
// Zen 4: the same speed as the chains alone at 256-320 bytes, faster from 384).
constexpr size_t kMinHybrid = 384;
// crc32 per chain per fold step: 120 chained bytes beside 128 folded ones
// take about as long on Zen 4 (per bucket 51 ns; 4 steps 53, 6 steps 59).
constexpr unsigned kChainSteps = 5;
constexpr size_t kMaxRound = 16384;  // each chain's block stays within kMaxBlock (checked below)

inline uint64_t load64(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);  // the bucket starts at frame offset 42: unaligned (free on x86)
  return w;
}

inline __m128i lanes(FoldConstant k) { return _mm_set_epi64x(static_cast<int64_t>(k.hi), static_cast<int64_t>(k.lo)); }
inline __m128i load128(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
// Not _mm512_broadcast_i32x4: GCC 12 warns (wrongly) that it reads an
// uninitialized value.
__attribute__((target("avx512f"))) inline __m512i lanes512(FoldConstant k) {
  const auto lo = static_cast<long long>(k.lo), hi = static_cast<long long>(k.hi);
  return _mm512_set_epi64(hi, lo, hi, lo, hi, lo, hi, lo);
}
__attribute__((target("avx2"))) inline __m256i lanes256(FoldConstant k) {
  return _mm256_broadcastsi128_si256(lanes(k));
}
__attribute__((target("avx"))) inline __m256i load256(const uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// The register `crc` moved past `bytes` more bytes of zeros (a multiple of
// 8) is crc32(0, this product): a linear map, so one crc32 takes the sum of
// several products.
__attribute__((target("pclmul"))) inline __m128i moved(uint32_t crc, size_t bytes) {
  return _mm_clmulepi64_si128(_mm_cvtsi32_si128(static_cast<int>(crc)),
                              _mm_cvtsi32_si128(static_cast<int>(kShift[bytes / 8])), 0);
}

// Three crc32 chains over three blocks of `block` bytes, each started at
// zero: the instruction's throughput, not its 3-cycle latency, bounds them.
struct Chains {
  uint64_t a = 0, b = 0, c = 0;
};
__attribute__((target("sse4.2"))) inline void step(Chains& ch, const uint8_t* p, size_t block) {
  ch.a = _mm_crc32_u64(ch.a, load64(p));
  ch.b = _mm_crc32_u64(ch.b, load64(p + block));
  ch.c = _mm_crc32_u64(ch.c, load64(p + 2 * block));
}
// The register after the bytes before the blocks (`crc`) and the blocks,
// the CRC register being linear in its input: crc(X A B C) is crc(X) moved
// past 3L bytes + crc(A) past 2L + crc(B) past L + crc(C); three
// independent multiplies, one crc32.
__attribute__((target("sse4.2,pclmul"))) inline uint32_t join(uint32_t crc, const Chains& ch, size_t block) {
  const __m128i sum = _mm_xor_si128(_mm_xor_si128(moved(crc, 3 * block), moved(static_cast<uint32_t>(ch.a), 2 * block)),
                                    moved(static_cast<uint32_t>(ch.b), block));
  return static_cast<uint32_t>(_mm_crc32_u64(0, static_cast<uint64_t>(_mm_cvtsi128_si64(sum)))) ^
         static_cast<uint32_t>(ch.c);
}

// a * k (each lane's low qword by k's low, high by high) + d, one overload
// per register width. Functions, not lambdas: a lambda does not inherit its
// enclosing function's target attribute, so it fails to compile wherever
// -march=native lacks the extension (this AMD Zen 4 guest has VPCLMULQDQ
// without AVX-512; -Dnative=false has neither).
__attribute__((target("avx512f,vpclmulqdq"))) inline __m512i fold(__m512i a, __m512i k, __m512i d) {
  // 0x96: a three-way XOR.
  return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, k, 0x00), _mm512_clmulepi64_epi128(a, k, 0x11), d,
                                   0x96);
}

__attribute__((target("avx2,vpclmulqdq"))) inline __m256i fold(__m256i a, __m256i k, __m256i d) {
  return _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(a, k, 0x00), d),
                          _mm256_clmulepi64_epi128(a, k, 0x11));
}

__attribute__((target("pclmul"))) inline __m128i fold(__m128i a, __m128i k, __m128i d) {
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), d), _mm_clmulepi64_si128(a, k, 0x11));
}

// The register after a buffer folded into `acc`: two crc32 take the CRC of
// its 128 bits, which the fold constants' extra x^32 make the buffer's.
__attribute__((target("sse4.2"))) inline uint32_t finish(__m128i acc) {
  const uint64_t c = _mm_crc32_u64(0, static_cast<uint64_t>(_mm_cvtsi128_si64(acc)));
  return static_cast<uint32_t>(_mm_crc32_u64(c, static_cast<uint64_t>(_mm_extract_epi64(acc, 1))));
}

// How a round of fold256_chains() splits its bytes: `vector` bytes folded
// (128 to start, 128 per step), then three blocks of `block` bytes through
// the chains, kChainSteps words each per vector step and the rest after,
// then fewer than 24 bytes through one chain.
struct HybridSplit {
  size_t steps, vector, block;
};
constexpr HybridSplit hybrid_split(size_t round) {
  const size_t steps = (round - 128) / (128 + 24 * kChainSteps);
  const size_t vector = 128 * (steps + 1);
  return {steps, vector, (round - vector) / 24 * 8};
}
constexpr bool blocks_within_shift_table() {
  for (size_t r = kMinHybrid; r <= kMaxRound; ++r)
    if (hybrid_split(r).block > kMaxBlock) return false;
  return true;
}
static_assert(blocks_within_shift_table());

}  // namespace

namespace crc32c_detail {

// The folds keep 128 bytes in accumulators; every step multiplies each
// accumulator by x^(1024 +- 32) and adds the bytes 128 further on:
// independent multiplies that the pipelines overlap. The initial register
// is added to the first four bytes.

// Two 64-byte accumulators, four 128-bit lanes per instruction.
__attribute__((target("sse4.2,pclmul,avx512f,vpclmulqdq"))) uint32_t fold512(const uint8_t* p, size_t n,
                                                                             uint32_t crc) {
  if (n < kMinFolded) return crc32c_interleaved(p, n, crc);
  const __m512i k1024 = lanes512(kFoldOver[kStride]);
  const __m512i k512 = lanes512(kFoldOver[4]);
  __m512i x0 = _mm512_loadu_si512(p);
  __m512i x1 = _mm512_loadu_si512(p + 64);
  x0 = _mm512_xor_si512(x0, _mm512_zextsi128_si512(_mm_cvtsi32_si128(static_cast<int>(crc))));
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
  // The four lanes through memory: GCC 12 warns (wrongly) that
  // _mm512_extracti32x4_epi32 reads an uninitialized value.
  alignas(64) __m128i l[4];
  _mm512_store_si512(l, x0);
  const __m128i k128 = lanes(kFoldOver[1]);
  return crc32c_serial(p, n, finish(fold(fold(fold(l[0], k128, l[1]), k128, l[2]), k128, l[3])));
}

// Four 32-byte accumulators (two 128-bit lanes per instruction) over about
// half of each round, three crc32 chains over the other half, in the same
// loop: the multiplier and the crc32 unit work at once. On AMD Zen (one
// VPCLMULQDQ every two cycles) either alone goes at 8 bytes a cycle.
__attribute__((target("sse4.2,pclmul,avx2,vpclmulqdq"))) uint32_t fold256_chains(const uint8_t* p, size_t n,
                                                                                 uint32_t crc) {
  constexpr unsigned kAcc = 4;
  while (n >= kMinHybrid) {
    const HybridSplit s = hybrid_split(n < kMaxRound ? n : kMaxRound);
    const __m256i k1024 = lanes256(kFoldOver[kStride]);
    __m256i x[kAcc];
    for (unsigned i = 0; i < kAcc; ++i) x[i] = load256(p + 32 * i);
    x[0] = _mm256_xor_si256(x[0], _mm256_zextsi128_si256(_mm_cvtsi32_si128(static_cast<int>(crc))));
    const uint8_t* chained = p + s.vector;
    Chains ch;
    size_t off = 0;
    for (size_t i = 1; i <= s.steps; ++i) {
      for (unsigned a = 0; a < kAcc; ++a) x[a] = fold(x[a], k1024, load256(p + 128 * i + 32 * a));
      for (unsigned r = 0; r < kChainSteps; ++r, off += 8) step(ch, chained + off, s.block);
    }
    for (; off < s.block; off += 8) step(ch, chained + off, s.block);
    // Every accumulator moved onto the last at once: independent multiplies.
    __m256i acc = x[kAcc - 1];
    for (unsigned a = 0; a + 1 < kAcc; ++a) acc = fold(x[a], lanes256(kFoldOver[2 * (kAcc - 1 - a)]), acc);
    const __m128i acc128 = fold(_mm256_castsi256_si128(acc), lanes(kFoldOver[1]), _mm256_extracti128_si256(acc, 1));
    crc = join(finish(acc128), ch, s.block);
    p += s.vector + 3 * s.block;
    n -= s.vector + 3 * s.block;
  }
  return crc32c_interleaved(p, n, crc);
}

// Checked once; a binary built with -march=native for another CPU, or run
// under valgrind (which hides the extensions it does not emulate), may
// lack them.
bool cpu_has_fold512() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("vpclmulqdq");
  return yes;
}

bool cpu_has_fold256() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("vpclmulqdq");
  return yes;
}

}  // namespace crc32c_detail

__attribute__((target("sse4.2"))) uint32_t crc32c_serial(const uint8_t* p, size_t n, uint32_t crc) {
  uint64_t c = crc;
  for (; n >= 8; p += 8, n -= 8) c = _mm_crc32_u64(c, load64(p));
  uint32_t c32 = static_cast<uint32_t>(c);
  // The last 0-7 bytes in at most three steps, not seven: the bucket's header
  // (28 bytes, then the checksum field) runs through here before the rest.
  if (n & 4) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    c32 = _mm_crc32_u32(c32, w);
    p += 4;
  }
  if (n & 2) {
    uint16_t w;
    std::memcpy(&w, p, 2);
    c32 = _mm_crc32_u16(c32, w);
    p += 2;
  }
  if (n & 1) c32 = _mm_crc32_u8(c32, *p);
  return c32;
}

__attribute__((target("sse4.2,pclmul"))) uint32_t crc32c_interleaved(const uint8_t* p, size_t n, uint32_t crc) {
  while (n >= kMinInterleaved) {
    size_t block = n / 24 * 8;  // three blocks of whole words
    if (block > kMaxBlock) block = kMaxBlock;
    Chains ch;
    for (size_t off = 0; off < block; off += 8) step(ch, p + off, block);
    crc = join(crc, ch, block);
    p += 3 * block;
    n -= 3 * block;
  }
  return crc32c_serial(p, n, crc);
}

namespace {

enum class Way { kFold512, kFold256Chains, kChains };

Way fastest_way() {
  static const Way way = crc32c_detail::cpu_has_fold512()   ? Way::kFold512
                         : crc32c_detail::cpu_has_fold256() ? Way::kFold256Chains
                                                            : Way::kChains;
  return way;
}

}  // namespace

const char* crc32c_detail::way() {
  switch (fastest_way()) {
    case Way::kFold512:
      return "fold512";
    case Way::kFold256Chains:
      return "fold256_chains";
    case Way::kChains:
      break;
  }
  return "interleaved";
}

uint32_t crc32c(const uint8_t* p, size_t n, uint32_t crc) {
  switch (fastest_way()) {
    case Way::kFold512:
      return crc32c_detail::fold512(p, n, crc);
    case Way::kFold256Chains:
      return crc32c_detail::fold256_chains(p, n, crc);
    case Way::kChains:
      break;
  }
  return crc32c_interleaved(p, n, crc);
}

}  // namespace wg
