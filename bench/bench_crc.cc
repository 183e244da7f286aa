// CRC32C of a full bucket, every candidate in the same run: nanoseconds per
// bucket (the 1472 bytes after the UDP header of a 1514-byte frame, at frame
// offset 42 as on the wire), median of the trials.
//
//   serial         the one-chain loop (crc32, 8 bytes at a time): what
//                  bucket_crc did before, the baseline
//   interleaved    dataplane/crc32c.h: three crc32 chains joined by PCLMULQDQ
//   crc32c         dataplane/crc32c.h's choice: AVX-512 VPCLMULQDQ folding
//                  where the CPU has it, else the interleaved chains
//   rte_hash_crc   DPDK 22.11's rte_hash_crc (one chain; DPDK's rte_net_crc
//                  computes CRC32 Ethernet and CRC16, not CRC32C)
//   isal           ISA-L's crc32_iscsi (libisal, which Debian's libdpdk-dev
//                  depends on), when the build found it
//   bucket_crc     the transport's own call (tag field taken as zero)
//   memcpy         copying the bucket: a memory-speed reference
//
// Each candidate's CRC is checked against the serial one before it is timed.
// Candidates run interleaved round by round (the machine is shared), each
// over 256 buckets (376 KiB, in L2) repeated within a round; the ratio is
// taken within each round, then the median.
//
//   build/bench/bench_crc [--trials N] [--json FILE]
#include <rte_hash_crc.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataplane/crc32c.h"
#include "bench/bench_common.h"
#include "dataplane/frame.h"
#include "dataplane/wire.h"

#ifdef WG_HAVE_ISAL
#include <isa-l/crc.h>
#endif

namespace wg {
namespace {

constexpr size_t kBuckets = 256;
constexpr size_t kBucketBytes = wire::kMaxFrameBytes - wire::kHeaderOffset;  // 1472
constexpr unsigned kRepeats = 40;  // passes over the buckets per round

struct Candidate {
  const char* name;
  uint32_t (*crc)(const uint8_t* bucket);  // of one bucket (frame + 42)
};

uint32_t run_serial(const uint8_t* b) { return crc32c_serial(b, kBucketBytes, 0xffffffffu); }
uint32_t run_interleaved(const uint8_t* b) { return crc32c_interleaved(b, kBucketBytes, 0xffffffffu); }
uint32_t run_crc32c(const uint8_t* b) { return crc32c(b, kBucketBytes, 0xffffffffu); }
uint32_t run_rte_hash_crc(const uint8_t* b) { return rte_hash_crc(b, kBucketBytes, 0xffffffffu); }
#ifdef WG_HAVE_ISAL
uint32_t run_isal(const uint8_t* b) {
  return crc32_iscsi(const_cast<uint8_t*>(b), static_cast<int>(kBucketBytes), 0xffffffffu);
}
#endif
uint32_t run_bucket_crc(const uint8_t* b) { return bucket_crc(b - wire::kHeaderOffset, wire::kMaxFrameBytes); }
uint8_t g_sink[kBucketBytes];
uint32_t run_memcpy(const uint8_t* b) {
  std::memcpy(g_sink, b, kBucketBytes);
  asm volatile("" ::"r"(g_sink) : "memory");
  return 0;
}

struct Result {
  std::string name;
  std::vector<double> ns;     // per bucket, per round
  std::vector<double> ratio;  // serial / this, per round
  bool same_crc = true;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int main_crc(int argc, char** argv) {
  unsigned trials = 9;
  std::string json_path;
  if (int status = 0; !bench::parse_trials_and_json(argc, argv, &trials, &json_path, &status)) return status;
  // Frames of random bytes; the buckets start 42 bytes in, as on the wire.
  std::vector<uint8_t> frames(kBuckets * 1536);
  std::mt19937 rng(42);
  for (uint8_t& x : frames) x = static_cast<uint8_t>(rng());
  auto bucket = [&](size_t i) { return frames.data() + i * 1536 + wire::kHeaderOffset; };

  std::vector<Candidate> candidates = {{"serial", run_serial},
                                       {"interleaved", run_interleaved},
                                       {"crc32c", run_crc32c},
                                       {"rte_hash_crc", run_rte_hash_crc},
#ifdef WG_HAVE_ISAL
                                       {"isal", run_isal},
#endif
                                       {"bucket_crc", run_bucket_crc},
                                       {"memcpy", run_memcpy}};
  std::vector<Result> results(candidates.size());
  for (size_t c = 0; c < candidates.size(); ++c) {
    results[c].name = candidates[c].name;
    if (std::strcmp(candidates[c].name, "memcpy") == 0) continue;
    for (size_t i = 0; i < kBuckets; ++i) {
      // bucket_crc takes the tag field as zero: compare it with the serial CRC of the same bytes.
      uint8_t copy[kBucketBytes];
      std::memcpy(copy, bucket(i), kBucketBytes);
      if (candidates[c].crc == run_bucket_crc)
        std::memset(copy + offsetof(wire::BucketHeader, tag), 0, sizeof(wire::BucketHeader::tag));
      results[c].same_crc &= candidates[c].crc(bucket(i)) == run_serial(copy);
    }
  }
  for (unsigned t = 0; t < trials + 1; ++t) {  // round 0 warms up
    std::vector<double> round(candidates.size());
    for (size_t c = 0; c < candidates.size(); ++c) {
      uint32_t acc = 0;
      const auto t0 = std::chrono::steady_clock::now();
      for (unsigned r = 0; r < kRepeats; ++r)
        for (size_t i = 0; i < kBuckets; ++i) acc += candidates[c].crc(bucket(i));
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      asm volatile("" ::"r"(acc));
      round[c] = s * 1e9 / (kRepeats * kBuckets);
    }
    if (t == 0) continue;
    for (size_t c = 0; c < candidates.size(); ++c) {
      results[c].ns.push_back(round[c]);
      results[c].ratio.push_back(round[0] / round[c]);
    }
  }
  std::printf("CRC32C of one %zu-byte bucket, median of %u rounds (min-max), each over %zu buckets x %u\n\n",
              kBucketBytes, trials, kBuckets, kRepeats);
  std::printf("| candidate | ns per bucket | GB/s | x serial | same CRC |\n|---|--:|--:|--:|---|\n");
  nlohmann::ordered_json j;
  j["bucket_bytes"] = kBucketBytes;
  j["trials"] = trials;
  for (const Result& r : results) {
    const double ns = median(r.ns);
    std::printf("| %s | %.1f (%.1f-%.1f) | %.2f | %.2f | %s |\n", r.name.c_str(), ns,
                *std::min_element(r.ns.begin(), r.ns.end()), *std::max_element(r.ns.begin(), r.ns.end()),
                kBucketBytes / ns, median(r.ratio), r.name == "memcpy" ? "-" : r.same_crc ? "yes" : "NO");
    j["candidates"].push_back({{"name", r.name},
                               {"ns_per_bucket", ns},
                               {"ns_all", r.ns},
                               {"gb_per_s", kBucketBytes / ns},
                               {"speedup_vs_serial", median(r.ratio)},
                               {"same_crc", r.same_crc}});
  }
  if (!json_path.empty()) {
    std::ofstream(json_path) << j.dump(2) << '\n';
    std::printf("\nJSON: %s\n", json_path.c_str());
  }
  for (const Result& r : results)
    if (!r.same_crc) return 1;
  return 0;
}

}  // namespace
}  // namespace wg

int main(int argc, char** argv) { return wg::main_crc(argc, argv); }
