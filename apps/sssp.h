// Single-source shortest paths: distance = sum of integer weights;
// UINT32_MAX ("inf") when unreachable.
//
// Distances are path lengths (compute/engine/capabilities/path_lengths.h), so
// the engine runs it by delta-stepping: an improved vertex waits for its
// bucket, sends along its light edges then and its heavy ones once the
// bucket is done, with a bucket width the engine picks from each node's
// weights.
//
// Distances travel as 4-byte messages, so the largest distance is
// kMaxDistance = 2^32 - 3. A path longer than that is not saturated silently:
// its messages carry kOverflow (2^32 - 2, still below infinity, so the vertex
// counts as reached and min keeps any shorter path found later). When the
// relaxation ends, one more superstep (kCount) applies every vertex, not
// only those a message reached, so that the aggregate counts all vertices
// left holding the marker; with any of them next() throws DistanceOverflow
// naming how many. Only the final values count: a vertex first reached by an
// overflowing path and later by a short one ends exact.
#pragma once

#include <algorithm>
#include <functional>
#include <queue>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "apps/min_label.h"
#include "compute/engine/capabilities/path_lengths.h"
#include "compute/engine/oracle.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/program_model.h"

namespace wg {

class DistanceOverflow : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

class RealSssp;

class Sssp : public MinLabelBase, public PathLengths<uint32_t> {
 public:
  static constexpr ProgramTraits kTraits{
      .name = "sssp",
      .summary = "single-source shortest paths from --source (sum of integer weights, at most 2^32-3; "
                 "real weights with --precision double or auto)",
      .uses_source = true,
      .uses_precision = true,
      .graphalytics = {.algorithm = "sssp", .source = "source-vertex"},
      .graph = {.weights = true},
      .output = "distance, or inf when unreachable",
      .value_column = "distance",
      .value_kind = ValueKind::kDistance,
      .comparison = Comparison::kDistance,
      .invariant = "distance(v) <= distance(u) + weight(u, v)",
  };
  enum Phase : uint32_t { kRelax = 0, kCount = 1 };
  static constexpr uint32_t kOverflow = kInfinity - 1;
  static constexpr uint32_t kMaxDistance = kInfinity - 2;
  using Aggregate = uint64_t;  // vertices whose distance overflowed
  // What --precision double runs instead (apps/program_list.h): real weights and distances.
  using DoublePrecisionTwin = RealSssp;  // apps/sssp_real.h

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
  // Relaxing, apply runs only where a message arrived (an unreached or
  // settled vertex is not visited); the count visits every vertex.
  static constexpr bool applies_only_with_messages(uint32_t phase) { return phase == kRelax; }
  // A worker applies its own vertices' messages within the superstep and
  // relaxes its current bucket locally until it settles (local rounds,
  // compute/engine/worker.h): exact, since any order of relaxations gives the
  // same distances; the relaxation's aggregate is not read (next() below).
  static constexpr bool applies_early(uint32_t phase) { return phase == kRelax; }
  void aggregate(const Value& y, const VertexInfo&, Aggregate& into) const { into += y == kOverflow; }

  // The end-of-run summary (compute/engine/summary_stats.h): vertices
  // reached, the largest distance (an overflow ends the run before it).
  using Summary = ReachSummary;
  static Summary summarize(std::span<const Value> distances, const LocalGraph&) {
    return reach_of(distances, [](Value y) { return y != kInfinity; }, [](Value y) { return y; });
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    return describe_reach(total_reach(nodes), c, "largest finite distance", true);
  }
  static void merge(Aggregate& into, const Aggregate& from) { into += from; }
  // Every node sees the same figures, so every node throws the same error.
  Decision next(const StepOutcome<Aggregate>& done) const {
    if (done.phase == kRelax) return {false, done.active == 0 ? kCount : kRelax};
    if (done.aggregate > 0)
      throw DistanceOverflow("sssp: " + std::to_string(done.aggregate) +
                             (done.aggregate == 1 ? " vertex is" : " vertices are") + " farther than " +
                             std::to_string(kMaxDistance) + " (2^32-3, the largest distance a 4-byte message " +
                             "carries) from source " + std::to_string(source_) +
                             "; no result is written: scale the weights down");
    return {true, kCount};
  }

  static OracleValues reference(const EdgeList& input, const ProgramParams& p);
  // --verify's check along an edge u->v where the whole graph does not fit.
  static bool holds_along(Value u, Value v, Weight w) {
    return u == kInfinity || uint64_t{v} <= uint64_t{u} + w;
  }

 private:
  VertexId source_;
};

WG_PROGRAM(Sssp);

// ---- the oracle ----------------------------------------------------------------

namespace oracle {

// Dijkstra over the directed edges: D = uint64_t sums the integer weights
// (no overflow: < 2^32 weights on < 2^32 edges), D = double the real ones
// where the input has them (apps/sssp_real.h). `unreachable` where no path
// leads. Throws std::invalid_argument when source >= V.
template <class D>
std::vector<D> shortest_paths(const EdgeList& g, VertexId source, D unreachable) {
  check_source(g, source);
  const Adjacency<D> adj = out_arcs<D>(g);
  std::vector<D> dist(g.num_vertices, unreachable);
  // Lazy-deletion Dijkstra: stale heap entries are skipped when popped.
  using Entry = std::pair<D, VertexId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  dist[source] = 0;
  heap.emplace(D{0}, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (const Arc<D>& a : adj[u]) {
      const D candidate = d + a.weight;
      if (candidate < dist[a.dst]) {
        dist[a.dst] = candidate;
        heap.emplace(candidate, a.dst);
      }
    }
  }
  return dist;
}

inline std::vector<uint64_t> sssp(const EdgeList& g, VertexId source) {
  return shortest_paths<uint64_t>(g, source, kUnreachable);
}

}  // namespace oracle

inline OracleValues Sssp::reference(const EdgeList& input, const ProgramParams& p) {
  return {.integers = oracle::sssp(input, static_cast<VertexId>(p.source)), .reals = {}};
}

}  // namespace wg

#include "apps/sssp_real.h"  // the DoublePrecisionTwin
