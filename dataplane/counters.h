// Per-node dataplane counters. Each field has exactly one writer: the lcore
// that runs the role named in its comment.
#pragma once

#include <array>
#include <cstdint>

#include "dataplane/frame.h"

namespace wg {

struct alignas(64) TxCounters {   // sender
  uint64_t frames = 0;
  uint64_t bytes = 0;             // frame bytes (L2, no FCS)
  uint64_t ring_full = 0;         // tx_burst took fewer than offered (back-pressure)
};

struct alignas(64) RxCounters {   // accumulator
  uint64_t frames = 0;
  uint64_t bytes = 0;
  uint64_t data_buckets = 0;
  uint64_t records = 0;
  uint64_t control = 0;
  std::array<uint64_t, static_cast<size_t>(DropReason::kNumReasons)> dropped{};

  void drop(DropReason r) { ++dropped[static_cast<size_t>(r)]; }
  uint64_t total_dropped() const {
    uint64_t t = 0;
    for (size_t i = 1; i < dropped.size(); ++i) t += dropped[i];
    return t;
  }
};

}  // namespace wg
