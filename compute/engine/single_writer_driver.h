// A runtime driver (compute/engine/program_driver.h) whose records all come from
// worker 0, through one BucketWriter of `Record`s: the phases that exchange
// a few kinds of records rather than run a vertex program (compute/load/id_lookup.h,
// compute/engine/neighbourhood/neighbourhood_service.h). The other workers idle; records are checked where
// they are used, so the runtime's index checks are off.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/engine/bucket_writer.h"
#include "compute/engine/program_driver.h"

namespace wg {

// A record that fails the check where it is used: `driver` names who read it.
[[noreturn]] inline void malformed_record(const char* driver, const char* what, uint64_t v) {
  throw std::runtime_error(std::string(driver) + ": a malformed " + what + " record (" + std::to_string(v) +
                           ") arrived: corrupted frames (try --checksum on)?");
}

template <class Record>
class SingleWriterDriver : public ProgramDriver {
 public:
  SingleWriterDriver(Dataplane& dp, unsigned workers, unsigned rank, unsigned nodes)
      : workers_(workers), rank_(rank), nodes_(nodes), writer_(dp, nodes, rank), stats_(workers) {}

  unsigned workers() const override { return workers_; }
  const StepStats& worker_stats(unsigned w) const override { return stats_[w]; }
  AggregateBytes worker_aggregate(unsigned) const override { return {}; }
  // Every record travels on queue 0 (one range per node: routes()).
  uint64_t buckets_to(unsigned w, unsigned node, unsigned queue) const override {
    return w == 0 && queue == 0 ? writer_.buckets_to(node) : 0;
  }
  uint64_t records_to(unsigned w, unsigned node, unsigned queue) const override {
    return w == 0 && queue == 0 ? writer_.records_to(node) : 0;
  }
  uint64_t folded_directly(unsigned) const override { return 0; }
  uint64_t direct_overflows(unsigned) const override { return 0; }
  unsigned record_bytes() const override { return sizeof(Record); }
  const QueueRoutes& routes() const override { return routes_; }
  unsigned domains() const override { return 1; }
  uint32_t domain_size(unsigned) const override { return UINT32_MAX; }
  uint32_t max_index(const uint8_t*, unsigned) const override { return 0; }
  void merge(AggregateBytes&, const AggregateBytes&) const override {}
  // No values to rank, unless the driver has them (the neighbourhood service).
  std::vector<wire::TopEntry> top(unsigned) const override { return {}; }

 protected:
  // Worker w's superstep begins: fresh figures.
  void begin_step(unsigned w, uint32_t superstep) {
    stats_[w] = StepStats{};
    stats_[w].superstep = superstep;
  }
  // Worker 0's scatter: open the superstep's buckets, close them and count
  // what went where (records to this node go through the local queue).
  void open_records(uint32_t epoch) { writer_.start_superstep(epoch); }
  void close_records() {
    writer_.close_all(nodes_);
    StepStats& st = stats_[0];
    for (unsigned p = 0; p < nodes_; ++p) {
      st.messages_sent += writer_.records_to(p);
      if (p == rank_)
        st.messages_local += writer_.records_to(p);
      else
        st.buckets_sent += writer_.buckets_to(p);
    }
  }
  template <class Stall>
  void send(unsigned node, const Record& r, const Stall& stall) {
    writer_.put(node, r, stall);
  }
  // A vertex's key, for a driver whose records name any vertex of the
  // cluster (the neighbourhood and community services): its slot times P
  // plus its node, which every node computes for its edges' targets without
  // asking.
  uint32_t key_of_slot(uint32_t slot) const { return slot * nodes_ + rank_; }

  const unsigned workers_, rank_, nodes_;

 private:
  const QueueRoutes routes_ = QueueRoutes::single();  // the accumulator's appends need one writer: queue 0's
  BucketWriter<Record> writer_;
  std::vector<StepStats> stats_;
};

}  // namespace wg
