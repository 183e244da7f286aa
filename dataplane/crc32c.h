// CRC32C (Castagnoli, reflected polynomial 0x82f63b78) as the SSE4.2 crc32
// instruction computes it: the caller passes the initial register value and
// gets the register back, without a final inversion (the running state
// DPDK's rte_hash_crc returns).
//
// crc32c() takes the fastest way the CPU offers (bench/bench_crc.cc measures
// them; docs/DESIGN-NOTES.md, "Checksum"):
//  - with AVX-512 VPCLMULQDQ and 256 bytes or more: folding. Two 64-byte
//    accumulators are multiplied (carry-less, four 128-bit lanes per
//    instruction) by x^(1024 +- 32) mod P and added to the bytes 128 further
//    on, then folded into 128 bits whose CRC is the buffer's;
//  - else, from 192 bytes: three interleaved crc32 chains over three equal
//    blocks (the instruction's throughput, not its 3-cycle latency, bounds
//    the rate), joined by one carry-less multiply each: a register moved
//    past L bytes is its product with x^(8L - 33) mod P, folded by a crc32;
//  - else one chain.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wg {

// The fastest of the ways above.
uint32_t crc32c(const uint8_t* p, size_t n, uint32_t crc);
// Three interleaved chains (one for short buffers), whatever the CPU: the
// way without AVX-512, measured and tested on its own.
uint32_t crc32c_interleaved(const uint8_t* p, size_t n, uint32_t crc);
// One chain, 8 bytes per step: short buffers, the tails, and the benchmark's
// baseline (the implementation before the interleaved one).
uint32_t crc32c_serial(const uint8_t* p, size_t n, uint32_t crc);

}  // namespace wg
