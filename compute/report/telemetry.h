// Counters readable while a run goes, through DPDK telemetry
// (`dpdk-telemetry.py -f <file-prefix>`):
//   /wiregraph/stats  - rank, superstep, frames and bytes sent and received,
//                       data buckets and records received, drops
//   /wiregraph/drops  - drops by reason
//   /wiregraph/links  - per peer: N, AST, RTO, frames, retransmissions,
//                       timeouts, stale acks, duplicates received
// The telemetry thread reads counters that the network lcore writes; each is
// a naturally aligned 64-bit integer, so a reader sees a recent value, never
// a torn one (x86-64 and AArch64). Good enough for monitoring, not for the
// report, which is taken on the owning lcore.
#pragma once

#include <atomic>
#include <cstdint>

#include "dataplane/dataplane.h"
#include "reliability/transport.h"

namespace wg {

struct TelemetrySource {
  unsigned rank = 0;
  const Dataplane* dataplane = nullptr;
  const Transport* transport = nullptr;
  const std::atomic<int64_t>* superstep = nullptr;  // the superstep being computed
};

// Registers the commands (once per process) and points them at `src`
// (nullptr detaches, once no command is still reading the old source: the
// commands then answer with an empty dict).
void publish_telemetry(const TelemetrySource* src);

}  // namespace wg
