// The original ids of vertices other nodes own, for results whose values
// are vertex ids (WCC's and CDLP's labels) written under the input's own ids
// when the loader mapped them to dense ids (a Graphalytics graph, --ids
// sparse; compute/load/graph_loader.h).
// A phase of two supersteps run after the program's: each node asks the
// owner of every distinct label it holds (dense id d: node d mod P) for its
// original id, and the owners answer. Memory: 16 bytes per distinct label.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compute/load/load_records.h"
#include "compute/partition/partition.h"
#include "compute/engine/single_writer_driver.h"

namespace wg {

class IdLookup final : public SingleWriterDriver<load::LoadRecord> {
 public:
  // `wanted`: the dense ids whose original ids this node needs (any order,
  // repeats allowed); `g`: this node's part, with its original ids.
  IdLookup(Dataplane& dp, const LocalGraph& g, unsigned workers, std::vector<uint32_t> wanted);

  // After the phase: the original id of a wanted dense id.
  int64_t original(uint32_t dense);

  void apply(unsigned w, const StepControl& c, const Stall& stall) override;
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override;
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override;
  Decision decide(uint32_t s, uint32_t, uint64_t, const AggregateBytes&) override { return {s == 1, 0}; }

 private:
  struct Answer {
    uint32_t dense;
    int64_t original;
    bool operator<(const Answer& o) const { return dense < o.dense; }
  };
  const LocalGraph& g_;
  std::vector<uint32_t> wanted_;             // sorted, distinct
  std::vector<load::LoadRecord> requests_;   // the network role appends (superstep 0's)
  std::vector<Answer> answers_;              // the network role appends (superstep 1's), sorted after
  bool sorted_ = false;
};

}  // namespace wg
