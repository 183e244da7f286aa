// The neighbourhood service: a runtime driver (compute/engine/program_driver.h)
// that gives a program its neighbours' neighbour lists, which no per-vertex ⊕
// or fixed-size value carries: lists travel whole, in buckets, and every
// triangle of the graph is found once. No algorithm lives here: what a
// triangle credits and what a result is come from the program
// (compute/engine/capabilities/neighbourhood.h), through
// NeighbourhoodDriver<Prog> (neighbourhood_driver.h), which counts each list
// with the program's hooks inlined.
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
//      directed lists: every out-edge u -> x tells x's owner that u is an
//      in-neighbour (2 per record); edge credits: every vertex's input id
//      (1 per record), for the result lines of edges that cross nodes
//   1  apply: ranks; N(v) per owned vertex (out-edges, and in-neighbours for
//      directed lists, each neighbour once, with "both directions" in bit 31),
//      |N(v)| kept, N+(v) kept. Scatter: each N+(u) goes to every other node
//      that owns one of its members but the last (4 entries per record), then
//      the lists of the node's own vertices are counted while those arrive
//   2  apply: the lists that arrived, grouped by vertex, are counted. Scatter:
//      every vertex's credit to its owner; edge credits: the credits of the
//      entries of lists that came from other nodes, back to the list's owner
//
// Memory per node (kFootprint): per neighbour-list entry of an owned vertex
// (in- and out-edges), the gathered N(v) (4 bytes), N+ (4), directed lists'
// in-neighbour pairs (8) and lists received (4 unpacked, 5 as records; there
// are at most about as many as local entries at P = 2, fewer per node as P
// grows); per owned vertex, counts, |N(v)|, rank, N+ offsets and values (32);
// per vertex of the graph, degree, rank, key and credit (20). Edge credits
// add 4 per entry and, per vertex of the graph, the degree kept and the input
// id (12). Ranks must fit 31 bits.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/engine/memory_budget.h"
#include "compute/engine/single_writer_driver.h"
#include "compute/partition/partition.h"

namespace wg {

struct __attribute__((packed, aligned(4))) NeighbourhoodRecord {
  uint32_t index;
  uint32_t a, b, c, d;
};
static_assert(sizeof(NeighbourhoodRecord) == 20);

class NeighbourhoodService : public SingleWriterDriver<NeighbourhoodRecord> {
 public:
  static constexpr DriverFootprint footprint(Neighbourhood n) {
    const bool edges = n.credits == Neighbourhood::Credits::kEdges;
    return {.bytes_per_neighbour = edges ? 29u : 25u, .bytes_per_local_vertex = 32,
            .bytes_per_vertex = edges ? 32u : 20u};
  }

  NeighbourhoodService(Neighbourhood kind, Dataplane& dp, const LocalGraph& g, unsigned workers);

  // After the run, per slot: the corner credits, and |N(v)|, the vertex's
  // neighbours in either direction, each once.
  const std::vector<uint64_t>& counts() const { return counts_; }
  uint32_t neighbours(uint32_t slot) const { return neighbours_[slot]; }

  // Edge credits, after the run: every edge {u, v} once, from the endpoint
  // ranked lower (an owned vertex), with |N(u) ∩ N(v)| and both degrees.
  template <class Visit>  // visit(u slot, v's input id (dense, or the original when mapped), common, du, dv)
  void for_each_edge(Visit&& visit) const;

  void apply(unsigned w, const StepControl& c, const Stall& stall) override;
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override;
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override;
  Decision decide(uint32_t s, uint32_t, uint64_t, const AggregateBytes&) override { return {s >= kLastStep, 0}; }

 protected:
  static constexpr uint32_t kBoth = 1u << 31;  // directed lists: an entry joined by edges in both directions

  // u's list L (ranks above u's, ascending): every triangle u, L[i], w, its
  // credits added to credit_ (corners) or to list_credit[] for the entries of
  // L and edge_credit_ for those of the owned N+(L[i]) (edges; list_credit is
  // null otherwise). One virtual call per list, the triangles' hooks inlined.
  virtual void count(uint32_t u, const uint32_t* list, uint32_t n, uint32_t* list_credit) = 0;

  // For count(): whether the vertex of rank r is this node's, its slot, its N+.
  bool owns_rank(uint32_t r, uint32_t* slot) const {
    const uint32_t key = key_of_rank_[r];
    *slot = key / nodes_;
    return key % nodes_ == rank_;
  }
  const uint32_t* plus_of(uint32_t slot) const { return plus_.data() + plus_offset_[slot]; }
  uint32_t plus_size(uint32_t slot) const {
    return static_cast<uint32_t>(plus_offset_[slot + 1] - plus_offset_[slot]);
  }
  uint32_t* edge_credit_of(uint32_t slot) { return edge_credit_.data() + plus_offset_[slot]; }

  const LocalGraph& g_;
  std::vector<uint64_t> credit_;  // by rank: the corner credits so far
  // Work done since the last network pass (entries sorted or merged): a pass
  // every kWorkPerPass keeps the peers' acks coming while lists are counted
  // (a silent node's peers time out and back off).
  uint64_t work_ = 0;

 private:
  static constexpr uint32_t kLastStep = 2;
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint64_t kWorkPerPass = 1u << 15;
  void pass_when_due(const Stall& stall) {
    if (work_ >= kWorkPerPass) work_ = 0, stall(false);
  }

  bool directed() const { return kind_.lists == Neighbourhood::Lists::kDirected; }
  bool edge_credits() const { return kind_.credits == Neighbourhood::Credits::kEdges; }
  uint32_t degree_of(uint32_t slot) const;
  void send_degrees(const Stall& stall);
  void send_in_neighbours(const Stall& stall);
  void send_input_ids(const Stall& stall);
  void rank_vertices();
  void build_lists(const Stall& stall);
  void ship_lists(const Stall& stall);
  void count_own(const Stall& stall);
  void count_received(const Stall& stall);
  void send_credits(const Stall& stall);
  void send_edge_credits(const Stall& stall);

  const Neighbourhood kind_;
  uint32_t keys_ = 0;  // P * the largest node's slots: keys are below
  // Folded by the network role in superstep 0 (degrees by key; directed
  // lists' in-neighbours: slot, neighbour key; edge credits: input ids by
  // key) and 1 (the lists of other nodes).
  std::vector<uint32_t> degree_;  // kept after ranking for edge credits
  std::vector<int64_t> input_id_;
  std::vector<uint64_t> in_pairs_;  // slot << 32 | key
  std::vector<NeighbourhoodRecord> received_;
  // By rank: the vertex's key; by key: its rank.
  std::vector<uint32_t> key_of_rank_, rank_of_key_;
  // N+(v) per slot, ranks ascending (directed lists: kBoth marks m = 2).
  std::vector<uint64_t> plus_offset_;
  std::vector<uint32_t> plus_;
  std::vector<uint32_t> own_rank_;  // per slot
  std::vector<uint32_t> neighbours_;
  std::vector<uint64_t> counts_;  // folded in superstep 2
  // Edge credits: per N+ entry of an owned vertex; those found on other
  // nodes' copies of its lists come back in superstep 2 (folded into
  // returned_, added after the run: worker 0 still counts into edge_credit_
  // while they arrive); those this node found on other nodes' lists, sent
  // back in superstep 2: (rank of the list's vertex, entry, credit).
  std::vector<uint32_t> edge_credit_;
  std::vector<NeighbourhoodRecord> returned_, to_return_;
};

template <class Visit>
void NeighbourhoodService::for_each_edge(Visit&& visit) const {
  std::vector<uint32_t> credit(edge_credit_);
  for (const NeighbourhoodRecord& r : returned_) credit[plus_offset_[r.index] + r.a] += r.b;
  for (uint32_t s = 0; s < g_.num_local; ++s)
    for (uint64_t e = plus_offset_[s]; e < plus_offset_[s + 1]; ++e) {
      const uint32_t key = key_of_rank_[plus_[e] & ~kBoth];
      visit(s, input_id_[key], uint64_t{credit[e]}, neighbours_[s], degree_[key]);
    }
}

}  // namespace wg
