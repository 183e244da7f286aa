// Single-source shortest paths (Bellman-Ford style, sparse supersteps):
// distance = sum of integer weights; UINT32_MAX ("inf") when unreachable.
//
// Distances travel as 4-byte messages, so the largest distance is
// kMaxDistance = 2^32 - 3. A path longer than that is not saturated silently:
// its messages carry kOverflow (2^32 - 2, still below infinity, so the vertex
// counts as reached and min keeps any shorter path found later), the
// aggregate counts the vertices left holding it, and when the run would end
// with any of them next() throws DistanceOverflow naming how many. Only the
// final values count: a vertex first reached by an overflowing path and later
// by a short one ends exact.
#pragma once

#include <stdexcept>
#include <string>

#include "apps/min_label.h"

namespace wg {

class DistanceOverflow : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

class Sssp : public MinLabelBase {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "sssp",
      .summary = "single-source shortest paths from --source (sum of integer weights, at most 2^32-3)",
      .uses_source = true,
      .graph = {.weights = true},
      .output = "distance, or inf when unreachable",
      .value_kind = ValueKind::kDistance,
  };
  static constexpr uint32_t kOverflow = kInfinity - 1;
  static constexpr uint32_t kMaxDistance = kInfinity - 2;
  using Aggregate = uint64_t;  // vertices whose distance overflowed

  static Sssp make(const ProgramParams& p, VertexId) { return Sssp(static_cast<VertexId>(p.source)); }
  explicit Sssp(VertexId source) : source_(source) {}

  bool init(Value& y, const VertexInfo& v) const {
    y = v.id == source_ ? 0 : kInfinity;
    return v.id == source_;
  }
  static Message edge_message(Message sv, Weight w) {
    const uint64_t d = uint64_t{sv} + w;
    return d > kMaxDistance ? kOverflow : static_cast<Message>(d);
  }
  void aggregate(const Value& y, const VertexInfo&, Aggregate& into) const { into += y == kOverflow; }
  static void merge(Aggregate& into, const Aggregate& from) { into += from; }
  // Every node sees the same figures, so every node throws the same error.
  Decision next(const StepOutcome<Aggregate>& done) const {
    if (done.active == 0 && done.aggregate > 0)
      throw DistanceOverflow("sssp: " + std::to_string(done.aggregate) +
                             (done.aggregate == 1 ? " vertex is" : " vertices are") + " farther than " +
                             std::to_string(kMaxDistance) + " (2^32-3, the largest distance a 4-byte message " +
                             "carries) from source " + std::to_string(source_) +
                             "; no result is written: scale the weights down");
    return {done.active == 0, done.phase};
  }

 private:
  VertexId source_;
};

static_assert(VertexProgram<Sssp>);

}  // namespace wg
