// Level-1 partition (round-robin over nodes) and the node-local edge layout.
//
// owner(v) = v mod P and local(v) = v div P, so a message carries a 32-bit
// local index and the receiver needs no lookup table.
//
// Out-edges are stored grouped by destination node ("edge blocks"), each block
// in doubly compressed form: only the sources that have edges to that node are
// listed. The scatter loop then walks one block at a time and writes into one
// open bucket, a tight sequential loop (BlitzG's pre-arranged edges).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/partition/slot_map.h"

namespace wg {

struct RoundRobin {
  unsigned nodes = 1;

  unsigned owner(VertexId v) const { return v % nodes; }
  uint32_t local_index(VertexId v) const { return v / nodes; }
  VertexId global_id(unsigned node, uint32_t local) const {
    return static_cast<VertexId>(uint64_t{local} * nodes + node);
  }
  // Vertices node `r` owns out of `num_vertices`.
  uint32_t local_count(unsigned r, VertexId num_vertices) const {
    return num_vertices > r ? static_cast<uint32_t>((uint64_t{num_vertices} - r + nodes - 1) / nodes) : 0;
  }
};

// An allocator whose resize() leaves new integers unset instead of zeroing
// them. A block's edge arrays are sized before a counting sort writes every
// element; zeroing them first would make all their pages resident at once,
// while the edges they are built from are still held (the loader frees
// those chunk by chunk as it places them: on an input sorted by source the
// pages then become resident as fast as the chunks go).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using EdgeArray = std::vector<T, DefaultInitAllocator<T>>;

// Returns the whole pages of a[first, last) to the kernel (madvise
// MADV_DONTNEED; they read as zero after), for a part the caller has read
// for the last time while the rest is still in use: a block consumed as its
// dense copy is built (compute/engine/dense_block.h) or as it is renumbered
// (compute/partition/slot_renumber.h) or split into ranges as it is read
// (compute/engine/range_plan.cc) is then held twice for a share of its
// edges, not for all of them. The array is freed whole as usual. Returns
// the element where the pages discarded end (`first` if none were), where a
// reader going on discards from next.
template <class T>
uint64_t discard_pages(EdgeArray<T>& a, uint64_t first, uint64_t last) {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  if (last <= first || last > a.size()) return first;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(a.data() + first) + page - 1) & ~(page - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(a.data() + last) & ~(page - 1);
  if (end <= begin) return first;
  madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  return static_cast<uint64_t>((end - reinterpret_cast<uintptr_t>(a.data())) / sizeof(T));
}

// Vertices by degree: (degree, vertices) pairs, ascending by degree.
using DegreeCounts = std::vector<std::pair<uint32_t, uint64_t>>;
// Of the n degrees at `degree`: an array for the common ones, a map for the
// rest (a map insert per vertex: 37 ns, the array 0.9 ns, on 32 M degrees of
// 2,084 distinct values).
DegreeCounts count_degrees(const uint32_t* degree, size_t n);

// Edges from this node's vertices to the vertices of one destination node.
struct EdgeBlock {
  std::vector<uint32_t> sources;   // local indices of sources with >= 1 edge here, ascending
  std::vector<uint64_t> offsets;   // sources.size() + 1 entries into targets/weights
  EdgeArray<uint32_t> targets;     // destination local index (on the destination node); empty once released
  EdgeArray<uint32_t> weights;     // empty unless the program needs weights
  EdgeArray<double> real_weights;  // empty unless the program needs real weights (then weights is empty)

  uint64_t released_edges = 0;     // the edge count once release_source_major() emptied the rest

  uint64_t num_edges() const { return offsets.empty() ? released_edges : offsets.back(); }
  bool targets_released() const { return targets.empty() && num_edges() != 0; }
  // A program that only pulls reads nothing of the source-major block once
  // its destination-major copy is built (compute/engine/engine.h): sources,
  // offsets, targets and weights go; the edge count stays.
  void release_source_major() {
    released_edges = num_edges();
    std::vector<uint32_t>().swap(sources);
    std::vector<uint64_t>().swap(offsets);
    EdgeArray<uint32_t>().swap(targets);
    EdgeArray<uint32_t>().swap(weights);
    EdgeArray<double>().swap(real_weights);
  }
  // Destination indices up to the largest target (another node's domain
  // sizes are not known to a sender): what an array indexed by them needs.
  uint64_t target_span() const {
    uint64_t span = 0;
    for (uint32_t t : targets) span = std::max<uint64_t>(span, uint64_t{t} + 1);
    return span;
  }
};

struct LocalGraph {
  RoundRobin partition;
  unsigned rank = 0;
  VertexId num_vertices = 0;        // global V
  EdgeCount num_edges = 0;          // global |E| (after symmetrising, if done)
  uint32_t num_local = 0;           // vertices this node owns
  unsigned domains = 1;             // NUMA domains per node (k), or once split_into_ranges ran, ranges
  std::vector<uint32_t> domain_offset;  // domains + 1: this node's domain d holds slots [offset[d], offset[d+1])
  std::vector<VertexId> global_of;  // slot -> global id (empty: round-robin arithmetic, k = 1)
  // slot -> the vertex's id in the input when the loader mapped sparse ids to
  // dense ones (Graphalytics graphs, --ids sparse); empty when the input's ids are the dense ids
  std::vector<int64_t> original_id;
  std::vector<uint32_t> out_degree; // per slot, over all destinations
  std::vector<uint32_t> in_degree;  // per slot, from all sources (sizes slot accumulators)
  // Per slot, the sum of its out-edges' weights: only for a program whose
  // GraphRules say out_weights (the engine fills it; compute/engine/vertex_info.h).
  std::vector<double> out_weight;
  // One block per destination group (node, domain), index node * domains + domain;
  // targets are indices within the destination domain.
  std::vector<EdgeBlock> blocks;
  // Only for a program whose graph rules ask for in-edges (else empty): the
  // same groups, each holding this node's vertices' in-edges from that group,
  // reversed (sources: this node's local indices; targets: the in-neighbours'
  // indices within their domain), split into ranges with `blocks`.
  std::vector<EdgeBlock> in_blocks;
  // Every node's NUMA domain boundaries (k + 1 slots each): a plan of ranges
  // (compute/engine/range_plan.h) needs them.
  std::vector<std::vector<uint32_t>> node_domain_offset;
  // Every node's range boundaries (R + 1 slots each), set by split_into_ranges:
  // where block (node, d)'s targets start on that node.
  std::vector<std::vector<uint32_t>> node_range_offset;
  // Set by split_into_ranges: `domains` are then accumulation ranges, each
  // within NUMA domain range_numa[d]; numa_domains and numa_offset keep the
  // NUMA domains (0: not split, domains are the NUMA domains).
  unsigned numa_domains = 0;
  std::vector<uint32_t> numa_offset;
  std::vector<uint8_t> range_numa;
  std::vector<uint8_t> range_queue;  // the receive queue that owns each range

  unsigned group(unsigned node, unsigned d) const { return node * domains + d; }
  unsigned numa_of(unsigned d) const { return range_numa.empty() ? d : range_numa[d]; }
  unsigned numa_count() const { return numa_domains ? numa_domains : domains; }
  const std::vector<uint32_t>& numa_bounds() const { return numa_domains ? numa_offset : domain_offset; }
  uint32_t domain_size(unsigned d) const { return domain_offset[d + 1] - domain_offset[d]; }
  // The slot, on `node`, of target t of block group(node, d).
  uint32_t target_slot(unsigned node, unsigned d, uint32_t t) const {
    return (node_range_offset.empty() ? node_domain_offset : node_range_offset)[node][d] + t;
  }
  VertexId global_id(uint32_t slot) const {
    return global_of.empty() ? partition.global_id(rank, slot) : global_of[slot];
  }
  // The vertex's id as the input names it, what result lines and messages
  // show: its own id when the loader mapped them, else the dense id counted
  // from `first_id` (1 for the formats that number vertices 1..n: DIMACS,
  // METIS, Matrix Market).
  int64_t input_id(uint32_t slot, VertexId first_id) const {
    return original_id.empty() ? static_cast<int64_t>(global_id(slot) + first_id) : original_id[slot];
  }
};

// Out-edges of this node's vertices, all destinations.
inline uint64_t local_out_edges(const LocalGraph& g) {
  uint64_t n = 0;
  for (const EdgeBlock& b : g.blocks) n += b.num_edges();
  return n;
}

// Builds node `rank`'s part of `g`, numbered by `map` (nullptr: k = 1, slot =
// v div P). Weights are kept only if `keep_weights`. Within a block, edges
// keep their input order per source. (A node of a cluster never holds the
// whole graph: it builds its part from the edges it received, with
// build_out_edges; this form serves tests and benchmarks.)
LocalGraph build_local_graph(const EdgeList& g, unsigned nodes, unsigned rank, bool keep_weights,
                             const SlotMap* map = nullptr);

// Node `rank`'s out-edges from `for_each_edge(f)`, which calls f(src, dst,
// weight[, real weight]) (global ids) for every edge whose source the node
// owns, twice over (a pass to count, a pass to place: it must yield the same
// edges in the same order both times). V and |E| are the cluster's;
// in-degrees are left zero for the caller. Counting sort: memory is the
// blocks plus one 4-byte cursor per (destination group, local source).
// `keep_real_weights` keeps the real weights instead of the integer ones.
template <class ForEachEdge>
LocalGraph build_out_edges(ForEachEdge&& for_each_edge, VertexId num_vertices, EdgeCount num_edges, unsigned nodes,
                           unsigned rank, bool keep_weights, const SlotMap* map, bool keep_real_weights = false);

// How the loader hands its held edges to build_out_edges (HeldEdges in
// compute/load/load_records.h): grouped by local source (src div P) in
// buckets of 2^16 consecutive local sources, which both passes of the
// counting sort read in order, the placing pass freeing each bucket's edges
// as it goes. A bucket's targets become resident as its edges go, so the
// build holds the held edges plus about one bucket's targets, and the random
// writes of a pass (counts, cursors, targets) fall in the bucket's 2^16
// sources' share of their arrays (1 MiB of cursors at P = 2). 16 bits of
// source leave 24 of a 5-byte record to the target. Smaller buckets would
// leave more (2^12 sources: 28 bits, kron26's ids), but each bucket of each
// store maps chunks of its own, and a process may hold only
// vm.max_map_count mappings (65530 by default): at P = 1 with 2^26
// vertices, 2^12-source buckets in 16 workers' stores would map 278 K
// part-filled chunks.
inline constexpr unsigned kSourceBucketShift = 16;
constexpr uint64_t source_buckets(uint64_t local_vertices) {
  return local_vertices == 0 ? 1 : (local_vertices + (uint64_t{1} << kSourceBucketShift) - 1) >> kSourceBucketShift;
}

// Keeps one copy of each (source, target) pair in every block, the one with
// the smallest weight; targets end sorted per source. Out-degrees follow.
void remove_duplicate_targets(LocalGraph& g);

// ---- implementation ----------------------------------------------------------

namespace detail {

// Division by an invariant divisor with one multiplication (Lemire, Kaser and
// Kurz, "Faster remainder by direct computation", 2019): exact for 32-bit
// dividends. The builder divides every endpoint by P.
class FastDiv {
 public:
  explicit FastDiv(uint32_t d) : d_(d), m_(d <= 1 ? 0 : UINT64_MAX / d + 1) {}
  uint32_t div(uint32_t a) const {
    return d_ <= 1 ? a : static_cast<uint32_t>((static_cast<unsigned __int128>(m_) * a) >> 64);
  }
  uint32_t mod(uint32_t a) const {
    return d_ <= 1 ? 0 : static_cast<uint32_t>((static_cast<unsigned __int128>(m_ * a) * d_) >> 64);
  }

 private:
  uint32_t d_;
  uint64_t m_;
};

// Random updates (a counting sort's cursors, the id tables' probes) in
// batches: the cache lines of a batch are prefetched before any is used, so
// their misses overlap instead of following one another. `address(item)`
// returns the address to prefetch for writing, or prefetches itself (void).
template <class Item, class Address, class Apply>
class Batched {
 public:
  static constexpr unsigned kBatch = 32;
  Batched(Address address, Apply apply) : address_(address), apply_(apply) {}
  void operator()(const Item& item) {
    if constexpr (std::is_void_v<std::invoke_result_t<Address&, const Item&>>)
      address_(item);
    else
      __builtin_prefetch(address_(item), 1);
    items_[n_++] = item;
    if (n_ == kBatch) flush();
  }
  void flush() {
    for (unsigned i = 0; i < n_; ++i) apply_(items_[i]);
    n_ = 0;
  }

 private:
  Address address_;
  Apply apply_;
  Item items_[kBatch];
  unsigned n_ = 0;
};

}  // namespace detail

template <class ForEachEdge>
LocalGraph build_out_edges(ForEachEdge&& for_each_edge, VertexId num_vertices, EdgeCount num_edges, unsigned nodes,
                           unsigned rank, bool keep_weights, const SlotMap* map, bool keep_real_weights) {
  if (keep_real_weights) keep_weights = false;
  const SlotMap identity = map == nullptr ? identity_slot_map(num_vertices, nodes) : SlotMap{};
  const SlotMap& sm = map == nullptr ? identity : *map;
  LocalGraph lg;
  lg.partition.nodes = nodes;
  lg.rank = rank;
  lg.num_vertices = num_vertices;
  lg.num_edges = num_edges;
  lg.num_local = lg.partition.local_count(rank, num_vertices);
  lg.domains = sm.domains;
  lg.domain_offset = sm.domain_offset[rank];
  lg.node_domain_offset = sm.domain_offset;
  lg.out_degree.assign(lg.num_local, 0);
  lg.blocks.resize(size_t{nodes} * sm.domains);
  if (!sm.identity()) {
    lg.global_of.resize(lg.num_local);
    for (VertexId v = rank; v < num_vertices; v += nodes) lg.global_of[sm.slot(v)] = v;
  }
  const detail::FastDiv by_nodes(nodes);
  // Where an edge goes: (destination group, source slot, target index within
  // its domain). With k = 1 that is (dst mod P, src div P, dst div P).
  struct Placed {
    uint32_t group, slot, target, weight;
    double real_weight;
  };
  auto place = [&](VertexId src, VertexId dst, Weight w, double rw) {
    if (sm.identity()) return Placed{by_nodes.mod(dst), by_nodes.div(src), by_nodes.div(dst), w, rw};
    const unsigned owner = by_nodes.mod(dst), d = sm.domain(dst);
    return Placed{owner * sm.domains + d, sm.slot(src), sm.slot(dst) - sm.offset(owner, d), w, rw};
  };

  // Pass 1: per (destination group, local source) edge counts, 32-bit (as
  // out_degree: a source's edges fit in 32 bits). Pass 2 needs a 64-bit
  // place per (group, source); it is kept as a 32-bit place within the
  // source's run of 2^16 slots and that run's 64-bit start (kCursorRunShift):
  // 8 bytes per local vertex less at P = 2 while the held edges are all
  // still held, the build's peak.
  constexpr unsigned kCursorRunShift = 16;
  const size_t runs = (size_t{lg.num_local} >> kCursorRunShift) + 1;
  std::vector<std::vector<uint32_t>> count(lg.blocks.size(), std::vector<uint32_t>(lg.num_local, 0));
  std::vector<std::vector<uint64_t>> run_start(lg.blocks.size(), std::vector<uint64_t>(runs, 0));
  std::vector<uint32_t*> cursor(lg.blocks.size());
  for (size_t b = 0; b < lg.blocks.size(); ++b) cursor[b] = count[b].data();
  {
    auto at = [&](const Placed& p) { return cursor[p.group] + p.slot; };
    auto add = [&](const Placed& p) {
      ++cursor[p.group][p.slot];
      ++lg.out_degree[p.slot];
    };
    detail::Batched<Placed, decltype(at), decltype(add)> counted(at, add);
    for_each_edge([&](VertexId src, VertexId dst, Weight w, double rw = 0.0) { counted(place(src, dst, w, rw)); });
    counted.flush();
  }
  // Offsets, then the counts become write cursors within their run of slots.
  for (size_t b = 0; b < lg.blocks.size(); ++b) {
    EdgeBlock& blk = lg.blocks[b];
    blk.sources.clear();
    blk.offsets.assign(1, 0);
    for (uint32_t s = 0; s < lg.num_local; ++s) {
      if ((s & ((1u << kCursorRunShift) - 1)) == 0) run_start[b][s >> kCursorRunShift] = blk.offsets.back();
      if (count[b][s] == 0) continue;
      const uint64_t within = blk.offsets.back() - run_start[b][s >> kCursorRunShift];
      if (within + count[b][s] > UINT32_MAX)
        throw std::length_error("build_out_edges: more than 2^32 - 1 edges from 2^16 consecutive sources to one group");
      blk.sources.push_back(s);
      blk.offsets.push_back(blk.offsets.back() + count[b][s]);
      count[b][s] = static_cast<uint32_t>(within);
    }
    blk.targets.resize(blk.offsets.back());
    if (keep_weights) blk.weights.resize(blk.offsets.back());
    if (keep_real_weights) blk.real_weights.resize(blk.offsets.back());
  }
  // Pass 2: place.
  std::vector<uint32_t*> targets(lg.blocks.size()), weights(lg.blocks.size());
  std::vector<double*> real_weights(lg.blocks.size());
  std::vector<const uint64_t*> starts(lg.blocks.size());
  for (size_t b = 0; b < lg.blocks.size(); ++b) {
    targets[b] = lg.blocks[b].targets.data();
    weights[b] = lg.blocks[b].weights.data();
    real_weights[b] = lg.blocks[b].real_weights.data();
    starts[b] = run_start[b].data();
  }
  {
    auto at = [&](const Placed& p) { return cursor[p.group] + p.slot; };
    auto put = [&](const Placed& p) {
      const uint64_t i = starts[p.group][p.slot >> kCursorRunShift] + cursor[p.group][p.slot]++;
      targets[p.group][i] = p.target;
      if (keep_weights) weights[p.group][i] = p.weight;
      if (keep_real_weights) real_weights[p.group][i] = p.real_weight;
    };
    detail::Batched<Placed, decltype(at), decltype(put)> placed(at, put);
    for_each_edge([&](VertexId src, VertexId dst, Weight w, double rw = 0.0) { placed(place(src, dst, w, rw)); });
    placed.flush();
  }
  // Left zero for the caller; sized only now, the held edges gone.
  lg.in_degree.assign(lg.num_local, 0);
  return lg;
}

}  // namespace wg
