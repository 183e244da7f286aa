// CRC32C (dataplane/crc32c.h): crc32c() (folded with AVX-512 where the CPU
// has it), the interleaved chains and the one-chain loop against a
// bit-at-a-time reference written here from the definition, for every
// length up to 2000 bytes and beyond 3 blocks of the largest size, every
// start alignment, and arbitrary initial registers.
#include "dataplane/crc32c.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace wg {
namespace {

// Reflected polynomial 0x82f63b78, register in and out, no final inversion.
uint32_t crc32c_bitwise(const uint8_t* p, size_t n, uint32_t crc) {
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
  }
  return crc;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

TEST(Crc32c, CheckValue) {
  const char* check = "123456789";
  const auto* p = reinterpret_cast<const uint8_t*>(check);
  EXPECT_EQ(~crc32c(p, 9, 0xffffffffu), 0xe3069283u);  // the catalogue's check value
  EXPECT_EQ(~crc32c_serial(p, 9, 0xffffffffu), 0xe3069283u);
  EXPECT_EQ(~crc32c_interleaved(p, 9, 0xffffffffu), 0xe3069283u);
}

TEST(Crc32c, EveryLengthUpTo2000AndEveryAlignment) {
  const std::vector<uint8_t> data = random_bytes(2100, 1);
  for (size_t n = 0; n <= 2000; ++n) {
    const size_t at = n % 8;  // every alignment of the start
    const uint32_t init = 0xffffffffu ^ static_cast<uint32_t>(n * 2654435761u);
    const uint32_t want = crc32c_bitwise(data.data() + at, n, init);
    ASSERT_EQ(crc32c(data.data() + at, n, init), want) << "length " << n << " at " << at;
    ASSERT_EQ(crc32c_interleaved(data.data() + at, n, init), want) << "length " << n << " at " << at;
    ASSERT_EQ(crc32c_serial(data.data() + at, n, init), want) << "length " << n << " at " << at;
  }
}

TEST(Crc32c, BuffersLongerThanThreeLargestBlocks) {
  // 3 x 4096 bytes is one round; these take two or three.
  for (size_t n : {12288u, 12289u, 20000u, 40000u}) {
    const std::vector<uint8_t> data = random_bytes(n, static_cast<uint32_t>(n));
    EXPECT_EQ(crc32c(data.data(), n, 0xffffffffu), crc32c_bitwise(data.data(), n, 0xffffffffu)) << n;
    EXPECT_EQ(crc32c_interleaved(data.data(), n, 0xffffffffu), crc32c_bitwise(data.data(), n, 0xffffffffu)) << n;
  }
}

TEST(Crc32c, OneFlippedBitAlwaysChangesIt) {
  std::vector<uint8_t> data = random_bytes(1472, 7);  // a full bucket
  const uint32_t clean = crc32c(data.data(), data.size(), 0xffffffffu);
  for (size_t bit = 0; bit < 8 * data.size(); bit += 13) {
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    ASSERT_NE(crc32c(data.data(), data.size(), 0xffffffffu), clean) << "bit " << bit;
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  }
}

}  // namespace
}  // namespace wg
