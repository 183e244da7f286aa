// CRC32C of a full bucket, every candidate in the same run: nanoseconds per
// bucket (the 1472 bytes after the UDP header of a 1514-byte frame, at frame
// offset 42 as on the wire), median of the trials.
//
//   serial         the one-chain loop (crc32, 8 bytes at a time): what
//                  bucket_crc did before, the baseline
//   interleaved    dataplane/crc32c.h: three crc32 chains joined by PCLMULQDQ
//                  (crc32c()'s choice without VPCLMULQDQ)
//   fold512        folding, AVX-512 VPCLMULQDQ (where the CPU has it)
//   fold256_chains folding with VPCLMULQDQ on AVX2 registers beside three
//                  crc32 chains (where the CPU has VPCLMULQDQ and AVX2)
//   crc32c         dataplane/crc32c.h's choice (printed: the widest fold the
//                  CPU has, else the interleaved chains)
//   rte_hash_crc   DPDK 22.11's rte_hash_crc (one chain; DPDK's rte_net_crc
//                  computes CRC32 Ethernet and CRC16, not CRC32C)
//   isal           ISA-L's crc32_iscsi (libisal, which Debian's libdpdk-dev
//                  depends on), when the build found it
//   bucket_crc     the transport's own call (tag field taken as zero)
//   memcpy         copying the bucket: a memory-speed reference
//
// Each candidate's CRC is checked against the serial one before it is timed.
// Candidates run interleaved round by round (the machine is shared), each
// over 256 buckets (376 KiB, in L2) four times within a round; the ratio is
// taken within each round, then the median. Rounds are short (0.2 ms for the
// one chain) and many, so that on a loaded machine most of them run without
// being descheduled and the median is theirs.
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
constexpr unsigned kRepeats = 4;   // passes over the buckets per round

struct Candidate {
  const char* name;
  uint32_t (*crc)(const uint8_t* bucket);  // of one bucket (frame + 42)
};

uint32_t run_serial(const uint8_t* b) { return crc32c_serial(b, kBucketBytes, 0xffffffffu); }
uint32_t run_interleaved(const uint8_t* b) { return crc32c_interleaved(b, kBucketBytes, 0xffffffffu); }
uint32_t run_fold512(const uint8_t* b) { return crc32c_detail::fold512(b, kBucketBytes, 0xffffffffu); }
uint32_t run_fold256_chains(const uint8_t* b) { return crc32c_detail::fold256_chains(b, kBucketBytes, 0xffffffffu); }
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
  unsigned trials = 201;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--trials" && i + 1 < argc) {
      trials = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      std::printf("usage: %s [--trials N (default 201)] [--json FILE]\n", argv[0]);
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  // Frames of random bytes; the buckets start 42 bytes in, as on the wire.
  std::vector<uint8_t> frames(kBuckets * 1536);
  std::mt19937 rng(42);
  for (uint8_t& x : frames) x = static_cast<uint8_t>(rng());
  auto bucket = [&](size_t i) { return frames.data() + i * 1536 + wire::kHeaderOffset; };

  std::vector<Candidate> candidates = {{"serial", run_serial}, {"interleaved", run_interleaved}};
  if (crc32c_detail::cpu_has_fold512()) candidates.push_back({"fold512", run_fold512});
  if (crc32c_detail::cpu_has_fold256()) candidates.push_back({"fold256_chains", run_fold256_chains});
  candidates.insert(candidates.end(), {{"crc32c", run_crc32c},
                                       {"rte_hash_crc", run_rte_hash_crc},
#ifdef WG_HAVE_ISAL
                                       {"isal", run_isal},
#endif
                                       {"bucket_crc", run_bucket_crc},
                                       {"memcpy", run_memcpy}});
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
  std::printf("CRC32C of one %zu-byte bucket, median of %u rounds (min-max), each over %zu buckets x %u;"
              " crc32c() takes %s here\n\n",
              kBucketBytes, trials, kBuckets, kRepeats, crc32c_detail::way());
  // The fastest round of each: on a loaded machine the rounds that ran
  // undisturbed; the medians there include refilling caches after other
  // processes, which weighs more on the faster candidates.
  const double serial_min = *std::min_element(results[0].ns.begin(), results[0].ns.end());
  std::printf("| candidate | ns per bucket | GB/s | x serial | fastest round: ns, x serial | same CRC |\n"
              "|---|--:|--:|--:|--:|---|\n");
  nlohmann::ordered_json j;
  j["bucket_bytes"] = kBucketBytes;
  j["trials"] = trials;
  j["crc32c_way"] = crc32c_detail::way();
  for (const Result& r : results) {
    const double ns = median(r.ns);
    const double ns_min = *std::min_element(r.ns.begin(), r.ns.end());
    std::printf("| %s | %.1f (%.1f-%.1f) | %.2f | %.2f | %.1f, %.2f | %s |\n", r.name.c_str(), ns, ns_min,
                *std::max_element(r.ns.begin(), r.ns.end()), kBucketBytes / ns, median(r.ratio), ns_min,
                serial_min / ns_min, r.name == "memcpy" ? "-" : r.same_crc ? "yes" : "NO");
    j["candidates"].push_back({{"name", r.name},
                               {"ns_per_bucket", ns},
                               {"ns_min", ns_min},
                               {"ns_all", r.ns},
                               {"gb_per_s", kBucketBytes / ns},
                               {"speedup_vs_serial", median(r.ratio)},
                               {"speedup_vs_serial_fastest", serial_min / ns_min},
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
