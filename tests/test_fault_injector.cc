// FaultInjector (reliability/fault_injector.h): the spec parser, and each
// fault kind on real mbufs (EAL in the loop, no devices): what comes out,
// in which call, with which bytes, and that no mbuf leaks.
//
// Every test frame carries its id in bytes 0..3 (the Ethernet destination
// MAC: never corrupted, the injector only flips bits at or after
// wire::kHeaderOffset) and a known byte pattern elsewhere.
#include "reliability/fault_injector.h"

#include <gtest/gtest.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dataplane/wire.h"
#include "reliability/tx_port.h"
#include "tests/eal_test_main.h"

namespace wg {
namespace {

constexpr unsigned kPoolSize = 4095;
rte_mempool* g_pool = nullptr;

unsigned pool_free() { return rte_mempool_avail_count(g_pool); }

uint8_t pattern(uint32_t id, uint32_t j) { return static_cast<uint8_t>(id * 31 + j * 7 + 3); }

std::vector<uint8_t> expected_bytes(uint32_t id, uint16_t len) {
  std::vector<uint8_t> b(len);
  for (uint32_t j = 0; j < len; ++j) b[j] = pattern(id, j);
  std::memcpy(b.data(), &id, sizeof id);
  return b;
}

rte_mbuf* make_frame(uint32_t id, uint16_t len = 120) {
  rte_mbuf* m = rte_pktmbuf_alloc(g_pool);
  if (m == nullptr) return nullptr;
  uint8_t* p = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, len));
  if (p == nullptr) {
    rte_pktmbuf_free(m);
    return nullptr;
  }
  const std::vector<uint8_t> b = expected_bytes(id, len);
  std::memcpy(p, b.data(), len);
  return m;
}

uint32_t id_of(const rte_mbuf* m) {
  uint32_t id;
  std::memcpy(&id, rte_pktmbuf_mtod(m, const uint8_t*), sizeof id);
  return id;
}

std::vector<uint8_t> bytes_of(const rte_mbuf* m) {
  const uint8_t* p = rte_pktmbuf_mtod(m, const uint8_t*);
  return std::vector<uint8_t>(p, p + rte_pktmbuf_data_len(m));
}

void free_all(rte_mbuf* const* pkts, uint16_t n) {
  for (uint16_t i = 0; i < n; ++i) rte_pktmbuf_free(pkts[i]);
}

// Fills pkts[0..n) with frames first_id, first_id+1, ...
void make_frames(rte_mbuf** pkts, uint16_t n, uint32_t first_id) {
  for (uint16_t i = 0; i < n; ++i) {
    pkts[i] = make_frame(first_id + i);
    ASSERT_NE(pkts[i], nullptr);
  }
}

FaultSpec spec_of(const std::string& text) { return parse_fault_spec(text); }

// Every test must give back every mbuf it took. The baseline is taken per
// test (kPoolSize unless an earlier test leaked) so that one leak
// fails one test, not every test after it.
class FaultInjectorTest : public testing::Test {
 protected:
  void SetUp() override { full_ = pool_free(); }
  void TearDown() override { EXPECT_EQ(pool_free(), full_) << "mbufs leaked"; }
  unsigned full_ = 0;
};

// ---- parse_fault_spec ------------------------------------------------------

std::string parse_error(const std::string& text) {
  try {
    parse_fault_spec(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "<accepted>";
}

TEST(ParseFaultSpec, AcceptsEveryKind) {
  const FaultSpec f = parse_fault_spec("drop=0.01,dup=0.05,reorder=0.1,corrupt=0.02,delay=0.25");
  EXPECT_DOUBLE_EQ(f.drop, 0.01);
  EXPECT_DOUBLE_EQ(f.duplicate, 0.05);
  EXPECT_DOUBLE_EQ(f.reorder, 0.1);
  EXPECT_DOUBLE_EQ(f.corrupt, 0.02);
  EXPECT_DOUBLE_EQ(f.delay, 0.25);
  EXPECT_TRUE(f.any());
  EXPECT_DOUBLE_EQ(parse_fault_spec("duplicate=0.5").duplicate, 0.5);
  const FaultSpec bounds = parse_fault_spec("drop=0,delay=1");
  EXPECT_EQ(bounds.drop, 0.0);
  EXPECT_EQ(bounds.delay, 1.0);
  EXPECT_TRUE(bounds.any());
  EXPECT_FALSE(parse_fault_spec("").any());
  EXPECT_FALSE(parse_fault_spec("drop=0,dup=0").any());
  // The last of a repeated kind wins.
  EXPECT_DOUBLE_EQ(parse_fault_spec("drop=0.5,drop=0.25").drop, 0.25);
}

TEST(ParseFaultSpec, DescribeRoundTrips) {
  const FaultSpec f = parse_fault_spec("drop=0.125,dup=0.5,reorder=0.25,corrupt=1,delay=0.0625");
  EXPECT_EQ(describe(f), "drop=0.125,dup=0.5,reorder=0.25,corrupt=1,delay=0.0625");
  const FaultSpec g = parse_fault_spec(describe(f));
  EXPECT_EQ(g.drop, 0.125);
  EXPECT_EQ(g.duplicate, 0.5);
  EXPECT_EQ(g.reorder, 0.25);
  EXPECT_EQ(g.corrupt, 1.0);
  EXPECT_EQ(g.delay, 0.0625);
}

TEST(ParseFaultSpec, RejectsBadItemsNamingThem) {
  struct Case {
    const char* text;
    const char* named;  // the message must contain this
  };
  const Case cases[] = {
      {"bogus=0.1", "bogus"},
      {"drop=0.1,jitter=0.2", "jitter"},
      {"drop=1.5", "drop=1.5"},
      {"dup=-0.1", "dup=-0.1"},
      {"drop0.1", "drop0.1"},
      {"drop=0.1,dup", "dup"},
      {"drop=0.1x", "drop=0.1x"},
      {"reorder=0.5 ", "reorder=0.5 "},
      {"delay=", "delay="},
      {"corrupt=nan", "corrupt=nan"},
      {"drop=0.1,,dup=0.1", "''"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_THROW(parse_fault_spec(c.text), std::invalid_argument);
    const std::string msg = parse_error(c.text);
    EXPECT_NE(msg, "<accepted>");
    EXPECT_NE(msg.find(c.named), std::string::npos) << "message: " << msg;
  }
}

// ---- FaultInjector ---------------------------------------------------------

TEST_F(FaultInjectorTest, DropAllFreesEveryFrame) {
  FaultInjector fi(spec_of("drop=1"), 7, 0, g_pool, false);
  EXPECT_TRUE(fi.active());
  rte_mbuf* pkts[32];
  make_frames(pkts, 32, 1);
  ASSERT_EQ(pool_free(), full_ - 32);
  EXPECT_EQ(fi.apply(pkts, 32, 32, 100), 0);
  EXPECT_EQ(pool_free(), full_) << "dropped frames go back to the pool";
  EXPECT_EQ(fi.counts().seen, 32u);
  EXPECT_EQ(fi.counts().dropped, 32u);
  EXPECT_EQ(fi.counts().duplicated + fi.counts().reordered + fi.counts().delayed + fi.counts().corrupted, 0u);
  EXPECT_EQ(fi.apply(pkts, 0, 32, 200), 0) << "nothing was held";
}

TEST_F(FaultInjectorTest, BurstsDropRunsOfSixteenFrames) {
  FaultInjector fi(spec_of("burst=1"), 7, 0, g_pool, false);
  EXPECT_TRUE(fi.active());
  rte_mbuf* pkts[32];
  make_frames(pkts, 32, 1);
  EXPECT_EQ(fi.apply(pkts, 32, 32, 100), 0) << "every frame starts or continues a burst";
  EXPECT_EQ(fi.counts().dropped, 32u);
  EXPECT_EQ(pool_free(), full_);
  // A burst that starts runs on across calls, whatever the fraction: with
  // 0.02, 1000 frames in calls of 10 lose whole runs of 16 (the last may be cut).
  FaultInjector runs(spec_of("burst=0.02"), 11, 0, g_pool, false);
  std::vector<uint32_t> kept;
  for (uint32_t call = 0; call < 100; ++call) {
    rte_mbuf* batch[10];
    make_frames(batch, 10, 10 * call);
    const uint16_t n = runs.apply(batch, 10, 10, call);
    for (uint16_t i = 0; i < n; ++i) kept.push_back(id_of(batch[i]));
    free_all(batch, n);
  }
  ASSERT_GT(runs.counts().dropped, 0u);
  ASSERT_LT(runs.counts().dropped, 1000u);
  // Every gap between kept frames is a whole number of runs of 16, but the
  // last (cut by the end of the input).
  uint32_t expect = 0;
  for (uint32_t k : kept) {
    EXPECT_EQ((k - expect) % 16, 0u) << "a gap of " << k - expect << " before frame " << k;
    expect = k + 1;
  }
  EXPECT_EQ(runs.counts().dropped, 1000u - kept.size());
  EXPECT_EQ(describe(parse_fault_spec("burst=0.5")), "drop=0,dup=0,reorder=0,corrupt=0,delay=0,burst=0.5");
}

TEST_F(FaultInjectorTest, ZeroFractionsPassFramesThroughUnchangedAndInOrder) {
  FaultInjector fi(spec_of("drop=0,dup=0,reorder=0,corrupt=0,delay=0"), 7, 1000, g_pool, false);
  EXPECT_FALSE(fi.active());
  for (uint32_t call = 0; call < 5; ++call) {
    rte_mbuf* pkts[16];
    make_frames(pkts, 16, 100 * call);
    rte_mbuf* in[16];
    std::memcpy(in, pkts, sizeof in);
    ASSERT_EQ(fi.apply(pkts, 16, 16, 1000 + call), 16);
    for (uint16_t i = 0; i < 16; ++i) {
      EXPECT_EQ(pkts[i], in[i]) << "same mbuf, same place";
      EXPECT_EQ(bytes_of(pkts[i]), expected_bytes(100 * call + i, 120));
    }
    free_all(pkts, 16);
  }
  const FaultCounts& c = fi.counts();
  EXPECT_EQ(c.seen, 80u);
  EXPECT_EQ(c.dropped + c.duplicated + c.reordered + c.corrupted + c.delayed, 0u);
}

TEST_F(FaultInjectorTest, DuplicateAllCopiesEveryFrameRightAfterIt) {
  FaultInjector fi(spec_of("dup=1"), 7, 0, g_pool, false);
  rte_mbuf* pkts[16];
  make_frames(pkts, 8, 1);
  rte_mbuf* in[8];
  std::memcpy(in, pkts, sizeof in);
  ASSERT_EQ(fi.apply(pkts, 8, 16, 100), 16);
  EXPECT_EQ(pool_free(), full_ - 16);
  for (uint16_t i = 0; i < 8; ++i) {
    EXPECT_EQ(pkts[2 * i], in[i]) << "the original first";
    EXPECT_NE(pkts[2 * i + 1], in[i]) << "the copy is another mbuf";
    for (uint16_t j = 0; j < 16; ++j)
      if (j != 2 * i + 1) {
        EXPECT_NE(pkts[2 * i + 1], pkts[j]);
      }
    EXPECT_EQ(rte_pktmbuf_data_len(pkts[2 * i + 1]), 120u);
    EXPECT_EQ(bytes_of(pkts[2 * i]), expected_bytes(i + 1, 120));
    EXPECT_EQ(bytes_of(pkts[2 * i + 1]), expected_bytes(i + 1, 120));
  }
  EXPECT_EQ(fi.counts().duplicated, 8u);
  EXPECT_EQ(fi.counts().seen, 8u);
  free_all(pkts, 16);
}

TEST_F(FaultInjectorTest, FramesBeyondCapWaitForTheNextCallInOrder) {
  FaultInjector fi(spec_of("dup=1"), 7, 0, g_pool, false);
  rte_mbuf* pkts[16];
  make_frames(pkts, 8, 1);
  // cap 10: frames 1..5 and their copies fill it; 6, 7, 8 wait.
  ASSERT_EQ(fi.apply(pkts, 8, 10, 100), 10);
  for (uint16_t i = 0; i < 10; ++i) EXPECT_EQ(id_of(pkts[i]), i / 2 + 1u) << i;
  EXPECT_EQ(fi.counts().duplicated, 5u);
  free_all(pkts, 10);
  ASSERT_EQ(fi.apply(pkts, 0, 16, 101), 3);
  for (uint16_t i = 0; i < 3; ++i) EXPECT_EQ(id_of(pkts[i]), 6u + i);
  EXPECT_EQ(fi.counts().duplicated, 5u) << "held frames are not duplicated on release";
  free_all(pkts, 3);
}

TEST_F(FaultInjectorTest, ReorderAllReleasesFramesInTheNextCall) {
  FaultInjector fi(spec_of("reorder=1"), 7, 0, g_pool, false);
  rte_mbuf* pkts[16];
  make_frames(pkts, 4, 1);
  EXPECT_EQ(fi.apply(pkts, 4, 16, 100), 0) << "all held";
  EXPECT_EQ(fi.counts().reordered, 4u);
  EXPECT_EQ(pool_free(), full_ - 4) << "held, not freed";
  make_frames(pkts, 4, 5);
  ASSERT_EQ(fi.apply(pkts, 4, 16, 100), 4) << "the same tick: reordered frames do not wait for time";
  for (uint16_t i = 0; i < 4; ++i) EXPECT_EQ(id_of(pkts[i]), 1u + i);
  free_all(pkts, 4);
  ASSERT_EQ(fi.apply(pkts, 0, 16, 101), 4);
  for (uint16_t i = 0; i < 4; ++i) EXPECT_EQ(id_of(pkts[i]), 5u + i);
  free_all(pkts, 4);
  EXPECT_EQ(fi.counts().reordered, 8u);
  EXPECT_EQ(fi.counts().seen, 8u);
}

TEST_F(FaultInjectorTest, PartialReorderMovesFramesBehindLaterOnes) {
  // reorder=0.5, nothing else: a frame comes out in its own call or in the
  // next one, before that call's own frames.
  FaultInjector fi(spec_of("reorder=0.5"), 11, 0, g_pool, false);
  std::map<uint32_t, unsigned> out_call;  // id -> call it came out in
  std::vector<uint32_t> order;
  rte_mbuf* pkts[32];
  for (unsigned call = 0; call <= 10; ++call) {
    const uint16_t n = call < 10 ? 16 : 0;
    make_frames(pkts, n, 100 * call);
    const uint16_t k = fi.apply(pkts, n, 32, 1000 + call);
    for (uint16_t i = 0; i < k; ++i) {
      EXPECT_EQ(out_call.count(id_of(pkts[i])), 0u) << "twice: " << id_of(pkts[i]);
      out_call[id_of(pkts[i])] = call;
      order.push_back(id_of(pkts[i]));
    }
    free_all(pkts, k);
  }
  ASSERT_EQ(out_call.size(), 160u) << "every frame exactly once";
  unsigned late = 0;
  for (const auto& [id, call] : out_call) {
    const unsigned in_call = id / 100;
    EXPECT_TRUE(call == in_call || call == in_call + 1) << id;
    late += call == in_call + 1;
  }
  EXPECT_EQ(late, fi.counts().reordered);
  EXPECT_GT(late, 0u);
  EXPECT_LT(late, 160u);
  bool some_out_of_order = false;
  for (size_t i = 1; i < order.size(); ++i) some_out_of_order |= order[i] < order[i - 1];
  EXPECT_TRUE(some_out_of_order);
}

TEST_F(FaultInjectorTest, DelayHoldsFramesForDelayTicks) {
  FaultInjector fi(spec_of("delay=1"), 7, 1000, g_pool, false);
  rte_mbuf* pkts[16];
  make_frames(pkts, 4, 1);
  EXPECT_EQ(fi.apply(pkts, 4, 16, 5000), 0);
  EXPECT_EQ(fi.counts().delayed, 4u);
  make_frames(pkts, 2, 11);
  EXPECT_EQ(fi.apply(pkts, 2, 16, 5500), 0);  // due at 6500
  EXPECT_EQ(fi.apply(pkts, 0, 16, 5999), 0) << "not before 5000 + 1000";
  ASSERT_EQ(fi.apply(pkts, 0, 16, 6001), 4) << "the first four are due";
  for (uint16_t i = 0; i < 4; ++i) EXPECT_EQ(id_of(pkts[i]), 1u + i);
  free_all(pkts, 4);
  EXPECT_EQ(fi.apply(pkts, 0, 16, 6499), 0);
  ASSERT_EQ(fi.apply(pkts, 0, 16, 6501), 2);
  EXPECT_EQ(id_of(pkts[0]), 11u);
  EXPECT_EQ(id_of(pkts[1]), 12u);
  free_all(pkts, 2);
  EXPECT_EQ(fi.counts().delayed, 6u);
  EXPECT_EQ(fi.counts().seen, 6u);
}

// "release_tsc 0: release on the next call (reorder)": a reordered frame
// must not wait behind a delayed one. Disabled: it fails today (see the
// report) - held_ is one FIFO released only from its front, so a delayed
// frame at the front keeps every reordered frame behind it until it is due.
TEST_F(FaultInjectorTest, ReorderedFramesDoNotWaitBehindDelayedOnes) {
  FaultInjector fi(spec_of("reorder=0.5,delay=1"), 7, 1'000'000, g_pool, false);
  rte_mbuf* pkts[32];
  make_frames(pkts, 16, 1);
  ASSERT_EQ(fi.apply(pkts, 16, 32, 100), 0) << "every frame is either reordered or delayed";
  ASSERT_EQ(fi.counts().reordered + fi.counts().delayed, 16u);
  ASSERT_GT(fi.counts().reordered, 0u);
  ASSERT_GT(fi.counts().delayed, 0u);
  const uint16_t k = fi.apply(pkts, 0, 32, 101);
  EXPECT_EQ(k, fi.counts().reordered) << "the reordered frames are due on the next call";
  free_all(pkts, k);
}

// Exactly one bit differs between a and b, at or after wire::kHeaderOffset.
void expect_one_bit_flipped_in_header_or_payload(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  ASSERT_EQ(a.size(), b.size());
  unsigned bits = 0;
  size_t first = a.size();
  for (size_t j = 0; j < a.size(); ++j) {
    const unsigned d = std::popcount(static_cast<unsigned>(a[j] ^ b[j]));
    if (d != 0 && first == a.size()) first = j;
    bits += d;
  }
  EXPECT_EQ(bits, 1u);
  EXPECT_GE(first, wire::kHeaderOffset);
}

TEST_F(FaultInjectorTest, CorruptFlipsExactlyOneBitAfterTheUdpHeader) {
  FaultInjector fi(spec_of("corrupt=1"), 7, 0, g_pool, false);
  std::map<size_t, unsigned> where;  // byte offsets hit
  rte_mbuf* pkts[16];
  for (uint32_t call = 0; call < 8; ++call) {
    make_frames(pkts, 16, 16 * call);
    rte_mbuf* in[16];
    std::memcpy(in, pkts, sizeof in);
    ASSERT_EQ(fi.apply(pkts, 16, 16, 100), 16);
    for (uint16_t i = 0; i < 16; ++i) {
      EXPECT_EQ(pkts[i], in[i]) << "in place without copy_on_corrupt";
      const std::vector<uint8_t> want = expected_bytes(16 * call + i, 120);
      const std::vector<uint8_t> got = bytes_of(pkts[i]);
      expect_one_bit_flipped_in_header_or_payload(want, got);
      for (size_t j = 0; j < got.size(); ++j)
        if (got[j] != want[j]) ++where[j];
    }
    free_all(pkts, 16);
  }
  EXPECT_EQ(fi.counts().corrupted, 128u);
  EXPECT_GT(where.size(), 10u) << "the bit lands in different places";
}

TEST_F(FaultInjectorTest, CorruptOneByteSpanHitsByte42) {
  FaultInjector fi(spec_of("corrupt=1"), 3, 0, g_pool, false);
  rte_mbuf* m = make_frame(5, wire::kHeaderOffset + 1);
  ASSERT_NE(m, nullptr);
  rte_mbuf* pkts[1] = {m};
  ASSERT_EQ(fi.apply(pkts, 1, 1, 0), 1);
  const std::vector<uint8_t> want = expected_bytes(5, wire::kHeaderOffset + 1);
  const std::vector<uint8_t> got = bytes_of(pkts[0]);
  expect_one_bit_flipped_in_header_or_payload(want, got);
  EXPECT_NE(got[wire::kHeaderOffset], want[wire::kHeaderOffset]);
  rte_pktmbuf_free(pkts[0]);
}

TEST_F(FaultInjectorTest, CorruptNeverTouchesAFrameWithoutHeader) {
  FaultInjector fi(spec_of("corrupt=1"), 3, 0, g_pool, false);
  rte_mbuf* m = make_frame(5, wire::kHeaderOffset);
  ASSERT_NE(m, nullptr);
  rte_mbuf* pkts[1] = {m};
  ASSERT_EQ(fi.apply(pkts, 1, 1, 0), 1);
  EXPECT_EQ(bytes_of(pkts[0]), expected_bytes(5, wire::kHeaderOffset));
  rte_pktmbuf_free(pkts[0]);
}

TEST_F(FaultInjectorTest, CopyOnCorruptLeavesTheOriginalIntact) {
  FaultInjector fi(spec_of("corrupt=1"), 9, 0, g_pool, true);
  rte_mbuf* pkts[8];
  make_frames(pkts, 8, 1);
  rte_mbuf* orig[8];
  for (uint16_t i = 0; i < 8; ++i) {
    orig[i] = pkts[i];
    rte_mbuf_refcnt_update(orig[i], 1);  // the sender's reference, kept for retransmission
  }
  ASSERT_EQ(fi.apply(pkts, 8, 8, 100), 8);
  for (uint16_t i = 0; i < 8; ++i) {
    EXPECT_NE(pkts[i], orig[i]) << "a corrupted copy goes out";
    EXPECT_EQ(bytes_of(orig[i]), expected_bytes(i + 1, 120)) << "the kept frame is intact";
    EXPECT_EQ(rte_mbuf_refcnt_read(orig[i]), 1u) << "the caller's reference moved to the copy";
    expect_one_bit_flipped_in_header_or_payload(expected_bytes(i + 1, 120), bytes_of(pkts[i]));
  }
  EXPECT_EQ(fi.counts().corrupted, 8u);
  free_all(pkts, 8);
  free_all(orig, 8);
}

TEST_F(FaultInjectorTest, CopyOnCorruptWithoutAnotherReferenceFreesTheOriginal) {
  FaultInjector fi(spec_of("corrupt=1"), 9, 0, g_pool, true);
  rte_mbuf* pkts[4];
  make_frames(pkts, 4, 1);
  ASSERT_EQ(fi.apply(pkts, 4, 4, 100), 4);
  EXPECT_EQ(pool_free(), full_ - 4) << "4 copies out, 4 originals back in the pool";
  free_all(pkts, 4);
}

// What one injector did to a stream of frames: per call, the ids and bytes out.
struct Trace {
  std::vector<std::vector<std::pair<uint32_t, std::vector<uint8_t>>>> calls;
  FaultCounts counts;
};

Trace run_stream(uint64_t seed, const FaultSpec& spec) {
  FaultInjector fi(spec, seed, 50, g_pool, false);
  Trace t;
  rte_mbuf* pkts[64];
  for (unsigned call = 0; call < 30; ++call) {
    const uint16_t n = call < 20 ? 16 : 0;
    make_frames(pkts, n, 100 * call);
    const uint16_t k = fi.apply(pkts, n, 64, 1000 + 10 * call);
    t.calls.emplace_back();
    for (uint16_t i = 0; i < k; ++i) t.calls.back().emplace_back(id_of(pkts[i]), bytes_of(pkts[i]));
    free_all(pkts, k);
  }
  t.counts = fi.counts();
  return t;
}

TEST_F(FaultInjectorTest, SameSeedSameDecisionsOtherSeedOtherDecisions) {
  const FaultSpec spec = spec_of("drop=0.2,dup=0.2,reorder=0.2,corrupt=0.2,delay=0.2");
  const Trace a = run_stream(42, spec);
  const Trace b = run_stream(42, spec);
  const Trace c = run_stream(43, spec);
  EXPECT_EQ(a.calls, b.calls) << "same seed: same frames, same calls, same bits flipped";
  EXPECT_EQ(a.counts.dropped, b.counts.dropped);
  EXPECT_EQ(a.counts.duplicated, b.counts.duplicated);
  EXPECT_EQ(a.counts.reordered, b.counts.reordered);
  EXPECT_EQ(a.counts.corrupted, b.counts.corrupted);
  EXPECT_EQ(a.counts.delayed, b.counts.delayed);
  EXPECT_NE(a.calls, c.calls) << "another seed: other decisions";
  EXPECT_EQ(c.counts.seen, 320u);
}

TEST_F(FaultInjectorTest, CountsMatchWhatHappened) {
  // Everything at once over 320 frames, then drain. Every frame that is not
  // dropped comes out (once, or twice if duplicated); corrupted ones differ
  // by one bit (copies of a corrupted frame too); held ones come out late.
  const FaultSpec spec = spec_of("drop=0.2,dup=0.2,reorder=0.2,corrupt=0.2,delay=0.2");
  const Trace t = run_stream(5, spec);
  std::map<uint32_t, unsigned> times;
  std::map<uint32_t, unsigned> first_call;
  std::map<uint32_t, bool> corrupted;
  uint64_t out = 0;
  for (unsigned call = 0; call < t.calls.size(); ++call) {
    for (const auto& [id, bytes] : t.calls[call]) {
      ++out;
      if (times[id]++ == 0) first_call[id] = call;
      const bool differs = bytes != expected_bytes(id, 120);
      if (times[id] == 2) {
        EXPECT_EQ(differs, corrupted[id]) << "a duplicate carries the same bytes: " << id;
      }
      corrupted[id] = differs;
      if (differs) expect_one_bit_flipped_in_header_or_payload(expected_bytes(id, 120), bytes);
    }
  }
  const FaultCounts& c = t.counts;
  EXPECT_EQ(c.seen, 320u);
  EXPECT_EQ(out, c.seen - c.dropped + c.duplicated);
  EXPECT_EQ(times.size(), c.seen - c.dropped) << "every surviving frame came out";
  uint64_t twice = 0, late = 0, bad = 0;
  for (const auto& [id, n] : times) {
    EXPECT_LE(n, 2u) << id;
    twice += n == 2;
    late += first_call[id] > id / 100;
    bad += corrupted[id];
  }
  EXPECT_EQ(twice, c.duplicated);
  EXPECT_EQ(late, c.reordered + c.delayed) << "held frames, and only they, came out in a later call";
  EXPECT_EQ(bad, c.corrupted);
  // Each kind actually happened (p = 0.2 over 320 frames).
  EXPECT_GT(c.dropped, 0u);
  EXPECT_GT(c.duplicated, 0u);
  EXPECT_GT(c.reordered, 0u);
  EXPECT_GT(c.corrupted, 0u);
  EXPECT_GT(c.delayed, 0u);
}

TEST_F(FaultInjectorTest, DestroyingTheInjectorFreesHeldFrames) {
  {
    FaultInjector reorder(spec_of("reorder=1"), 1, 0, g_pool, false);
    FaultInjector delay(spec_of("delay=1"), 1, 1'000'000, g_pool, false);
    rte_mbuf* pkts[16];
    make_frames(pkts, 10, 1);
    ASSERT_EQ(reorder.apply(pkts, 10, 16, 5), 0);
    make_frames(pkts, 12, 100);
    ASSERT_EQ(delay.apply(pkts, 12, 16, 5), 0);
    ASSERT_EQ(pool_free(), full_ - 22);
  }
  EXPECT_EQ(pool_free(), full_);
}

// ---- TxPort (reliability/tx_port.h): one rule for "sent" ----
//
// A fake port that takes at most `room` frames per burst, records their ids
// and frees them (as a PMD does once they are on the wire).
struct FakePort {
  uint16_t room = 64;
  std::vector<uint32_t> wire;
  static uint16_t burst(void* ctx, unsigned, rte_mbuf** tx, uint16_t n) {
    FakePort* p = static_cast<FakePort*>(ctx);
    const uint16_t k = n < p->room ? n : p->room;
    for (uint16_t i = 0; i < k; ++i) {
      p->wire.push_back(id_of(tx[i]));
      rte_pktmbuf_free(tx[i]);
    }
    return k;
  }
};

std::unique_ptr<FaultInjector> no_faults() {
  return std::make_unique<FaultInjector>(FaultSpec{}, 1, 0, g_pool, true);
}

// The transport's use for window frames: the window keeps one reference,
// the port gets another; the caller drops the port's reference of every
// frame not taken. Returns the count send() said was taken.
uint16_t send_window_frames(TxPort& port, rte_mbuf** tx, uint16_t n) {
  for (uint16_t i = 0; i < n; ++i) rte_mbuf_refcnt_update(tx[i], 1);
  const uint16_t r = port.send(tx, n, 0);
  for (uint16_t i = r; i < n; ++i) rte_mbuf_refcnt_update(tx[i], -1);
  return r;
}

class TxPortTest : public testing::Test {
 protected:
  void SetUp() override { full_ = pool_free(); }
  unsigned full_ = 0;
};

TEST_F(TxPortTest, WithAndWithoutAnInjectorTheSameFramesLeaveAndNoneLeak) {
  for (const bool injector : {false, true}) {
    SCOPED_TRACE(injector ? "with a (faultless) injector" : "without an injector");
    FakePort fp;
    TxPort port(0, FakePort::burst, &fp, injector ? no_faults() : nullptr);
    rte_mbuf* tx[8];
    make_frames(tx, 8, 1);
    // Window frames: all taken, the port's references gone, the window's left.
    EXPECT_EQ(send_window_frames(port, tx, 8), 8);
    EXPECT_EQ(fp.wire, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8}));
    for (rte_mbuf* m : tx) EXPECT_EQ(rte_mbuf_refcnt_read(m), 1);
    free_all(tx, 8);
    // Control frames (the caller's only reference): taken means gone.
    rte_mbuf* ack = make_frame(100);
    EXPECT_EQ(port.send(&ack, 1, 0), 1);
    EXPECT_EQ(fp.wire.back(), 100u);
    EXPECT_EQ(port.wire_lost(), 0u);
    EXPECT_EQ(pool_free(), full_);
  }
}

TEST_F(TxPortTest, FullPortWithoutInjectorReturnsTheRestUntouched) {
  FakePort fp;
  fp.room = 3;
  TxPort port(0, FakePort::burst, &fp, nullptr);
  rte_mbuf* tx[8];
  make_frames(tx, 8, 1);
  EXPECT_EQ(send_window_frames(port, tx, 8), 3) << "sent = what the port took";
  EXPECT_EQ(fp.wire, (std::vector<uint32_t>{1, 2, 3}));
  for (uint16_t i = 0; i < 8; ++i) EXPECT_EQ(rte_mbuf_refcnt_read(tx[i]), 1) << i;
  for (uint16_t i = 3; i < 8; ++i) EXPECT_EQ(id_of(tx[i]), i + 1u) << "not taken: the caller's, unchanged";
  EXPECT_EQ(port.wire_lost(), 0u);
  free_all(tx, 8);
  // A control frame the port cannot take stays the caller's.
  fp.room = 0;
  rte_mbuf* ack = make_frame(100);
  EXPECT_EQ(port.send(&ack, 1, 0), 0);
  EXPECT_EQ(rte_mbuf_refcnt_read(ack), 1);
  rte_pktmbuf_free(ack);
  EXPECT_EQ(pool_free(), full_);
}

TEST_F(TxPortTest, WithInjectorEverythingHandedOverIsSentAndWhatThePortRefusesIsAWireLoss) {
  FakePort fp;
  fp.room = 3;
  TxPort port(0, FakePort::burst, &fp, no_faults());
  rte_mbuf* tx[8];
  make_frames(tx, 8, 1);
  EXPECT_EQ(send_window_frames(port, tx, 8), 8) << "the injector (the wire) took them all";
  EXPECT_EQ(fp.wire, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(port.wire_lost(), 5u);
  for (rte_mbuf* m : tx) EXPECT_EQ(rte_mbuf_refcnt_read(m), 1) << "the window's reference only";
  free_all(tx, 8);
  EXPECT_EQ(pool_free(), full_);
}

TEST_F(TxPortTest, DroppedAndHeldFramesAreTakenAndFlushedLater) {
  FakePort fp;
  FaultSpec drop;
  drop.drop = 1.0;
  TxPort dropper(0, FakePort::burst, &fp, std::make_unique<FaultInjector>(drop, 1, 0, g_pool, true));
  rte_mbuf* tx[4];
  make_frames(tx, 4, 1);
  EXPECT_EQ(dropper.send(tx, 4, 0), 4);
  EXPECT_TRUE(fp.wire.empty());
  EXPECT_EQ(pool_free(), full_);

  FaultSpec delay;
  delay.delay = 1.0;
  TxPort holder(0, FakePort::burst, &fp, std::make_unique<FaultInjector>(delay, 1, 10, g_pool, true));
  make_frames(tx, 4, 1);
  EXPECT_EQ(holder.send(tx, 4, 0), 4);
  EXPECT_TRUE(fp.wire.empty());
  holder.flush(5);
  EXPECT_TRUE(fp.wire.empty()) << "not due yet";
  holder.flush(10);
  EXPECT_EQ(fp.wire, (std::vector<uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ(pool_free(), full_);
}

}  // namespace
}  // namespace wg

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (!wg::test::init_test_eal("test_fault_injector", "wg_test_fault", 256)) return 1;
  // No per-lcore cache: rte_mempool_avail_count() is then exact.
  wg::g_pool = rte_pktmbuf_pool_create("wg_test_fault", wg::kPoolSize, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
  if (wg::g_pool == nullptr) {
    std::fprintf(stderr, "test_fault_injector: mbuf pool: %s\n", rte_strerror(rte_errno));
    rte_eal_cleanup();
    return 1;
  }
  const int rc = RUN_ALL_TESTS();
  rte_mempool_free(wg::g_pool);
  rte_eal_cleanup();
  return rc;
}
