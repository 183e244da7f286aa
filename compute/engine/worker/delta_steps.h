// The prioritized mode (delta-stepping SSSP; bucket() and light_below() in
// compute/engine/vertex_program.h): an improved vertex does not scatter at
// once but waits for its bucket (compute/engine/delta_schedule.h); each
// superstep the worker takes its lowest bucket, whose vertices send along
// their light edges, and a bucket once done sends along its heavy edges.
// Bellman-Ford (every improved vertex sends along every edge, every
// superstep) sent 96 M records for GAP's 31 M-edge kron20.
//
// A program that also splits light and heavy edges (light_below()) keeps,
// per active vertex, which of its edges it sends (DeltaSchedule::EdgeClass)
// and a copy of its edges with each source's light edges first
// (compute/engine/light_first.h), so a vertex sending its light edges reads
// only those.
//
// Steps: wait (apply), take (after apply: the superstep's senders),
// take_again (a local round, local_rounds.h), push_light_heavy (a sparse
// superstep, per source), sends_class (a forced dense pull, per in-edge).
// Owner: the worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "compute/engine/blocked_frontier.h"
#include "compute/engine/delta_schedule.h"
#include "compute/engine/dense_block.h"
#include "compute/engine/light_first.h"
#include "compute/engine/vertex_info.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/active_sources.h"
#include "compute/engine/worker/modes.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

template <VertexProgram Prog>
class DeltaSteps {
 public:
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  static constexpr bool kSplitsEdges = WorkerModes<Prog>::kSplitsEdges;

  DeltaSteps(const LocalGraph& g, const WorkerSlice& slice, const Prog& prog) : schedule_(slice.size()) {
    if constexpr (kSplitsEdges) {
      edge_class_.resize(slice.size());
      light_first_.reserve(g.blocks.size());
      for (size_t b = 0; b < g.blocks.size(); ++b)
        light_first_.emplace_back(g.blocks[b], slice.ranges[b].first, slice.ranges[b].second, prog.light_below());
    }
  }

  // Apply: slice vertex rel improved into bucket b; it scatters with its bucket.
  void wait(uint32_t rel, uint64_t b) { schedule_.improved(rel, b); }

  // What take() added to the frontier.
  struct Taken {
    uint64_t vertices = 0;
    uint64_t edges = 0;  // their out-edges
  };

  // After the apply pass: the lowest bucket this worker holds (and the next
  // ones while few vertices were taken) scatters, each vertex along its
  // light edges, or heavy ones once its bucket is done (both, for a vertex
  // taken twice). Its vertices join the frontier with their scatter values.
  Taken take(const Prog& prog, const Value* value, const LocalGraph& g, uint32_t lo, ActiveSources<Message>& active) {
    Frontier& frontier = active.frontier();
    Message* const sv = active.scatter_values();
    Taken taken;
    auto bucket_of = [&](uint32_t rel) { return prog.bucket(value[lo + rel]); };
    auto activate = [&](uint32_t rel) {
      const uint32_t i = lo + rel;
      const VertexInfo v = vertex_info<Prog>(g, i);
      frontier.add(rel);
      ++taken.vertices;
      taken.edges += v.out_degree;
      sv[rel] = prog.scatter_value(value[i], v);
    };
    if constexpr (kSplitsEdges) {
      uint8_t classes_any = 0, classes_all = DeltaSchedule::kAll;  // over the frontier
      auto sender = [&](uint8_t cls) {
        return [&, cls](uint32_t rel) {
          classes_any |= cls;
          if (frontier.contains(rel)) {
            edge_class_[rel] |= cls;
            classes_all = 0;  // two classes for one vertex: not uniform
            return;
          }
          classes_all &= cls;
          edge_class_[rel] = cls;
          activate(rel);
        };
      };
      schedule_.next(bucket_of, sender(DeltaSchedule::kLight), sender(DeltaSchedule::kHeavy));
      uniform_class_ = classes_any == classes_all ? classes_any : 0;
      delta_now_ = prog.light_below();
    } else {
      schedule_.next(bucket_of, activate, [](uint32_t) {});
    }
    return taken;
  }

  // A local round: the vertices that improved into the bucket taken this
  // superstep, by messages applied within it, send along their light edges
  // (DeltaSchedule::again); they join the frontier (reset before). How many.
  uint64_t take_again(const Prog& prog, const Value* value, const LocalGraph& g, uint32_t lo,
                      ActiveSources<Message>& active) {
    Frontier& frontier = active.frontier();
    Message* const sv = active.scatter_values();
    auto bucket_of = [&](uint32_t rel) { return prog.bucket(value[lo + rel]); };
    return schedule_.again(bucket_of, [&](uint32_t rel) {
      const uint32_t i = lo + rel;
      frontier.add(rel);
      sv[rel] = prog.scatter_value(value[i], vertex_info<Prog>(g, i));
      if constexpr (kSplitsEdges) edge_class_[rel] = DeltaSchedule::kLight;
    });
  }

  // Which edges active slice vertex rel sends (DeltaSchedule::EdgeClass; 0
  // when the program does not split them).
  uint8_t edges_of(uint32_t rel) const {
    if constexpr (kSplitsEdges)
      return edge_class_[rel];
    else
      return 0;
  }

  // Sparse, source i of block b (group; first: the slice's first index in
  // its sources): the light or heavy part of its edges, or both.
  template <class Emit>
  void push_light_heavy(unsigned group, const EdgeBlock& b, size_t i, size_t first, const Sending<Message>& sending,
                        Emit& emit) const {
    const LightFirstBlock& lf = light_first_[group];
    const Message sv = sending.value;
    const uint8_t cls = sending.edges;
    const uint64_t start = b.offsets[i] - lf.first_edge, end = b.offsets[i + 1] - lf.first_edge;
    const uint64_t split = start + lf.light[i - first];
    const uint64_t from = cls & DeltaSchedule::kLight ? start : split;
    const uint64_t to = cls & DeltaSchedule::kHeavy ? end : split;
    for (uint64_t e = from; e < to; ++e) emit(lf.targets[e], Prog::edge_message(sv, lf.weights[e]));
  }

  // Dense (forced), in-edge e of db from active slice vertex rel: whether
  // it is of a class rel sends. When every active source sends the same
  // class (the usual case: a light superstep, or a bucket's heavy flush),
  // the class is not looked up per edge (a dense flush of kron20's first
  // buckets cost 178 ms with it).
  bool sends_class(const DenseBlock& db, uint64_t e, uint32_t rel) const {
    if constexpr (kSplitsEdges) {
      const uint8_t cls = uniform_class_ ? uniform_class_ : edge_class_[rel];
      if (cls != DeltaSchedule::kAll) return (db.weights[e] < delta_now_) == (cls == DeltaSchedule::kLight);
    }
    return true;
  }

 private:
  DeltaSchedule schedule_;                    // improved vertices waiting for their bucket
  std::vector<uint8_t> edge_class_;           // kSplitsEdges: which edges each active vertex sends
  std::vector<LightFirstBlock> light_first_;  // kSplitsEdges: per group, this worker's edges, light first
  uint8_t uniform_class_ = 0;                 // kSplitsEdges: the class every active source sends this superstep, or 0
  Weight delta_now_ = 0;                      // kSplitsEdges: edges lighter than this are light
};

}  // namespace wg
