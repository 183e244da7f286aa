// The community service: a runtime driver (compute/engine/program_driver.h)
// that moves vertices between communities level after level and contracts
// each level's communities into the next level's graph (Louvain's scheme;
// compute/engine/capabilities/communities.h says what a program declares).
// No algorithm lives here: what a move gains and what a partition is worth
// come from the program, through CommunityDriver<Prog>
// (community_driver.h), which chooses each vertex's community with the
// program's gain inlined.
//
// Vertices are named by keys, (slot on its node) * P + node, as the
// neighbourhood service's: the global ids when slots are not renumbered. A
// level's vertex is a key too: a community of level l is named by a key, and
// it is the vertex of that key at level l + 1, owned by the key's node. So
// every level's graph lives on the nodes that own its keys, and a vertex's
// final community is found by following its key through the levels.
//
// Every node holds, for every key, the key's global id, its community, the
// community's total degree and its member count (20 bytes a key): a round's moves go to every
// node, which applies them sorted by key (the same sums in the same order on
// every node). A vertex's choice reads only these and its own edges.
//
// Phases (the phase is what decide() returned; every node takes the same):
//   setup     superstep 0: the level-0 graph from the node's edges; every
//             vertex's degree to every node
//   move      apply the previous round's moves (or, first at a new level, build
//             the level's graph from the contraction records); the partition's
//             inside weight and squares into the aggregate; choose this round's
//             moves and send them to every node
//   (the level ends when a round's partition is worse than the one before,
//   or its moves are none, or it raised quality by less than round_threshold,
//   or it was the last of max_rounds: that round's moves are dropped; a level
//   that raised quality by no more than threshold ends the run)
//   revert    the round before made the partition worse: send its reverse
//   contract  apply the reverse, if any; the level's edges, summed by
//             (community, community), to the owner of the first
//   (a level kept: every vertex's key one level on, at the next level's first
//   move or at name)
//   name      the smallest global id of each final community, to every node
//   done      every vertex's label: its community's smallest id
#pragma once

#include <cstdint>
#include <vector>

#include "compute/engine/capabilities/communities.h"
#include "compute/engine/single_writer_driver.h"
#include "compute/partition/partition.h"

namespace wg {

struct __attribute__((packed, aligned(4))) CommunityRecord {
  uint32_t key;  // a vertex (moves, degrees, contraction: the community that owns the edge), or a community (names)
  uint32_t to;   // moves: the community it joins; contraction: the other community; degrees and names: a global id
  double weight;
};
static_assert(sizeof(CommunityRecord) == 16);

class CommunityService : public SingleWriterDriver<CommunityRecord> {
 public:
  // Per neighbour entry at the peak, a contraction: the level's lists (4 + 8),
  // the node's records summed before they leave (16) and those received (16);
  // per vertex of the graph: the replicated community, total, members, global
  // id and its order, the choice's scratch (weight and mark), the name (40)
  // and a round's moves received (16 each, up to half the vertices); per
  // owned vertex: its label, degree, list offset, value and the moves of
  // two rounds (24 each, up to half) (56).
  static constexpr DriverFootprint kFootprint{.bytes_per_neighbour = 44, .bytes_per_local_vertex = 56,
                                              .bytes_per_vertex = 48};

  CommunityService(const Communities& rules, Dataplane& dp, const LocalGraph& g, unsigned workers);

  // After the run, per slot: the smallest global id of the vertex's community.
  const std::vector<uint32_t>& labels() const { return values_; }

  void apply(unsigned w, const StepControl& c, const Stall& stall) override;
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override;
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override;
  AggregateBytes worker_aggregate(unsigned w) const override;
  void merge(AggregateBytes& into, const AggregateBytes& from) const override;
  Decision decide(uint32_t s, uint32_t phase, uint64_t, const AggregateBytes& aggregate) override;

 protected:
  struct Move {
    uint32_t key, from, to;
    double degree;
  };
  // Vertex i of this node's level graph (key live_[i]): its community if it
  // moves this round (to), else its own; reads the replicated tables only.
  virtual uint32_t choose(uint32_t i) = 0;
  virtual double quality(double inside, double squares, double two_m) const = 0;

  // For choose(): vertex i's edges (keys, weights: its self-loop too) and degree.
  uint64_t first_edge(uint32_t i) const { return offset_[i]; }
  uint64_t end_edge(uint32_t i) const { return offset_[i + 1]; }
  // The replicated tables, by key. A key's global id orders communities and
  // draws the round's movers, so that the choices do not depend on P (keys
  // do, where slots are renumbered).
  std::vector<uint32_t> community_, members_, id_of_key_;
  std::vector<double> total_;
  std::vector<uint32_t> live_;  // this level's vertices of this node, by key
  std::vector<double> degree_;  // by level vertex
  std::vector<uint32_t> neighbour_;
  std::vector<double> weight_;
  // Scratch of choose(): the weight into each community seen, and when.
  std::vector<double> weight_to_;
  std::vector<uint32_t> seen_in_;
  uint32_t choice_ = 0;  // the current choice's mark in seen_in_
  double two_m_ = 0;

 private:
  enum Phase : uint32_t { kSetup = 0, kMove, kRevert, kContract, kName, kDone };
  struct Figures {  // the aggregate, summed over nodes in rank order
    double inside = 0, squares = 0;
    uint64_t moves = 0, communities = 0;
  };
  static_assert(sizeof(Figures) <= sizeof(AggregateBytes));

  void build_first_level();
  void build_level(std::vector<CommunityRecord>& edges);
  void apply_moves(std::vector<CommunityRecord>& moves);
  void keep_level();
  void order_keys();
  void measure();
  void choose_moves(const Stall& stall);
  void send_moves(const std::vector<Move>& moves, bool back, const Stall& stall);
  void send_contraction(const Stall& stall);
  void send_names(const Stall& stall);
  void pass_when_due(uint64_t& work, const Stall& stall) const {
    if (++work % 4096 == 0) stall(false);
  }

  const Communities rules_;
  const LocalGraph& g_;
  uint32_t keys_ = 0;
  std::vector<uint64_t> offset_;  // by level vertex, into neighbour_ and weight_
  std::vector<uint32_t> label_;   // by slot: the key of the vertex's vertex at the current level
  std::vector<uint32_t> key_by_id_;  // rank 0: every key that holds a vertex, by global id (the squares' order)
  std::vector<uint32_t> name_;    // by key: a final community's smallest global id
  std::vector<uint32_t> values_;
  std::vector<Move> moves_, previous_moves_;
  // Folded by the network role: superstep t's records (moves, contraction
  // records, names) in received_[t & 1], used in superstep t + 1; superstep
  // 0's degrees straight into total_ and members_.
  std::vector<CommunityRecord> received_[2];
  Figures figures_;  // worker 0's, this superstep
  // decide()'s: the same on every node.
  bool new_level_ = false;
  bool keep_level_ = false;  // the level that ended raised quality: labels follow its communities
  bool revert_arrived_ = false;  // contract: the records that arrived undo the round before
  uint32_t level_ = 0, round_ = 0;
  double previous_quality_ = 0, level_start_quality_ = 0;
  uint64_t previous_communities_ = 0;
};

}  // namespace wg
