// The node runtime's settings (compute/runtime.h), as the command line sets
// them (config/options.h embeds this). Free of DPDK, so config/ and tests can
// use it without an EAL.
#pragma once

#include <cstddef>
#include <cstdint>

#include "compute/scatter_mode.h"

namespace wg {

struct EngineOptions {
  double peer_timeout_s = 30.0;     // a peer silent this long is dead
  double hello_timeout_s = 60.0;    // every peer must be discovered within this
  bool quiet = false;               // no per-superstep lines
  unsigned top = 10;                // top vertices reported at the end (0: none)
  bool split_roles = true;          // use every EAL lcore (else all roles on the main lcore)
  double line_rate_gbps = 0;        // for the "% of line rate" in the report; 0: the port's, else 10
  int64_t crash_at_superstep = -1;  // test hook (--crash-node): SIGKILL at this superstep
  ScatterMode scatter = ScatterMode::kAuto;  // --scatter
  size_t segment_bytes = 0;         // --segment-kib x 1024 (0: default_segment_bytes(), the L2)
};

// What every node of one job must agree on, checked by the hello exchange.
struct JobIdentity {
  uint32_t program_id = 0;          // program_id(name), compute/program_traits.h
  uint64_t params_digest = 0;       // program parameters and layout options
  uint64_t graph_fingerprint = 0;   // compute/edge_list.h fingerprint()
};

}  // namespace wg
