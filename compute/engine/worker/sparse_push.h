// The sparse step: every active source sends one record per out-edge (its
// scatter value through edge_message). Two forms:
//   SparseEdges - per source, the records of its edges in one block, to an
//                 emitter (the worker's produce: buckets, the same-node
//                 fold, SSSP's own vertices, the sender's combine)
//   write_runs  - unweighted programs writing into buckets: a source's
//                 records to one block are its targets next to one value,
//                 written a vector at a time
// Level-synchronous and delta-stepping programs send their own sparse
// steps (LevelSteps::push_top_down, DeltaSteps::push_light_heavy).
#pragma once

#include <rte_branch_prediction.h>

#include <cstddef>
#include <cstdint>

#include "compute/engine/blocked_frontier.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/modes.h"
#include "compute/partition/partition.h"

namespace wg {

template <VertexProgram Prog>
class SparseEdges {
 public:
  using Message = typename Prog::Message;

  explicit SparseEdges(const EdgeBlock& b) : b_(b), targets_(b.targets.data()), weights_(b.weights.data()) {}

  // Source i's records: emit(target, edge_message(sv, weight)) per out-edge.
  template <class Emit>
  void push(size_t i, Message sv, Emit& emit) const {
    for (uint64_t e = b_.offsets[i], end = b_.offsets[i + 1]; e < end; ++e) {
      if constexpr (WorkerModes<Prog>::kRealWeights)
        emit(targets_[e], Prog::edge_message(sv, b_.real_weights[e]));
      else if constexpr (WorkerModes<Prog>::kWeights)
        emit(targets_[e], Prog::edge_message(sv, weights_[e]));
      else
        emit(targets_[e], Prog::edge_message(sv, 1));
    }
  }

 private:
  const EdgeBlock& b_;
  const uint32_t* targets_;
  const uint32_t* weights_;
};

// Records written at once by write_runs: 64 bytes of 8-byte records.
inline constexpr unsigned kRunRecords = 8;

// Sparse and unweighted, into out's open bucket for `group` (block b):
// for_each_source(f) calls f(i, sending) for every active source i. Runs
// are short where sources spread over many blocks (kron:20:16, P=16: 5.3
// records per source and block), and a loop per run mispredicts its exit
// once a run; so a run of at most kRunRecords goes out as kRunRecords records written
// unconditionally (one vector store), the cursor advancing by the run: the
// records past it are rewritten by the next run or lie beyond the bucket's
// count.
template <VertexProgram Prog, class Output, class ForEachSource>
void write_runs(Output& out, unsigned group, const EdgeBlock& b, const Stall& stall, ForEachSource&& for_each_source) {
  using Message = typename Prog::Message;
  using Record = typename Output::Record;
  typename Output::Open& o = out.open(group);
  const uint32_t* targets = b.targets.data();
  const uint64_t edges = b.targets.size();
  for_each_source([&](size_t i, const Sending<Message>& sending) {
    const Message value = Prog::edge_message(sending.value, 1);
    uint64_t e = b.offsets[i];
    const uint64_t end = b.offsets[i + 1];
    const uint64_t run = end - e;
    const uint64_t padded = (run + kRunRecords - 1) / kRunRecords * kRunRecords;  // >= run: whole kRunRecords-record stores
    if (likely(e + padded <= edges && static_cast<uint64_t>(o.end - o.cursor) >= padded)) {
      Record* c = o.cursor;
      for (uint64_t k = 0; k < padded; k += kRunRecords)
        for (unsigned j = 0; j < kRunRecords; ++j) c[k + j] = Record{targets[e + k + j], value};
      o.cursor = c + run;
      return;
    }
    for (; e < end; ++e) out.put(group, o, Record{targets[e], value}, stall);
  });
}

}  // namespace wg
