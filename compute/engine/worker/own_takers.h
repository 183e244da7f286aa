// Own destinations that take nothing now (takes_messages in
// compute/engine/vertex_program.h: in BC's seed and forward phases the
// reached vertices; in its backward phase all but those one level up from
// the senders). A dense pull does
// not read the in-list of a vertex of this worker's own slice whose value
// says it ignores what is sent, and sends it nothing. Only the worker's own
// slice: the other workers of the node apply theirs meanwhile.
//
// On GAP's kron20 from vertex 1 (P=2) the backward superstep of level 2
// pulls for every destination (16 M in-edges a node) while 141 vertices use
// what it sends: the node's own half of those reads goes (39 -> 25 ms).
// Sparse supersteps send to such vertices all the same: there a value read
// at random per record cost more than the record (the backward superstep
// of level 3: 24 -> 41 ms for 8% fewer records).
// Owner: the worker.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/slice.h"
#include "compute/partition/partition.h"

namespace wg {

template <VertexProgram Prog>
class OwnTakers {
 public:
  using Value = typename Prog::Value;

  // Per own group (this node's domain d), the destination indices of the
  // slice: [first, first + count), at slot base + index.
  OwnTakers(const LocalGraph& g, const WorkerSlice& slice) : own_(g.blocks.size()) {
    for (unsigned d = 0; d < g.domains; ++d) {
      const uint32_t base = g.domain_offset[d];
      const uint32_t from = std::max(slice.lo, base), to = std::min(slice.hi, g.domain_offset[d + 1]);
      if (from < to) own_[g.group(g.rank, d)] = {from - base, to - from, base};
    }
  }

  // Apply: the node's values, read by ignores() in this superstep's scatter.
  void set_values(const Value* values) { values_ = values; }

  // Whether destination t of `group` is of the slice and, by its value,
  // takes nothing this superstep sends.
  bool ignores(const Prog& prog, unsigned group, uint32_t t) const {
    const Own& o = own_[group];
    return t - o.first < o.count && !prog.takes_messages(values_[o.base + t]);
  }

 private:
  struct Own {
    uint32_t first = 0, count = 0, base = 0;
  };
  std::vector<Own> own_;  // per group; count 0 for other nodes' groups
  const Value* values_ = nullptr;
};

}  // namespace wg
