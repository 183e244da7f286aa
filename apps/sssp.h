// Single-source shortest paths (Bellman-Ford style, sparse supersteps):
// distance = sum of integer weights; UINT32_MAX ("inf") when unreachable.
// Distances saturate one below infinity: graphs whose shortest paths reach
// 2^32-1 are out of range for 4-byte messages.
#pragma once

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
      .value_kind = ValueKind::kDistance,
  };
  static Sssp make(const ProgramParams& p, VertexId) { return Sssp(static_cast<VertexId>(p.source)); }
  explicit Sssp(VertexId source) : source_(source) {}

  bool init(Value& y, const VertexInfo& v) const {
    y = v.id == source_ ? 0 : kInfinity;
    return v.id == source_;
  }
  static Message edge_message(Message sv, Weight w) {
    const uint64_t d = uint64_t{sv} + w;
    return d >= kInfinity ? kInfinity - 1 : static_cast<Message>(d);
  }

 private:
  VertexId source_;
};

static_assert(VertexProgram<Sssp>);

}  // namespace wg
