// The memory estimate and check (compute/engine/memory_budget.h) and the machine's
// limit (compute/graph/memory_limit.h): the estimate against hand-computed sums and
// against what the node's own structures really allocate, the refusal's
// message, and /proc and cgroup files laid out as Linux lays them out.
#include "compute/engine/memory_budget.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "apps/bc.h"
#include "apps/bfs.h"
#include "apps/kcore.h"
#include "apps/label_propagation.h"
#include "apps/lcc.h"
#include "apps/pagerank.h"
#include "apps/sssp.h"
#include "apps/sssp_real.h"
#include "compute/engine/blocked_frontier.h"
#include "compute/engine/dense_block.h"
#include "compute/graph/kronecker.h"
#include "compute/partition/slot_renumber.h"
#include "compute/engine/light_first.h"
#include "compute/graph/memory_limit.h"
#include "compute/partition/partition.h"
#include "compute/partition/slot_map.h"
#include "compute/engine/range_plan.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

TEST(AppFootprint, FollowsTheProgramsTypes) {
  constexpr AppFootprint pr = footprint_of<PageRank>();
  EXPECT_EQ(pr.value_bytes, 8u);  // double
  EXPECT_EQ(pr.message_bytes, 4u);  // float
  EXPECT_FALSE(pr.slots);
  EXPECT_FALSE(pr.weights);
  EXPECT_FALSE(pr.early);
  EXPECT_EQ(pr.grouped_bytes, 12u) << "a block index and a float scatter value with its edge class";
  constexpr AppFootprint sssp = footprint_of<Sssp>();
  EXPECT_TRUE(sssp.weights);
  EXPECT_FALSE(sssp.real_weights);
  EXPECT_TRUE(sssp.early) << "delta-stepping's local rounds";
  constexpr AppFootprint real_sssp = footprint_of<RealSssp>();
  EXPECT_TRUE(real_sssp.real_weights);
  EXPECT_EQ(real_sssp.value_bytes, 8u);  // double distances
  EXPECT_EQ(real_sssp.message_bytes, 8u);
  EXPECT_FALSE(real_sssp.early);
  EXPECT_EQ(real_sssp.grouped_bytes, 24u) << "the double aligns the item to 8 bytes";
  constexpr AppFootprint cd = footprint_of<LabelPropagation>();
  EXPECT_TRUE(cd.slots);
  EXPECT_TRUE(cd.symmetrize);
  constexpr AppFootprint kcore = footprint_of<KCore>();
  EXPECT_TRUE(kcore.slots);
  EXPECT_EQ(kcore.value_bytes, 8u);  // core and the fell flag
}

// V = 1000, P = 2, 10000 edges (5000 out of and into node 0, which it
// holds once they have arrived), sparse.
NodeShape hand_computed_shape() {
  NodeShape s;
  s.vertices = 1000;
  s.held_edges = 5000;
  s.out_edges = s.in_edges = 5000;
  s.nodes = 2;
  s.scatter = ScatterMode::kSparse;
  return s;
}

// BFS on hand_computed_shape(): every term written out from the
// structures (compute/load/load_records.h, partition.h, engine.h, worker.h).
TEST(MemoryEstimate, HandComputedScalarProgram) {
  const NodeShape s = hand_computed_shape();
  const MemoryNeed n = estimate_node_memory(s, footprint_of<Bfs>());
  const uint64_t local_v = 500;
  const uint64_t csr = local_v * 8             // out- and in-degree
                       + 5000 * 4             // targets
                       + std::min<uint64_t>(5000, local_v * 2) * 12  // (source, node) pairs: source + offset
                       + 2 * 64;              // two blocks
  EXPECT_EQ(n.local_graph, csr);
  EXPECT_EQ(n.load, 5000u * 5) << "held edges without weights, targets below 2^24: 5 bytes each";
  // (and a page part filled in the one source bucket of the worker's store and the received one)
  // (while they are placed: the out-degrees of the CSR's per-vertex arrays, 4 B cursors per (node, source))
  EXPECT_EQ(n.build, 5000u * 5 + csr - local_v * 4 + local_v * 2 * 4 + 2 * 4096);
  EXPECT_GE(n.build, csr + local_v * 17) << "above the CSR and the partition report, after the held edges";
  EXPECT_EQ(n.run, csr + local_v * (4 + 2 + 4)  // value, frontier, scatter value
                       + local_v * 8 + 1000 * 8  // each source's blocks: offsets, (source, node) pairs
                       + (1000 / 8 + 1) * 12     // room to group an eighth of the pairs
                       + local_v * 2 * 4        // two accumulators
                       + 1000 / 8);             // the worker's reached bit per destination
  EXPECT_EQ(n.dense, 0u);
  EXPECT_EQ(n.light_first, 0u);
  EXPECT_EQ(n.peak(), n.build);
}

// A snapshot (NodeShape::as_built) is read back as the CSR the loader built:
// its load is that CSR, not held edges, and its build the split into
// ranges alone (here one range a node: each block kept as it is, nothing
// copied); the run is the same as after any load.
TEST(MemoryEstimate, ASnapshotHoldsNoEdges) {
  NodeShape s = hand_computed_shape();
  const MemoryNeed loaded = estimate_node_memory(s, footprint_of<Bfs>());
  s.as_built = true;
  const MemoryNeed read = estimate_node_memory(s, footprint_of<Bfs>());
  const uint64_t local_v = 500;
  const uint64_t csr = local_v * 8 + 5000 * 4 + std::min<uint64_t>(5000, local_v * 2) * 12 + 2 * 64;
  ASSERT_EQ(read.local_graph, csr);
  EXPECT_EQ(read.load, csr);
  EXPECT_EQ(read.build, csr);
  EXPECT_EQ(read.run, loaded.run);
  EXPECT_LT(read.peak(), loaded.peak());
}

// What an input declares becomes a balanced node: symmetrising rules double
// its edges, except a snapshot's, which are the graph as built.
TEST(MemoryEstimate, DeclaredShapeDoublesAllButASnapshot) {
  DeclaredSize d;
  d.vertices = 1000;
  d.edges = 5000;
  EXPECT_EQ(declared_shape(d, 2, 1, false).held_edges, 2500u);
  EXPECT_EQ(declared_shape(d, 2, 1, true).held_edges, 5000u);
  EXPECT_FALSE(declared_shape(d, 2, 1, true).as_built);
  d.as_built = true;
  EXPECT_EQ(declared_shape(d, 2, 1, true).held_edges, 2500u);
  EXPECT_TRUE(declared_shape(d, 2, 1, true).as_built);
}

// Held edges without weights take 5 bytes while every target is below 2^24
// (compute/load/load_records.h HeldEdges), 6 beyond.
TEST(MemoryEstimate, HeldEdgesTakeSixBytesOnlyPast2To24Vertices) {
  NodeShape s = hand_computed_shape();
  s.vertices = uint64_t{1} << 24;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<Bfs>()).load, 5000u * 5);
  s.vertices = (uint64_t{1} << 24) + 1;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<Bfs>()).load, 5000u * 6);
}

// The same shape scaled up to many source buckets (compute/partition/partition.h,
// source_buckets): V = 2^24 at P = 2, so 2^23 local sources make 128
// buckets of 2^16. The build holds the held edges (5 bytes each), the CSR
// less all but a 128th of its targets (placed as the held edges go), the
// cursors, and a page of each bucket's part-filled last chunk in the
// worker's store and the received one.
TEST(MemoryEstimate, TheBuildHoldsOneSourceBucketsTargetsBesideTheHeldEdges) {
  NodeShape s = hand_computed_shape();
  s.vertices = uint64_t{1} << 24;
  s.held_edges = s.out_edges = s.in_edges = uint64_t{1} << 28;
  s.range_bytes = uint64_t{64} << 20;  // Σ (32 MiB) in one range: the CSR as built is the CSR run
  const uint64_t local_v = uint64_t{1} << 23;
  ASSERT_EQ(source_buckets(local_v), 128u);
  ASSERT_EQ(s.workers, 1u);
  const MemoryNeed n = estimate_node_memory(s, footprint_of<Bfs>());
  const uint64_t targets = s.out_edges * 4;
  const uint64_t csr = local_v * 8 + targets + std::min<uint64_t>(s.out_edges, local_v * 2) * 12 + 2 * 64;
  EXPECT_EQ(n.local_graph, csr);
  const uint64_t cursors = local_v * 2 * 4, in_degrees = local_v * 4;  // (in-degrees: sized after)
  EXPECT_EQ(n.build, s.held_edges * 5 + csr - in_degrees - targets + targets / 128 + cursors + 128 * 2 * 4096);
  EXPECT_LT(n.build, s.held_edges * 5 + csr) << "less than the held edges and the whole CSR";
}

// Under --scatter auto a node whose estimate does not fit, but would
// without the dense copy, pushes only (fit_to_memory); one that fits keeps
// pulling, one that fits neither is refused, and an explicit --scatter is
// never changed. The limits sit between the hand-set estimates of BFS (a
// level-synchronous program with a dense copy) at V = 2^20, 2^24 edges held.
TEST(MemoryFit, PushesOnlyWhenOnlyPushingFits) {
  NodeShape s = hand_computed_shape();
  s.vertices = uint64_t{1} << 20;
  s.held_edges = s.out_edges = s.in_edges = uint64_t{1} << 24;
  s.scatter = ScatterMode::kAuto;
  const AppFootprint bfs = footprint_of<Bfs>();
  const MemoryNeed pulling = estimate_node_memory(s, bfs);
  NodeShape sparse = s;
  sparse.scatter = ScatterMode::kSparse;
  const MemoryNeed pushing = estimate_node_memory(sparse, bfs);
  ASSERT_GT(pulling.dense, 0u);
  ASSERT_LT(pushing.peak(), pulling.peak()) << "the run, with its dense copy, sets the peak";
  const auto limit = [](uint64_t bytes) { return MemoryLimit{bytes, "a test's"}; };

  const MemoryFit roomy = fit_to_memory(s, bfs, 0, limit(pulling.peak()));
  EXPECT_EQ(roomy.scatter, ScatterMode::kAuto);
  EXPECT_FALSE(roomy.pushes_only_to_fit());
  EXPECT_EQ(roomy.need.peak(), pulling.peak());

  const MemoryFit tight = fit_to_memory(s, bfs, 0, limit(pulling.peak() - 1));
  EXPECT_EQ(tight.scatter, ScatterMode::kSparse);
  EXPECT_EQ(tight.dense_left_out, pulling.dense);
  EXPECT_EQ(tight.need.peak(), pushing.peak());
  EXPECT_NO_THROW(check_memory(tight.need, 0, limit(pulling.peak() - 1), "g"));
  // What is already held is no longer in the limit.
  EXPECT_EQ(fit_to_memory(s, bfs, 1000, limit(pulling.peak() - 1000)).scatter, ScatterMode::kAuto);
  EXPECT_EQ(fit_to_memory(s, bfs, 1000, limit(pulling.peak() - 1001)).scatter, ScatterMode::kSparse);

  const MemoryFit neither = fit_to_memory(s, bfs, 0, limit(pushing.peak() - 1));
  EXPECT_EQ(neither.scatter, ScatterMode::kAuto) << "refused as asked, not pushing";
  EXPECT_THROW(check_memory(neither.need, 0, limit(pushing.peak() - 1), "g"), MemoryBudgetError);

  NodeShape dense = s;
  dense.scatter = ScatterMode::kDense;
  EXPECT_EQ(fit_to_memory(dense, bfs, 0, limit(pushing.peak())).scatter, ScatterMode::kDense)
      << "--scatter dense is the user's choice";
  EXPECT_FALSE(fit_to_memory(s, footprint_of<LabelPropagation>(), 0, limit(1)).pushes_only_to_fit())
      << "no dense copy to leave out";
}

// Degrees counted as the report and the loader's check count them, against
// a plain map: the common degrees (an array) and the large ones (a map) alike.
TEST(CountDegrees, MatchesAPlainCount) {
  std::vector<uint32_t> degree;
  for (uint32_t i = 0; i < 5000; ++i) degree.push_back(i % 7 == 0 ? 100000 + i % 3 : i % 1500);
  std::map<uint32_t, uint64_t> plain;
  for (const uint32_t d : degree) ++plain[d];
  const DegreeCounts counted = count_degrees(degree.data(), degree.size());
  EXPECT_EQ(counted, DegreeCounts(plain.begin(), plain.end()));
  EXPECT_TRUE(count_degrees(degree.data(), 0).empty());
}

// A node that knows its sources' degrees (a loaded file) counts the (source,
// block) pairs from them: about g (1 - e^(-d/g)) blocks for a source of
// degree d over g blocks, never more than its edges or g. Here BFS's CSR
// (hand_computed_shape: P = 2, one domain, one range: g = 2 blocks) with
// 400 local sources of degree 1 and 100 of degree 46.
TEST(MemoryEstimate, PairsFromTheSourcesDegrees) {
  NodeShape s = hand_computed_shape();
  s.out_degrees = {{1, 400}, {46, 100}};
  s.held_edges = s.out_edges = 400 + 46 * 100;
  const uint64_t local_v = 500;
  const double g = 2;
  const uint64_t pairs =
      static_cast<uint64_t>(400 * g * -std::expm1(-1 / g) + 100 * g * -std::expm1(-46 / g)) + 1;
  ASSERT_EQ(pairs, 515u) << "400 x 0.79 + 100 x 2.00";
  const MemoryNeed n = estimate_node_memory(s, footprint_of<Bfs>());
  EXPECT_EQ(n.local_graph, local_v * 8 + s.out_edges * 4 + pairs * 12 + 2 * 64);
  NodeShape unknown = s;
  unknown.out_degrees.clear();
  EXPECT_EQ(estimate_node_memory(unknown, footprint_of<Bfs>()).local_graph,
            local_v * 8 + s.out_edges * 4 + std::min<uint64_t>(s.out_edges, local_v * 2) * 12 + 2 * 64)
      << "the bound, one pair per source and block";
}

// PageRank only pulls (compute/engine/worker.h, pulls_only): each group's
// CSR block (sources, offsets, targets) is consumed as its dense copy is
// built, a share at a time (kDenseCopyPasses), and then goes, so the run
// holds the copy, the CSR's per-vertex arrays and a share of the block of
// one group (the last built) of the P x ranges, and its workers list no
// source's groups. --scatter sparse keeps the blocks and builds no copy.
TEST(MemoryEstimate, PullOnlyProgramsHoldOneGroupsBlock) {
  NodeShape s = hand_computed_shape();
  s.scatter = ScatterMode::kAuto;
  const AppFootprint pr = footprint_of<PageRank>();
  ASSERT_TRUE(pr.pulls_only);
  AppFootprint kept = pr;
  kept.pulls_only = false;
  const MemoryNeed released = estimate_node_memory(s, pr), whole = estimate_node_memory(s, kept);
  ASSERT_EQ(released.ranges, 1u) << "500 slots fit one range";
  EXPECT_GT(released.dense, 0u);
  const uint64_t local_v = 500, pairs = std::min<uint64_t>(5000, local_v * 2);  // (source, group) pairs: the bound
  const uint64_t blocks = 5000 * 4 + pairs * 12 + 2 * 64;                         // targets, sources and offsets
  // (an empty grouping still holds its one spare item)
  const uint64_t source_groups =
      local_v * 8 + pairs * 8 + (grouped_capacity(pairs) - grouped_capacity(0)) * pr.grouped_bytes;
  ASSERT_EQ(kDenseCopyPasses, 4u);
  EXPECT_EQ(whole.run - released.run, blocks - (blocks + 7) / 8 + source_groups)
      << "two groups: a quarter of one group's block stays; no source lists its groups";
  s.scatter = ScatterMode::kSparse;
  EXPECT_EQ(estimate_node_memory(s, pr).run, estimate_node_memory(s, kept).run) << "sparse: the targets stay";
  EXPECT_FALSE(footprint_of<Bfs>().pulls_only);
  EXPECT_FALSE(footprint_of<LabelPropagation>().pulls_only) << "uniform, but slot accumulators: no dense copy";
}

// BC's settling phases (compute/engine/worker/settled_destinations.h): a
// settled and a sent bit per destination of every group, V = 1000 of them,
// unless --scatter sparse, which does not prune.
TEST(MemoryEstimate, SettlingProgramsKeepTwoBitsPerDestination) {
  NodeShape s = hand_computed_shape();
  s.scatter = ScatterMode::kAuto;
  const AppFootprint bc = footprint_of<Bc>();
  ASSERT_TRUE(bc.settles);
  EXPECT_FALSE(footprint_of<Bfs>().settles) << "level-synchronous: its own bitmaps";
  AppFootprint plain = bc;
  plain.settles = false;
  EXPECT_EQ(estimate_node_memory(s, bc).run - estimate_node_memory(s, plain).run, 2u * 1000 / 8);
  s.scatter = ScatterMode::kSparse;
  EXPECT_EQ(estimate_node_memory(s, bc).run, estimate_node_memory(s, plain).run);
}

// Each worker keeps its own bitmaps per destination (BC's settled and sent
// bits, BFS's reached bit), SSSP's sender combine (a message and a
// destination per local vertex, hand_computed_shape's 500) and a dense copy
// of its own slice, whose (segment, destination) pairs it counts apart: a
// node of three workers holds three of each, and up to three times the
// pairs (here each destination once per worker: 1000 pairs become 3000).
TEST(MemoryEstimate, EachWorkerHoldsItsOwnDestinationBitmapsAndCombine) {
  NodeShape one = hand_computed_shape();
  one.scatter = ScatterMode::kAuto;
  NodeShape three = one;
  three.workers = 3;
  const auto extra = [&](const NodeShape& a, const NodeShape& b, const AppFootprint& app) {
    return estimate_node_memory(b, app).run - estimate_node_memory(a, app).run;
  };
  const uint64_t more_pairs = 2u * 1000;
  EXPECT_EQ(extra(one, three, footprint_of<Bc>()), more_pairs * 12 + 2 * (2 * 1000 / 8));
  EXPECT_EQ(extra(one, three, footprint_of<Bfs>()), more_pairs * (12 + 4) + 2 * (1000 / 8))
      << "and a bottom-up position per pair";
  EXPECT_EQ(extra(one, three, footprint_of<Sssp>()), 2u * 500 * (4 + 4)) << "no dense copy in auto mode";
  EXPECT_EQ(extra(one, three, footprint_of<PageRank>()), more_pairs * 12);
  one.scatter = three.scatter = ScatterMode::kSparse;
  EXPECT_EQ(extra(one, three, footprint_of<Bfs>()), 2u * (1000 / 8)) << "reached bits in sparse mode too";
  one.scatter = three.scatter = ScatterMode::kAuto;
  one.nodes = three.nodes = 1;
  EXPECT_EQ(extra(one, three, footprint_of<Sssp>()), 0u) << "P = 1: no other node to combine records for";
}

// The same with --vertex-order degree: a slot -> vertex table per local
// vertex, and the in-place renumbering (compute/partition/slot_renumber.h: every
// node's slot table, half of one block's edges twice, that block's
// sources' offsets and run indices, the per-slot vectors' copies) stays
// below the build's peak, which the held edges set.
TEST(MemoryEstimate, DegreeOrderKeepsASlotTable) {
  NodeShape s = hand_computed_shape();
  s.degree_order = true;
  const MemoryNeed n = estimate_node_memory(s, footprint_of<Bfs>());
  const uint64_t local_v = 500;
  const uint64_t csr = local_v * 12 + 5000 * 4 + std::min<uint64_t>(5000, local_v * 2) * 12 + 2 * 64;
  EXPECT_EQ(n.local_graph, csr);
  ASSERT_EQ(kRenumberPasses, 2u);
  const uint64_t renumbering = csr + 1000 * 4 + 2500 / 2 * 4 + std::min<uint64_t>(2500, local_v) * 20 + local_v * 16;
  // (while the edges are placed: no in-degrees and no slot table yet)
  const uint64_t building = 5000u * 5 + csr - local_v * 8 + local_v * 2 * 4 + 2 * 4096;
  ASSERT_LT(renumbering, building);
  EXPECT_EQ(n.build, building);
  s.held_edges = 100;  // (not a real shape: only so that the renumbering is the peak)
  EXPECT_EQ(estimate_node_memory(s, footprint_of<Bfs>()).build,
            std::max<uint64_t>(renumbering,
                               100u * 5 + csr - local_v * 8 + local_v * 2 * 4 + 2 * 4096));
}

// SSSP with real weights (apps/sssp_real.h): 14-byte held edges
// (compute/load/load_records.h HeldEdges), an 8-byte double per CSR edge, and
// no dense copy even when --scatter allows one (its workers stay sparse).
TEST(MemoryEstimate, RealWeightsAreDoublesAndNeverDense) {
  const NodeShape s = balanced_shape(1000, 10000, 2, 1);  // 5000 edges held, out and in
  const MemoryNeed n = estimate_node_memory(s, footprint_of<RealSssp>());
  const uint64_t local_v = 500;
  const uint64_t csr = local_v * 8 + 5000 * (4 + 8) + std::min<uint64_t>(5000, local_v * 2) * 12 + 2 * 64;
  EXPECT_EQ(n.local_graph, csr);
  EXPECT_EQ(n.load, 5000u * 14);
  EXPECT_EQ(n.run, csr + local_v * (8 + 2 + 8)  // value, frontier, scatter value
                       + local_v * 8 + 1000 * 8  // each source's blocks: offsets, (source, node) pairs
                       + (1000 / 8 + 1) * 24     // room to group an eighth of the pairs
                       + local_v * 2 * 8);      // two accumulators
  EXPECT_EQ(n.dense, 0u) << "real weights run sparse supersteps only";
  EXPECT_EQ(n.light_first, 0u) << "real weights run without delta-stepping's light-first copy";
}

// SSSP applies early with --local-rounds on: its workers fold their own
// vertices' messages into a message per vertex more, with a bit each
// (compute/engine/own_messages.h); with them off (the default) it holds neither.
TEST(MemoryEstimate, EarlyProgramsHoldAMessagePerVertexMore) {
  NodeShape s = balanced_shape(1000, 10000, 2, 1);
  s.local_rounds = true;
  AppFootprint late = footprint_of<Sssp>();
  ASSERT_TRUE(late.early);
  late.early = false;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<Sssp>()).run, estimate_node_memory(s, late).run + 500 * 4 + 500 / 8 + 1);
  s.local_rounds = false;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<Sssp>()).run, estimate_node_memory(s, late).run);
}

// LCC runs on the neighbourhood service (compute/engine/neighbourhood/): the CSR and
// the driver's neighbour lists, in-neighbour pairs, lists received, per-vertex
// arrays and the degree, rank, key and credit per vertex of the graph, none
// of the engine's structures.
TEST(MemoryEstimate, OwnDriverStatesItsOwnFootprint) {
  constexpr AppFootprint lcc = footprint_of<Completed<Lcc>>();
  ASSERT_TRUE(lcc.own_driver);
  EXPECT_FALSE(footprint_of<PageRank>().own_driver);
  NodeShape s = balanced_shape(1000, 10000, 2, 1);
  s.in_edges = 4000;
  const MemoryNeed n = estimate_node_memory(s, lcc);
  const uint64_t local_v = 500;
  EXPECT_EQ(n.run, n.local_graph + (5000 + 4000) * (4 + 4 + 8 + 9) + local_v * 32 + 1000 * 20);
  EXPECT_EQ(n.dense, 0u);
  EXPECT_EQ(n.load, 5000u * 5);
}

TEST(MemoryEstimate, SlotProgramsPayPerInEdge) {
  NodeShape s;
  s.vertices = 1000;
  s.held_edges = 9000;  // after symmetrising: both directions were routed here
  s.out_edges = 9000;
  s.in_edges = 11000;
  const MemoryNeed n = estimate_node_memory(s, footprint_of<LabelPropagation>());
  EXPECT_EQ(n.load, 9000u * 5);
  EXPECT_EQ(n.run, n.local_graph + 1000 * (4 + 2 + 4) + 1000 * 8 + 1000 * 8 + (1000 / 8 + 1) * 12 +
                       2 * (1000 * 12 + 11000 * 4));
  EXPECT_EQ(n.dense, 0u) << "slot programs always scatter sparse";
}

// The estimate covers what build_local_graph, the dense copy and SSSP's light-first copy really
// allocate on a Kronecker graph (vector capacities), without overstating it
// more than twice.
TEST(MemoryEstimate, CoversTheNodesOwnStructures) {
  const EdgeList g = generate_kronecker(parse_kronecker_spec("kron:12:8"));
  for (unsigned P : {1u, 2u, 3u}) {
    SCOPED_TRACE("P = " + std::to_string(P));
    const LocalGraph lg = build_local_graph(g, P, 0, true);
    uint64_t csr = (lg.out_degree.capacity() + lg.in_degree.capacity() + lg.global_of.capacity()) * 4;
    uint64_t dense = 0, light_first = 0, out = 0, in = 0;
    const uint64_t per_segment = 1024;  // 4 KiB of 4-byte messages
    for (const EdgeBlock& b : lg.blocks) {
      csr += (b.sources.capacity() + b.targets.capacity() + b.weights.capacity()) * 4 + b.offsets.capacity() * 8;
      const DenseBlock d = build_dense_block(b, 0, b.sources.size(), true, 0, per_segment);
      dense += (d.targets.capacity() + d.sources.capacity() + d.weights.capacity()) * 4 + d.offsets.capacity() * 8;
      const LightFirstBlock lf(b, 0, b.sources.size(), 16);
      light_first += (lf.targets.capacity() + lf.weights.capacity() + lf.light.capacity()) * 4;
    }
    for (const Edge& e : g.edges) {
      out += e.src % P == 0;
      in += e.dst % P == 0;
    }
    NodeShape s;
    s.vertices = g.num_vertices;
    s.held_edges = out;
    s.out_edges = out;
    s.in_edges = in;
    s.nodes = P;
    s.segment_bytes = per_segment * 4;
    s.scatter = ScatterMode::kDense;  // SSSP keeps a dense copy only when forced to pull
    const MemoryNeed n = estimate_node_memory(s, footprint_of<Sssp>());
    s.scatter = ScatterMode::kAuto;
    EXPECT_EQ(estimate_node_memory(s, footprint_of<Sssp>()).dense, 0u) << "auto: SSSP never pulls";
    EXPECT_GE(n.local_graph, csr);
    EXPECT_LE(n.local_graph, 2 * csr);
    EXPECT_GE(n.dense, dense);
    EXPECT_LE(n.dense, 2 * dense);
    EXPECT_GE(n.light_first, light_first);
    EXPECT_LE(n.light_first, 2 * light_first);
  }
}

// Accumulation ranges (compute/engine/range_plan.h): once loaded, the CSR is
// regrouped into a block per (destination node, range), and the engine keeps
// each source's list of the blocks it has edges in. PageRank (4-byte messages), V = 2^20, P = 2:
// 2^19 slots per node, 256 KiB ranges of 65536 accumulators, so 8 ranges per
// node, 9 with 3 queues (a whole number per queue), 16 with 128 KiB ranges.
TEST(MemoryEstimate, RangeBlocksAreCounted) {
  const uint64_t local_v = uint64_t{1} << 19, E = uint64_t{1} << 22;
  NodeShape s = balanced_shape(uint64_t{1} << 20, 2 * E, 2, 1);
  s.scatter = ScatterMode::kSparse;
  auto csr = [&](uint64_t groups) {
    return local_v * 8 + E * 4 + std::min(E, local_v * groups) * 12 + groups * 64;
  };
  auto run = [&](uint64_t groups) {
    const uint64_t pairs = std::min(E, local_v * groups);  // (source, block) pairs
    return csr(groups) + local_v * (8 + 2 + 4 + 8)  // value, frontier, scatter value, list offset
           + pairs * 8                              // each source's list of blocks
           + (pairs / 8 + 1) * 12                   // room to group an eighth of them by block
           + local_v * 2 * 4;                       // two accumulators
  };
  const uint64_t whole = E * 5;
  const uint64_t cursors = local_v * 2 * 4, in_degrees = local_v * 4;
  // The (node, domain) block being split: its sources and offsets, and the
  // edges read before the pages behind go (2^21 edges a block here).
  ASSERT_EQ(kSplitDiscardEdges, uint64_t{1} << 20);
  const uint64_t block = kSplitDiscardEdges * 4 + local_v * 12 + 64;
  struct Case {
    unsigned queues;
    uint64_t range_bytes, ranges;
  };
  // Without --range-kib (0) the node's 2 MiB of Σ stays whole
  // (kWholeSigmaBytes): one range, one per queue with 3 queues.
  for (const Case c : {Case{1, 256 * 1024, 8}, Case{3, 256 * 1024, 9}, Case{1, 128 * 1024, 16},
                       Case{1, 4 << 20, 1}, Case{1, 0, 1}, Case{3, 0, 3}}) {
    SCOPED_TRACE(std::to_string(c.queues) + " queues, " + std::to_string(c.range_bytes) + "-byte ranges");
    s.queues = c.queues;
    s.range_bytes = c.range_bytes;
    const MemoryNeed n = estimate_node_memory(s, footprint_of<PageRank>());
    const uint64_t groups = 2 * c.ranges;
    EXPECT_EQ(n.ranges, c.ranges);
    EXPECT_EQ(n.local_graph, csr(groups));
    EXPECT_EQ(n.run, run(groups));
    // 2^19 local sources make 8 source buckets (source_buckets): all but an
    // eighth of the targets are placed as the held edges go, and each
    // bucket's last chunk holds a page part filled in the worker's store and
    // the received one.
    const uint64_t building = whole + csr(2) - in_degrees - (E * 4 - E * 4 / 8) + cursors + 8 * 2 * 4096;
    // (the CSR as built with the partition report's 17 B per local vertex, once the held edges are gone)
    const uint64_t reporting = csr(2) + local_v * 17;
    EXPECT_EQ(n.build, std::max({building, reporting, csr(groups) + (c.ranges > 1 ? block : 0)}))
        << "the CSR as built (a block per node), or the split beside the ranges' blocks (none for one range)";
  }
  // 1 KiB ranges (256 accumulators): 2048 ranges per node, each with a
  // block per destination node; the sources' lists of blocks are bounded by
  // the edges, not by ranges x vertices.
  s.queues = 1;
  s.range_bytes = 1024;
  const MemoryNeed tiny = estimate_node_memory(s, footprint_of<PageRank>());
  EXPECT_EQ(tiny.ranges, local_v / 256);
  EXPECT_EQ(tiny.run, run(2 * local_v / 256));
  EXPECT_LT(tiny.run, 3 * run(2)) << "2048 ranges: a (source, block) pair per edge at most";
}

// Without --range-kib a program whose every superstep pulls keeps Σ whole
// (range_entries_of: by its capability, also when it pushes), and the
// estimate counts one range per queue: PageRank at V = 2^24, P = 2 (32 MiB of
// Σ a node); BFS, 128 ranges.
TEST(MemoryEstimate, AProgramThatOnlyPullsCountsOneRangePerQueue) {
  NodeShape s = balanced_shape(uint64_t{1} << 24, uint64_t{1} << 26, 2, 1);
  ASSERT_TRUE(footprint_of<PageRank>().pulls_only);
  s.scatter = ScatterMode::kAuto;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<PageRank>()).ranges, 1u);
  s.queues = 2;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<PageRank>()).ranges, 2u);
  s.scatter = ScatterMode::kSparse;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<PageRank>()).ranges, 2u) << "as every node plans, pushing or not";
  s.scatter = ScatterMode::kAuto;
  EXPECT_EQ(estimate_node_memory(s, footprint_of<Bfs>()).ranges, 128u) << "BFS pushes too";
}

// The estimate covers what split_into_ranges and the workers' lists of
// blocks really allocate on a Kronecker graph (vector capacities), without
// overstating it more than twice; 1 KiB ranges (256 floats) make 6 to 16
// ranges per node.
TEST(MemoryEstimate, CoversTheRangeBlocks) {
  const EdgeList g = generate_kronecker(parse_kronecker_spec("kron:12:8"));
  for (unsigned P : {1u, 2u, 3u})
    for (unsigned queues : {1u, 3u}) {
      SCOPED_TRACE("P = " + std::to_string(P) + ", " + std::to_string(queues) + " queues");
      LocalGraph lg = build_local_graph(g, P, 0, false);
      const RangePlan plan = plan_ranges(lg.node_domain_offset, queues, range_entries_for(1024, 4));
      split_into_ranges(lg, plan);
      uint64_t csr = (lg.out_degree.capacity() + lg.in_degree.capacity() + lg.global_of.capacity()) * 4;
      for (const EdgeBlock& b : lg.blocks)
        csr += (b.sources.capacity() + b.targets.capacity() + b.weights.capacity()) * 4 + b.offsets.capacity() * 8;
      // One worker: every block source is one (source, block) pair of its
      // list of blocks (compute/engine/source_blocks.h: 8 B each, 8 B per vertex),
      // and an eighth of them may be grouped (compute/engine/blocked_frontier.h).
      uint64_t pairs = 0;
      for (const EdgeBlock& b : lg.blocks) pairs += b.sources.size();
      const uint64_t source_lists = pairs * 8 + (uint64_t{lg.num_local} + 1) * 8 +
                                    grouped_capacity(pairs) * sizeof(BlockedFrontier<float>::Item);
      uint64_t out = 0, in = 0;
      for (const Edge& e : g.edges) {
        out += e.src % P == 0;
        in += e.dst % P == 0;
      }
      NodeShape s;
      s.vertices = g.num_vertices;
      s.held_edges = s.out_edges = out;
      s.in_edges = in;
      s.nodes = P;
      s.scatter = ScatterMode::kSparse;
      s.queues = queues;
      s.range_bytes = 1024;
      const MemoryNeed n = estimate_node_memory(s, footprint_of<PageRank>());
      EXPECT_EQ(n.ranges, plan.ranges);
      EXPECT_GE(n.local_graph, csr);
      EXPECT_LE(n.local_graph, 2 * csr);
      // value, frontier bit and list, scatter value, two accumulators
      const uint64_t engine = uint64_t{lg.num_local} * (8 + 2 + 4 + 2 * 4) + source_lists;
      EXPECT_GE(n.run, csr + engine);
      EXPECT_LE(n.run, 2 * (csr + engine));
    }
}

// Node p's slots by out-degree, highest first (ties by id), as --vertex-order
// degree numbers them: written here from its definition, not the loader's code.
SlotMap slots_by_out_degree(const EdgeList& g, unsigned P) {
  std::vector<uint64_t> degree(g.num_vertices, 0);
  for (const Edge& e : g.edges) ++degree[e.src];
  SlotMap map;
  map.nodes = P;
  map.slot_of.assign(g.num_vertices, 0);
  map.domain_of.assign(g.num_vertices, 0);
  for (unsigned p = 0; p < P; ++p) {
    std::vector<VertexId> own;
    for (VertexId v = p; v < g.num_vertices; v += P) own.push_back(v);
    std::stable_sort(own.begin(), own.end(), [&](VertexId a, VertexId b) { return degree[a] > degree[b]; });
    for (uint32_t slot = 0; slot < own.size(); ++slot) map.slot_of[own[slot]] = slot;
    map.domain_offset.push_back({0, static_cast<uint32_t>(own.size())});
  }
  return map;
}

// A generated Kronecker graph's degrees are known before it is made: the
// estimate counts the (source, block) pairs its skewed degrees give (most
// vertices meet few of many blocks), not one per edge, their bound. Against
// the CSR by range of the real graph, many small ranges (blocks) per node,
// slots in id order and by degree (the default: the hubs' ranges come
// first and take most edges, so a vertex meets fewer ranges still).
TEST(MemoryEstimate, KroneckerPairsFollowTheGraphsDegrees) {
  const EdgeList g = generate_kronecker(parse_kronecker_spec("kron:16:16"));
  for (const bool by_degree : {false, true})
    for (unsigned P : {1u, 2u, 3u}) {
      SCOPED_TRACE("P = " + std::to_string(P) + (by_degree ? ", slots by degree" : ", slots by id"));
      const SlotMap map = by_degree ? slots_by_out_degree(g, P) : identity_slot_map(g.num_vertices, P);
      LocalGraph lg = build_local_graph(g, P, 0, false, &map);
      split_into_ranges(lg, plan_ranges(lg.node_domain_offset, 1, range_entries_for(1024, 4)));
      uint64_t pairs = 0, out = 0;
      for (const EdgeBlock& b : lg.blocks) pairs += b.sources.size();
      for (const Edge& e : g.edges) out += e.src % P == 0;
      NodeShape s;
      s.vertices = g.num_vertices;
      s.held_edges = s.out_edges = s.in_edges = out;
      s.nodes = P;
      s.scatter = ScatterMode::kSparse;
      s.range_bytes = 1024;
      s.degree_order = by_degree;
      const MemoryNeed bound = estimate_node_memory(s, footprint_of<PageRank>());
      s.kron_scale = 16;
      const MemoryNeed model = estimate_node_memory(s, footprint_of<PageRank>());
      // What the pairs cost in the CSR by range: a source and an offset, 12 B each.
      const uint64_t rest = bound.local_graph - 12 * std::min<uint64_t>(out, uint64_t{lg.num_local} * P * bound.ranges);
      const double modelled = static_cast<double>(model.local_graph - rest) / 12;
      EXPECT_NEAR(modelled / static_cast<double>(pairs), 1.0, 0.1) << modelled << " pairs modelled, " << pairs << " in the CSR";
      EXPECT_LT(model.run, bound.run);
    }
}

// A file's degrees are counted while it loads (NodeShape::out_degrees). On a
// symmetric graph, whose in-degrees are its out-degrees (degrees_alike: the
// loader finds it), they tell where a vertex's edges fall: the CSR's
// (source, range) pairs and the dense copy's (segment, destination) pairs
// come out near the real graph's (both directions of kron:16:16's edges,
// ranges of 1 KiB, 4 KiB segments, slots by id and by degree). Without it
// (a directed graph) the estimate stays above what the graph holds.
TEST(MemoryEstimate, CountedPairsFollowTheFilesDegrees) {
  const EdgeList directed = generate_kronecker(parse_kronecker_spec("kron:16:16"));
  EdgeList symmetric = directed;
  for (const Edge& e : directed.edges) symmetric.edges.push_back({e.dst, e.src, e.weight});
  const uint32_t per_segment = 1024;  // 4 KiB of 4-byte messages
  for (const bool alike : {true, false})
    for (const bool by_degree : {false, true})
      for (unsigned P : {1u, 2u, 3u}) {
        const EdgeList& g = alike ? symmetric : directed;
        SCOPED_TRACE(std::string(alike ? "symmetric" : "directed") + ", P = " + std::to_string(P) +
                     (by_degree ? ", slots by degree" : ", slots by id"));
        const SlotMap map = by_degree ? slots_by_out_degree(g, P) : identity_slot_map(g.num_vertices, P);
        LocalGraph lg = build_local_graph(g, P, 0, false, &map);
        uint64_t dense_pairs = 0;
        for (const EdgeBlock& b : lg.blocks)
          dense_pairs += build_dense_block(b, 0, b.sources.size(), false, 0, per_segment).targets.size();
        split_into_ranges(lg, plan_ranges(lg.node_domain_offset, 1, range_entries_for(1024, 4)));
        uint64_t csr_pairs = 0, out = 0;
        for (const EdgeBlock& b : lg.blocks) csr_pairs += b.sources.size();
        std::vector<uint32_t> degree(lg.num_local, 0);
        for (const Edge& e : g.edges)
          if (e.src % P == 0) ++out, ++degree[e.src / P];
        NodeShape s;
        s.vertices = g.num_vertices;
        s.held_edges = s.out_edges = s.in_edges = out;
        s.nodes = P;
        s.range_bytes = 1024;
        s.segment_bytes = per_segment * 4;
        s.degree_order = by_degree;
        s.out_degrees = count_degrees(degree.data(), degree.size());
        s.degrees_alike = alike;
        const MemoryNeed n = estimate_node_memory(s, footprint_of<PageRank>());
        // local_graph: degrees (and the slot table), a target per edge, 12 B
        // per (source, range) pair, 64 per block; dense: a source per edge,
        // 12 B per (segment, destination) pair.
        const uint64_t groups = uint64_t{P} * n.ranges, per_vertex = by_degree ? 12 : 8;
        const double csr_modelled =
            static_cast<double>(n.local_graph - uint64_t{lg.num_local} * per_vertex - out * 4 - groups * 64) / 12;
        const double dense_modelled = static_cast<double>(n.dense - out * 4) / 12;
        const double csr_ratio = csr_modelled / static_cast<double>(csr_pairs);
        const double dense_ratio = dense_modelled / static_cast<double>(dense_pairs);
        if (alike) {
          EXPECT_NEAR(csr_ratio, 1.0, 0.1) << csr_modelled << " (source, range) pairs modelled, " << csr_pairs;
          EXPECT_NEAR(dense_ratio, 1.0, 0.1) << dense_modelled << " (segment, destination) pairs modelled, " << dense_pairs;
        } else {
          EXPECT_GE(csr_ratio, 1.0) << csr_modelled << " (source, range) pairs modelled, " << csr_pairs;
          EXPECT_GE(dense_ratio, 1.0) << dense_modelled << " (segment, destination) pairs modelled, " << dense_pairs;
        }
      }
}

// A header may declare anything: the sums saturate instead of wrapping.
TEST(MemoryEstimate, SaturatesOnAbsurdSizes) {
  NodeShape s = balanced_shape(4294967295u, UINT64_MAX, 1, 4);
  const MemoryNeed n = estimate_node_memory(s, footprint_of<PageRank>());
  EXPECT_EQ(n.peak(), UINT64_MAX);
  EXPECT_THROW(check_memory(n, 0, MemoryLimit{uint64_t{1} << 40, "test"}, "g"), MemoryBudgetError);
}

TEST(MemoryCheck, RefusalNamesTheNeedAndTheLimit) {
  MemoryNeed n;
  n.load = uint64_t{3} << 30;
  n.build = uint64_t{100} << 30;
  n.run = uint64_t{50} << 30;
  const MemoryLimit limit{uint64_t{20} << 30, "MemAvailable in /proc/meminfo"};
  try {
    check_memory(n, 0, limit, "g.txt: 4294967295 vertices and 1 edges");
    FAIL() << "no refusal";
  } catch (const MemoryBudgetError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("g.txt: 4294967295 vertices and 1 edges: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("about 100.0 GiB (loading 3.0 GiB, partitioning 100.0 GiB, computing 50.0 GiB)"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("may use 20.0 GiB (MemAvailable in /proc/meminfo)"), std::string::npos) << msg;
  }
  // What is already held is no longer in the limit: 100 GiB with 90 held fits 20 more.
  EXPECT_NO_THROW(check_memory(n, uint64_t{90} << 30, limit, "g"));
  EXPECT_THROW(check_memory(n, uint64_t{79} << 30, limit, "g"), MemoryBudgetError);
  EXPECT_NO_THROW(check_memory(n, 0, MemoryLimit{}, "g"));  // no limit known
}

TEST(FormatBytes, Units) {
  EXPECT_EQ(format_bytes(100), "100 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(uint64_t{20} << 30), "20.0 GiB");
  EXPECT_EQ(format_bytes(UINT64_MAX), "more than 16 EiB");
}

// ---- the machine's limit, from a fake /proc and /sys -----------------------

class FakeRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    put("/proc/meminfo", "MemTotal:       24684096 kB\nMemFree:  1000 kB\nMemAvailable:   20971520 kB\n");
  }
  void put(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(root_ + path).parent_path());
    std::ofstream(root_ + path) << text;
  }
  test::TempDir dir_;
  const std::string root_ = dir_.path();
};

TEST_F(FakeRoot, MemAvailableAlone) {
  const MemoryLimit l = read_memory_limit(root_);
  EXPECT_EQ(l.bytes, uint64_t{20} << 30);
  EXPECT_EQ(l.source, "MemAvailable in /proc/meminfo");
}

// cgroup v2 (systemd): the tightest of the cgroup and its ancestors, less
// what each already uses; "max" is no limit.
TEST_F(FakeRoot, CgroupV2TightestAncestor) {
  put("/proc/self/mountinfo",
      "24 31 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n");
  put("/proc/self/cgroup", "0::/user.slice/job.scope\n");
  put("/sys/fs/cgroup/user.slice/job.scope/memory.max", "max\n");
  put("/sys/fs/cgroup/user.slice/memory.max", "8589934592\n");
  put("/sys/fs/cgroup/user.slice/memory.current", "2147483648\n");
  MemoryLimit l = read_memory_limit(root_);
  EXPECT_EQ(l.bytes, uint64_t{6} << 30);
  EXPECT_EQ(l.source, "cgroup v2 " + root_ + "/sys/fs/cgroup/user.slice: memory.max 8.0 GiB, 2.0 GiB in use");
  put("/sys/fs/cgroup/user.slice/job.scope/memory.max", "1073741824\n");
  put("/sys/fs/cgroup/user.slice/job.scope/memory.current", "0\n");
  EXPECT_EQ(read_memory_limit(root_).bytes, uint64_t{1} << 30);
}

// cgroup v1 beside an empty v2 hierarchy (this machine's layout): the memory
// controller's mount, the cgroup's path within it; ~2^63 means no limit.
TEST_F(FakeRoot, CgroupV1MemoryController) {
  put("/proc/self/mountinfo",
      "30 25 0:26 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
      "35 25 0:31 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n"
      "36 25 0:32 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n");
  put("/proc/self/cgroup", "9:name=systemd:/\n4:memory:/process_api/abc\n1:cpu,cpuacct:/\n0::/\n");
  put("/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes", "9223372036854771712\n");
  put("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(read_memory_limit(root_).source, "MemAvailable in /proc/meminfo");
  put("/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes", "4294967296\n");
  put("/sys/fs/cgroup/memory/process_api/abc/memory.usage_in_bytes", "5368709120\n");  // over: no room
  const MemoryLimit l = read_memory_limit(root_);
  EXPECT_EQ(l.bytes, 0u);
  EXPECT_NE(l.source.find("cgroup v1 " + root_ + "/sys/fs/cgroup/memory/process_api/abc: memory.limit_in_bytes 4.0 GiB"),
            std::string::npos)
      << l.source;
}

// In a container the hierarchy is mounted from the cgroup's own directory.
TEST_F(FakeRoot, CgroupV2MountedBelowTheRoot) {
  put("/proc/self/mountinfo", "24 31 0:22 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n");
  put("/proc/self/cgroup", "0::/docker/abc\n");
  put("/sys/fs/cgroup/memory.max", "2147483648\n");
  put("/sys/fs/cgroup/memory.current", "1073741824\n");
  EXPECT_EQ(read_memory_limit(root_).bytes, uint64_t{1} << 30);
}

TEST(MemoryLimitShare, SplitsAmongTheNodesOfOneHost) {
  const MemoryLimit l = share_of(MemoryLimit{uint64_t{12} << 30, "MemAvailable in /proc/meminfo"}, 3);
  EXPECT_EQ(l.bytes, uint64_t{4} << 30);
  EXPECT_EQ(l.source, "MemAvailable in /proc/meminfo, shared by 3 nodes on this host");
  EXPECT_EQ(share_of(MemoryLimit{}, 3).bytes, UINT64_MAX);
}

}  // namespace
}  // namespace wg
