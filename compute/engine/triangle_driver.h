// Triangle counting (apps/tc.h) and the local clustering coefficient
// (apps/lcc.h) as one runtime driver (compute/engine/program_driver.h): a
// vertex needs its neighbours' neighbour lists, which no per-vertex ⊕ or
// fixed-size value carries, so lists travel whole, in buckets.
//
// The forward algorithm (Schank and Wagner 2005; Latapy 2008): vertices are
// ranked by (degree, key); N+(v), the neighbours ranked above v, sorted by
// rank; each triangle u < a < w (by rank) is found once, from u: a in N+(u)
// and w in N+(u) ∩ N+(a), whose members all rank above a. Degree order bounds
// every N+ by about sqrt(2|E|), and the merge of two N+ costs their lengths.
//
// A vertex's key is (its slot on its node) * P + node: every node computes the
// keys of its own vertices and of its edges' targets (LocalGraph::target_slot)
// without asking anybody, and they are the global ids when slots are not
// renumbered. Ranks are computed alike on every node from every vertex's
// degree (a counting sort), so that lists hold ranks and an N+ is a suffix of
// the rank order.
//
// Supersteps (20-byte records):
//   0  every node sends every node its vertices' degrees (3 per record);
//      lcc: every out-edge u -> x tells x's owner that u is an in-neighbour
//      (2 per record)
//   1  apply: ranks; N(v) per owned vertex (out-edges, and in-neighbours for
//      lcc, each neighbour once, with "both directions" in bit 31 for lcc),
//      |N(v)| kept, N+(v) kept. Scatter: each N+(u) goes to every other node
//      that owns one of its members but the last (4 entries per record), then
//      the lists of the node's own vertices are counted while those arrive
//   2  apply: the lists that arrived, grouped by vertex, are counted. Scatter:
//      every vertex's credit to its owner
// A triangle {u, a, w} credits each corner: tc 1 each; lcc the directed
// edges between the two others (m(a, w) to u, m(u, w) to a, m(u, a) to w),
// since Graphalytics' LCC numerator counts directed edges among neighbours.
//
// Memory per node (kFootprint): per neighbour-list entry of an owned vertex
// (in- and out-edges), the gathered N(v) (4 bytes), N+ (4), lcc's in-neighbour
// pairs (8) and lists received (4 unpacked, 5 as records; there are at most
// about as many as local entries at P = 2, fewer per node as P grows); per
// owned vertex, counts, |N(v)|, rank, N+ offsets and values (32); per vertex of the
// graph, degree, rank, key and credit (20). Ranks must fit 31 bits.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/engine/lcore_layout.h"
#include "compute/engine/memory_budget.h"
#include "compute/engine/single_writer_driver.h"
#include "compute/partition/partition.h"

namespace wg {

struct __attribute__((packed, aligned(4))) TriangleRecord {
  uint32_t index;
  uint32_t a, b, c, d;
};
static_assert(sizeof(TriangleRecord) == 20);

class TriangleDriver : public SingleWriterDriver<TriangleRecord> {
 public:
  // What a triangle credits its corners with.
  enum class Credit : uint8_t {
    kTriangle,        // 1: triangles through the vertex (tc)
    kDirectedLinks,   // the directed edges between the other two corners (lcc)
  };
  static constexpr DriverFootprint kFootprint{.bytes_per_neighbour = 25, .bytes_per_local_vertex = 32,
                                              .bytes_per_vertex = 20};

  TriangleDriver(Credit credit, Dataplane& dp, const LocalGraph& g, const LcoreLayout& layout);

  // After the run, per slot: the credits (tc: triangles through the vertex),
  // and |N(v)|, the vertex's neighbours in either direction, each once.
  const std::vector<uint64_t>& counts() const { return counts_; }
  uint32_t neighbours(uint32_t slot) const { return neighbours_[slot]; }

  void apply(unsigned w, const StepControl& c, const Stall& stall) override;
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override;
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override;
  Decision decide(uint32_t s, uint32_t, uint64_t, const AggregateBytes&) override { return {s >= kLastStep, 0}; }

 protected:
  const LocalGraph& g_;

 private:
  static constexpr uint32_t kLastStep = 2;
  static constexpr uint32_t kBoth = 1u << 31;  // lcc: an entry joined by edges in both directions
  static constexpr uint32_t kNone = UINT32_MAX;

  uint32_t key_of_slot(uint32_t slot) const { return slot * nodes_ + rank_; }
  uint32_t degree_of(uint32_t slot) const;
  void send_degrees(const Stall& stall);
  void send_in_neighbours(const Stall& stall);
  void rank_vertices();
  void build_lists(const Stall& stall);
  void ship_lists(const Stall& stall);
  void count_received(const Stall& stall);
  void send_credits(const Stall& stall);
  // u's list L (ranks above u's, ascending): every triangle u, L[i], w.
  template <bool kDirected>
  void count_list(uint32_t u, const uint32_t* list, uint32_t n);
  void count(uint32_t u, const uint32_t* list, uint32_t n) {
    credit_kind_ == Credit::kTriangle ? count_list<false>(u, list, n) : count_list<true>(u, list, n);
  }

  // Work done since the last network pass (entries sorted or merged): a pass
  // every kWorkPerPass keeps the peers' acks coming while lists are counted
  // (a silent node's peers time out and back off).
  static constexpr uint64_t kWorkPerPass = 1u << 15;
  void pass_when_due(const Stall& stall) {
    if (work_ >= kWorkPerPass) work_ = 0, stall(false);
  }
  uint64_t work_ = 0;

  const Credit credit_kind_;
  uint32_t keys_ = 0;  // P * the largest node's slots: keys are below
  // Folded by the network role in superstep 0 (degrees by key; lcc's
  // in-neighbours: slot, neighbour key) and 1 (the lists of other nodes).
  std::vector<uint32_t> degree_;
  std::vector<uint64_t> in_pairs_;  // slot << 32 | key
  std::vector<TriangleRecord> received_;
  // By rank: the vertex's key, and its credit so far; by key: its rank.
  std::vector<uint32_t> key_of_rank_, rank_of_key_;
  std::vector<uint64_t> credit_;
  // N+(v) per slot, ranks ascending (lcc: kBoth marks m = 2).
  std::vector<uint64_t> plus_offset_;
  std::vector<uint32_t> plus_;
  std::vector<uint32_t> own_rank_;  // per slot
  std::vector<uint32_t> neighbours_;
  std::vector<uint64_t> counts_;  // folded in superstep 2
};

// apps/tc.h's driver: triangles through each vertex.
class TcDriver final : public TriangleDriver {
 public:
  TcDriver(const EngineOptions&, Dataplane& dp, const LocalGraph& g, const LcoreLayout& layout)
      : TriangleDriver(Credit::kTriangle, dp, g, layout) {}
  const std::vector<uint64_t>& values() const { return counts(); }
};

// apps/lcc.h's driver: directed edges among the neighbours over d (d - 1).
class LccDriver final : public TriangleDriver {
 public:
  LccDriver(const EngineOptions&, Dataplane& dp, const LocalGraph& g, const LcoreLayout& layout)
      : TriangleDriver(Credit::kDirectedLinks, dp, g, layout) {}
  const std::vector<double>& values() const;

 private:
  mutable std::vector<double> values_;
};

}  // namespace wg
