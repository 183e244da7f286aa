// The in-edge step, for a program whose phases may scatter along in-edges
// (compute/engine/capabilities/edge_direction.h: SCC). The node holds its
// vertices' in-edges reversed (LocalGraph::in_blocks, the loader's
// GraphRules::in_edges), in the out-edge blocks' layout and groups, so a
// phase of kIn sends exactly as a sparse out-edge superstep does, from the
// same frontier and scatter values, only through these blocks and the
// slice's runs of sources in them; kBoth sends through both.
//
// A small frontier is grouped by block for the out-edges only
// (ActiveSources::group): a phase that sends along in-edges tests each
// block's sources against the frontier instead.
// Owner: the worker.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/engine/capabilities/edge_direction.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

template <class Prog>
class InEdges {
 public:
  InEdges(const LocalGraph& g, const WorkerSlice& out) : blocks_(checked(g).in_blocks), slice_(blocks_, out.lo, out.hi) {}

  // The superstep's direction, from its phase.
  void begin(uint32_t phase) { now_ = scatter_direction<Prog>(phase); }
  EdgeDirection now() const { return now_; }
  bool out_now() const { return now_ != EdgeDirection::kIn; }
  bool in_now() const { return now_ != EdgeDirection::kOut; }

  const EdgeBlock& block(unsigned group) const { return blocks_[group]; }
  const WorkerSlice& slice() const { return slice_; }

 private:
  // A graph read back from a snapshot holds no in-edges.
  static const LocalGraph& checked(const LocalGraph& g) {
    if (g.in_blocks.size() != g.blocks.size())
      throw std::runtime_error(std::string(Prog::kTraits.name) +
                               " scatters along in-edges, and this graph was loaded without them (a snapshot holds "
                               "out-edges only: load the graph itself)");
    return g;
  }

  const std::vector<EdgeBlock>& blocks_;
  const WorkerSlice slice_;
  EdgeDirection now_ = EdgeDirection::kOut;
};

}  // namespace wg
