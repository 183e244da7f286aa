// The node runtime's settings (compute/engine/superstep_runtime.h), as the command line sets
// them (config/options.h embeds this). Free of DPDK, so config/ and tests can
// use it without an EAL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "compute/engine/scatter_mode.h"

namespace wg {

// --roles: which lcores run workers, senders and accumulators
// (compute/engine/lcore_layout.h). kSplit and kShared choose for themselves;
// kCounts takes the EAL's lcores in order: `workers` (the main lcore first),
// then `senders`, then `accumulators`.
struct RolesSpec {
  enum class Kind : uint8_t { kSplit, kShared, kCounts };
  Kind kind = Kind::kSplit;
  unsigned workers = 0, senders = 0, accumulators = 0;  // kCounts
  static RolesSpec shared() { return RolesSpec{Kind::kShared, 0, 0, 0}; }
  static RolesSpec counts(unsigned w, unsigned s, unsigned a) { return RolesSpec{Kind::kCounts, w, s, a}; }
};

// Σ per accumulation range (compute/engine/range_plan.h) unless --range-kib says:
// chosen from bench_rx_scaling's sweep (docs/design/performance-history.md, "Receive queues"): one
// accumulator lcore folded 317 / 307 / 269 / 217 M records per CPU-second
// with 64 / 256 / 1024 / 4096 KiB ranges. 256 KiB is within 3% of 64 KiB with
// a quarter of the ranges (fuller buckets in sparse supersteps).
inline constexpr uint32_t kDefaultRangeBytes = 256 * 1024;
// ... but only where Σ outgrows the caches: without --range-kib, a job whose
// largest node holds at most this much Σ keeps each node's Σ whole (one range
// per NUMA domain and queue, range_entries_of in compute/engine/range_plan.h;
// so does a program whose every superstep pulls, whatever its Σ). Every
// range is one more (source, block) pair per source to a sparse superstep,
// while folds at random into an L3-resident Σ cost little: on GAP's graphs at
// P=2 (2 MiB and 8 MiB of Σ per node; docs/DESIGN-NOTES.md, "Ranges only past
// the caches") whole Σ took 0.82x (SSSP kron20), 0.70x (SSSP kron22), 0.92x
// and 0.91x (PageRank) the time of 256 KiB ranges. A quarter of this
// machine's 32 MiB L3, like the dense segments (compute/engine/dense_block.h), but
// a constant: every node must derive the same plan, whatever its CPU.
inline constexpr uint64_t kWholeSigmaBytes = 8u << 20;

struct EngineOptions {
  double peer_timeout_s = 30.0;     // a peer silent this long is dead
  double progress_timeout_s = 120.0;  // a superstep receiving nothing this long, peers alive, fails
  double hello_timeout_s = 60.0;    // every peer must be discovered within this
  bool verbose = false;             // --verbose: per-superstep lines, each node's details and totals
  unsigned top = 10;                // top vertices reported at the end (0: none)
  RolesSpec roles;                  // --roles: how the EAL's lcores map to workers, senders, accumulators
  unsigned queues = 1;              // --rx-queues, resolved: receive queues per port (accumulator roles)
  uint32_t range_bytes = 0;         // --range-kib x 1024: Σ per accumulation range (0: range_entries_of's default)
  double line_rate_gbps = 0;        // for the "% of line rate" in the report; 0: the port's, else 10
  int64_t crash_at_superstep = -1;  // test hook (--crash-node R:S): SIGKILL at this superstep
  bool crash_in_load = false;       // test hook (--crash-node R:load): SIGKILL during the edge shuffle
  bool crash_in_checkpoint = false; // test hook (--crash-node R:checkpoint): SIGKILL halfway through its second checkpoint
  ScatterMode scatter = ScatterMode::kAuto;  // --scatter
  size_t segment_bytes = 0;         // --segment-kib x 1024 (0: default_segment_bytes(), a quarter of the L3)
  // --local-rounds: a program that applies early (SSSP) relaxes its worker's
  // own vertices within a superstep. Off by default: fewer supersteps and
  // records, but slower on every configuration measured but one (docs/design/performance-history.md,
  // "Receive queues"; docs/DESIGN-NOTES.md, "SSSP's local rounds").
  bool local_rounds = false;
};

// What every node of one job must agree on, checked by the hello exchange
// before anything is loaded: the program, its parameters, and the input
// (compute/graph/graph_input.h: its kind and format, size and header digest).
struct JobIdentity {
  uint32_t program_id = 0;          // program_id(name), compute/engine/program_traits.h
  uint64_t params_digest = 0;       // program parameters and layout options
  uint32_t input_kind = 0;          // GraphInput kind << 8 | format
  uint64_t input_size = 0;          // file bytes, or generated/held edges
  uint64_t input_digest = 0;        // the header's hash, the generator's spec, ...
  // "file of 1234 bytes (edgelist)": for the hello's mismatch message
  std::string (*describe_input)(uint32_t kind, uint64_t size, uint64_t digest) = nullptr;
  // "bfs" for program_id("bfs"): errors name programs, not their ids; empty: ids
  std::function<std::string(uint32_t program_id)> name_program;
};

}  // namespace wg
