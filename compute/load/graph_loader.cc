#include "compute/load/graph_loader.h"

#include <rte_cycles.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "compute/load/graph_loader_driver.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/kronecker.h"
#include "compute/report/text.h"

namespace wg {

LoadOptions load_options(const GraphRules& program, bool undirected, unsigned domains, bool metis, bool degree_order) {
  LoadOptions r;
  r.symmetrize = undirected || program.symmetrize;
  r.drop_self_loops = program.drop_self_loops;
  r.drop_duplicates = program.drop_duplicates;
  r.keep_weights = program.weights;
  r.real_weights = program.real_weights;
  r.in_edges = program.in_edges;
  r.domains = domains;
  r.metis = metis;
  r.degree_order = degree_order;
  return r;
}

namespace load {

GraphLoader::GraphLoader(Dataplane& dp, const GraphInput& input, const LoadOptions& rules, unsigned workers)
    : dp_(dp), input_(input), rules_(rules), rank_(dp.options().rank), nodes_(dp.options().nodes),
      by_nodes_(nodes_),
      progress_(rules.progress), sparse_(input.kind == GraphInput::Kind::kFile && input.sparse_ids), workers_(workers),
      received_(rules.keep_weights, rules.real_weights, nodes_, rank_), received_in_(false, false, nodes_, rank_) {
  if (input.sparse_ids && input.kind != GraphInput::Kind::kFile && input.kind != GraphInput::Kind::kGraphalytics)
    throw GraphError(input.spec, 0, "--ids sparse: only files have ids to map (generated and in-memory graphs are dense)");
  if (input.vertices != 0 && (input.sparse_ids || input.kind == GraphInput::Kind::kGraphalytics))
    throw GraphError(input.spec, 0, "--vertices numbers the vertices 0..N-1: the ids cannot also be mapped");
  if (input.kind == GraphInput::Kind::kGenerator) check_generated_vertices(input.spec, input.kron, input.vertices);
  if (input.kind == GraphInput::Kind::kSnapshot)  // nothing to shuffle: compute/load/snapshot_reader.h reads it
    throw std::logic_error("the loader was given a snapshot (" + input.spec + ")");
  if (rules.in_edges && rules.keep_weights)
    throw std::invalid_argument("a program that reads in-edges runs unweighted (the loader marks them in the weight)");
  for (WorkerState& ws : workers_) {
    ws.writer = std::make_unique<LoadWriter>(dp, nodes_, rank_, rules.real_weights);
    ws.own = std::make_unique<HeldEdges>(rules.keep_weights, rules.real_weights, nodes_, rank_);
    if (rules.in_edges) ws.own_in = std::make_unique<HeldEdges>(false, false, nodes_, rank_);
  }
  if (input.kind == GraphInput::Kind::kFile) {
    FileBytes bytes(input.spec);
    header_ = reader::read_header(bytes, input.format, input.weight_column, input.vertices);
    header_bytes_read_ = bytes.bytes_read();
  }
  if (input.kind == GraphInput::Kind::kFile && header_.format == GraphFormat::kMetis) steps_.push_back(Step::kCount);
  if (sparse_) {
    if (const char* why = why_ids_are_dense(header_.format))
      throw GraphError(input.spec, 0, std::string("--ids sparse: ") + why);
    wanted_.resize(workers);
    steps_.insert(steps_.end(), {Step::kSample, Step::kRequests, Step::kNumbering, Step::kOwners, Step::kResponses});
  }
  if (input.kind == GraphInput::Kind::kGraphalytics) {
    // No header: the data is the whole file, cut in byte ranges.
    for (auto [h, path] : {std::pair{&vertex_header_, &input.graphalytics->vertex_file},
                           std::pair{&edge_header_, &input.graphalytics->edge_file}}) {
      h->format = GraphFormat::kEdgeList;
      h->size = FileBytes(*path).size();
    }
    edge_spec_ = *input.graphalytics;
    if (!rules.keep_weights) edge_spec_.weight_column = -1;
    wanted_.resize(workers);
    steps_.insert(steps_.end(), {Step::kCount, Step::kVertices, Step::kOwners, Step::kRequests, Step::kResponses});
  }
  steps_.insert(steps_.end(), {Step::kEdges, Step::kDegrees});
  if (rules.domains > 1 || rules.degree_order) steps_.push_back(Step::kSlots);
}

// Node r's share of the data is slice r of P (compute/graph/graph_formats.h); its
// workers split that share again, so the node reads [r/P, (r+1)/P) whatever
// its worker count.
reader::SliceSpec GraphLoader::worker_slice(unsigned w, const reader::InputHeader& h) const {
  const reader::SliceSpec node = reader::slice_of(h, rank_, nodes_);
  reader::SliceSpec s = node;
  const uint64_t len = node.end - node.begin;
  s.begin = node.begin + len * w / workers();
  s.end = node.begin + len * (w + 1) / workers();
  s.first = node.first && w == 0;
  s.entries_before_known = s.first;
  return s;
}

std::string GraphLoader::describe_edge_part(unsigned r) const {
  const reader::SliceSpec sp = reader::slice_of(edge_header_, r, nodes_);
  return "node " + std::to_string(r) + "'s part (bytes " + std::to_string(sp.begin) + ".." + std::to_string(sp.end) + ")";
}

std::string GraphLoader::describe_part(unsigned r) const {
  const reader::SliceSpec sp = reader::slice_of(header_, r, nodes_);
  const uint64_t unit = header_.record_bytes ? header_.record_bytes : 1;
  return "node " + std::to_string(r) + "'s part (bytes " + std::to_string(sp.begin * unit) + ".." +
         std::to_string(sp.end * unit) + ")";
}

// --ids sparse, the edges superstep: worker w's edges as the sample
// superstep kept them, their ids translated through dense_of (built from the
// directories' answers, then the worker's id table goes); what the parse
// counted. The progress line counts the slice's bytes as the edges pass.
template <class Emit>
reader::SliceTotals GraphLoader::replay_kept_edges(unsigned w, Emit&& emit) {
  WorkerState& ws = workers_[w];
  // The ends are the worker's numbers for their ids, or the ids themselves
  // (collect_ids): dense_of is indexed by what they are.
  std::vector<VertexId> dense_of;
  if (ws.ends_are_ids) {
    uint64_t bound = 0;
    wanted_[w].for_each([&](int64_t id, uint32_t) { bound = std::max(bound, static_cast<uint64_t>(id) + 1); });
    dense_of.resize(bound);
    wanted_[w].for_each([&](int64_t id, uint32_t) { dense_of[static_cast<size_t>(id)] = translated(id); });
  } else {
    dense_of.resize(wanted_[w].size());
    wanted_[w].for_each([&](int64_t id, uint32_t number) { dense_of[number] = translated(id); });
  }
  wanted_[w].clear();
  static_assert(Chunks<uint32_t>::chunk_records() % 2 == 0, "an edge's two ends share a chunk");
  const uint64_t n = ws.kept_ends.size() / 2;
  const reader::SliceSpec sp = worker_slice(w);
  const uint64_t slice_bytes = sp.end - sp.begin;
  constexpr size_t kAhead = 16;  // edges: dense_of outgrows the cache, so its reads are prefetched
  uint64_t i = 0;                // edges replayed
  ws.kept_ends.for_each_chunk(
      [&](const uint32_t* ends, size_t values) {
        const size_t edges = values / 2;
        for (size_t e = 0; e < edges; ++e, ++i) {
          if (e + kAhead < edges) {
            __builtin_prefetch(&dense_of[ends[2 * (e + kAhead)]]);
            __builtin_prefetch(&dense_of[ends[2 * (e + kAhead) + 1]]);
          }
          const VertexId src = dense_of[ends[2 * e]], dst = dense_of[ends[2 * e + 1]];
          if (rules_.real_weights)
            emit(src, dst, Weight{1}, ws.kept_reals[i]);
          else if (rules_.keep_weights)
            emit(src, dst, ws.kept_weights[i], -1.0);
          else
            emit(src, dst, Weight{1}, -1.0);
          if ((i & 0xFFFF) == 0) [[unlikely]]
            ws.bytes_now.store(slice_bytes * i / n, std::memory_order_relaxed);
        }
      },
      true);
  ws.bytes_now.store(slice_bytes, std::memory_order_relaxed);
  std::vector<Weight>().swap(ws.kept_weights);
  std::vector<double>().swap(ws.kept_reals);
  return ws.kept_totals;
}

// Calls emit(src, dst, weight) for every input edge of worker w's share.
template <class Emit>
void GraphLoader::read_share(unsigned w, Emit&& emit, LoadAggregate& agg) {
  WorkerState& ws = workers_[w];
  const auto t0 = Clock::now();
  double read_before = ws.read_seconds;
  switch (input_.kind) {
    case GraphInput::Kind::kSnapshot: break;  // the constructor refused it
    case GraphInput::Kind::kFile: {
      reader::SliceTotals t;
      if (sparse_) {
        t = replay_kept_edges(w, emit);
      } else {
        FileBytes bytes(input_.spec);
        ws.reading = &bytes;
        reader::SliceSpec sp = worker_slice(w);
        sp.vertex_base = vertex_lines_before_;
        for (unsigned v = 0; v < w; ++v) sp.vertex_base += workers_[v].vertex_lines;
        try {
          t = parse_by_weights([&]<class W>(W) {
            return reader::parse_slice<W>(bytes, header_, sp, [&](VertexId src, VertexId dst, auto wt) {
              const auto [weight, real] = weights_of(wt);
              emit(src, dst, weight, real);
            });
          });
        } catch (...) {
          ws.reading = nullptr;
          throw;
        }
        ws.reading = nullptr;
        ws.bytes_read += bytes.bytes_read();
        ws.read_seconds += bytes.read_seconds();
      }
      agg.max_id_plus1 = sparse_ ? num_vertices_ : t.max_id_plus1;
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
      break;
    }
    case GraphInput::Kind::kGenerator: {
      const KroneckerGenerator gen(input_.kron);
      const KroneckerGenerator::BlockRange mine = gen.share(rank_, nodes_).part(w, workers());
      std::vector<Edge> chunk(KroneckerGenerator::kChunkEdges);
      for (uint64_t b = mine.begin; b < mine.end; ++b)
        gen.block_in_chunks(b, chunk.data(), [&](const Edge* e, uint64_t n) {
          for (uint64_t i = 0; i < n; ++i) emit(e[i].src, e[i].dst, e[i].weight);
          agg.entries += n;  // emit's puts run a shared lcore's network passes: see block_in_chunks
        });
      agg.max_id_plus1 = gen.num_vertices();
      break;
    }
    case GraphInput::Kind::kGraphalytics: {
      const GraphalyticsSpec& spec = *input_.graphalytics;
      const IdTable& table = translation_;
      // An id no directory knew is not in NAME.v: named by file, line and field.
      auto dense = [&](int64_t id, const char* field) {
        const uint32_t* d = table.find(id);
        if (d == nullptr) [[unlikely]]
          reader::fail(spec.edge_file, 0, std::string(field) + ": vertex " + std::to_string(id) + " is not in " +
                                              spec.vertex_file);
        return static_cast<VertexId>(*d);
      };
      read_graphalytics_edges(
          w,
          [&](int64_t src, int64_t dst, double weight) {
            Weight wt = 1;
            if (rules_.keep_weights && !rules_.real_weights) {  // the integer path: real weights only where they are integers
              if (weight != std::floor(weight) || weight > static_cast<double>(reader::kMaxWeight))
                reader::fail(spec.edge_file, 0,
                             "weight " + std::to_string(weight) + " is not an integer below 2^32 (this program's weights are integers)");
              wt = static_cast<Weight>(weight);
            }
            emit(dense(src, "field 1 (src)"), dense(dst, "field 2 (dst)"), wt, weight);
          },
          agg);
      agg.max_id_plus1 = vertex_lines_total_;
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

void GraphLoader::apply(unsigned w, const StepControl& c, const Stall& stall) {
  WorkerState& ws = workers_[w];
  ws.stats = StepStats{};
  ws.stats.superstep = c.superstep;
  ws.aggregate = AggregateBytes{};
  const Step step = steps_[c.superstep];
  if (w == 0) current_ = step;  // merge and decide run on this lcore, after the workers
  // The owners' records (original ids) are in once the owners superstep is over.
  if (w == 0 && c.superstep > 0 && steps_[c.superstep - 1] == Step::kOwners) take_original_ids();
  switch (step) {
    case Step::kCount: {
      if (input_.kind == GraphInput::Kind::kGraphalytics) {
        ws.vertex_lines = count_vertex_lines(w);
      } else {
        FileBytes bytes(input_.spec);
        ws.vertex_lines = reader::count_metis_vertex_lines(bytes, header_, worker_slice(w));
        ws.bytes_read += bytes.bytes_read();
        ws.read_seconds += bytes.read_seconds();
      }
      const LineCount lc{ws.vertex_lines, 0, static_cast<uint8_t>(rank_), 0};
      std::memcpy(ws.aggregate.data(), &lc, sizeof lc);
      break;
    }
    case Step::kVertices:
    case Step::kRequests:
    case Step::kResponses:
    case Step::kSample: break;
    case Step::kNumbering: {
      if (w == 0) number_ids();
      const LineCount lc{w == 0 ? numbered_.size() : 0, 0, static_cast<uint8_t>(rank_), 0};
      std::memcpy(ws.aggregate.data(), &lc, sizeof lc);
      break;
    }
    case Step::kOwners:
      if (w == 0) build_directory();
      break;
    case Step::kEdges:
      if (w == 0) edges_started_ = last_progress_ = Clock::now();
      break;
    case Step::kDegrees:
      if (w == 0) {
        edges_seconds_ = seconds_since(edges_started_);
        const auto t0 = Clock::now();
        build_blocks(stall);
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
    case Step::kVertices: send_vertices(w, stall); break;
    case Step::kOwners:
      if (w == 0) send_owners(stall);
      break;
    case Step::kRequests: send_requests(w, stall); break;
    case Step::kResponses:
      if (w == 0) send_responses(stall);
      break;
    case Step::kSample:
      collect_ids(w, stall);
      send_samples(w, stall);
      break;
    case Step::kNumbering: break;
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
    ws.stats.messages_sent += ws.writer->records_to(p);
    if (p == rank_)
      ws.stats.messages_local += ws.writer->records_to(p);  // the id mapping's records to this node
    else
      ws.stats.buckets_sent += ws.writer->buckets_to(p);
  }
}

// The edge superstep: the worker's share, through the program's per-edge
// rules, to the owners of the sources (own edges stay in the worker's list).
void GraphLoader::send_edges(unsigned w, const Stall& stall) {
  WorkerState& ws = workers_[w];
  LoadAggregate agg{};
  agg.origin = static_cast<uint8_t>(rank_);
  uint64_t since_stall = 0, parsed = 0, sent = 0, entries = 0, balance = 0;
  // (symmetrised edges balance by construction; a generator's degrees are
  // modelled: 0.75 ns an edge saved, 4% of parsing kron22.bin)
  const bool balances = !rules_.symmetrize && input_.kron_scale() == 0;
  auto route = [&](VertexId src, VertexId dst, Weight weight, double real_weight) {
    if (rules_.drop_self_loops && src == dst) return;
    ++parsed;
    if (balances) balance += degree_balance_term(src, dst);
    const uint32_t local = by_nodes_.div(src);
    const unsigned owner = src - local * nodes_;
    if (owner == rank_) {
      ws.own->push_local(local, dst, weight, real_weight);
    } else {
      ws.writer->put(owner, LoadRecord{src, dst, weight}, stall, real_weight);
      if (++sent == kCrashAfter && rules_.crash_in_shuffle) [[unlikely]]
        raise(SIGKILL);  // test hook: a node dies with its edges half sent
    }
    // The reversed copy, to the target's owner (not counted as an edge).
    if (rules_.in_edges) {
      const uint32_t dst_local = by_nodes_.div(dst);
      const unsigned dst_owner = dst - dst_local * nodes_;
      if (dst_owner == rank_) {
        ws.own_in->push_local(dst_local, src, 1, 0.0);
      } else {
        ws.writer->put(dst_owner, LoadRecord{dst, src, kInEdgeMark}, stall, 0.0);
        ++sent;
      }
    }
  };
  // A real weight below 0: none given (the integer weight stands for it).
  auto emit = [&](VertexId src, VertexId dst, Weight weight, double real_weight = -1.0) {
    if (real_weight < 0) real_weight = weight;
    ++entries;
    route(src, dst, weight, real_weight);
    if (rules_.symmetrize && src != dst) route(dst, src, weight, real_weight);
    // The network roles (acks, keepalives) run on a shared lcore even when
    // few edges leave this node.
    if (++since_stall == kEdgesPerStall) [[unlikely]] {
      since_stall = 0;
      ws.parsed.store(parsed, std::memory_order_relaxed);
      ws.sent.store(sent, std::memory_order_relaxed);
      ws.entries_now.store(entries, std::memory_order_relaxed);
      if (ws.reading != nullptr) ws.bytes_now.store(ws.reading->bytes_read(), std::memory_order_relaxed);
      stall(false);
      if (w == 0) print_progress(false);
    }
  };
  read_share(w, emit, agg);
  if (rules_.crash_in_shuffle) raise(SIGKILL);  // fewer than kCrashAfter edges to send
  agg.edges = parsed;
  agg.degree_balance = balance;
  agg.flags |= kSeen;
  ws.parsed.store(parsed, std::memory_order_relaxed);
  ws.sent.store(sent, std::memory_order_relaxed);
  ws.stats.active = parsed;  // the superstep line's "active": edges this worker read
  std::memcpy(ws.aggregate.data(), &agg, sizeof agg);
}

GraphLoader::ProgressPlan GraphLoader::progress_plan() const {
  switch (input_.kind) {
    case GraphInput::Kind::kSnapshot: break;  // the constructor refused it
    case GraphInput::Kind::kFile: {
      const reader::SliceSpec sp = reader::slice_of(header_, rank_, nodes_);
      return {sp.end - sp.begin, true};
    }
    case GraphInput::Kind::kGraphalytics: {
      const reader::SliceSpec sp = reader::slice_of(edge_header_, rank_, nodes_);
      return {sp.end - sp.begin, true};
    }
    case GraphInput::Kind::kGenerator: {
      const KroneckerGenerator::BlockRange mine = KroneckerGenerator(input_.kron).share(rank_, nodes_);
      return {(mine.end - mine.begin) * KroneckerGenerator::kBlockEdges, false};
    }
    case GraphInput::Kind::kMemory: {
      const uint64_t e = input_.edges->edges.size();
      return {e * (rank_ + 1) / nodes_ - e * rank_ / nodes_, false};
    }
  }
  return {};
}

void GraphLoader::print_progress(bool last) {
  if (!progress_.lines) return;
  const auto now = Clock::now();
  if (!last && std::chrono::duration<double>(now - last_progress_).count() < progress_.interval_s) return;
  last_progress_ = now;
  if (progress_shown_ && last) {
    std::printf("\r\033[K");  // the rewritten line goes: the node's next lines say what came of it
    progress_shown_ = false;
  }
  if (last && !progress_.details) {
    std::fflush(stdout);
    return;
  }
  uint64_t parsed = 0, sent = 0, bytes = 0, entries = 0;
  for (const WorkerState& ws : workers_) {
    parsed += ws.parsed.load(std::memory_order_relaxed);
    sent += ws.sent.load(std::memory_order_relaxed);
    entries += ws.entries_now.load(std::memory_order_relaxed);
    bytes += last ? ws.bytes_read : ws.bytes_now.load(std::memory_order_relaxed);
  }
  const double secs = std::max(1e-9, std::chrono::duration<double>(now - edges_started_).count());
  const uint64_t received = edges_in_.load(std::memory_order_relaxed);
  const bool file = input_.kind == GraphInput::Kind::kFile || input_.kind == GraphInput::Kind::kGraphalytics;
  std::string line;
  if (last) {
    line = text_printf("load: done: %lu edges read, %lu sent, %lu received", static_cast<unsigned long>(parsed),
                       static_cast<unsigned long>(sent), static_cast<unsigned long>(received));
  } else {
    const ProgressPlan plan = progress_plan();
    const uint64_t done = plan.bytes ? bytes : entries;
    const double f = plan.total ? std::min(1.0, static_cast<double>(done) / static_cast<double>(plan.total)) : 0.0;
    const std::string eta = f > 0 ? text_printf("ETA %.0f s", secs * (1 - f) / f) : std::string("ETA unknown");
    line = plan.bytes ? text_printf("loading: %.0f%% of this node's %.1f MB, %s", 100 * f, plan.total / 1e6, eta.c_str())
                      : text_printf("loading: %.0f%% of this node's %lu edges, %s", 100 * f,
                                    static_cast<unsigned long>(plan.total), eta.c_str());
    if (progress_.details)
      line += text_printf("; %lu edges read, %lu sent, %lu received", static_cast<unsigned long>(parsed),
                          static_cast<unsigned long>(sent), static_cast<unsigned long>(received));
  }
  if (progress_.details) {
    if (file) line += text_printf(", %.1f MB read at %.1f MB/s", bytes / 1e6, bytes / 1e6 / secs);
    line += text_printf(", %.1f M edges/s sent", sent / 1e6 / secs);
  }
  if (progress_.in_place && !last) {
    std::printf("\r%s\033[K", line.c_str());
    progress_shown_ = true;
  } else {
    std::printf("%s\n", line.c_str());
  }
  std::fflush(stdout);
}

// The aggregates merge in rank order (workers first, in worker order,
// within a node); which one depends on the superstep (current_).
void GraphLoader::merge(AggregateBytes& into, const AggregateBytes& from) const {
  switch (current_) {
    case Step::kCount:
    case Step::kNumbering: {
      LineCount a, b;
      std::memcpy(&a, into.data(), sizeof a);
      std::memcpy(&b, from.data(), sizeof b);
      merge_line_counts(a, b, rank_);
      std::memcpy(into.data(), &a, sizeof a);
      break;
    }
    case Step::kEdges: {
      LoadAggregate a, b;
      std::memcpy(&a, into.data(), sizeof a);
      std::memcpy(&b, from.data(), sizeof b);
      merge_edges(a, b);
      std::memcpy(into.data(), &a, sizeof a);
      break;
    }
    case Step::kDegrees: {  // (edges, fingerprint) of the built blocks
      uint64_t a[2], b[2];
      std::memcpy(a, into.data(), sizeof a);
      std::memcpy(b, from.data(), sizeof b);
      a[0] += b[0];
      a[1] += b[1];
      std::memcpy(into.data(), a, sizeof a);
      break;
    }
    case Step::kVertices: merge_vertex_order(into, from); break;
    case Step::kOwners:
    case Step::kRequests:
    case Step::kResponses:
    case Step::kSample:
    case Step::kSlots: break;
  }
}

Decision GraphLoader::decide(uint32_t s, uint32_t, uint64_t, const AggregateBytes& aggregate) {
  const Step step = steps_[s];
  if (step == Step::kCount || step == Step::kNumbering) {
    // Vertex lines, or the distinct ids of the directories (--ids sparse):
    // in all, and before this node's.
    LineCount lc;
    std::memcpy(&lc, aggregate.data(), sizeof lc);
    vertex_lines_total_ = lc.lines;
    vertex_lines_before_ = lc.before_me;
    if (step == Step::kNumbering) {
      if (vertex_lines_total_ > reader::kMaxVertexId)
        throw GraphError(input_.spec, 0, "its edges name " + std::to_string(vertex_lines_total_) +
                                             " distinct vertex ids: more than wiregraph's 32-bit ids can number");
      num_vertices_ = static_cast<VertexId>(vertex_lines_total_);
    }
  } else if (step == Step::kSample) {
    choose_splitters();
  } else if (step == Step::kDegrees) {
    uint64_t built[2];
    std::memcpy(built, aggregate.data(), sizeof built);
    edges_built_ = built[0];
    fingerprint_sum_ = built[1];
  } else if (step == Step::kVertices) {
    check_vertex_order(aggregate);
    if (vertex_lines_total_ > reader::kMaxVertexId)
      throw GraphError(input_.graphalytics->vertex_file, 0,
                       std::to_string(vertex_lines_total_) + " vertices: more than wiregraph's 32-bit ids can number");
    num_vertices_ = static_cast<VertexId>(vertex_lines_total_);
  } else if (step == Step::kResponses) {
    build_translation();
  } else if (step == Step::kEdges) {
    std::memcpy(&totals_, aggregate.data(), sizeof totals_);
    const LoadAggregate& t = totals_;
    switch (input_.kind) {
      case GraphInput::Kind::kSnapshot: break;  // the constructor refused it
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
      case GraphInput::Kind::kGraphalytics: {
        const GraphalyticsSpec& spec = *input_.graphalytics;
        if (t.flags & kColumnsDiffer)
          throw GraphError(spec.edge_file, 0, "inconsistent column count: " + describe_edge_part(t.mismatch_rank) +
                                                  " has lines of " + std::to_string(t.other_columns) +
                                                  " fields, the parts before it lines of " + std::to_string(t.columns));
        if (t.flags & kBoundaryDiffers)
          throw GraphError(spec.edge_file, 0, "nodes " + std::to_string(t.mismatch_rank - 1) + " and " +
                                                  std::to_string(t.mismatch_rank) +
                                                  " read different bytes where their parts meet: every node must "
                                                  "open the same file");
        num_vertices_ = static_cast<VertexId>(vertex_lines_total_);
        weighted_ = spec.weight_column >= 0 && t.columns >= 3 + spec.weight_column;
        break;
      }
    }
  }
  return Decision{s + 1 == steps_.size(), 0};
}

}  // namespace load

LocalGraph load_graph_share(SuperstepRuntime& runtime, Dataplane& dp, const GraphInput& input, const LoadOptions& options,
                            const LcoreLayout& layout, LoadReport* report) {
  load::GraphLoader loader(dp, input, options, layout.workers());
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
