// CRC32C (Castagnoli, reflected polynomial 0x82f63b78) as the SSE4.2 crc32
// instruction computes it: the caller passes the initial register value and
// gets the register back, without a final inversion (the running state
// DPDK's rte_hash_crc returns).
//
// crc32c() takes the fastest way the CPU offers, chosen once at run time
// from CPUID (bench/bench_crc.cc measures them; docs/DESIGN-NOTES.md,
// "Checksum"):
//  - with AVX-512 VPCLMULQDQ, from 256 bytes: folding. Two 64-byte
//    accumulators are multiplied (carry-less, four 128-bit lanes per
//    instruction) by x^(1024 +- 32) mod P and added to the bytes 128
//    further on, then folded into 128 bits whose CRC (two crc32) is the
//    buffer's;
//  - with VPCLMULQDQ on AVX2 registers only (AMD Zen 3/4 guests, Intel
//    client cores), from 384 bytes: the same folding with four 32-byte
//    accumulators over about half the buffer while three crc32 chains (as
//    below) run over the other half in the same loop;
//  - else, from 192 bytes: three interleaved crc32 chains over three equal
//    blocks (the instruction's throughput, not its 3-cycle latency, bounds
//    the rate), joined by carry-less multiplies: a register moved past L
//    bytes is the crc32 of its product with x^(8L - 33) mod P, and one
//    crc32 takes the sum of the products;
//  - else one chain.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wg {

// The fastest of the ways above.
uint32_t crc32c(const uint8_t* p, size_t n, uint32_t crc);
// Three interleaved chains (one for short buffers), whatever the CPU: the
// way without VPCLMULQDQ, measured and tested on its own.
uint32_t crc32c_interleaved(const uint8_t* p, size_t n, uint32_t crc);
// One chain, 8 bytes per step: short buffers, the tails, and the benchmark's
// baseline (the implementation before the interleaved one).
uint32_t crc32c_serial(const uint8_t* p, size_t n, uint32_t crc);

// The folding ways on their own, for the tests and the benchmark. Each takes
// any length (below its minimum it hands over to the chains) but runs only
// where its cpu_has_*() says so.
namespace crc32c_detail {
bool cpu_has_fold512();  // AVX-512F and VPCLMULQDQ
bool cpu_has_fold256();  // AVX2 and VPCLMULQDQ
uint32_t fold512(const uint8_t* p, size_t n, uint32_t crc);
uint32_t fold256_chains(const uint8_t* p, size_t n, uint32_t crc);
// The way crc32c() takes on this CPU for long buffers: "fold512",
// "fold256_chains" or "interleaved".
const char* way();
}  // namespace crc32c_detail

}  // namespace wg
