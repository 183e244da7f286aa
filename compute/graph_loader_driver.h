// The loading phase's driver (compute/graph_loader.h says what each of its
// supersteps does): read and shuffle in graph_loader.cc, the build in
// graph_loader_build.cc. Internal to compute/.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/bucket_writer.h"
#include "compute/graph_formats.h"
#include "compute/graph_loader.h"
#include "compute/load_aggregate.h"
#include "compute/load_records.h"

namespace wg::load {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The loading phase's supersteps, in this order (count for METIS files
// only, slots for k > 1 domains only).
enum class Step : uint8_t { kCount, kEdges, kDegrees, kSlots };

class GraphLoader final : public ProgramDriver {
 public:
  GraphLoader(Dataplane& dp, const GraphInput& input, const LoadOptions& rules, unsigned workers);

  // After the phase: in-degrees, the domain renumbering; the node's part.
  LocalGraph finish(LoadReport* report);

  // ---- ProgramDriver ----------------------------------------------------------
  unsigned workers() const override { return static_cast<unsigned>(workers_.size()); }
  void apply(unsigned w, const StepControl& c, const Stall& stall) override;
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override;
  const StepStats& worker_stats(unsigned w) const override { return workers_[w].stats; }
  AggregateBytes worker_aggregate(unsigned w) const override { return workers_[w].aggregate; }
  uint64_t buckets_to(unsigned w, unsigned node) const override { return workers_[w].writer->buckets_to(node); }
  uint64_t records_to(unsigned w, unsigned node) const override { return workers_[w].writer->records_to(node); }
  uint64_t folded_directly(unsigned) const override { return 0; }
  uint64_t direct_overflows(unsigned) const override { return 0; }
  unsigned record_bytes() const override { return sizeof(LoadRecord); }
  unsigned domains() const override { return 1; }
  // Record contents are checked where they are used, once V is known.
  uint32_t domain_size(unsigned) const override { return UINT32_MAX; }
  uint32_t max_index(const uint8_t*, unsigned) const override { return 0; }
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override {
    if (t >= steps_.size()) return false;
    const auto* r = reinterpret_cast<const LoadRecord*>(records);
    if (steps_[t] == Step::kEdges) {
      received_.append(r, count);
      edges_in_.fetch_add(count, std::memory_order_relaxed);
    } else {
      inbox_[static_cast<size_t>(steps_[t])].append(r, count);
    }
    return true;
  }
  void merge(AggregateBytes& into, const AggregateBytes& from) const override;
  Decision decide(uint32_t s, uint32_t phase, uint64_t active, const AggregateBytes& aggregate) override;
  std::vector<wire::TopEntry> top(unsigned) const override { return {}; }

 private:
  static constexpr uint64_t kEdgesPerStall = uint64_t{1} << 16;
  static constexpr uint64_t kCrashAfter = 1000;  // --crash-node R:load: edges sent before dying

  // Written by its worker; the atomics are read by worker 0 for the progress line.
  struct alignas(64) WorkerState {
    std::unique_ptr<BucketWriter<LoadRecord>> writer;
    std::unique_ptr<EdgeStore> own;  // edges whose source this node owns: never sent
    StepStats stats;
    AggregateBytes aggregate{};
    uint64_t vertex_lines = 0;  // count superstep
    uint64_t bytes_read = 0;
    double read_seconds = 0, parse_seconds = 0;
    const InputBytes* reading = nullptr;
    std::atomic<uint64_t> parsed{0}, sent{0}, bytes_now{0};
  };

  template <class Emit>
  void read_share(unsigned w, Emit&& emit, LoadAggregate& agg);
  void send_edges(unsigned w, const Stall& stall);
  void build_blocks();
  void send_in_degrees(const Stall& stall);
  void split_domains();
  void send_slot_table(const Stall& stall);
  void print_progress(bool last);
  reader::SliceSpec worker_slice(unsigned w) const;
  std::string describe_part(unsigned r) const;

  Dataplane& dp_;
  const GraphInput input_;
  const LoadOptions rules_;
  const unsigned rank_, nodes_;
  const bool progress_;
  std::vector<WorkerState> workers_;
  std::vector<Step> steps_;
  reader::InputHeader header_;
  uint64_t header_bytes_read_ = 0;
  // The network role appends what arrives: edges, and the later supersteps' records.
  EdgeStore received_;
  Chunks<LoadRecord> inbox_[4];  // by Step (kDegrees, kSlots)
  std::atomic<uint64_t> edges_in_{0};  // edges received so far, for the progress line

  // The coordinator's (worker 0's lcore): figures decided on and the graph.
  mutable Step current_ = Step::kEdges;
  mutable uint64_t vertex_lines_total_ = 0, vertex_lines_before_ = 0;
  mutable LoadAggregate totals_{};
  mutable VertexId num_vertices_ = 0;
  mutable bool weighted_ = false;
  mutable uint64_t edges_built_ = 0, fingerprint_sum_ = 0;  // cluster-wide, of the built blocks
  uint64_t edges_received_ = 0;                               // edges other nodes sent here
  LocalGraph graph_;                 // identity numbering (slot = v div P) until finish()
  std::vector<uint32_t> in_degree_;  // by local index
  DomainPartition partition_;
  std::vector<uint32_t> own_slot_;   // k > 1: each local vertex's slot
  std::vector<uint8_t> own_domain_;
  Clock::time_point started_ = Clock::now(), edges_started_{}, last_progress_{};
  double edges_seconds_ = 0, build_seconds_ = 0;
};

}  // namespace wg::load
