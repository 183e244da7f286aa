// The neighbourhood service's merge (compute/engine/neighbourhood/intersect.h)
// against std::set_intersection: every common entry found once, at its place
// in both lists, for lists of every length around the four-entry blocks, of
// skewed lengths (the search of the shorter in the longer), and with the flag
// bit of directed lists set at random (masked off before comparing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "compute/engine/neighbourhood/intersect.h"

namespace wg {
namespace {

constexpr uint32_t kFlag = 0x80000000u;

// n distinct ranks below `range`, sorted, each with the flag at random when `flags`.
std::vector<uint32_t> sorted_list(std::mt19937& rng, uint32_t n, uint32_t range, bool flags) {
  std::set<uint32_t> picked;
  std::uniform_int_distribution<uint32_t> rank(0, range - 1);
  while (picked.size() < n) picked.insert(rank(rng));
  std::vector<uint32_t> out(picked.begin(), picked.end());
  if (flags)
    for (uint32_t& e : out) e |= (rng() & 1) ? kFlag : 0;
  return out;
}

template <bool kMasked>
void check(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
  constexpr uint32_t kMask = kMasked ? ~kFlag : 0xffffffffu;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> want;  // (rank, i, j)
  for (uint32_t i = 0; i < x.size(); ++i)
    for (uint32_t j = 0; j < y.size(); ++j)
      if ((x[i] & kMask) == (y[j] & kMask)) want.emplace_back(x[i] & kMask, i, j);
  std::vector<uint32_t> xr, yr, common;
  for (uint32_t e : x) xr.push_back(e & kMask);
  for (uint32_t e : y) yr.push_back(e & kMask);
  std::set_intersection(xr.begin(), xr.end(), yr.begin(), yr.end(), std::back_inserter(common));
  ASSERT_EQ(common.size(), want.size());  // the pairwise scan agrees with the standard's count

  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> got;
  intersect<kMasked>(x.data(), static_cast<uint32_t>(x.size()), y.data(), static_cast<uint32_t>(y.size()),
                     [&](uint32_t i, uint32_t j) { got.emplace_back(x[i] & kMask, i, j); });
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want) << "lists of " << x.size() << " and " << y.size();
}

TEST(Intersect, EveryLengthAroundTheBlocks) {
  std::mt19937 rng(7);
  for (uint32_t nx = 0; nx <= 21; ++nx)
    for (uint32_t ny = 0; ny <= 21; ++ny)
      for (const uint32_t range : {24u, 60u, 400u}) {
        if (nx > range || ny > range) continue;
        const std::vector<uint32_t> x = sorted_list(rng, nx, range, false), y = sorted_list(rng, ny, range, false);
        check<false>(x, y);
        check<false>(y, x);
      }
}

TEST(Intersect, FlaggedEntriesCompareByRank) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const uint32_t nx = rng() % 70, ny = rng() % 70, range = 80 + rng() % 200;
    check<true>(sorted_list(rng, nx, range, true), sorted_list(rng, ny, range, true));
  }
}

TEST(Intersect, SkewedLengthsSearchTheLonger) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 50; ++trial) {
    const uint32_t nx = 1 + rng() % 6, ny = 400 + rng() % 600;
    check<true>(sorted_list(rng, nx, 2000, true), sorted_list(rng, ny, 2000, true));
    check<false>(sorted_list(rng, nx, 2000, false), sorted_list(rng, ny, 2000, false));
  }
}

TEST(Intersect, IdenticalAndDisjointLists) {
  std::vector<uint32_t> all(37), evens, odds;
  for (uint32_t v = 0; v < all.size(); ++v) all[v] = v, (v % 2 ? odds : evens).push_back(v);
  check<false>(all, all);
  check<false>(evens, odds);
  check<false>(all, odds);
}

}  // namespace
}  // namespace wg
