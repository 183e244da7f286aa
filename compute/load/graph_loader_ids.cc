// The loading phase's id mapping (compute/load/graph_loader.h lists the
// supersteps): sparse signed 64-bit ids become dense 32-bit ones, distributed
// so that no node holds every id. Two inputs have them:
//   - Graphalytics graphs: a vertex's dense id is its line's rank among the
//     vertex lines of NAME.v (count, vertices); the directory node of id x,
//     hash(x) mod P, holds x -> dense for its share;
//   - edge lists and binary files under --ids sparse: the vertices are the
//     distinct ids the edges name, and a vertex's dense id is its id's rank
//     among them. Each worker collects the distinct ids of its range and
//     sends every node a sample of them (sample); every node cuts the id
//     space at the same sampled splitters into P ranges, one per directory
//     node (compute/load/id_directory.h); the workers send their ids to the
//     directories (requests); each directory sorts the distinct ids of its
//     range, and the rank-order sum of their counts gives V and the ids
//     before its range (numbering).
// Then alike: the owner of dense id d (d mod P) learns x, for the result files
// (owners); every node asks the directories for the ids its part of the edges
// uses (requests) and translates its edges with the answers (responses).
//
// Memory per node (V vertices, E input edges, W workers per node), beyond
// the loader's edges:
//   - the directory's share: about V/P ids in an IdTable (at most 24 bytes
//     each); under --ids sparse also the requests it answers (12 bytes each,
//     about min(V W P, 2 E)/P of them: every worker's distinct ids, spread over
//     the directories) and its distinct ids, sorted, until they are numbered
//     (8 bytes each), and the samples (12 bytes times kSample = 4096 times W P);
//   - the owners' original ids: 8 bytes per owned vertex;
//   - the distinct ids of the node's part of the edges with their dense ids:
//     at most 24 bytes each, at most min(V, 2 E/P) of them (per worker until
//     the responses are in). On a power-law graph every range names most
//     hubs: this is the figure that can approach V.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "compute/load/graph_loader_driver.h"
#include "compute/graph/graphalytics_input.h"
#include "compute/load/id_directory.h"
#include "compute/graph/input_bytes.h"

namespace wg::load {

namespace {

uint32_t low(int64_t x) { return static_cast<uint32_t>(static_cast<uint64_t>(x)); }
uint32_t high(int64_t x) { return static_cast<uint32_t>(static_cast<uint64_t>(x) >> 32); }
int64_t join(uint32_t lo, uint32_t hi) { return static_cast<int64_t>(uint64_t{hi} << 32 | lo); }

// A request's third word: the asking node, and this bit when it only asks
// (the program's source: not a vertex unless an edge names it).
constexpr uint32_t kLookupOnly = 0x80000000u;
// A response's third word when the source is not a vertex: the id in the
// record is the nearest vertex below or above it in the directory's share
// (no dense id reaches 2^32-1), for the error to name.
constexpr uint32_t kNearSource = 0xFFFFFFFFu;

// The END aggregate of the vertices superstep: the first and last id of each
// part, merged in rank order, so that the vertex lines ascend across parts.
struct VertexOrder {
  int64_t first, last;     // of the merged parts
  int64_t bad_before, bad_after;  // the first pair out of order where parts meet
  uint8_t flags;           // kSeen, kUnsorted
  uint8_t bad_rank;        // the node whose first line is out of order
};
enum : uint8_t { kAny = 1, kUnsorted = 2 };

}  // namespace

unsigned GraphLoader::directory_of(int64_t id) const {
  return sparse_ ? ids::range_directory(splitters_, id) : ids::hash_directory(id, nodes_);
}

uint64_t GraphLoader::count_vertex_lines(unsigned w) {
  WorkerState& ws = workers_[w];
  const GraphalyticsSpec& spec = *input_.graphalytics;
  FileBytes bytes(spec.vertex_file);
  const reader::SliceSpec sp = worker_slice(w, vertex_header_);
  LineSlice lines(bytes, sp.begin, sp.end, sp.first, sp.first ? 0 : LineSlice::kUnknown);
  std::string_view line;
  uint64_t n = 0;
  while (lines.next(line)) n += reader::is_graphalytics_vertex_line(line);
  ws.bytes_read += bytes.bytes_read();
  ws.read_seconds += bytes.read_seconds();
  return n;
}

// Worker w's vertex lines, each (id, dense id) to the id's directory node.
void GraphLoader::send_vertices(unsigned w, const Stall& stall) {
  WorkerState& ws = workers_[w];
  const GraphalyticsSpec& spec = *input_.graphalytics;
  FileBytes bytes(spec.vertex_file);
  const reader::SliceSpec sp = worker_slice(w, vertex_header_);
  uint64_t dense = vertex_lines_before_;
  for (unsigned v = 0; v < w; ++v) dense += workers_[v].vertex_lines;
  LineSlice lines(bytes, sp.begin, sp.end, sp.first, sp.first ? 0 : LineSlice::kUnknown);
  VertexOrder order{0, 0, 0, 0, 0, 0};
  std::string_view line;
  uint64_t since_stall = 0;
  try {
    while (lines.next(line)) {
      if (!reader::is_graphalytics_vertex_line(line)) continue;
      const int64_t id = reader::parse_graphalytics_vertex(spec.vertex_file, line);
      if ((order.flags & kAny) && id <= order.last)
        reader::fail(spec.vertex_file, 0,
                     "vertex id " + std::to_string(id) + (id == order.last ? " appears twice" : " comes after " + std::to_string(order.last)) +
                         ": the vertex file must list distinct ids in ascending order (Graphalytics' EVLP format)");
      if (!(order.flags & kAny)) order.first = id;
      order.last = id;
      order.flags |= kAny;
      ws.writer->put(directory_of(id), LoadRecord{low(id), high(id), static_cast<uint32_t>(dense++)}, stall);
      if (++since_stall == kEdgesPerStall) [[unlikely]] {
        since_stall = 0;
        stall(false);
      }
    }
  } catch (const GraphError& e) {
    lines.rethrow_at_line(e.detail());
  }
  order.bad_rank = static_cast<uint8_t>(rank_);
  ws.bytes_read += bytes.bytes_read();
  ws.read_seconds += bytes.read_seconds();
  std::memcpy(ws.aggregate.data(), &order, sizeof order);
}

void GraphLoader::merge_vertex_order(AggregateBytes& into, const AggregateBytes& from) const {
  VertexOrder a, b;
  std::memcpy(&a, into.data(), sizeof a);
  std::memcpy(&b, from.data(), sizeof b);
  if (!(b.flags & kAny)) return;
  if (!(a.flags & kAny)) {
    a = b;
  } else {
    if (b.first <= a.last && !(a.flags & kUnsorted)) {
      a.flags |= kUnsorted;
      a.bad_before = a.last;
      a.bad_after = b.first;
      a.bad_rank = b.bad_rank;
    }
    a.last = b.last;
  }
  std::memcpy(into.data(), &a, sizeof a);
}

void GraphLoader::check_vertex_order(const AggregateBytes& aggregate) const {
  VertexOrder o;
  std::memcpy(&o, aggregate.data(), sizeof o);
  if (o.flags & kUnsorted)
    throw GraphError(input_.graphalytics->vertex_file, 0,
                     "vertex id " + std::to_string(o.bad_after) + " (the first of node " + std::to_string(o.bad_rank) +
                         "'s part) is not above " + std::to_string(o.bad_before) +
                         ", the last before it: the vertex file must list distinct ids in ascending order");
}

// This node's directory share: x -> dense.
void GraphLoader::build_directory() {
  if (sparse_) {
    directory_ = IdTable(numbered_.size());
    for (size_t i = 0; i < numbered_.size(); ++i)
      directory_.insert(numbered_[i], static_cast<uint32_t>(vertex_lines_before_ + i));
    numbered_ = {};
    return;
  }
  Chunks<LoadRecord>& in = inbox_[static_cast<size_t>(Step::kVertices)];
  directory_ = IdTable(in.size());
  in.for_each(
      [&](const LoadRecord& r) {
        const int64_t id = join(r.index, r.a);
        if (!directory_.insert(id, r.b))
          throw GraphError(input_.graphalytics->vertex_file, 0,
                           "vertex id " + std::to_string(id) + " appears twice (vertex lines " +
                               std::to_string(std::min(*directory_.find(id), r.b) + 1) + " and " +
                               std::to_string(std::max(*directory_.find(id), r.b) + 1) + ")");
      },
      true);
}

// Every vertex's original id to the owner of its dense id.
void GraphLoader::send_owners(const Stall& stall) {
  LoadWriter& out = *workers_[0].writer;
  const detail::FastDiv by_nodes(nodes_);
  directory_.for_each([&](int64_t id, uint32_t dense) {
    out.put(by_nodes.mod(dense), LoadRecord{by_nodes.div(dense), low(id), high(id)}, stall);
  });
}

void GraphLoader::take_original_ids() {
  const uint32_t local = RoundRobin{nodes_}.local_count(rank_, num_vertices_);
  original_id_.assign(local, 0);
  std::vector<uint8_t> seen(local, 0);
  uint64_t got = 0;
  inbox_[static_cast<size_t>(Step::kOwners)].for_each(
      [&](const LoadRecord& r) {
        if (r.index >= local || seen[r.index])
          throw std::runtime_error("a malformed original-id record (local vertex " + std::to_string(r.index) +
                                   ") arrived while loading: corrupted frames (try --checksum on)?");
        seen[r.index] = 1;
        original_id_[r.index] = join(r.a, r.b);
        ++got;
      },
      true);
  if (got != local)
    throw std::runtime_error("this node owns " + std::to_string(local) + " vertices but learned the ids of " +
                             std::to_string(got));
}

// Worker w's part of the edges: the distinct ids they name, into wanted_[w]
// (parse errors name the file, line, field and value, as the edges
// superstep's would).
void GraphLoader::collect_ids(unsigned w, const Stall& stall) {
  WorkerState& ws = workers_[w];
  IdTable& ids = wanted_[w];
  ids.clear();
  uint64_t since_stall = 0;
  // --ids sparse keeps the edges, each id as its number in the table, for
  // the edges superstep (replay_kept_edges); Graphalytics edges are read again.
  const bool keep = sparse_;
  // Where the sample saw ids 0..N-1 with N at most 4 times the ids it
  // estimates (a dense file read as named, kron: written as text), the ids
  // are kept as themselves and marked in a bitmap of N bits (128 KiB for
  // 2^20: it stays in the cache), then numbered once each; an id the bitmap
  // does not hold turns the worker back to the table (number_named_ids).
  // The bitmap reaches an eighth past the sampled span: the sample rarely
  // sees the largest id (on kron:20:16 as text it saw 1,048,562 of
  // 1,048,574), and the ids above it would each send a worker to the table.
  // The table's probes miss the cache (16.8 M per worker on kron:20:16 as
  // text at P=2); the bitmap's do not: the mapped load went from 1.25x the
  // dense one to 1.14x (docs/INPUT.md, medians of 5 alternating rounds).
  const uint64_t span = input_.sampled_id_span;
  const uint64_t limit = std::min(4 * input_.estimated_ids, uint64_t{reader::kMaxVertexId} + 1);
  ws.ends_are_ids = keep && span > 0 && span <= limit;
  ws.named.assign(ws.ends_are_ids ? (std::min(limit, span + span / 8) + 63) / 64 : 0, 0);
  // A range names up to min(V, 2E/P) ids: the table outgrows the cache, so
  // its probes are batched with prefetches.
  auto prefetch = [&ids, &ws](int64_t id) {
    if (!ws.ends_are_ids) ids.prefetch(id);
  };
  auto insert = [this, w, &ids, &ws, keep](int64_t id) {
    if (ws.ends_are_ids) {
      const uint64_t u = static_cast<uint64_t>(id);
      if (u < ws.named.size() * 64) {
        ws.named[u / 64] |= uint64_t{1} << (u % 64);
        ws.kept_ends.push(static_cast<uint32_t>(u));
        return;
      }
      number_named_ids(w);
    }
    if (keep)
      ws.kept_ends.push(ids.number(id));
    else
      ids.insert(id);
  };
  detail::Batched<int64_t, decltype(prefetch), decltype(insert)> batch(prefetch, insert);
  auto note = [&](int64_t src, int64_t dst) {
    batch(src);
    batch(dst);
    if (++since_stall == kEdgesPerStall) [[unlikely]] {  // the network roles of a shared lcore
      since_stall = 0;
      stall(false);
    }
  };
  const auto t0 = Clock::now();
  const double read_before = ws.read_seconds;
  if (sparse_) {
    FileBytes bytes(input_.spec);
    ws.kept_ends.clear();
    ws.kept_weights.clear();
    ws.kept_reals.clear();
    // The weights as the program reads them: a bad one is refused now, with
    // its line, and the edges superstep does not parse the slice again.
    ws.kept_totals = parse_by_weights([&]<class W>(W) {
      return reader::parse_sparse_slice<W>(bytes, header_, worker_slice(w), [&](int64_t src, int64_t dst, auto wt) {
        if (rules_.keep_weights) {
          const auto [weight, real] = weights_of(wt);
          if (rules_.real_weights)
            ws.kept_reals.push_back(real);
          else
            ws.kept_weights.push_back(weight);
        }
        note(src, dst);
      });
    });
    ws.bytes_read += bytes.bytes_read();
    ws.read_seconds += bytes.read_seconds();
  } else {
    LoadAggregate ignored{};
    read_graphalytics_edges(w, [&](int64_t src, int64_t dst, double) { note(src, dst); }, ignored);
  }
  batch.flush();
  if (ws.ends_are_ids) {
    // Every named id into the table, for the sample and the requests.
    size_t named = 0;
    for (const uint64_t bits : ws.named) named += static_cast<size_t>(__builtin_popcountll(bits));
    ids.reserve(named);
    for (size_t i = 0; i < ws.named.size(); ++i)
      for (uint64_t bits = ws.named[i]; bits != 0; bits &= bits - 1)
        ids.insert(static_cast<int64_t>(i * 64 + static_cast<unsigned>(__builtin_ctzll(bits))));
    std::vector<uint64_t>().swap(ws.named);
  }
  ws.parse_seconds += seconds_since(t0) - (ws.read_seconds - read_before);
}

// Worker w met an id its bitmap does not hold: the ends kept so far become
// the table's numbers, and the rest of the slice goes to the table.
void GraphLoader::number_named_ids(unsigned w) {
  WorkerState& ws = workers_[w];
  IdTable& ids = wanted_[w];
  ws.kept_ends.for_each([&ids](uint32_t& end) { end = ids.number(end); });
  ws.ends_are_ids = false;
  std::vector<uint64_t>().swap(ws.named);
}

// --ids sparse: worker w's bottom-k sample of its ids, to every node.
void GraphLoader::send_samples(unsigned w, const Stall& stall) {
  if (nodes_ == 1) return;  // one directory: no splitters
  const std::vector<int64_t> sample = ids::bottom_k(wanted_[w], ids::kSample);
  for (unsigned k = 0; k < nodes_; ++k) {
    const unsigned p = (rank_ + k) % nodes_;
    for (const int64_t id : sample) workers_[w].writer->put(p, LoadRecord{low(id), high(id), 0}, stall);
  }
}

// Between the sample and requests supersteps: the same splitters on every node.
void GraphLoader::choose_splitters() {
  Chunks<LoadRecord>& in = inbox_[static_cast<size_t>(Step::kSample)];
  std::vector<int64_t> samples;
  samples.reserve(in.size());
  in.for_each([&](const LoadRecord& r) { samples.push_back(join(r.index, r.a)); }, true);
  splitters_ = ids::choose_splitters(std::move(samples), ids::kSample, nodes_);
}

// --ids sparse, the numbering superstep's apply: the distinct ids of this
// directory's range, sorted (the requests stay: they are answered later).
void GraphLoader::number_ids() {
  numbered_.clear();
  numbered_.reserve(inbox_[static_cast<size_t>(Step::kRequests)].size());
  inbox_[static_cast<size_t>(Step::kRequests)].for_each([&](const LoadRecord& r) {
    const int64_t id = join(r.index, r.a);
    if (r.b & kLookupOnly) return;  // the source, asked of every directory: numbered by none
    if (directory_of(id) != rank_)
      throw std::runtime_error("a request for id " + std::to_string(id) + ", which node " +
                               std::to_string(directory_of(id)) +
                               " keeps, arrived while loading: corrupted frames (try --checksum on)?");
    numbered_.push_back(id);
  });
  std::sort(numbered_.begin(), numbered_.end());
  numbered_.erase(std::unique(numbered_.begin(), numbered_.end()), numbered_.end());
  numbered_.shrink_to_fit();
}

// Worker w's distinct ids (Graphalytics: collected now; --ids sparse: in the
// sample superstep), each asked of its directory node; worker 0 also asks for
// the program's source and the other lookups (ppr's seeds), as lookups only.
void GraphLoader::send_requests(unsigned w, const Stall& stall) {
  WorkerState& ws = workers_[w];
  if (!sparse_) collect_ids(w, stall);
  wanted_[w].for_each(
      [&](int64_t id, uint32_t) { ws.writer->put(directory_of(id), LoadRecord{low(id), high(id), rank_}, stall); });
  if (w != 0) return;
  // Every directory: the one that holds an id answers its dense id, and
  // when none does, each names its nearest vertices for the error.
  auto look_up = [&](int64_t id) {
    for (unsigned d = 0; d < nodes_; ++d) ws.writer->put(d, LoadRecord{low(id), high(id), rank_ | kLookupOnly}, stall);
  };
  if (rules_.source) look_up(*rules_.source);
  for (const int64_t id : rules_.lookups) look_up(id);
}

namespace {

// The ids nearest to `id` (below and above) among those seen: the
// directories' scans of their shares, then the coordinator's merge of their
// answers, for the error naming a source that is no vertex.
class NearestIds {
 public:
  NearestIds() = default;
  explicit NearestIds(int64_t id) : id_(id) {}
  void see(int64_t x) {
    if (x < id_ && (!below_ || x > under_)) under_ = x, below_ = true;
    if (x > id_ && (!above_ || x < over_)) over_ = x, above_ = true;
  }
  std::vector<int64_t> ids() const {
    std::vector<int64_t> v;
    if (below_) v.push_back(under_);
    if (above_) v.push_back(over_);
    return v;
  }
  // "; the nearest ids that are vertices are 6 and 9" / "...id that is a vertex is 9" / "".
  std::string sentence() const {
    if (below_ && above_)
      return "; the nearest ids that are vertices are " + std::to_string(under_) + " and " + std::to_string(over_);
    if (below_ || above_) return "; the nearest id that is a vertex is " + std::to_string(below_ ? under_ : over_);
    return "";
  }

 private:
  int64_t id_ = 0;
  bool below_ = false, above_ = false;
  int64_t under_ = 0, over_ = 0;
};

}  // namespace

// The directory's answers: (id, dense) for every id asked that is a vertex.
// An id that is not is left unanswered: the asking node names the line (or
// the source).
void GraphLoader::send_responses(const Stall& stall) {
  LoadWriter& out = *workers_[0].writer;
  // A looked-up id (the source, a seed) that is no vertex here: the nearest
  // ids below and above it in this directory's share, for the error (one
  // scan of the share per such id, whichever nodes ask; every node asks
  // every directory for it).
  std::vector<std::pair<int64_t, NearestIds>> near_of;
  inbox_[static_cast<size_t>(Step::kRequests)].for_each(
      [&](const LoadRecord& r) {
        const int64_t id = join(r.index, r.a);
        const uint32_t asker = r.b & ~kLookupOnly;
        if (asker >= nodes_)
          throw std::runtime_error("a malformed id request (from node " + std::to_string(asker) +
                                   ") arrived while loading: corrupted frames (try --checksum on)?");
        if (const uint32_t* dense = directory_.find(id)) {
          out.put(asker, LoadRecord{r.index, r.a, *dense}, stall);
        } else if (r.b & kLookupOnly) {
          auto known = std::find_if(near_of.begin(), near_of.end(), [id](const auto& n) { return n.first == id; });
          if (known == near_of.end()) {
            NearestIds near(id);
            directory_.for_each([&near](int64_t x, uint32_t) { near.see(x); });
            known = near_of.insert(near_of.end(), {id, near});
          }
          for (const int64_t x : known->second.ids()) out.put(asker, LoadRecord{low(x), high(x), kNearSource}, stall);
        }
      },
      true);
  directory_.clear();
}

// The coordinator, once the responses are in: id -> dense for the workers'
// edge lines, and the program's source.
void GraphLoader::build_translation() {
  Chunks<LoadRecord>& in = inbox_[static_cast<size_t>(Step::kResponses)];
  translation_ = IdTable(in.size());
  // Vertices near the looked-up ids that are none: each is a vertex, and the
  // nearest ones to every such id are among them.
  std::vector<int64_t> near_ids;
  in.for_each(
      [&](const LoadRecord& r) {
        if (r.b == kNearSource)
          near_ids.push_back(join(r.index, r.a));
        else
          translation_.insert(join(r.index, r.a), r.b);
      },
      true);
  auto near_to = [&near_ids](int64_t id) {
    NearestIds near(id);
    for (const int64_t x : near_ids) near.see(x);
    return near.sentence();
  };
  // --ids sparse: each worker turns its table into its edges' translation
  // (replay_kept_edges), then lets it go.
  if (!sparse_)
    for (IdTable& ids : wanted_) ids.clear();
  // The dense id of a looked-up id, or the error naming it (`what`: "the
  // source vertex 7", "--seeds: 7").
  auto dense_of = [&](int64_t id, const std::string& what) {
    const uint32_t* dense = translation_.find(id);
    if (dense != nullptr) return VertexId{*dense};
    if (sparse_)
      throw GraphError(input_.spec, 0,
                       what + " is not a vertex of the graph: no edge names it (the vertices are the ids the edges "
                              "name)" + near_to(id));
    throw GraphError(input_.graphalytics->vertex_file, 0, what + " is not a vertex of the graph" + near_to(id));
  };
  if (rules_.source) source_ = dense_of(*rules_.source, "the source vertex " + std::to_string(*rules_.source));
  lookups_.clear();
  for (const int64_t id : rules_.lookups) lookups_.push_back(dense_of(id, rules_.lookups_named + ": " + std::to_string(id)));
}

// --ids sparse, the edges superstep: every id this node's edges name was
// asked and answered.
VertexId GraphLoader::translated(int64_t id) const {
  const uint32_t* dense = translation_.find(id);
  if (dense == nullptr) [[unlikely]]
    throw std::runtime_error("no directory answered for vertex id " + std::to_string(id) +
                             " while loading: corrupted frames (try --checksum on)?");
  return *dense;
}

}  // namespace wg::load
