// The loading phase's driver (compute/load/graph_loader.h says what each of its
// supersteps does): read and shuffle in graph_loader.cc, the build in
// graph_loader_build.cc. Internal to compute/.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "compute/engine/bucket_writer.h"
#include "compute/graph/graph_formats.h"
#include "compute/load/graph_loader.h"
#include "compute/graph/graphalytics_input.h"
#include "compute/graph/id_table.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/line_slice.h"
#include "compute/load/load_aggregate.h"
#include "compute/load/load_records.h"

namespace wg::load {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The loading phase's supersteps: count for METIS files and Graphalytics
// graphs (their vertex files); the id mapping (graph_loader_ids.cc), for
// Graphalytics graphs count, vertices, owners, requests, responses, and for
// edge lists under --ids sparse sample, requests, numbering, owners,
// responses; then edges and degrees; slots for k > 1 domains only.
enum class Step : uint8_t {
  kCount, kVertices, kOwners, kRequests, kResponses, kSample, kNumbering, kEdges, kDegrees, kSlots
};
inline constexpr size_t kSteps = 10;



// A worker's records: LoadRecords of 12 bytes, or, when the program reads
// real weights, WideLoadRecords of 20 (every superstep of the phase: one
// record size per phase), the edge's weight after the LoadRecord.
class LoadWriter {
 public:
  LoadWriter(Dataplane& dp, unsigned nodes, unsigned rank, bool wide) {
    if (wide)
      wide_ = std::make_unique<BucketWriter<WideLoadRecord>>(dp, nodes, rank);
    else
      narrow_ = std::make_unique<BucketWriter<LoadRecord>>(dp, nodes, rank);
  }
  void start_superstep(uint32_t epoch) { wide_ ? wide_->start_superstep(epoch) : narrow_->start_superstep(epoch); }
  template <class Stall>
  void put(unsigned dst, const LoadRecord& r, const Stall& stall, double weight = 0) {
    if (wide_)
      wide_->put(dst, WideLoadRecord{r, weight}, stall);
    else
      narrow_->put(dst, r, stall);
  }
  void close_all(unsigned nodes) { wide_ ? wide_->close_all(nodes) : narrow_->close_all(nodes); }
  uint64_t buckets_to(unsigned dst) const { return wide_ ? wide_->buckets_to(dst) : narrow_->buckets_to(dst); }
  uint64_t records_to(unsigned dst) const { return wide_ ? wide_->records_to(dst) : narrow_->records_to(dst); }

 private:
  std::unique_ptr<BucketWriter<LoadRecord>> narrow_;
  std::unique_ptr<BucketWriter<WideLoadRecord>> wide_;
};

// A parsed weight as the loader carries it: a real weight travels beside
// the integer one (1); an integer weight stands for itself (the real one
// below 0: none given).
template <class W>
std::pair<Weight, double> weights_of(W weight) {
  if constexpr (std::is_same_v<W, double>)
    return {1, weight};
  else
    return {weight, -1.0};
}

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
  // Every record travels on queue 0 (one range per node: routes()).
  uint64_t buckets_to(unsigned w, unsigned node, unsigned queue) const override {
    return queue == 0 ? workers_[w].writer->buckets_to(node) : 0;
  }
  uint64_t records_to(unsigned w, unsigned node, unsigned queue) const override {
    return queue == 0 ? workers_[w].writer->records_to(node) : 0;
  }
  uint64_t folded_directly(unsigned) const override { return 0; }
  uint64_t direct_overflows(unsigned) const override { return 0; }
  unsigned record_bytes() const override { return rules_.real_weights ? sizeof(WideLoadRecord) : sizeof(LoadRecord); }
  const QueueRoutes& routes() const override { return routes_; }
  unsigned domains() const override { return 1; }
  // Record contents are checked where they are used, once V is known.
  uint32_t domain_size(unsigned) const override { return UINT32_MAX; }
  uint32_t max_index(const uint8_t*, unsigned) const override { return 0; }
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) override {
    if (t >= steps_.size()) return false;
    if (steps_[t] == Step::kEdges) edges_in_.fetch_add(count, std::memory_order_relaxed);
    if (rules_.real_weights) {
      const auto* r = reinterpret_cast<const WideLoadRecord*>(records);
      if (steps_[t] == Step::kEdges)
        received_.append(r, count);
      else
        for (unsigned i = 0; i < count; ++i) inbox_[static_cast<size_t>(steps_[t])].push(r[i].r);
      return true;
    }
    const auto* r = reinterpret_cast<const LoadRecord*>(records);
    if (steps_[t] == Step::kEdges && rules_.in_edges)
      for (unsigned i = 0; i < count; ++i) (r[i].b == kInEdgeMark ? received_in_ : received_).push(r[i].index, r[i].a, 1, 0.0);
    else if (steps_[t] == Step::kEdges)
      received_.append(r, count);
    else
      inbox_[static_cast<size_t>(steps_[t])].append(r, count);
    return true;
  }
  void merge(AggregateBytes& into, const AggregateBytes& from) const override;
  Decision decide(uint32_t s, uint32_t phase, uint64_t active, const AggregateBytes& aggregate) override;
  std::vector<wire::TopEntry> top(unsigned) const override { return {}; }

 private:
  static constexpr uint64_t kEdgesPerStall = uint64_t{1} << 16;
  static constexpr uint64_t kCrashAfter = 1000;  // --crash-node R:load: edges sent before dying
  // The weight word of a reversed edge (LoadOptions::in_edges: unweighted
  // programs only, whose edges travel with weight 1).
  static constexpr Weight kInEdgeMark = Weight{1} << 31;

  // Written by its worker; the atomics are read by worker 0 for the progress line.
  struct alignas(64) WorkerState {
    std::unique_ptr<LoadWriter> writer;
    std::unique_ptr<HeldEdges> own;  // edges whose source this node owns: never sent
    std::unique_ptr<HeldEdges> own_in;  // in-edges (reversed) whose target this node owns: never sent
    StepStats stats;
    AggregateBytes aggregate{};
    uint64_t vertex_lines = 0;  // count superstep
    uint64_t bytes_read = 0;
    double read_seconds = 0, parse_seconds = 0;
    const InputBytes* reading = nullptr;
    std::atomic<uint64_t> parsed{0}, sent{0}, bytes_now{0}, entries_now{0};
    // --ids sparse: the slice's edges as the sample superstep parsed them,
    // each id as the worker's number for it (wanted_[w]'s values), or as
    // itself where ends_are_ids, and what the parse counted; the edges
    // superstep translates them in memory (through dense_of) instead of
    // parsing the slice a second time, freeing each chunk as it goes (the
    // edges it emits are held or sent meanwhile).
    Chunks<uint32_t> kept_ends;        // src, dst, src, dst, ... (chunks hold whole edges)
    bool ends_are_ids = false;
    std::vector<uint64_t> named;       // ends_are_ids: a bit per id below its size * 64
    std::vector<Weight> kept_weights;  // the program reads integer weights
    std::vector<double> kept_reals;    // the program reads real weights
    reader::SliceTotals kept_totals;
  };

  template <class Emit>
  void read_share(unsigned w, Emit&& emit, LoadAggregate& agg);
  // parse(W{}) with the weight column as the program reads it: not at all, as
  // an integer or as a double (reader_support.h's SkipWeight, Weight, RealWeight).
  template <class Parse>
  auto parse_by_weights(Parse&& parse) const {
    if (!rules_.keep_weights) return parse(reader::SkipWeight{});
    if (rules_.real_weights) return parse(reader::RealWeight{});
    return parse(Weight{});
  }
  template <class Emit>
  reader::SliceTotals replay_kept_edges(unsigned w, Emit&& emit);
  // ---- sparse ids: Graphalytics graphs, --ids sparse (graph_loader_ids.cc) ----
  uint64_t count_vertex_lines(unsigned w);
  void send_vertices(unsigned w, const Stall& stall);
  void collect_ids(unsigned w, const Stall& stall);
  void number_named_ids(unsigned w);
  void send_samples(unsigned w, const Stall& stall);
  void choose_splitters();
  void number_ids();
  void build_directory();
  void send_owners(const Stall& stall);
  void take_original_ids();
  void send_requests(unsigned w, const Stall& stall);
  void send_responses(const Stall& stall);
  void build_translation();
  VertexId translated(int64_t id) const;
  template <class Emit>
  void read_graphalytics_edges(unsigned w, Emit&& emit, LoadAggregate& agg);
  unsigned directory_of(int64_t id) const;
  void merge_vertex_order(AggregateBytes& into, const AggregateBytes& from) const;
  void check_vertex_order(const AggregateBytes& aggregate) const;
  void send_edges(unsigned w, const Stall& stall);
  void build_blocks(const Stall& stall);
  void build_in_blocks(const Stall& stall);
  static void check_received(HeldEdges& received, bool in_edges, VertexId n);
  // f(src, dst, weight, real weight), then the network roles polled every
  // kEdgesPerStall edges (counted in `since_stall`).
  template <class F>
  static auto polled(F& f, uint64_t& since_stall, const Stall& stall) {
    return [&f, &since_stall, &stall](VertexId src, VertexId dst, Weight w, double rw) {
      f(src, dst, w, rw);
      if (++since_stall == kEdgesPerStall) [[unlikely]] {
        since_stall = 0;
        stall(false);
      }
    };
  }
  // The edges held in the workers' `own` stores and `received`, as
  // build_out_edges reads them: two passes, each bucket by bucket (bucket b
  // of every store, then b + 1), the second freeing each chunk once placed,
  // so the peak is the edges held plus one bucket's share of the blocks, not
  // both (compute/partition/partition.h, source_buckets). On a shared lcore
  // the network roles run only when polled: the passes poll them every
  // kEdgesPerStall edges, so that a long build still sends keepalives and
  // acks (a build longer than --peer-timeout would get its node declared
  // dead) and whatever this node still owes its peers (frames the port could
  // not take yet, retransmissions) leaves now, not after the build.
  template <class F>
  void for_each_held(std::unique_ptr<HeldEdges> WorkerState::* own, HeldEdges& received, F&& f, bool release) {
    size_t buckets = received.buckets();
    for (WorkerState& ws : workers_) buckets = std::max(buckets, (ws.*own)->buckets());
    for (size_t b = 0; b < buckets; ++b) {
      for (WorkerState& ws : workers_) (ws.*own)->for_each_in(b, f, release);
      received.for_each_in(b, f, release);
    }
  }
  auto held_passes(std::unique_ptr<HeldEdges> WorkerState::* own, HeldEdges& received, const Stall& stall) {
    return [this, own, &received, &stall, pass = 0u, since_stall = uint64_t{0}](auto&& f) mutable {
      const bool last = ++pass == 2;
      auto polled_f = polled(f, since_stall, stall);
      for_each_held(own, received, polled_f, last);
    };
  }
  uint64_t held_edges(std::unique_ptr<HeldEdges> WorkerState::* own, const HeldEdges& received) const {
    uint64_t n = received.size();
    for (const WorkerState& ws : workers_) n += (ws.*own)->size();
    return n;
  }
  void send_in_degrees(const Stall& stall);
  void split_domains();
  template <class F>
  void for_each_peer_slot(F&& f);
  void renumber_by_slot_tables(LocalGraph& g);
  void send_slot_table(const Stall& stall);
  void print_progress(bool last);
  // What the progress line counts: this node's bytes of the input file, or
  // its edges (generated, in memory).
  struct ProgressPlan {
    uint64_t total = 0;
    bool bytes = true;
  };
  ProgressPlan progress_plan() const;
  reader::SliceSpec worker_slice(unsigned w) const { return worker_slice(w, header_); }
  reader::SliceSpec worker_slice(unsigned w, const reader::InputHeader& h) const;
  std::string describe_part(unsigned r) const;
  std::string describe_edge_part(unsigned r) const;

  Dataplane& dp_;
  const QueueRoutes routes_ = QueueRoutes::single();  // the network role's appends need one writer: queue 0's
  const GraphInput input_;
  const LoadOptions rules_;
  const unsigned rank_, nodes_;
  const detail::FastDiv by_nodes_;  // an edge's owner and local index per endpoint, no divide instruction
  const LoadProgress progress_;
  bool progress_shown_ = false;  // a line was rewritten in place: erase it at the end
  const bool sparse_;  // --ids sparse on an edge list or binary file
  std::vector<WorkerState> workers_;
  std::vector<Step> steps_;
  reader::InputHeader header_;
  uint64_t header_bytes_read_ = 0;
  // The network role appends what arrives: edges, and the later supersteps' records.
  HeldEdges received_;
  HeldEdges received_in_;  // reversed edges (LoadOptions::in_edges)
  mutable Chunks<LoadRecord> inbox_[kSteps];  // by Step (all but kEdges); the coordinator takes kResponses
  std::atomic<uint64_t> edges_in_{0};  // edges received so far, for the progress line

  // The coordinator's (worker 0's lcore): figures decided on and the graph.
  mutable Step current_ = Step::kEdges;
  // Vertex lines (METIS, Graphalytics' NAME.v) or, under --ids sparse, the
  // directories' distinct ids: in all, and before this node's.
  mutable uint64_t vertex_lines_total_ = 0, vertex_lines_before_ = 0;
  mutable LoadAggregate totals_{};
  mutable VertexId num_vertices_ = 0;
  mutable bool weighted_ = false;
  mutable uint64_t edges_built_ = 0, fingerprint_sum_ = 0;  // cluster-wide, of the built blocks
  uint64_t edges_received_ = 0;                               // edges other nodes sent here
  LocalGraph graph_;                 // identity numbering (slot = v div P) until finish()
  std::vector<uint32_t> in_degree_;  // by local index
  DomainPartition partition_;
  std::vector<uint32_t> own_slot_;   // k > 1 or degree order: each local vertex's slot
  std::vector<uint8_t> own_domain_;
  // Sparse ids (graph_loader_ids.cc): a Graphalytics graph's files' headers
  // (no header: sizes only); --ids sparse: the directories' ranges
  // (compute/load/id_directory.h) and this directory's distinct ids, sorted, until
  // they are numbered; this node's share of the directory (id -> dense), the
  // original id of every vertex this node owns (by local index), the ids
  // this node's workers' edges use and their dense ids.
  reader::InputHeader vertex_header_, edge_header_;
  // How the edge lines are read: the graph's spec, without its weight column
  // for a program that reads no weights (the column is then not parsed).
  GraphalyticsSpec edge_spec_;
  std::vector<int64_t> splitters_;
  std::vector<int64_t> numbered_;
  IdTable directory_;
  std::vector<int64_t> original_id_;
  mutable std::vector<IdTable> wanted_;  // per worker: the distinct ids of its edge lines
  mutable IdTable translation_;          // built by the coordinator after the responses
  mutable std::optional<VertexId> source_;
  mutable std::vector<VertexId> lookups_;  // LoadOptions::lookups, mapped
  Clock::time_point started_ = Clock::now(), edges_started_{}, last_progress_{};
  double edges_seconds_ = 0, build_seconds_ = 0;
};

// Calls emit(src, dst, weight) with the original ids of every edge line of
// worker w's part of a Graphalytics edge file; a GraphError thrown by the
// parser or by emit is rethrown with the line's number.
template <class Emit>
void GraphLoader::read_graphalytics_edges(unsigned w, Emit&& emit, LoadAggregate& agg) {
  WorkerState& ws = workers_[w];
  const GraphalyticsSpec& spec = edge_spec_;
  FileBytes bytes(spec.edge_file);
  ws.reading = &bytes;
  const reader::SliceSpec sp = worker_slice(w, edge_header_);
  LineSlice lines(bytes, sp.begin, sp.end, sp.first, sp.first ? 0 : LineSlice::kUnknown);
  std::string_view line;
  try {
    while (lines.next(line)) {
      if (reader::is_skippable(line, true)) continue;
      const reader::GraphalyticsEdge e = reader::parse_graphalytics_edge(spec.edge_file, spec, line);
      if (agg.columns == 0) {
        agg.columns = static_cast<uint8_t>(std::min(e.fields, 255u));
      } else if (e.fields != agg.columns && spec.properties_path.empty()) {
        reader::fail(spec.edge_file, 0, "inconsistent column count: this line has " + std::to_string(e.fields) +
                                            " fields, the lines before it " + std::to_string(agg.columns));
      }
      ++agg.entries;
      emit(e.src, e.dst, e.weight);
    }
  } catch (const GraphError& e) {
    ws.reading = nullptr;
    lines.rethrow_at_line(e.detail());
  }
  ws.reading = nullptr;
  if (lines.has_head()) {
    agg.flags |= kHasHead;
    agg.head_hash = lines.head_hash();
  }
  if (lines.has_tail()) {
    agg.flags |= kHasTail;
    agg.tail_hash = lines.tail_hash();
    agg.tail_rank = static_cast<uint8_t>(rank_);
  }
  ws.bytes_read += bytes.bytes_read();
  ws.read_seconds += bytes.read_seconds();
}

}  // namespace wg::load
