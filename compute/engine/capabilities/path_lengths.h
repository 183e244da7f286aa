// A capability of the vertex-program model: values that are path lengths.
// A program whose ⊕ is Min, whose value only falls, and whose message along
// an edge of weight w carries the sender's value plus at least w (SSSP:
// apps/sssp.h) says so by deriving from PathLengths<Value>. The engine then
// schedules it by delta-stepping (compute/engine/delta_schedule.h, Meyer and
// Sanders 2003; the light/heavy split of GAP's sssp.cc): an improved vertex
// waits until its bucket (value / delta) is the lowest its worker holds,
// sends along its light edges (weight < delta) then, and along its heavy
// ones once its bucket is done. Bellman-Ford (every improved vertex sending
// along every edge each superstep) sent 96 M records for the 31 M edges of
// GAP's kron20.
//
// The engine picks delta, not the program: an eighth of the mean weight of
// this node's edges, at least 1: 16 for GAP's weights 1..255, where 8, 16
// and 32 cost the same CPU and 16 needs 65 supersteps, 8 103
// (docs/DESIGN-NOTES.md). Nodes may differ: the bucket width only orders the
// work, and every order gives the same lengths, which is also why a heavy
// edge (w >= delta) may wait: it cannot lead into the bucket it leaves.
//
// What it supplies are the engine hints of compute/engine/capabilities/hints.h
// (prepare, bucket, light_below), so the worker's prioritized mode
// (worker/delta_steps.h) is what runs; integer weights only (real weights
// have no light-first copy: WorkerModes refuses them together).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "compute/engine/step_info.h"
#include "compute/graph/types.h"

namespace wg {

template <class Value>
class PathLengths {
  static_assert(std::is_unsigned_v<Value>, "delta-stepping buckets integer lengths");

 public:
  // Called once before superstep 0 with this node's figures (engine.h).
  void prepare(const NodeGraphFigures& node) {
    const uint64_t mean = node.out_edges ? node.weight_sum / node.out_edges : 0;
    delta_ = static_cast<Weight>(std::clamp<uint64_t>(mean / kDeltaPerMeanWeight, 1, UINT32_MAX));
  }
  uint64_t bucket(const Value& y) const { return y / delta_; }
  Weight light_below() const { return delta_; }

 private:
  static constexpr uint64_t kDeltaPerMeanWeight = 8;
  Weight delta_ = 1;
};

}  // namespace wg
