// The original ids of vertices other nodes own, for results whose values
// are vertex ids (WCC's and CDLP's labels) written under a Graphalytics
// graph's own ids (the loader maps them to dense ids, compute/graph_loader.h).
// A phase of two supersteps run after the program's: each node asks the
// owner of every distinct label it holds (dense id d: node d mod P) for its
// original id, and the owners answer. Memory: 16 bytes per distinct label.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compute/partition.h"
#include "compute/program_driver.h"

namespace wg {

namespace load {
struct LoadRecord;
}
template <class Record>
class BucketWriter;

class IdLookup final : public ProgramDriver {
 public:
  // `wanted`: the dense ids whose original ids this node needs (any order,
  // repeats allowed); `g`: this node's part, with its original ids.
  IdLookup(Dataplane& dp, const LocalGraph& g, unsigned workers, std::vector<uint32_t> wanted);
  ~IdLookup() override;

  // After the phase: the original id of a wanted dense id.
  int64_t original(uint32_t dense);

  unsigned workers() const override { return workers_; }
  void apply(unsigned w, const StepControl& c, const Stall& stall) override;
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override;
  const StepStats& worker_stats(unsigned w) const override { return stats_[w]; }
  AggregateBytes worker_aggregate(unsigned) const override { return {}; }
  uint64_t buckets_to(unsigned w, unsigned node) const override;
  uint64_t records_to(unsigned w, unsigned node) const override;
  uint64_t folded_directly(unsigned) const override { return 0; }
  uint64_t direct_overflows(unsigned) const override { return 0; }
  unsigned record_bytes() const override { return 12; }
  unsigned domains() const override { return 1; }
  uint32_t domain_size(unsigned) const override { return UINT32_MAX; }
  uint32_t max_index(const uint8_t*, unsigned) const override { return 0; }
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override;
  void merge(AggregateBytes&, const AggregateBytes&) const override {}
  Decision decide(uint32_t s, uint32_t, uint64_t, const AggregateBytes&) const override { return {s == 1, 0}; }
  std::vector<wire::TopEntry> top(unsigned) const override { return {}; }

 private:
  struct Answer {
    uint32_t dense;
    int64_t original;
    bool operator<(const Answer& o) const { return dense < o.dense; }
  };
  const LocalGraph& g_;
  const unsigned workers_, rank_, nodes_;
  std::unique_ptr<BucketWriter<load::LoadRecord>> writer_;  // worker 0's
  std::vector<StepStats> stats_;
  std::vector<uint32_t> wanted_;             // sorted, distinct
  std::vector<load::LoadRecord> requests_;   // the network role appends (superstep 0's)
  std::vector<Answer> answers_;              // the network role appends (superstep 1's), sorted after
  bool sorted_ = false;
};

}  // namespace wg
