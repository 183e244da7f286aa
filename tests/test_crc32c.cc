// CRC32C (dataplane/crc32c.h): every way on its own (AVX-512 folding,
// 256-bit folding beside three chains, the interleaved chains, the one-chain
// loop) and crc32c()'s choice, against a
// bit-at-a-time reference written here from the definition: every length up
// to 2000 bytes at 64 start alignments with as many initial registers, and
// buffers beyond three blocks of the largest size. A fold the CPU lacks is
// skipped with a message (AVX-512 on hosts without it).
#include "dataplane/crc32c.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
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

struct Way {
  const char* name;
  uint32_t (*crc)(const uint8_t*, size_t, uint32_t);
  bool (*cpu_has)();  // nullptr: runs anywhere
  const char* needs;
};

void PrintTo(const Way& w, std::ostream* os) { *os << w.name; }

const Way kWays[] = {
    {"crc32c", crc32c, nullptr, ""},
    {"fold512", crc32c_detail::fold512, crc32c_detail::cpu_has_fold512, "AVX-512F and VPCLMULQDQ"},
    {"fold256_chains", crc32c_detail::fold256_chains, crc32c_detail::cpu_has_fold256, "AVX2 and VPCLMULQDQ"},
    {"interleaved", crc32c_interleaved, nullptr, ""},
    {"serial", crc32c_serial, nullptr, ""},
};

class Crc32cWay : public testing::TestWithParam<Way> {
 protected:
  void SetUp() override {
    if (GetParam().cpu_has != nullptr && !GetParam().cpu_has())
      GTEST_SKIP() << GetParam().name << " not tested: this CPU lacks " << GetParam().needs;
  }
};

TEST_P(Crc32cWay, CheckValue) {
  const char* check = "123456789";
  EXPECT_EQ(~GetParam().crc(reinterpret_cast<const uint8_t*>(check), 9, 0xffffffffu), 0xe3069283u)
      << "the catalogue's check value";
}

TEST_P(Crc32cWay, EveryLengthUpTo2000AndEveryAlignment) {
  const std::vector<uint8_t> data = random_bytes(2100, 1);
  for (size_t at = 0; at < 64; ++at) {  // every start within a cache line
    const uint32_t init = 0xffffffffu ^ static_cast<uint32_t>(at * 2654435761u);
    uint32_t want = init;  // the reference over data[at, at + n), one byte further each step
    for (size_t n = 0; n <= 2000; ++n) {
      ASSERT_EQ(GetParam().crc(data.data() + at, n, init), want) << "length " << n << " at " << at;
      want = crc32c_bitwise(data.data() + at + n, 1, want);
    }
  }
}

TEST_P(Crc32cWay, BuffersOfSeveralRounds) {
  // A round is 3 x 4096 bytes for the chains, 16384 with 256-bit folding:
  // these take one to four, the last one short or long.
  for (size_t n : {12288u, 12289u, 16383u, 16384u, 16385u, 16767u, 16768u, 20000u, 40000u, 65536u}) {
    const std::vector<uint8_t> data = random_bytes(n, static_cast<uint32_t>(n));
    EXPECT_EQ(GetParam().crc(data.data(), n, 0xffffffffu), crc32c_bitwise(data.data(), n, 0xffffffffu)) << n;
  }
}

TEST_P(Crc32cWay, OneFlippedBitAlwaysChangesIt) {
  std::vector<uint8_t> data = random_bytes(1472, 7);  // a full bucket
  const uint32_t clean = GetParam().crc(data.data(), data.size(), 0xffffffffu);
  for (size_t bit = 0; bit < 8 * data.size(); bit += 13) {
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    ASSERT_NE(GetParam().crc(data.data(), data.size(), 0xffffffffu), clean) << "bit " << bit;
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  }
}

INSTANTIATE_TEST_SUITE_P(Ways, Crc32cWay, testing::ValuesIn(kWays),
                         [](const testing::TestParamInfo<Way>& i) { return std::string(i.param.name); });

TEST(Crc32c, TakesTheWidestFoldTheCpuHas) {
  // From the CPU's features as the instructions name them, not from the
  // library's own checks.
  const bool vpclmul = __builtin_cpu_supports("vpclmulqdq");
  const std::string want = vpclmul && __builtin_cpu_supports("avx512f") ? "fold512"
                           : vpclmul && __builtin_cpu_supports("avx2")  ? "fold256_chains"
                                                                        : "interleaved";
  EXPECT_EQ(crc32c_detail::way(), want);
}

}  // namespace
}  // namespace wg
