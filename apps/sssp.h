// Single-source shortest paths: distance = sum of integer weights;
// UINT32_MAX ("inf") when unreachable. Distances saturate one below
// infinity: graphs whose shortest paths reach 2^32-1 are out of range for
// 4-byte messages.
//
// Delta-stepping (compute/delta_schedule.h): an improved vertex waits until
// its bucket (distance / delta) is the lowest its worker holds, then sends
// along its light edges (weight < delta); along its heavy ones once that
// bucket is done. Bellman-Ford (every improved vertex sending along every
// edge each superstep) sent 96 M records for the 31 M edges of GAP's kron20.
// delta is an eighth of the mean weight of this node's edges (at least 1):
// 16 for GAP's weights 1..255, where 8, 16 and 32 cost the same CPU and 16
// needs 65 supersteps, 8 103 (docs/DESIGN-NOTES.md). Nodes may differ: the
// bucket width only orders the work, every order gives the same distances.
#pragma once

#include <algorithm>

#include "apps/min_label.h"

namespace wg {

class Sssp : public MinLabelBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "sssp",
      .summary = "single-source shortest paths from --source (sum of integer weights)",
      .uses_source = true,
      .graph = {.weights = true},
      .output = "distance, or inf when unreachable",
  };
  static Sssp make(const ProgramParams& p, VertexId) { return Sssp(static_cast<VertexId>(p.source)); }
  explicit Sssp(VertexId source) : source_(source) {}

  void prepare(const NodeGraphFigures& node) {
    const uint64_t mean = node.out_edges ? node.weight_sum / node.out_edges : 0;
    delta_ = static_cast<uint32_t>(std::clamp<uint64_t>(mean / kDeltaPerMeanWeight, 1, UINT32_MAX));
  }
  uint64_t bucket(const Value& y) const { return y / delta_; }
  Weight light_below() const { return delta_; }

  bool init(Value& y, const VertexInfo& v) const {
    y = v.id == source_ ? 0 : kInfinity;
    return v.id == source_;
  }
  static Message edge_message(Message sv, Weight w) {
    const uint64_t d = uint64_t{sv} + w;
    return d >= kInfinity ? kInfinity - 1 : static_cast<Message>(d);
  }

 private:
  static constexpr uint64_t kDeltaPerMeanWeight = 8;
  VertexId source_;
  uint32_t delta_ = 1;
};

static_assert(VertexProgram<Sssp>);

}  // namespace wg
