#include "compute/engine/memory_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "compute/engine/dense_block.h"
#include "compute/engine/range_plan.h"
#include "compute/graph/kronecker.h"
#include "compute/partition/partition.h"
#include "compute/partition/slot_renumber.h"

namespace wg {

namespace {

// Saturating arithmetic: a header may declare 2^64 - 1 edges.
uint64_t mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
uint64_t add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
template <class... T>
uint64_t sum(uint64_t a, T... rest) {
  ((a = add(a, rest)), ...);
  return a;
}
uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

// An edge the loader holds until the build (compute/load/load_records.h
// HeldEdges: its source's low 16 bits, its target, its weight if kept;
// without a weight, 5 bytes for a target below 2^24).
constexpr uint64_t kHeldPackedEdge = 5, kHeldEdge = 6, kHeldWeightedEdge = 10, kHeldRealWeightedEdge = 14;
constexpr uint64_t kPackedTargets = uint64_t{1} << (40 - kSourceBucketShift);

// A weight per edge in the CSR and the dense copy.
uint64_t weight_bytes(const AppFootprint& app) { return app.real_weights ? 8 : app.weights ? 4 : 0; }

// How a share of edges falls into blocks: `sets` alike sets of slots (the
// destination nodes' NUMA domains, or this node's own), each cut into
// `pieces` equal runs of slots (ranges, dense segments), in slot order;
// `even`: the runs are cut to hold equal edges (the workers' slices).
struct Blocks {
  uint64_t sets = 1, pieces = 1;
  bool even = false;
  uint64_t count() const { return mul(sets, pieces); }
};

// log C(S, z): how many of a Kronecker graph's 2^S ids have z zero bits (the
// degree classes below).
double log_binomial(unsigned S, unsigned z) {
  return std::lgamma(S + 1.0) - std::lgamma(z + 1.0) - std::lgamma(S - z + 1.0);
}

// Spreads a class of alike vertices, slots [at, end) as fractions of all
// slots, each fraction holding `density` times its size of the edge ends,
// over the equal runs of slots that `share` counts.
void add_class_to_pieces(std::vector<double>& share, double at, double end, double density) {
  const double pieces = static_cast<double>(share.size());
  for (auto j = static_cast<uint64_t>(at * pieces); j < share.size(); ++j) {
    const double lo = std::max(at, static_cast<double>(j) / pieces);
    const double hi = std::min(end, static_cast<double>(j + 1) / pieces);
    if (hi <= lo) break;
    share[j] += (hi - lo) * density;
  }
}

// With --vertex-order degree, the share of a set's edge ends that each of its
// `pieces` equal runs of slots holds on a Kronecker graph of scale S. Slots
// follow degree, highest first, and a vertex's expected degree (in or out,
// alike) falls with the zero bits z of its id: the classes lie in z
// descending, the class z holding C(S, z) / 2^S of the slots and
// C(S, z) p^z (1-p)^(S-z) of the edge ends (p = A + B). The first of 128
// ranges of kron:24 holds 57% of them, not 1/128: a vertex's edges meet far
// fewer ranges than at random (kron:24:16 at P=2: 23.2 M (source, block)
// pairs in the cluster's CSR, 23.5 M so, 61.9 M at random).
std::vector<double> degree_ordered_shares(unsigned S, double p, uint64_t pieces) {
  std::vector<double> share(pieces, 0.0);
  double at = 0;  // the start of the class, as a fraction of the slots
  for (unsigned z = S + 1; z-- > 0;) {
    const double log_count = log_binomial(S, z);
    const double slots = std::exp(log_count - S * std::log(2.0));
    const double ends = std::exp(log_count + z * std::log(p) + (S - z) * std::log1p(-p));
    const double end = std::min(at + slots, 1.0);
    add_class_to_pieces(share, at, end, ends / slots);
    at = end;
  }
  return share;
}

// Runs of slots beyond a few per degree class change nothing the sums below
// can tell.
constexpr uint64_t kMostPieces = uint64_t{1} << 20;

// With --vertex-order degree, the share of a node's edge ends that each of
// `pieces` equal runs of its slots holds, from its vertices by out-degree
// (ascending): slots follow out-degree, highest first. Of the node's
// out-edges; of its in-edges too where in-degrees are out-degrees.
std::vector<double> counted_degree_shares(const DegreeCounts& counts, uint64_t pieces) {
  std::vector<double> share(pieces, 0.0);
  double slots = 0, ends = 0;
  for (const auto& [degree, count] : counts) {
    slots += static_cast<double>(count);
    ends += static_cast<double>(degree) * static_cast<double>(count);
  }
  if (slots == 0 || ends == 0) return share;
  double at = 0;  // the class's first slot, as a fraction of the slots
  for (auto c = counts.rbegin(); c != counts.rend(); ++c) {
    const double end = std::min(at + static_cast<double>(c->second) / slots, 1.0);
    add_class_to_pieces(share, at, end, static_cast<double>(c->first) * slots / ends);
    at = end;
  }
  return share;
}

// vertex_block_pairs for a file, from this node's out-degree counts: a
// vertex with d edges toward blocks whose edge-end shares are q_j meets
// about Σ (1 - e^(-d q_j)) of them (g (1 - e^(-d/g)) of g blocks of even
// shares, the most d edges can meet). As sources, the node's own vertices:
// the shares are their destinations' (a range's share of a node's in-edges),
// even unless the slots follow degree and in-degrees are out-degrees
// (NodeShape::degrees_alike). As destinations, every vertex of the graph
// (a dense copy's pairs; the blocks: this node's segments, whose shares
// follow its own out-degrees), known only where in-degrees are out-degrees:
// V / local vertices per counted one, each with its share of the node's
// edges; otherwise the bound. GAP's kron24 at P = 2: 34 M (source, range)
// pairs in a node's CSR, 99 M if spread evenly; 8.6 M (segment,
// destination) pairs in its dense copy, against a bound of 84 M.
uint64_t counted_block_pairs(const NodeShape& s, uint64_t edges, const Blocks& blocks, bool local, uint64_t bound) {
  if (!local && !s.degrees_alike) return bound;
  const double g = static_cast<double>(blocks.count()), sets = static_cast<double>(blocks.sets);
  // (as destinations, only reached when degrees are alike)
  const bool ordered =
      s.degrees_alike && s.degree_order && !blocks.even && blocks.pieces > 1 && blocks.pieces <= kMostPieces;
  const std::vector<double> shares = ordered ? counted_degree_shares(s.out_degrees, blocks.pieces) : std::vector<double>{};
  auto met = [&](double degree) {
    if (!ordered) return g * -std::expm1(-degree / g);
    double m = 0;
    for (const double q : shares) m += sets * -std::expm1(-degree * q / sets);
    return m;
  };
  double counted = 0, ends = 0;
  for (const auto& [degree, count] : s.out_degrees) {
    counted += static_cast<double>(count);
    ends += static_cast<double>(degree) * static_cast<double>(count);
  }
  // (as destinations: each counted vertex stands for `copies`, which receive
  // `scale` of their in-degree from this node)
  const double copies = local ? 1.0 : static_cast<double>(s.vertices) / std::max(counted, 1.0);
  const double scale = local || ends == 0 ? 1.0 : static_cast<double>(edges) / (ends * copies);
  double pairs = 0;
  for (const auto& [degree, count] : s.out_degrees)
    pairs += copies * static_cast<double>(count) * met(static_cast<double>(degree) * scale);
  return std::min(bound, static_cast<uint64_t>(pairs) + 1);
}

// The (vertex, block) pairs with edges when `vertices` vertices (a share of
// the graph) spread `edges` edges over `blocks`: at most one per edge and
// one per block per vertex; at random, fewer on a Kronecker graph
// (compute/graph/kronecker.h), whose degrees are known before it is made.
// There a vertex with z zero bits of the scale S in its id has the expected
// degree d_z = (edges per vertex) * 2^S * p^z * (1-p)^(S-z), p = A + B (and
// A + C for in-degrees: the same 0.76), Poisson-distributed, C(S, z) such
// vertices in all. Its edges fall into a block of edge-end share q as
// Poisson(d_z q), so it meets Σ (1 - exp(-d_z q)) of them: g (1 - exp(-d_z
// / g)) of g alike blocks; with --vertex-order degree, the shares of
// degree_ordered_shares.
// `local`: the vertices are this node's sources, else every vertex of the
// graph as a destination. For a file whose degrees the node counted
// (NodeShape::out_degrees), counted_block_pairs.
uint64_t vertex_block_pairs(const NodeShape& s, uint64_t vertices, uint64_t edges, const Blocks& blocks, bool local) {
  const uint64_t groups = blocks.count();
  const uint64_t bound = std::min(edges, mul(vertices, groups));
  if (s.kron_scale == 0 && !s.out_degrees.empty() && groups > 0)
    return counted_block_pairs(s, edges, blocks, local, bound);
  if (s.kron_scale == 0 || vertices == 0 || groups == 0) return bound;
  static_assert(KroneckerGenerator::kA + KroneckerGenerator::kB == KroneckerGenerator::kA + KroneckerGenerator::kC,
                "in- and out-degrees alike");
  constexpr double kZeroBit = KroneckerGenerator::kA + KroneckerGenerator::kB;
  const unsigned S = s.kron_scale;
  const bool ordered = s.degree_order && !blocks.even && blocks.pieces > 1 && blocks.pieces <= kMostPieces;
  const std::vector<double> shares = ordered ? degree_ordered_shares(S, kZeroBit, blocks.pieces) : std::vector<double>{};
  const double per_vertex = static_cast<double>(edges) / static_cast<double>(vertices);  // of this share
  const double g = static_cast<double>(groups), sets = static_cast<double>(blocks.sets);
  const double share = static_cast<double>(vertices) / std::ldexp(1.0, S);
  double pairs = 0;
  for (unsigned z = 0; z <= S; ++z) {
    const double count = std::exp(log_binomial(S, z));
    const double degree = per_vertex * std::exp(S * std::log(2.0) + z * std::log(kZeroBit) + (S - z) * std::log1p(-kZeroBit));
    double met = 0;
    if (ordered)
      for (const double q : shares) met += sets * -std::expm1(-degree * q / sets);
    else
      met = g * -std::expm1(-degree / g);
    pairs += share * count * met;
  }
  return std::min(bound, static_cast<uint64_t>(pairs) + 1);
}

// This node's CSR (compute/partition/partition.h LocalGraph) with `blocks` edge blocks
// (destination node x domain, or x range once split): degrees (and, with K >
// 1 or degree order, the slot -> vertex table) per local vertex; a target (and weight) per
// out-edge; a source and an offset per (source, block) pair with edges, at
// most one per out-edge and one per local vertex and block.
// The CSR's arrays per local vertex: its degrees and, with K > 1 or degree
// order, its slot -> vertex entry.
uint64_t csr_vertex_bytes(const NodeShape& s, uint64_t local_v) {
  return mul(local_v, s.domains > 1 || s.degree_order ? 12 : 8);
}

uint64_t local_graph_bytes(const NodeShape& s, uint64_t local_v, uint64_t weight_bytes, const Blocks& blocks) {
  const uint64_t pairs = vertex_block_pairs(s, local_v, s.out_edges, blocks, true);
  return sum(csr_vertex_bytes(s, local_v), mul(s.out_edges, 4 + weight_bytes), mul(pairs, 12), mul(blocks.count(), 64));
}

// Accumulation ranges per node (compute/engine/range_plan.h): each of a balanced
// node's K domains cut into ranges of range_bytes of messages, a whole number
// per owning queue (whole for a program that only pulls: range_entries_of).
uint64_t ranges_per_node(const NodeShape& s, uint64_t local_v, const AppFootprint& app) {
  const unsigned K = std::max(s.domains, 1u);
  const uint32_t entries = range_entries_of(s.range_bytes, local_v, app.message_bytes, app.pulls_only);
  const std::vector<std::vector<unsigned>> owners = domain_owners(K, std::max(s.queues, 1u));
  uint64_t ranges = 0;
  for (unsigned d = 0; d < K; ++d)
    ranges = add(ranges, ranges_in_domain(ceil_div(local_v, K), static_cast<unsigned>(owners[d].size()), entries));
  return ranges;
}

}  // namespace

NodeShape balanced_shape(uint64_t vertices, uint64_t edges, unsigned nodes, unsigned domains, unsigned kron_scale) {
  NodeShape s;
  s.kron_scale = kron_scale;
  s.vertices = vertices;
  s.held_edges = s.out_edges = s.in_edges = ceil_div(edges, std::max(nodes, 1u));
  s.nodes = nodes;
  s.domains = domains;
  return s;
}

NodeShape declared_shape(const DeclaredSize& d, unsigned nodes, unsigned domains, bool symmetrizes) {
  const bool doubled = symmetrizes && !d.as_built;
  NodeShape s = balanced_shape(d.vertices, doubled && d.edges <= UINT64_MAX / 2 ? 2 * d.edges : d.edges, nodes,
                               domains, d.kron_scale);
  s.as_built = d.as_built;
  return s;
}

uint64_t MemoryNeed::peak() const { return std::max({load, build, run}); }

MemoryNeed estimate_node_memory(const NodeShape& s, const AppFootprint& app) {
  const unsigned P = std::max(s.nodes, 1u), K = std::max(s.domains, 1u);
  const uint64_t local_v = ceil_div(s.vertices, P);
  // A program that reads in-edges holds them too, reversed, in blocks of
  // the same shape (compute/engine/capabilities/edge_direction.h): the held
  // edges and the CSR twice.
  const uint64_t copies = app.in_edges ? 2 : 1;
  const uint64_t held_record = app.real_weights ? kHeldRealWeightedEdge
                               : app.weights      ? kHeldWeightedEdge
                               : s.vertices <= kPackedTargets ? kHeldPackedEdge
                                                              : kHeldEdge;
  const uint64_t whole = mul(copies, mul(s.held_edges, held_record));
  // The CSR as built (a block per destination node and domain), and as the
  // run holds it (a block per destination node and range).
  const uint64_t csr = mul(copies, local_graph_bytes(s, local_v, weight_bytes(app), Blocks{uint64_t{P} * K}));
  const uint64_t ranges = ranges_per_node(s, local_v, app);
  // (every destination node's K domains, each cut into equal ranges)
  const Blocks by_range{uint64_t{P} * K, ceil_div(ranges, K)};
  const uint64_t groups = by_range.count();
  const uint64_t csr_ranges = mul(copies, local_graph_bytes(s, local_v, weight_bytes(app), by_range));
  MemoryNeed need;
  need.ranges = ranges;

  // Load: the held edges (symmetrising routes both directions: the caller's
  // held_edges counts them).
  need.load = whole;

  // Build: the counting sort's per-(group, local vertex) 32-bit cursors
  // (compute/partition/partition.h build_out_edges), and once the held edges
  // are gone the partition report's work and prefix sums (17 B per local
  // vertex, compute/partition/domain_partition.h); with K > 1 the slot map
  // (5 B per global vertex) first, and before the CSR, for each node in
  // turn, an unweighted CSR with its cursors and the METIS graph (adjacency,
  // pair weights, staging: about 24 B per local edge and 16 per local vertex).
  const uint64_t cursors = mul(mul(local_v, uint64_t{P} * K), 4);
  const uint64_t report = mul(local_v, 17);
  const uint64_t slot_map = K > 1 ? mul(s.vertices, 5) : 0;
  uint64_t planning = 0;
  if (K > 1) {
    NodeShape one = s;
    one.domains = 1;
    planning = sum(slot_map, local_graph_bytes(one, local_v, 0, Blocks{P}), mul(mul(local_v, P), 8),
                   mul(s.out_edges, 24), mul(local_v, 16));
  }
  // The counting sort reads the held edges by source bucket and frees each
  // bucket's edges as placed (compute/partition/partition.h, source_buckets):
  // the targets (and weights) become resident as the held edges go, which
  // take more bytes per edge, so all but one bucket's targets come out of the
  // held edges' room; a bucket's part-filled last chunk holds at most a page
  // in each worker's store and the received one. (With in-edges an upper
  // bound: the out-edges' held records are gone before the in-edges' blocks
  // are built.)
  const uint64_t buckets = source_buckets(local_v);
  const uint64_t targets = mul(copies, mul(s.out_edges, 4 + weight_bytes(app)));
  const uint64_t placed_as_freed = targets - ceil_div(targets, buckets);
  const uint64_t part_filled = mul(copies, mul(buckets, mul(s.workers + 1, 4096)));
  // (while the edges are placed, of the CSR's per-vertex arrays only the
  // out-degrees exist: the in-degrees are sized after, the slot table with
  // the renumbering)
  const uint64_t not_yet = csr_vertex_bytes(s, local_v) - mul(local_v, 4);
  need.build = add(whole, std::max(planning, sum(slot_map, csr - placed_as_freed - not_yet, cursors, part_filled)));
  need.build = std::max(need.build, add(csr, report));
  // With K > 1 the CSR is built again by slot from the first one, the held
  // edges gone; degree order with K = 1 renumbers it in place
  // (compute/partition/slot_renumber.h): every node's slot table (4 B per vertex), a
  // block copied at a time, a share of it (kRenumberPasses) held twice, its
  // sources' offsets and run indices (20 B each), and the per-slot vectors' copies.
  const uint64_t node_block = ceil_div(s.out_edges, P);
  if (K > 1)
    need.build = std::max(need.build, sum(slot_map, csr, csr, cursors));
  else if (s.degree_order)
    need.build = std::max(need.build, sum(csr, mul(s.vertices, 4),
                                          mul(ceil_div(node_block, kRenumberPasses), 4 + weight_bytes(app)),
                                          mul(std::min(node_block, local_v), 20), mul(local_v, 16)));
  // Then the split into ranges (split_into_ranges), the held edges gone: the
  // blocks by range, and beside them the (node, domain) block being split
  // (a balanced share of the out-edges): its sources and offsets, and the
  // edges read before the pages behind go (kSplitDiscardEdges). A domain of
  // one range keeps its block as it is: nothing is copied.
  const uint64_t block_edges = ceil_div(s.out_edges, uint64_t{P} * K);
  const uint64_t block = ceil_div(ranges, K) <= 1 ? 0
                         : sum(mul(std::min(block_edges, kSplitDiscardEdges), 4 + weight_bytes(app)),
                               mul(std::min(block_edges, local_v), 12), 64);
  need.build = std::max(need.build, add(csr_ranges, block));
  if (s.as_built) {
    // A snapshot: read back as the CSR the loader built (a block per node
    // and domain), its edges never held, counted or renumbered; then split.
    need.load = csr;
    need.build = std::max(csr, add(csr_ranges, block));
  }

  need.local_graph = csr_ranges;
  if (app.own_driver) {
    // Run: the CSR and what the program's own driver holds.
    need.run = sum(csr_ranges, mul(add(s.out_edges, s.in_edges), app.driver.bytes_per_neighbour),
                   mul(local_v, app.driver.bytes_per_local_vertex), mul(s.vertices, app.driver.bytes_per_vertex));
    return need;
  }

  // SSSP in auto mode: no dense copy (it never pulls unless forced).
  const bool splits_auto = app.light_first && s.scatter == ScatterMode::kAuto;
  const bool has_dense =
      !app.slots && !app.real_weights && !app.in_edges && s.scatter != ScatterMode::kSparse && !splits_auto;
  // A program that only pulls keeps no source-major block through the run.
  const bool pulls_only = has_dense && app.pulls_only;

  // Run: the engine's values and two accumulators (scalar: a message per
  // vertex; slots: an 8-byte offset, a 4-byte fill count and a message per
  // in-edge), the workers' scatter values, two bytes per vertex for the
  // frontier (a bit and, while small, a list of a quarter of the slice) and
  // the delta-stepping schedule's bitmaps, each source's list of blocks (an
  // 8-byte entry per (source, group) pair and an 8-byte offset per vertex:
  // compute/engine/source_blocks.h; none for a program that only pulls) with
  // room to group an eighth of those pairs (compute/engine/blocked_frontier.h),
  // and the dense copy.
  const uint64_t source_groups = pulls_only ? 0 : mul(copies, vertex_block_pairs(s, local_v, s.out_edges, by_range, true));
  uint64_t engine = sum(mul(local_v, app.value_bytes + 2 + app.message_bytes + (pulls_only ? 0 : 8)),
                        mul(source_groups, 8), mul(grouped_capacity(source_groups), app.grouped_bytes));
  // Applying early (--local-rounds on): a message per vertex and a bit
  // (compute/engine/own_messages.h).
  if (app.early && s.local_rounds) engine = sum(engine, mul(local_v, app.message_bytes), ceil_div(local_v, 8));
  if (app.slots)
    engine = sum(engine, mul(2, sum(mul(local_v, 12), mul(s.in_edges, app.message_bytes))));
  else
    engine = add(engine, mul(local_v, 2 * app.message_bytes));
  // SSSP in auto mode: each worker holds a message and a destination per
  // vertex of the largest block to another node, to combine a big
  // superstep's records (compute/engine/worker/sender_combine.h): a balanced
  // node's count. None at P = 1: there is no other node.
  if (splits_auto && s.nodes > 1) engine = add(engine, mul(s.workers, mul(local_v, app.message_bytes + 4)));
  // Level-synchronous programs (BFS, CC): each worker's bit per destination
  // of every group it sends to, whatever the scatter mode.
  if (app.levels) engine = add(engine, mul(s.workers, ceil_div(s.vertices, 8)));
  uint64_t dense = 0;
  if (has_dense) {
    // A source (and weight) per edge; a target and an offset per (segment,
    // destination) pair, at most one per edge. Each worker segments its own
    // slice (compute/engine/worker/dense_pull.h), so W workers cut at most
    // W - 1 more segments; a level-synchronous program pulls its slice as one.
    const uint64_t per_segment = std::max<uint64_t>(s.segment_bytes / app.message_bytes, 1);
    const uint64_t segments = app.levels ? s.workers : ceil_div(local_v, per_segment) + s.workers - 1;
    // (per destination: the segments of this node's sources its in-edges come from)
    // (a worker's slice holds its share of the edges; segments are equal runs of slots)
    const Blocks by_segment = app.levels ? Blocks{segments, 1, true} : Blocks{K, ceil_div(segments, K)};
    const uint64_t pairs = vertex_block_pairs(s, s.vertices, s.out_edges, by_segment, false);
    dense = sum(mul(s.out_edges, 4 + weight_bytes(app)), mul(pairs, 12));
    // The positions a bottom-up step still visits (at most one per pair).
    if (app.levels) engine = add(engine, mul(pairs, 4));
  }
  // BC: each worker's two bits per destination of every group (settled,
  // sent this superstep), unless --scatter sparse.
  if (app.settles && s.scatter != ScatterMode::kSparse)
    engine = add(engine, mul(s.workers, mul(2, ceil_div(s.vertices, 8))));
  // SSSP: a target and a weight per edge, light first, a light-edge count
  // per (source, group) pair and an edge class per vertex.
  uint64_t light_first = 0;
  if (app.light_first)
    light_first = sum(mul(s.out_edges, 8), mul(vertex_block_pairs(s, local_v, s.out_edges, by_range, true), 4), local_v);
  // A program that only pulls (compute/engine/engine.h) builds each group's
  // dense copy consuming its block, a share at a time (kDenseCopyPasses), and
  // then releases the block: at the last group's build the whole copy, a
  // share of that group's block and the CSR's per-vertex arrays are held.
  uint64_t csr_held = csr_ranges;
  if (pulls_only) {
    const uint64_t per_vertex = csr_vertex_bytes(s, local_v);
    const uint64_t blocks = csr_ranges > per_vertex ? csr_ranges - per_vertex : 0;
    csr_held = add(per_vertex, ceil_div(blocks, std::max<uint64_t>(groups, 1) * kDenseCopyPasses));
  }
  need.run = sum(csr_held, engine, dense, light_first);
  need.dense = dense;
  need.light_first = light_first;
  return need;
}

std::string MemoryNeed::describe() const {
  return format_bytes(peak()) + " (loading " + format_bytes(load) + ", partitioning " + format_bytes(build) +
         ", computing " + format_bytes(run) + ")";
}

void check_memory(const MemoryNeed& need, uint64_t held, const MemoryLimit& limit, const std::string& what) {
  const uint64_t more = need.peak() > held ? need.peak() - held : 0;
  if (more <= limit.bytes) return;
  const std::string holding = held > 0 ? ", " + format_bytes(held) + " of it already held," : "";
  throw MemoryBudgetError(what + ": this node would need about " + need.describe() + " of memory" + holding +
                          " but may use " + (held > 0 ? "only " : "") + format_bytes(limit.bytes) +
                          (held > 0 ? " more" : "") + " (" + limit.source +
                          "); use more nodes (--nodes), a machine with more memory or a smaller graph");
}

MemoryFit fit_to_memory(const NodeShape& shape, const AppFootprint& app, uint64_t held, const MemoryLimit& limit) {
  const auto fits = [&](const MemoryNeed& n) { return n.peak() <= held || n.peak() - held <= limit.bytes; };
  MemoryFit fit{estimate_node_memory(shape, app), shape.scatter, 0};
  if (shape.scatter != ScatterMode::kAuto || fit.need.dense == 0 || fits(fit.need)) return fit;
  NodeShape pushing = shape;
  pushing.scatter = ScatterMode::kSparse;
  const MemoryNeed push_only = estimate_node_memory(pushing, app);
  if (fits(push_only)) fit = MemoryFit{push_only, ScatterMode::kSparse, fit.need.dense};
  return fit;
}

}  // namespace wg
