// Local clustering coefficient (apps/lcc.h) as message passing: its own
// driver of the runtime (compute/engine/program_driver.h), since a vertex needs its
// neighbours' neighbour lists, which no per-vertex ⊕ or fixed-size value can
// carry.
//
// LCC(v) = sum over u in N(v) of |N(v) ∩ N_out(u)| / (d (d - 1)), d = |N(v)|,
// N(v) = in- and out-neighbours, each once; 0 when d < 2 (Graphalytics
// specification, "Local Clustering Coefficient"). The numerator counts the
// directed edges between v's neighbours, so it is a sum over the triangles
// {v, u, w} of the undirected simple graph of m(u, w), the number of directed
// edges between u and w (1 or 2). Triangles are found once each by the
// forward algorithm (Schank and Wagner 2005; Latapy 2008): order vertices by
// (degree, id); a vertex u sends to each higher neighbour a the higher
// neighbours w of u ranked above a, and a checks w against its own higher
// neighbours; a hit credits u with m(a, w), a with m(u, w) and w with m(u, a).
//
// Supersteps (records of 20 bytes, addressed by global vertex id):
//   0  every out-edge u -> x tells x's owner "u is an in-neighbour of x"
//   1  x tells u's owner "x is an out-neighbour of u"
//   2  every vertex builds N(v) with direction flags and sends its degree to
//      every neighbour
//   3  every vertex keeps its higher neighbours N+(v) (sorted by id, with
//      flags); nothing is sent, so that N+ exists wherever superstep 4's
//      records are folded
//   4  the wedges: for every u and every pair a < w in N+(u), (a, u, w,
//      m(u, w)) to a's owner, which checks w in N+(a) as the record arrives
//      (no record is kept) and adds the credits into a per-node array
//   5  every non-zero credit to the owner of its vertex
// Memory per node: the neighbour lists, 9 bytes per entry (id, flags,
// neighbour degree) and 5 more per higher neighbour, for 2 |E| / P entries on
// average; while N+ is built (superstep 3) the degree records of superstep 2
// are still held, 20 bytes per entry (before that, superstep 2's 12-byte
// pairs, fewer); the credits, 8 bytes for each of the V vertices (the
// cluster's credit for any vertex can arise on any node); 36 bytes per owned
// vertex (offsets, numerators, values, slot map); 20-byte records in flight,
// bounded by the transport's window. Wedges sent: sum over u of
// |N+(u)| (|N+(u)| - 1) / 2, at most O(|E|^1.5). kFootprint states this for
// the memory check (compute/engine/memory_budget.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/engine/lcore_layout.h"
#include "compute/engine/memory_budget.h"
#include "compute/partition/partition.h"
#include "compute/engine/single_writer_driver.h"

namespace wg {

struct __attribute__((packed, aligned(4))) LccRecord {
  uint32_t index;  // the addressed vertex's global id
  uint32_t a, b, c, d;
};
static_assert(sizeof(LccRecord) == 20);

class LccDriver final : public SingleWriterDriver<LccRecord> {
 public:
  // The peak above, per neighbour-list entry (9 + 20 + 5), per owned vertex
  // and per vertex of the graph.
  static constexpr DriverFootprint kFootprint{.bytes_per_neighbour = 34, .bytes_per_local_vertex = 36,
                                              .bytes_per_vertex = 8};

  LccDriver(const EngineOptions& opt, Dataplane& dp, const LocalGraph& g, const LcoreLayout& layout);

  // After the run: each slot's coefficient.
  const std::vector<double>& values() const { return values_; }

  void apply(unsigned w, const StepControl& c, const Stall& stall) override;
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override;
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override;
  // After the last superstep every credit is in: the coefficients.
  Decision decide(uint32_t s, uint32_t, uint64_t, const AggregateBytes&) override {
    if (s >= kLastStep) finish_values();
    return {s >= kLastStep, 0};
  }

 private:
  static constexpr uint32_t kLastStep = 5;
  enum : uint8_t { kOut = 1, kIn = 2 };
  struct Pair {
    uint32_t slot, other;
    uint8_t flag;
  };

  uint32_t slot_of(uint32_t v) const;  // a vertex this node owns
  void build_neighbours();
  void take_degrees();
  void finish_values() const;
  void put(uint32_t vertex, const LccRecord& r, const Stall& stall);
  // m(x, y) for y in N(x) (x a slot): the directed edges between them, 0 if not neighbours.
  unsigned multiplicity(uint32_t slot, uint32_t y) const;

  const LocalGraph& g_;
  std::vector<uint32_t> slot_of_local_;  // v / P -> slot, when the slots are renumbered (k > 1)
  // The network role appends (supersteps 0-2), worker 0 takes them in the next apply.
  std::vector<Pair> in_pairs_, out_pairs_;
  std::vector<LccRecord> degrees_in_;
  // N(v) per slot: CSR of neighbour ids (ascending), their flags and degrees.
  std::vector<uint64_t> offset_;
  std::vector<uint32_t> neighbour_, neighbour_degree_;
  std::vector<uint8_t> flags_;
  // N+(v): the neighbours ranked above v, ascending by id, with flags.
  std::vector<uint64_t> plus_offset_;
  std::vector<uint32_t> plus_;
  std::vector<uint8_t> plus_flags_;
  // Credits by owner node and local index (superstep 4, network role), then
  // by slot (superstep 5).
  std::vector<std::vector<uint64_t>> credit_;
  std::vector<uint64_t> numerator_;
  mutable std::vector<double> values_;  // by the coordinator, once the last superstep is complete
};

}  // namespace wg
