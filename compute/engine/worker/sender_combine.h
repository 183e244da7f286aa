// Records combined at the sender, for delta-stepping's big sparse
// supersteps (a bucket's heavy flush: on GAP's kron20 at P=2 one superstep
// sends 25 M of the run's 33 M records, about 12 per destination): the
// records to another node are folded here with ⊕ first, one per
// destination, in the order destinations were first reached, so the
// network and the receiver's fold carry each destination once. Unlike a
// dense pull this costs the records the superstep makes (a min into
// combined_ each), not the node's in-edges. A destination whose ⊕ is the
// identity is not sent: applying the identity changes nothing
// (compute/engine/vertex_program.h, applies_only_with_messages).
//
// A message per destination index of the largest other-node block, and a
// list of those touched: ScatterMode::kAuto only. Owner: the worker.
#pragma once

#include <rte_branch_prediction.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/program_driver.h"
#include "compute/engine/scatter_mode.h"
#include "compute/engine/vertex_program.h"
#include "compute/partition/partition.h"
#include "dataplane/wire.h"

namespace wg {

template <VertexProgram Prog>
class SenderCombine {
 public:
  using Message = typename Prog::Message;
  using Record = wire::RecordOf<Message>;

  SenderCombine(const LocalGraph& g, ScatterMode mode) {
    if (mode != ScatterMode::kAuto) return;
    uint64_t size = 0;
    for (size_t b = 0; b < g.blocks.size(); ++b)
      if (b / g.domains != g.rank) size = std::max(size, g.blocks[b].target_span());
    combined_.assign(size, Prog::identity());
    touched_.reserve(size);
  }

  // After apply: combine this superstep when it makes at least one record
  // per destination on average (not with local rounds, whose buckets stay
  // open through the rounds).
  void decide(bool sparse, bool early, uint64_t active_edges, unsigned nodes) {
    now_ = !combined_.empty() && sparse && !early && active_edges >= uint64_t{nodes} * combined_.size();
  }
  bool now() const { return now_; }

  // The records produce(emit) makes for `group` (another node's), combined,
  // into out's buckets (a BucketOutput); the stall hook called as often as
  // out.write would.
  template <class Output, class Produce>
  void write(unsigned group, Output& out, const Stall& stall, Produce&& produce) {
    Message* const c = combined_.data();
    const Message none = Prog::identity();
    unsigned until_stall = Output::kRecordsPerStall;
    produce([&](uint32_t target, Message m) {
      if (c[target] == none) touched_.push_back(target);
      c[target] = Prog::combine(c[target], m);
      if (unlikely(--until_stall == 0)) {
        until_stall = Output::kRecordsPerStall;
        stall(false);
      }
    });
    typename Output::Open& o = out.open(group);
    for (const uint32_t t : touched_) {
      out.put(group, o, Record{t, c[t]}, stall);
      c[t] = none;
    }
    touched_.clear();
  }

 private:
  std::vector<Message> combined_;  // per destination index, the ⊕ so far (identity: none)
  std::vector<uint32_t> touched_;  // destinations in combined_ that hold one, first reached first
  bool now_ = false;               // this superstep combines records to other nodes
};

}  // namespace wg
