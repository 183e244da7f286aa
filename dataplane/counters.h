// Dataplane counters, one set per queue (Dataplane::tx_q, rx_q). Each field
// has exactly one writer: the lcore that runs the role named in its comment,
// for that queue.
#pragma once

#include <array>
#include <cstdint>

#include "dataplane/frame.h"

namespace wg {

struct alignas(64) TxCounters {   // sender
  uint64_t frames = 0;
  uint64_t bytes = 0;             // frame bytes (L2, no FCS)
  uint64_t ring_full = 0;         // tx_burst took fewer than offered (back-pressure)
  TxCounters& operator+=(const TxCounters& o) {
    frames += o.frames;
    bytes += o.bytes;
    ring_full += o.ring_full;
    return *this;
  }
};

struct alignas(64) RxCounters {   // accumulator
  uint64_t frames = 0;
  uint64_t bytes = 0;
  uint64_t data_buckets = 0;
  uint64_t records = 0;
  uint64_t control = 0;
  uint64_t handed_over = 0;       // arrived on this queue, belonged to another: handed to its accumulator
  std::array<uint64_t, static_cast<size_t>(DropReason::kNumReasons)> dropped{};

  void drop(DropReason r) { ++dropped[static_cast<size_t>(r)]; }
  RxCounters& operator+=(const RxCounters& o) {
    frames += o.frames;
    bytes += o.bytes;
    data_buckets += o.data_buckets;
    records += o.records;
    control += o.control;
    handed_over += o.handed_over;
    for (size_t i = 0; i < dropped.size(); ++i) dropped[i] += o.dropped[i];
    return *this;
  }
  uint64_t total_dropped() const {
    uint64_t t = 0;
    for (size_t i = 1; i < dropped.size(); ++i) t += dropped[i];
    return t;
  }
  // Drops a healthy link never gives (drop_is_alarming, dataplane/frame.h).
  uint64_t alarming_dropped() const {
    uint64_t t = 0;
    for (size_t i = 1; i < dropped.size(); ++i) t += drop_is_alarming(static_cast<DropReason>(i)) ? dropped[i] : 0;
    return t;
  }
};

}  // namespace wg
