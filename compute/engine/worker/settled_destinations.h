// Settling phases (settles_on_message in compute/engine/vertex_program.h:
// BC's seed and forward phases): a destination takes the messages of one
// superstep only, the first whose messages reach it, and ignores the rest of
// the stretch's. Unlike a level-synchronous phase the messages differ (BC's
// carry path counts) and every one of that first superstep counts, so the
// worker sends all of them; what it drops is every record to a destination
// it knows took one before: those it sent to in an earlier superstep of the
// stretch, and its own vertices that received a message in one (when the
// phase also applies only with messages, so that apply sees who received).
//
// On GAP's kron20 from vertex 1 (P=2) the destinations reached by level 2
// hold 83% of the in-edges of the first dense superstep, and a node knows
// 75-81% of those edges' destinations this way: their in-lists are not read.
//
// Per group, two bitmaps over the destination indices: settled (known
// before this superstep) and sent (this superstep's destinations, folded
// into settled when the next superstep continues the stretch; a record to
// a destination already sent to in this same superstep still goes: the
// receiver sums them). Not with --scatter sparse, which sends one record per
// edge. After a checkpoint is read back the bitmaps start empty (the
// resumed superstep starts a stretch), which only sends more. Owner: the
// worker.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/bitmap.h"
#include "compute/engine/scatter_mode.h"
#include "compute/engine/vertex_program.h"
#include "compute/partition/partition.h"

namespace wg {

// One bitmap per destination group of g, over its destination indices: up
// to the block's largest target (EdgeBlock::target_span) and, for this
// node's own groups, its domain (an own vertex's bit is its index in it).
inline std::vector<Bitmap> destination_bitmaps(const LocalGraph& g) {
  std::vector<Bitmap> out;
  out.reserve(g.blocks.size());
  for (size_t b = 0; b < g.blocks.size(); ++b) {
    uint64_t size = g.blocks[b].target_span();
    if (b / g.domains == g.rank) size = std::max<uint64_t>(size, g.domain_size(b % g.domains));
    out.emplace_back(size);
  }
  return out;
}

template <VertexProgram Prog>
class SettledDestinations {
 public:
  using Message = typename Prog::Message;

  // No bitmaps with --scatter sparse (mode), which sends one record per edge.
  SettledDestinations(const LocalGraph& g, uint64_t slice_edges, ScatterMode mode)
      : slice_edges_(slice_edges), prunes_(mode != ScatterMode::kSparse) {
    if (!prunes_) return;
    settled_ = destination_bitmaps(g);
    sent_ = destination_bitmaps(g);
  }

  // Apply, before the pass: whether this superstep's phase settles. The
  // first superstep of a stretch forgets what the last stretch knew; a
  // later one learns the destinations the previous one sent to.
  bool begin(uint32_t phase) {
    const bool now = prunes_ && settles_on_message<Prog>(phase);
    continuing_ = now && now_;
    if (continuing_) {
      for (size_t b = 0; b < settled_.size(); ++b) fold(settled_[b], sent_[b]);
    } else if (now) {
      for (size_t b = 0; b < settled_.size(); ++b) settled_[b].clear(), sent_[b].clear();
      unexplored_ = slice_edges_;
    }
    return now_ = now;
  }
  bool now() const { return now_; }

  // After apply: the out-edges of the slice's vertices that have not
  // scattered yet in this stretch, this superstep's active ones not taken
  // off, and then taken off. On a symmetric graph (BC's) they are about the
  // in-edges of the destinations that may still take messages, which is
  // what a dense pull reads; so a settling superstep weighs its frontier's
  // edges against those, not against the whole slice's, as Beamer's rule
  // weighs them against GAP's edges_to_check (kron20 P=2 from vertex 1: the
  // third level, 252 K vertices and 2.7 M edges against 3.5 M unexplored,
  // takes 4.3 ms dense and 13 ms sparse).
  uint64_t unexplored_edges(uint64_t active_edges) {
    const uint64_t before = unexplored_;
    unexplored_ -= std::min(unexplored_, active_edges);
    return before;
  }

  // Apply (apply_pass.h): where an own vertex of domain d that received a
  // message is set (its index in the domain), or null when this superstep
  // does not continue a stretch (its messages came from outside one).
  Bitmap* own_received(const LocalGraph& g, unsigned d) {
    return continuing_ ? &settled_[g.group(g.rank, d)] : nullptr;
  }

  // Scatter: whether `group`'s destination t is known to have settled.
  bool settled(unsigned group, uint32_t t) const { return settled_[group].test(t); }

  // An emitter that passes emit's records to destinations not known to have
  // settled, and notes them as sent.
  template <class Emit>
  auto pruning(unsigned group, Emit& emit) {
    return [&emit, &settled = settled_[group], &sent = sent_[group]](uint32_t t, Message m) {
      if (settled.test(t)) return;
      sent.set(t);
      emit(t, m);
    };
  }

 private:
  static void fold(Bitmap& into, Bitmap& from) {
    uint64_t* a = into.words();
    uint64_t* b = from.words();
    for (uint64_t k = 0; k < into.num_words(); ++k) a[k] |= b[k], b[k] = 0;
  }

  std::vector<Bitmap> settled_;  // per group, destinations known to have taken their messages
  std::vector<Bitmap> sent_;     // per group, destinations sent to this superstep
  uint64_t slice_edges_;         // the worker's out-edges
  uint64_t unexplored_ = 0;      // of those, the ones whose source has not scattered in this stretch
  bool prunes_;                  // not --scatter sparse
  bool now_ = false;             // this superstep's phase settles
  bool continuing_ = false;      // and so did the previous superstep's
};

}  // namespace wg
