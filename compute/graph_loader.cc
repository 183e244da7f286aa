#include "compute/graph_loader.h"

#include <rte_cycles.h>

#include <algorithm>
#include <csignal>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "compute/bucket_writer.h"
#include "compute/graph_formats.h"
#include "compute/input_bytes.h"

namespace wg {

LoadOptions load_options(const GraphRules& program, bool undirected, unsigned domains, bool metis) {
  LoadOptions r;
  r.symmetrize = undirected || program.symmetrize;
  r.drop_self_loops = program.drop_self_loops;
  r.drop_duplicates = program.drop_duplicates;
  r.keep_weights = program.weights;
  r.domains = domains;
  r.metis = metis;
  return r;
}

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Every record of the loading phase: 12 bytes, three words.
//   edges:   (src, dst, weight)
//   degrees: (target's local index on the receiver, in-edges from the sender, 0)
//   slots:   (vertex, its slot on its owner, its domain)
struct __attribute__((packed, aligned(4))) LoadRecord {
  uint32_t index;
  uint32_t a;
  uint32_t b;
};
static_assert(sizeof(LoadRecord) == 12 && sizeof(LoadRecord) == sizeof(Edge));

// Records in chunks, so that growing never copies (or doubles) what is
// held, and the build frees each chunk once it has placed its edges.
class RecordChunks {
 public:
  void push(const LoadRecord& r) {
    if (fill_ == kChunk || chunks_.empty()) grow();
    chunks_.back()[fill_++] = r;
    ++size_;
  }
  void append(const LoadRecord* r, unsigned n) {
    while (n > 0) {
      if (fill_ == kChunk || chunks_.empty()) grow();
      const unsigned take = std::min<unsigned>(n, static_cast<unsigned>(kChunk - fill_));
      std::memcpy(chunks_.back().get() + fill_, r, take * sizeof(LoadRecord));
      fill_ += take;
      size_ += take;
      r += take;
      n -= take;
    }
  }
  // Calls f(record) for every record, in order; with `release`, frees each
  // chunk once it is done (the records are gone afterwards).
  template <class F>
  void for_each(F&& f, bool release = false) {
    for (size_t c = 0; c < chunks_.size(); ++c) {
      const size_t n = c + 1 == chunks_.size() ? fill_ : kChunk;
      for (size_t i = 0; i < n; ++i) f(chunks_[c][i]);
      if (release) chunks_[c].reset();
    }
    if (release) clear();
  }
  uint64_t size() const { return size_; }
  void clear() {
    chunks_.clear();
    chunks_.shrink_to_fit();
    fill_ = 0;
    size_ = 0;
  }

 private:
  static constexpr size_t kChunk = size_t{1} << 16;  // 768 KiB
  void grow() {
    chunks_.push_back(std::make_unique_for_overwrite<LoadRecord[]>(kChunk));
    fill_ = 0;
  }
  std::vector<std::unique_ptr<LoadRecord[]>> chunks_;
  size_t fill_ = 0;
  uint64_t size_ = 0;
};

// The edge superstep's END aggregate: what every node needs of every other
// node's share, merged in rank order (identical on every node). 64 bytes.
struct LoadAggregate {
  uint64_t max_id_plus1;  // largest vertex id + 1 (or the declared count)
  uint64_t entries;       // input entries (lines, records, METIS neighbour entries)
  uint64_t edges;         // directed edges after the per-edge rules
  uint64_t head_hash;     // text: the first range's bytes up to its first line break
  uint64_t tail_hash;     // text: the last line's bytes past the last range's end
  uint64_t spare[2];
  uint8_t origin;         // the node this aggregate (or its last part) came from
  uint8_t tail_rank;      // the node whose tail tail_hash is
  uint8_t columns;        // edge lists: fields per data line, 0 if none
  uint8_t other_columns;  // a different count seen later (kColumnsDiffer)
  uint8_t flags;
  uint8_t mismatch_rank;  // the node where a difference showed
  uint8_t pad[2];
};
static_assert(sizeof(LoadAggregate) <= wire::kMaxAggregateBytes);
enum : uint8_t { kSeen = 1, kHasHead = 2, kHasTail = 4, kColumnsDiffer = 8, kBoundaryDiffers = 16 };

// The count superstep's aggregate (METIS files): vertex lines, and the lines
// before this node's share, found while merging in rank order.
struct LineCount {
  uint64_t lines;
  uint64_t before_me;
  uint8_t origin;
  uint8_t seen_me;
};

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
    inbox_[static_cast<size_t>(steps_[t])].append(reinterpret_cast<const LoadRecord*>(records), count);
    if (steps_[t] == Step::kEdges) edges_in_.fetch_add(count, std::memory_order_relaxed);
    return true;
  }
  void merge(AggregateBytes& into, const AggregateBytes& from) const override;
  Decision decide(uint32_t s, uint32_t phase, uint64_t active, const AggregateBytes& aggregate) const override;
  std::vector<wire::TopEntry> top(unsigned) const override { return {}; }

 private:
  static constexpr uint64_t kEdgesPerStall = uint64_t{1} << 16;
  static constexpr uint64_t kCrashAfter = 1000;  // --crash-node R:load: edges sent before dying

  // Written by its worker; the atomics are read by worker 0 for the progress line.
  struct alignas(64) WorkerState {
    std::unique_ptr<BucketWriter<LoadRecord>> writer;
    RecordChunks own;  // edges whose source this node owns: never sent
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
  RecordChunks inbox_[4];  // by Step; the network role appends
  std::atomic<uint64_t> edges_in_{0};  // edges received so far, for the progress line

  // The coordinator's (worker 0's lcore): figures decided on and the graph.
  mutable Step current_ = Step::kEdges;
  mutable uint64_t vertex_lines_total_ = 0, vertex_lines_before_ = 0;
  mutable LoadAggregate totals_{};
  mutable VertexId num_vertices_ = 0;
  mutable bool weighted_ = false;
  mutable uint64_t edges_built_ = 0, fingerprint_sum_ = 0;  // cluster-wide, of the built blocks
  uint64_t received_ = 0;                                    // edges other nodes sent here
  LocalGraph graph_;                 // identity numbering (slot = v div P) until finish()
  std::vector<uint32_t> in_degree_;  // by local index
  DomainPartition partition_;
  std::vector<uint32_t> own_slot_;   // k > 1: each local vertex's slot
  std::vector<uint8_t> own_domain_;
  Clock::time_point started_ = Clock::now(), edges_started_{}, last_progress_{};
  double edges_seconds_ = 0, build_seconds_ = 0;
};

GraphLoader::GraphLoader(Dataplane& dp, const GraphInput& input, const LoadOptions& rules, unsigned workers)
    : dp_(dp), input_(input), rules_(rules), rank_(dp.options().rank), nodes_(dp.options().nodes),
      progress_(rules.progress), workers_(workers) {
  for (WorkerState& ws : workers_) ws.writer = std::make_unique<BucketWriter<LoadRecord>>(dp, nodes_, rank_);
  if (input.kind == GraphInput::Kind::kFile) {
    FileBytes bytes(input.spec);
    header_ = reader::read_header(bytes, input.format);
    header_bytes_read_ = bytes.bytes_read();
  }
  if (input.kind == GraphInput::Kind::kFile && header_.format == GraphFormat::kMetis) steps_.push_back(Step::kCount);
  steps_.insert(steps_.end(), {Step::kEdges, Step::kDegrees});
  if (rules.domains > 1) steps_.push_back(Step::kSlots);
}

// Node r's share of the data is slice r of P (compute/graph_formats.h); its
// workers split that share again, so the node reads [r/P, (r+1)/P) whatever
// its worker count.
reader::SliceSpec GraphLoader::worker_slice(unsigned w) const {
  const reader::SliceSpec node = reader::slice_of(header_, rank_, nodes_);
  reader::SliceSpec s = node;
  const uint64_t len = node.end - node.begin;
  s.begin = node.begin + len * w / workers();
  s.end = node.begin + len * (w + 1) / workers();
  s.first = node.first && w == 0;
  s.entries_before_known = s.first;
  return s;
}

std::string GraphLoader::describe_part(unsigned r) const {
  const reader::SliceSpec sp = reader::slice_of(header_, r, nodes_);
  const uint64_t unit = header_.record_bytes ? header_.record_bytes : 1;
  return "node " + std::to_string(r) + "'s part (bytes " + std::to_string(sp.begin * unit) + ".." +
         std::to_string(sp.end * unit) + ")";
}

// Calls emit(src, dst, weight) for every input edge of worker w's share.
template <class Emit>
void GraphLoader::read_share(unsigned w, Emit&& emit, LoadAggregate& agg) {
  WorkerState& ws = workers_[w];
  const auto t0 = Clock::now();
  double read_before = ws.read_seconds;
  switch (input_.kind) {
    case GraphInput::Kind::kFile: {
      FileBytes bytes(input_.spec);
      ws.reading = &bytes;
      reader::SliceSpec sp = worker_slice(w);
      sp.vertex_base = vertex_lines_before_;
      for (unsigned v = 0; v < w; ++v) sp.vertex_base += workers_[v].vertex_lines;
      reader::SliceTotals t;
      try {
        t = reader::parse_slice(bytes, header_, sp, emit);
      } catch (...) {
        ws.reading = nullptr;
        throw;
      }
      ws.reading = nullptr;
      agg.max_id_plus1 = t.max_id_plus1;
      agg.entries = t.entries;
      agg.columns = static_cast<uint8_t>(t.columns);
      if (t.has_head) {
        agg.flags |= kHasHead;
        agg.head_hash = t.head_hash;
      }
      if (t.has_tail) {
        agg.flags |= kHasTail;
        agg.tail_hash = t.tail_hash;
        agg.tail_rank = static_cast<uint8_t>(rank_);
      }
      ws.bytes_read += bytes.bytes_read();
      ws.read_seconds += bytes.read_seconds();
      break;
    }
    case GraphInput::Kind::kGenerator: {
      const KroneckerGenerator gen(input_.kron);
      const uint64_t nb = gen.num_blocks();
      const uint64_t node_lo = nb * rank_ / nodes_, node_hi = nb * (rank_ + 1) / nodes_;
      const uint64_t lo = node_lo + (node_hi - node_lo) * w / workers();
      const uint64_t hi = node_lo + (node_hi - node_lo) * (w + 1) / workers();
      std::vector<Edge> block(KroneckerGenerator::kBlockEdges);
      for (uint64_t b = lo; b < hi; ++b) {
        const uint64_t n = gen.block(b, block.data());
        for (uint64_t i = 0; i < n; ++i) emit(block[i].src, block[i].dst, block[i].weight);
        agg.entries += n;
      }
      agg.max_id_plus1 = gen.num_vertices();
      break;
    }
    case GraphInput::Kind::kMemory: {
      const std::vector<Edge>& all = input_.edges->edges;
      const uint64_t e = all.size();
      const uint64_t node_lo = e * rank_ / nodes_, node_hi = e * (rank_ + 1) / nodes_;
      const uint64_t lo = node_lo + (node_hi - node_lo) * w / workers();
      const uint64_t hi = node_lo + (node_hi - node_lo) * (w + 1) / workers();
      for (uint64_t i = lo; i < hi; ++i) emit(all[i].src, all[i].dst, all[i].weight);
      agg.entries = hi - lo;
      agg.max_id_plus1 = input_.edges->num_vertices;
      break;
    }
  }
  ws.parse_seconds += seconds_since(t0) - (ws.read_seconds - read_before);
}

void GraphLoader::apply(unsigned w, const StepControl& c, const Stall&) {
  WorkerState& ws = workers_[w];
  ws.stats = StepStats{};
  ws.stats.superstep = c.superstep;
  ws.aggregate = AggregateBytes{};
  const Step step = steps_[c.superstep];
  if (w == 0) current_ = step;  // merge and decide run on this lcore, after the workers
  switch (step) {
    case Step::kCount: {
      FileBytes bytes(input_.spec);
      ws.vertex_lines = reader::count_metis_vertex_lines(bytes, header_, worker_slice(w));
      ws.bytes_read += bytes.bytes_read();
      ws.read_seconds += bytes.read_seconds();
      const LineCount lc{ws.vertex_lines, 0, static_cast<uint8_t>(rank_), 0};
      std::memcpy(ws.aggregate.data(), &lc, sizeof lc);
      break;
    }
    case Step::kEdges:
      if (w == 0) edges_started_ = last_progress_ = Clock::now();
      break;
    case Step::kDegrees:
      if (w == 0) {
        edges_seconds_ = seconds_since(edges_started_);
        const auto t0 = Clock::now();
        build_blocks();
        build_seconds_ += seconds_since(t0);
      }
      break;
    case Step::kSlots:
      if (w == 0) {
        const auto t0 = Clock::now();
        split_domains();
        build_seconds_ += seconds_since(t0);
      }
      break;
  }
}

void GraphLoader::scatter(unsigned w, const StepControl& c, const Stall& stall) {
  WorkerState& ws = workers_[w];
  ws.writer->start_superstep(c.epoch);
  switch (steps_[c.superstep]) {
    case Step::kCount: break;
    case Step::kEdges: send_edges(w, stall); break;
    case Step::kDegrees:
      if (w == 0) send_in_degrees(stall);
      break;
    case Step::kSlots:
      if (w == 0) send_slot_table(stall);
      break;
  }
  ws.writer->close_all(nodes_);
  for (unsigned p = 0; p < nodes_; ++p) {
    if (p == rank_) continue;
    ws.stats.messages_sent += ws.writer->records_to(p);
    ws.stats.buckets_sent += ws.writer->buckets_to(p);
  }
}

// The edge superstep: the worker's share, through the program's per-edge
// rules, to the owners of the sources (own edges stay in the worker's list).
void GraphLoader::send_edges(unsigned w, const Stall& stall) {
  WorkerState& ws = workers_[w];
  LoadAggregate agg{};
  agg.origin = static_cast<uint8_t>(rank_);
  uint64_t since_stall = 0, parsed = 0, sent = 0;
  auto route = [&](VertexId src, VertexId dst, Weight weight) {
    if (rules_.drop_self_loops && src == dst) return;
    ++parsed;
    const unsigned owner = src % nodes_;
    if (owner == rank_) {
      ws.own.push(LoadRecord{src, dst, weight});
    } else {
      ws.writer->put(owner, LoadRecord{src, dst, weight}, stall);
      if (++sent == kCrashAfter && rules_.crash_in_shuffle) [[unlikely]]
        raise(SIGKILL);  // test hook: a node dies with its edges half sent
    }
  };
  auto emit = [&](VertexId src, VertexId dst, Weight weight) {
    route(src, dst, weight);
    if (rules_.symmetrize && src != dst) route(dst, src, weight);
    // The network roles (acks, keepalives) run on a shared lcore even when
    // few edges leave this node.
    if (++since_stall == kEdgesPerStall) [[unlikely]] {
      since_stall = 0;
      ws.parsed.store(parsed, std::memory_order_relaxed);
      ws.sent.store(sent, std::memory_order_relaxed);
      if (ws.reading != nullptr) ws.bytes_now.store(ws.reading->bytes_read(), std::memory_order_relaxed);
      stall(false);
      if (w == 0) print_progress(false);
    }
  };
  read_share(w, emit, agg);
  if (rules_.crash_in_shuffle) raise(SIGKILL);  // fewer than kCrashAfter edges to send
  agg.edges = parsed;
  agg.flags |= kSeen;
  ws.parsed.store(parsed, std::memory_order_relaxed);
  ws.sent.store(sent, std::memory_order_relaxed);
  ws.stats.active = parsed;  // the superstep line's "active": edges this worker read
  std::memcpy(ws.aggregate.data(), &agg, sizeof agg);
}

void GraphLoader::print_progress(bool last) {
  if (!progress_) return;
  const auto now = Clock::now();
  if (!last && std::chrono::duration<double>(now - last_progress_).count() < 1.0) return;
  last_progress_ = now;
  uint64_t parsed = 0, sent = 0, bytes = 0;
  for (const WorkerState& ws : workers_) {
    parsed += ws.parsed.load(std::memory_order_relaxed);
    sent += ws.sent.load(std::memory_order_relaxed);
    bytes += last ? ws.bytes_read : ws.bytes_now.load(std::memory_order_relaxed);
  }
  const double secs = std::max(1e-9, std::chrono::duration<double>(now - edges_started_).count());
  const uint64_t received = edges_in_.load(std::memory_order_relaxed);
  std::printf("load: %s%lu edges read, %lu sent, %lu received", last ? "done: " : "",
              static_cast<unsigned long>(parsed), static_cast<unsigned long>(sent),
              static_cast<unsigned long>(received));
  if (input_.kind == GraphInput::Kind::kFile) std::printf(", %.1f MB read at %.1f MB/s", bytes / 1e6, bytes / 1e6 / secs);
  std::printf(", %.1f M edges/s sent\n", sent / 1e6 / secs);
  std::fflush(stdout);
}

// The count and edge aggregates merge in rank order (workers first, in
// worker order, within a node): sums, maxima, the first column count, and
// the boundary check between consecutive nodes.
void GraphLoader::merge(AggregateBytes& into, const AggregateBytes& from) const {
  if (current_ == Step::kCount) {
    LineCount a, b;
    std::memcpy(&a, into.data(), sizeof a);
    std::memcpy(&b, from.data(), sizeof b);
    if (b.origin == rank_ && !a.seen_me) {  // the first part of this node: the lines before it are a.lines
      a.before_me = a.lines;
      a.seen_me = 1;
    }
    a.lines += b.lines;
    a.origin = b.origin;
    std::memcpy(into.data(), &a, sizeof a);
    return;
  }
  if (current_ == Step::kDegrees) {  // (edges, fingerprint) of the built blocks
    uint64_t a[2], b[2];
    std::memcpy(a, into.data(), sizeof a);
    std::memcpy(b, from.data(), sizeof b);
    a[0] += b[0];
    a[1] += b[1];
    std::memcpy(into.data(), a, sizeof a);
    return;
  }
  if (current_ != Step::kEdges) return;
  LoadAggregate a, b;
  std::memcpy(&a, into.data(), sizeof a);
  std::memcpy(&b, from.data(), sizeof b);
  if (!(b.flags & kSeen)) return;
  const bool first = !(a.flags & kSeen);
  a.max_id_plus1 = std::max(a.max_id_plus1, b.max_id_plus1);
  a.entries += b.entries;
  a.edges += b.edges;
  if (a.columns == 0) {
    a.columns = b.columns;
  } else if (b.columns != 0 && b.columns != a.columns && !(a.flags & kColumnsDiffer)) {
    a.flags |= kColumnsDiffer;
    a.other_columns = b.columns;
    a.mismatch_rank = b.origin;
  }
  if (first) {
    a.flags |= b.flags & kHasHead;
    a.head_hash = b.head_hash;
  }
  // The tail of node r and the head of node r+1 are the same bytes of one file.
  if ((a.flags & kHasTail) && (b.flags & kHasHead) && b.origin == a.tail_rank + 1 && a.tail_hash != b.head_hash &&
      !(a.flags & kBoundaryDiffers)) {
    a.flags |= kBoundaryDiffers;
    a.mismatch_rank = b.origin;
  }
  // The merged range ends where b's does: b's tail, or none.
  a.flags &= static_cast<uint8_t>(~kHasTail);
  if (b.flags & kHasTail) {
    a.flags |= kHasTail;
    a.tail_hash = b.tail_hash;
    a.tail_rank = b.tail_rank;
  }
  a.origin = b.origin;
  a.flags |= kSeen;
  std::memcpy(into.data(), &a, sizeof a);
}

Decision GraphLoader::decide(uint32_t s, uint32_t, uint64_t, const AggregateBytes& aggregate) const {
  const Step step = steps_[s];
  if (step == Step::kCount) {
    LineCount lc;
    std::memcpy(&lc, aggregate.data(), sizeof lc);
    vertex_lines_total_ = lc.lines;
    vertex_lines_before_ = lc.before_me;
  } else if (step == Step::kDegrees) {
    uint64_t built[2];
    std::memcpy(built, aggregate.data(), sizeof built);
    edges_built_ = built[0];
    fingerprint_sum_ = built[1];
  } else if (step == Step::kEdges) {
    std::memcpy(&totals_, aggregate.data(), sizeof totals_);
    const LoadAggregate& t = totals_;
    switch (input_.kind) {
      case GraphInput::Kind::kFile: {
        const std::string& path = input_.spec;
        if (t.flags & kColumnsDiffer)
          throw GraphError(path, 0, "inconsistent column count: " + describe_part(t.mismatch_rank) + " has lines of " +
                                        std::to_string(t.other_columns) + " fields, the parts before it lines of " +
                                        std::to_string(t.columns));
        if (t.flags & kBoundaryDiffers)
          throw GraphError(path, 0, "nodes " + std::to_string(t.mismatch_rank - 1) + " and " +
                                        std::to_string(t.mismatch_rank) +
                                        " read different bytes where their parts meet: every node must open the "
                                        "same file (same size and format, different content)");
        reader::SliceTotals totals;
        totals.entries = t.entries;
        totals.vertex_lines = vertex_lines_total_;
        totals.max_id_plus1 = t.max_id_plus1;
        totals.columns = t.columns;
        num_vertices_ = reader::check_totals(path, header_, totals);
        weighted_ = reader::weighted(header_, totals);
        break;
      }
      case GraphInput::Kind::kGenerator:
        num_vertices_ = KroneckerGenerator(input_.kron).num_vertices();
        weighted_ = true;
        break;
      case GraphInput::Kind::kMemory:
        num_vertices_ = input_.edges->num_vertices;
        weighted_ = input_.edges->weighted;
        break;
    }
  }
  return Decision{s + 1 == steps_.size(), 0};
}

// The degrees superstep's apply: this node's out-edges, received and its
// own, into blocks (identity numbering: slot = v div P).
void GraphLoader::build_blocks() {
  const VertexId n = num_vertices_;
  RecordChunks& received = inbox_[static_cast<size_t>(Step::kEdges)];
  // Edges from other nodes must be ours and within V: only corruption without
  // --checksum (or a foreign job) could break that.
  received.for_each([&](const LoadRecord& r) {
    if (r.index % nodes_ != rank_ || r.index >= n || r.a >= n)
      throw std::runtime_error("an edge " + std::to_string(r.index) + " -> " + std::to_string(r.a) +
                               " that is not this node's (or not within the graph's " + std::to_string(n) +
                               " vertices) arrived while loading: corrupted frames (try --checksum on)?");
  });
  received_ = received.size();
  // Two passes (count, place); the second frees each chunk once placed, so
  // the peak is the edges held plus about one chunk of the blocks, not both.
  unsigned pass = 0;
  auto for_each_edge = [&](auto&& f) {
    const bool last = ++pass == 2;
    for (WorkerState& ws : workers_) ws.own.for_each([&](const LoadRecord& r) { f(r.index, r.a, r.b); }, last);
    received.for_each([&](const LoadRecord& r) { f(r.index, r.a, r.b); }, last);
  };
  graph_ = build_out_edges(for_each_edge, n, totals_.edges, nodes_, rank_, rules_.keep_weights, nullptr);
  if (rules_.drop_duplicates) remove_duplicate_targets(graph_);
  in_degree_.assign(graph_.num_local, 0);
  // This node's edges as the program sees them, summed over the cluster in
  // the END of this superstep: |E| and the graph's fingerprint.
  uint64_t built[2] = {0, 0};
  for (unsigned p = 0; p < nodes_; ++p) {
    const EdgeBlock& b = graph_.blocks[p];
    built[0] += b.num_edges();
    for (size_t i = 0; i < b.sources.size(); ++i) {
      const VertexId src = graph_.partition.global_id(rank_, b.sources[i]);
      for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e)
        built[1] += edge_hash(Edge{src, graph_.partition.global_id(p, b.targets[e]), b.weights.empty() ? 1 : b.weights[e]});
    }
  }
  std::memcpy(workers_[0].aggregate.data(), built, sizeof built);
}

// In-edge counts per target, one record per target with any, to its owner.
void GraphLoader::send_in_degrees(const Stall& stall) {
  BucketWriter<LoadRecord>& out = *workers_[0].writer;
  std::vector<uint32_t> count;
  for (unsigned k = 1; k <= nodes_; ++k) {
    const unsigned p = (rank_ + k) % nodes_;  // staggered, as the workers scatter
    const EdgeBlock& b = graph_.blocks[p];
    if (p == rank_) {
      for (uint32_t t : b.targets) ++in_degree_[t];
      continue;
    }
    count.assign(graph_.partition.local_count(p, graph_.num_vertices), 0);
    for (uint32_t t : b.targets) ++count[t];
    for (uint32_t t = 0; t < count.size(); ++t)
      if (count[t] != 0) out.put(p, LoadRecord{t, count[t], 0}, stall);
  }
}

// The slots superstep's apply (k > 1): this node's vertices over its
// domains, numbered domain by domain (compute/slot_map.h).
void GraphLoader::split_domains() {
  const unsigned k = rules_.domains;
  partition_ = partition_domains(graph_, k, rules_.metis);
  std::vector<uint32_t> next(k + 1, 0);
  for (unsigned d = 0; d < k; ++d) next[d + 1] = next[d] + partition_.vertices_per_domain[d];
  own_slot_.resize(graph_.num_local);
  own_domain_ = partition_.domain_of;
  for (uint32_t i = 0; i < graph_.num_local; ++i) own_slot_[i] = next[own_domain_[i]]++;
}

// Every peer gets this node's slot table: (vertex, slot, domain) per vertex.
void GraphLoader::send_slot_table(const Stall& stall) {
  BucketWriter<LoadRecord>& out = *workers_[0].writer;
  for (unsigned k = 1; k < nodes_; ++k) {
    const unsigned p = (rank_ + k) % nodes_;
    for (uint32_t i = 0; i < graph_.num_local; ++i)
      out.put(p, LoadRecord{graph_.partition.global_id(rank_, i), own_slot_[i], own_domain_[i]}, stall);
  }
}

LocalGraph GraphLoader::finish(LoadReport* report) {
  const auto t0 = Clock::now();
  const VertexId n = num_vertices_;
  const uint32_t local = graph_.num_local;
  inbox_[static_cast<size_t>(Step::kDegrees)].for_each([&](const LoadRecord& r) {
    if (r.index >= local)
      throw std::runtime_error("an in-degree count for local vertex " + std::to_string(r.index) +
                               " arrived, but this node has " + std::to_string(local) + " vertices");
    in_degree_[r.index] += r.a;
  });
  inbox_[static_cast<size_t>(Step::kDegrees)].clear();
  LocalGraph g;
  const unsigned k = rules_.domains;
  if (k == 1) {
    g = std::move(graph_);
    g.num_edges = edges_built_;
    g.in_degree = std::move(in_degree_);
    partition_ = partition_domains(g, 1, false);
  } else {
    // Every node's slot table: ours, and the peers' from the slots superstep.
    SlotMap map;
    map.nodes = nodes_;
    map.domains = k;
    map.slot_of.assign(n, 0);
    map.domain_of.assign(n, 0);
    std::vector<std::vector<uint32_t>> per_domain(nodes_, std::vector<uint32_t>(k, 0));
    for (uint32_t i = 0; i < local; ++i) {
      const VertexId v = graph_.partition.global_id(rank_, i);
      map.slot_of[v] = own_slot_[i];
      map.domain_of[v] = own_domain_[i];
      ++per_domain[rank_][own_domain_[i]];
    }
    inbox_[static_cast<size_t>(Step::kSlots)].for_each([&](const LoadRecord& r) {
      const unsigned owner = r.index % nodes_;
      if (r.index >= n || owner == rank_ || r.b >= k ||
          r.a >= graph_.partition.local_count(owner, n))
        throw std::runtime_error("a malformed slot-table entry (vertex " + std::to_string(r.index) + ", slot " +
                                 std::to_string(r.a) + ", domain " + std::to_string(r.b) + ") arrived while loading");
      map.slot_of[r.index] = r.a;
      map.domain_of[r.index] = static_cast<uint8_t>(r.b);
      ++per_domain[owner][r.b];
    });
    inbox_[static_cast<size_t>(Step::kSlots)].clear();
    map.domain_offset.assign(nodes_, std::vector<uint32_t>(k + 1, 0));
    for (unsigned p = 0; p < nodes_; ++p) {
      for (unsigned d = 0; d < k; ++d) map.domain_offset[p][d + 1] = map.domain_offset[p][d] + per_domain[p][d];
      if (map.domain_offset[p][k] != graph_.partition.local_count(p, n))
        throw std::runtime_error("node " + std::to_string(p) + "'s slot table has " +
                                 std::to_string(map.domain_offset[p][k]) + " entries, not " +
                                 std::to_string(graph_.partition.local_count(p, n)));
    }
    // The blocks again, now grouped by (node, domain) and numbered by slot.
    const LocalGraph& old = graph_;
    auto for_each_edge = [&](auto&& f) {
      for (unsigned p = 0; p < nodes_; ++p) {
        const EdgeBlock& b = old.blocks[p];
        for (size_t i = 0; i < b.sources.size(); ++i) {
          const VertexId src = old.partition.global_id(rank_, b.sources[i]);
          for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e)
            f(src, old.partition.global_id(p, b.targets[e]), b.weights.empty() ? Weight{1} : b.weights[e]);
        }
      }
    };
    g = build_out_edges(for_each_edge, n, edges_built_, nodes_, rank_, rules_.keep_weights, &map);
    for (uint32_t i = 0; i < local; ++i) g.in_degree[own_slot_[i]] = in_degree_[i];
    graph_ = LocalGraph{};
  }
  build_seconds_ += seconds_since(t0);

  LoadReport& r = *report;
  r.num_vertices = n;
  r.num_edges = edges_built_;
  r.weighted = weighted_;
  r.fingerprint = fingerprint_of(n, edges_built_, fingerprint_sum_);
  r.input_bytes = header_.size;
  r.bytes_read = header_bytes_read_;
  double read = 0, parse = 0;
  for (const WorkerState& ws : workers_) {
    r.bytes_read += ws.bytes_read;
    r.edges_parsed += ws.parsed.load(std::memory_order_relaxed);
    r.edges_sent += ws.sent.load(std::memory_order_relaxed);
    read = std::max(read, ws.read_seconds);
    parse = std::max(parse, ws.parse_seconds);
  }
  r.local_edges = local_out_edges(g);
  r.edges_received = received_;
  r.read_seconds = read;
  r.parse_seconds = parse;
  r.shuffle_seconds = std::max(0.0, edges_seconds_ - read - parse);
  r.build_seconds = build_seconds_;
  r.seconds = seconds_since(started_);
  r.partition = partition_;
  print_progress(true);
  return g;
}

}  // namespace

LocalGraph load_graph_share(Runtime& runtime, Dataplane& dp, const GraphInput& input, const LoadOptions& options,
                            const LcoreLayout& layout, LoadReport* report) {
  GraphLoader loader(dp, input, options, layout.workers());
  try {
    runtime.start();
    runtime.run_phase(loader, PhaseOptions{"loading", false, -1});
    return loader.finish(report);
  } catch (const std::exception& e) {
    runtime.abort(e.what());  // the lcores stop (and the peers hear) before the loader goes
    throw;
  }
}

}  // namespace wg
