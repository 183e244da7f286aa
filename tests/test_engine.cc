// The engine in the loop with a real EAL: Engine<Prog> on one node (P = 1,
// no ports: every bucket goes through the Dataplane's local queue), compared
// vertex by vertex with the single-threaded oracles of tests/reference.h, and
// its per-superstep report checked against figures derived from the oracles.
//
// Own main(): the EAL is initialised once for the whole binary, after
// GoogleTest has taken its flags.
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "apps/bc.h"
#include "apps/bfs.h"
#include "apps/cc.h"
#include "apps/kcore.h"
#include "apps/label_propagation.h"
#include "apps/programs.h"
#include "tests/minimal_oracles.h"
#include "apps/pagerank.h"
#include "apps/sssp.h"
#include "apps/sssp_real.h"
#include "compute/graph/edge_list.h"
#include "apps/node/run_program.h"
#include "compute/graph/graph_reader.h"
#include "compute/partition/partition.h"
#include "compute/report/role_clock.h"
#include "compute/report/telemetry.h"
#include "dataplane/dataplane.h"
#include "tests/cluster_harness.h"
#include "tests/eal_test_main.h"
#include "tests/graphs_for_tests.h"
#include "tests/reference.h"
#include "tests/wire_classes.h"

namespace wg {
namespace {

// Role layout of every engine the tests run (EngineOptions::roles), its
// receive queues (0: one per accumulator lcore) and Σ per range (0: the default).
RolesSpec g_roles;
unsigned g_queues = 0;
uint32_t g_range_bytes = 0;
// Scatter mode of every engine the tests run: sparse unless a test says
// otherwise, so that message counts are per edge.
ScatterMode g_scatter = ScatterMode::kSparse;
// --local-rounds of every engine the tests run (off, the default, unless a
// test says otherwise).
bool g_local_rounds = false;
// Bytes of scatter values per source segment of a dense pull
// (EngineOptions::segment_bytes; 0: the default, the L2 cache, one
// segment for every graph here).
size_t g_segment_bytes = 0;

// Every test starts from these defaults, whatever the test before it set
// (tests do not reset what they set, and an ASSERT may end one early).
class EngineDefaults : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo&) override {
    g_roles = RolesSpec{};
    g_queues = 0;
    g_range_bytes = 0;
    g_scatter = ScatterMode::kSparse;
    g_local_rounds = false;
    g_segment_bytes = 0;
  }
};

// Workers the engine will run: as --roles maps the EAL's lcores.
unsigned engine_workers() { return plan_lcores(g_roles, g_queues).workers(); }

// Slots by out-degree, highest first, ties by id (--vertex-order degree, the
// default): one node, one domain, so slot_of[v] is v's rank in that order.
std::vector<uint64_t> degree_slots(const EdgeList& g) {
  std::vector<uint64_t> deg(g.num_vertices, 0);
  for (const Edge& e : g.edges) ++deg[e.src];
  std::vector<VertexId> order(g.num_vertices);
  for (VertexId v = 0; v < g.num_vertices; ++v) order[v] = v;
  std::stable_sort(order.begin(), order.end(), [&deg](VertexId a, VertexId b) { return deg[a] > deg[b]; });
  std::vector<uint64_t> slot_of(g.num_vertices);
  for (VertexId s = 0; s < g.num_vertices; ++s) slot_of[order[s]] = s;
  return slot_of;
}

// Records a superstep sends: sparse, one per out-edge of a sending vertex;
// dense with one worker, one per distinct (source segment, destination) pair
// of those edges (segments are runs of slots, numbered by degree); dense with
// several workers, anywhere between one per destination and one per edge
// (each worker combines its own).
struct RecordRange {
  uint64_t lo, hi;
};
template <class Sends>
RecordRange expected_records(const EdgeList& g, Sends&& sends) {
  const uint64_t per_segment = (g_segment_bytes ? g_segment_bytes : default_segment_bytes()) / sizeof(float);
  const std::vector<uint64_t> slot_of = degree_slots(g);
  uint64_t edges = 0;
  std::set<VertexId> targets;
  std::set<std::pair<uint64_t, VertexId>> segment_targets;
  for (const Edge& e : g.edges)
    if (sends(e.src)) {
      ++edges;
      targets.insert(e.dst);
      segment_targets.insert({slot_of[e.src] / per_segment, e.dst});
    }
  if (g_scatter == ScatterMode::kSparse) return {edges, edges};
  if (engine_workers() == 1) return {segment_targets.size(), segment_targets.size()};
  return {targets.size(), edges};
}
void expect_records(uint64_t actual, RecordRange want, const std::string& where) {
  EXPECT_GE(actual, want.lo) << where;
  EXPECT_LE(actual, want.hi) << where;
}

template <class Prog>
struct Outcome {
  std::vector<typename Prog::Value> values;
  RunReport report;
  bool targets_released = false;  // some edge block's source-major targets went after the dense copy's build
  std::vector<EdgeResult<typename Prog::Value>> edges;  // per-edge programs (jaccard): ids as the input's
};

// One node assembled as the binary assembles it (apps/node/node.h), P = 1: the
// loader takes `g` as input, applies the program's graph rules (symmetrise,
// drop self-loops, duplicates) and builds the node's part; then the engine runs.
template <class Prog>
Outcome<Prog> run_engine(const EdgeList& g, Prog prog) {
  Config cfg;
  cfg.app = Prog::kTraits.name;
  cfg.program = Prog::kTraits;
  cfg.job_token = 0x5eed0001;
  cfg.mbufs = 4095;
  cfg.domains = 1;
  cfg.engine.roles = g_roles;
  cfg.rx_queues = g_queues;
  cfg.engine.range_bytes = g_range_bytes;
  cfg.engine.scatter = g_scatter;
  cfg.engine.local_rounds = g_local_rounds;
  cfg.engine.segment_bytes = g_segment_bytes;
  Node node(cfg);
  EXPECT_EQ(node.dataplane().num_ports(), 0u) << "the test EAL has no devices";
  RunResult<Prog> r = compute_on_node<Prog>(node, GraphInput::from_edges(g), [&prog](VertexId) { return prog; }, false);
  // Values come by slot, numbered by degree (--vertex-order): back to ids.
  std::vector<typename Prog::Value> by_id(r.values.size());
  EXPECT_EQ(r.values.size(), g.num_vertices);
  for (uint32_t i = 0; i < r.values.size() && i < g.num_vertices; ++i) by_id[r.graph.global_id(i)] = r.values[i];
  bool released = false;
  for (const EdgeBlock& b : r.graph.blocks) released |= b.targets_released();
  return Outcome<Prog>{std::move(by_id), std::move(r.report), released, std::move(r.edges)};
}

std::vector<uint64_t> out_degrees(const EdgeList& g) {
  std::vector<uint64_t> d(g.num_vertices, 0);
  for (const Edge& e : g.edges) ++d[e.src];
  return d;
}

// The engine's infinity is UINT32_MAX, the oracle's its own constant.
uint64_t from_engine(uint32_t v) { return v == kInfinity ? ref::kInfinity : v; }

// Every message sent was accumulated, whatever the program's termination rule.
void expect_messages_balanced(const RunReport& r) {
  ASSERT_FALSE(r.steps.empty());
  for (size_t i = 0; i < r.steps.size(); ++i) {
    EXPECT_EQ(r.steps[i].superstep, i);
    EXPECT_EQ(r.steps[i].messages_sent, r.steps[i].messages_accumulated) << "superstep " << i;
  }
  EXPECT_EQ(r.rx.total_dropped(), 0u);
}

// idle_tail: the run's last supersteps with no active vertex (SSSP counts
// overflowed distances in one more superstep after the relaxation ends).
void expect_every_superstep_balanced(const RunReport& r, size_t idle_tail = 1) {
  ASSERT_GE(r.steps.size(), idle_tail);
  for (const StepStats& s : r.steps) {
    EXPECT_EQ(s.messages_sent, s.messages_accumulated) << "superstep " << s.superstep;
    EXPECT_EQ(s.messages_local, s.messages_sent) << "one node: every message is local";
    EXPECT_EQ(s.buckets_sent, 0u);
    EXPECT_EQ(s.cluster_active, s.active);
    EXPECT_EQ(s.cluster_messages, s.messages_sent);
  }
  for (size_t i = 0; i < r.steps.size(); ++i) EXPECT_EQ(r.steps[i].superstep, i);
  for (size_t i = r.steps.size() - idle_tail; i < r.steps.size(); ++i)
    EXPECT_EQ(r.steps[i].cluster_active, 0u) << "the run ends after a step with no active vertex";
  for (size_t i = 0; i + idle_tail < r.steps.size(); ++i) EXPECT_GT(r.steps[i].cluster_active, 0u);
  EXPECT_EQ(r.rx.total_dropped(), 0u);
  EXPECT_EQ(r.tx.frames, 0u);
}

// ---- the programs ---------------------------------------------------------------

void check_pagerank(const EdgeList& g, uint32_t iterations) {
  SCOPED_TRACE("pagerank, " + std::to_string(iterations) + " iterations");
  const auto out = run_engine(g, PageRank(g.num_vertices, iterations));
  const std::vector<double> want = ref::pagerank(g, iterations);
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v)
    ASSERT_NEAR(out.values[v], want[v], 1e-4 * std::fabs(want[v]) + 1e-9) << "vertex " << v;

  // Superstep s completes iteration s: K + 1 supersteps, all vertices active
  // and every edge used in the first K, nothing in the last.
  // PageRank only pulls unless --scatter sparse: its dense copy is all it
  // reads, and the CSR's targets go once it is built (compute/engine/engine.h).
  if (g.edges.size() > 0 && iterations > 0) {
    EXPECT_EQ(out.targets_released, g_scatter != ScatterMode::kSparse);
  }
  const RunReport& r = out.report;
  expect_every_superstep_balanced(r);
  ASSERT_EQ(r.steps.size(), iterations + 1u);
  const RecordRange every_edge = expected_records(g, [](VertexId) { return true; });
  for (uint32_t s = 0; s < iterations; ++s) {
    EXPECT_EQ(r.steps[s].active, g.num_vertices) << s;
    expect_records(r.steps[s].messages_sent, every_edge, "superstep " + std::to_string(s));
    EXPECT_EQ(r.steps[s].dense, g_scatter != ScatterMode::kSparse) << s << ": every vertex is active";
    // Every superstep applied and scattered: the time by role saw both.
    EXPECT_GT(r.steps[s].role_seconds[static_cast<unsigned>(Role::kApply)], 0.0) << s;
    EXPECT_GT(r.steps[s].role_seconds[static_cast<unsigned>(Role::kScatter)], 0.0) << s;
  }
  EXPECT_EQ(r.steps[iterations].active, 0u);
  EXPECT_EQ(r.steps[iterations].messages_sent, 0u);
}

void check_bfs(const EdgeList& g, VertexId source) {
  SCOPED_TRACE("bfs from " + std::to_string(source));
  const auto out = run_engine(g, Bfs(source));
  const std::vector<uint64_t> want = ref::bfs(g, source);
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v) ASSERT_EQ(from_engine(out.values[v]), want[v]) << "vertex " << v;

  // Superstep d activates exactly the vertices at distance d. BFS is
  // level-synchronous: sparse (ScatterMode::kSparse) sends one record per
  // out-edge of level d; otherwise a worker sends nothing to a destination
  // it knows to be reached, and at most one record per destination, top-down
  // or bottom-up alike. With one worker it knows every vertex of levels <= d
  // (this node's own were active, the rest it sent to), so superstep d sends
  // exactly one record per vertex of level d + 1; with several, at most one
  // per out-edge of level d. Superstep eccentricity + 1 finds nothing new.
  const RunReport& r = out.report;
  expect_every_superstep_balanced(r);
  uint64_t ecc = 0;
  for (uint64_t d : want)
    if (d != ref::kInfinity) ecc = std::max(ecc, d);
  ASSERT_EQ(r.steps.size(), ecc + 2);
  for (uint64_t d = 0; d <= ecc + 1; ++d) {
    uint64_t level = 0, next_level = 0, level_edges = 0;
    for (VertexId v = 0; v < g.num_vertices; ++v) {
      level += want[v] == d;
      next_level += want[v] == d + 1;
    }
    for (const Edge& e : g.edges) level_edges += want[e.src] == d;
    EXPECT_EQ(r.steps[d].active, level) << "superstep " << d;
    const RecordRange records = g_scatter == ScatterMode::kSparse ? RecordRange{level_edges, level_edges}
                                : engine_workers() == 1           ? RecordRange{next_level, next_level}
                                                                  : RecordRange{next_level, level_edges};
    expect_records(r.steps[d].messages_sent, records, "superstep " + std::to_string(d));
  }
}

// report: where to leave the run's report (nullptr: not needed).
void check_sssp(const EdgeList& g, VertexId source, RunReport* report = nullptr) {
  SCOPED_TRACE("sssp from " + std::to_string(source));
  const auto out = run_engine(g, Sssp(source));
  const std::vector<uint64_t> want = ref::sssp(g, source);
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v) ASSERT_EQ(from_engine(out.values[v]), want[v]) << "vertex " << v;
  expect_every_superstep_balanced(out.report, 2);  // the relaxation's last superstep, then the count
  // Delta-stepping (compute/engine/capabilities/path_lengths.h): delta is an eighth of the mean weight (at
  // least 1, one node here: all edges); superstep 0's only sender is the
  // source, along its light edges (weight < delta), one record each when
  // sparse. Records to the worker's own vertices are applied at once
  // (relaxed locally) instead of sent; those that improve a vertex into
  // the bucket just taken lead to local rounds, which send more.
  const StepStats& first = out.report.steps[0];
  EXPECT_EQ(first.active, 1u);
  uint64_t weight_sum = 0, light = 0;
  for (const Edge& e : g.edges) weight_sum += e.weight;
  const uint64_t delta = std::max<uint64_t>(1, g.edges.empty() ? 0 : weight_sum / g.num_edges() / 8);
  for (const Edge& e : g.edges) light += e.src == source && e.weight < delta;
  const uint64_t records = first.messages_sent + first.relaxed_locally;
  if (first.local_rounds > 0)
    EXPECT_GE(first.relaxed_locally, first.local_rounds) << "a round follows an improvement applied at once";
  else if (g_scatter == ScatterMode::kSparse)
    EXPECT_EQ(records, light);
  else
    EXPECT_LE(records, light);
  // With local rounds, one worker owns every vertex: nothing goes through Σ
  // while relaxing.
  if (g_local_rounds && engine_workers() == 1) {
    for (const StepStats& s : out.report.steps) EXPECT_EQ(s.messages_sent, 0u) << "superstep " << s.superstep;
  }
  if (report != nullptr) *report = out.report;
}

// SSSP against the 64-bit oracle: exact while every distance fits in
// Sssp::kMaxDistance (2^32-3), else the run ends with DistanceOverflow
// naming how many vertices are too far (apps/sssp.h), never saturated values.
void check_sssp_or_overflow(const EdgeList& g, VertexId source) {
  const std::vector<uint64_t> want = ref::sssp(g, source);
  uint64_t too_far = 0;
  for (uint64_t d : want) too_far += d != ref::kInfinity && d > Sssp::kMaxDistance;
  if (too_far == 0) {
    check_sssp(g, source);
    return;
  }
  try {
    run_engine(g, Sssp(source));
    ADD_FAILURE() << "sssp from " << source << " ended normally although " << too_far
                  << " distances pass 2^32-3";
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("sssp: " + std::to_string(too_far) + (too_far == 1 ? " vertex is" : " vertices are") +
                       " farther than 4294967293"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("source " + std::to_string(source)), std::string::npos) << msg;
  }
}

void check_cc(const EdgeList& directed) {
  SCOPED_TRACE("cc");
  EdgeList g = directed;
  add_reverse_edges(g);  // as the loader does for cc
  const auto out = run_engine(directed, ConnectedComponents());
  const std::vector<VertexId> want = ref::cc(directed);
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v) ASSERT_EQ(out.values[v], want[v]) << "vertex " << v;
  // Superstep 0 finds the hub (largest degree, smallest id among equals)
  // and sends nothing; superstep 1 starts the BFS from it alone; the BFS
  // ends with a superstep in which nothing is reached; then only vertices
  // outside the hub's component send, along their edges.
  const RunReport& r = out.report;
  expect_messages_balanced(r);
  EXPECT_EQ(r.steps[0].active, 0u);
  EXPECT_EQ(r.steps[0].messages_sent, 0u);
  if (g.num_vertices == 0) return;
  const std::vector<uint64_t> deg = out_degrees(g);
  const VertexId hub = static_cast<VertexId>(std::max_element(deg.begin(), deg.end()) - deg.begin());
  ASSERT_GE(r.steps.size(), 4u);
  EXPECT_EQ(r.steps[1].active, 1u) << "the hub, " << hub;
  size_t settle = 2;
  while (settle < r.steps.size() && r.steps[settle - 1].cluster_active > 0) ++settle;
  ASSERT_LT(settle, r.steps.size()) << "the BFS ends, then the rest settles";
  const uint64_t giant = std::count(want.begin(), want.end(), want[hub]);
  uint64_t bfs_records = 0;
  for (size_t s = 1; s < settle; ++s) bfs_records += r.steps[s].messages_sent;
  // Sparse: every vertex of the hub's component sends along each of its
  // edges once. Otherwise a worker sends each vertex of it at most one record
  // in the whole BFS (reached ones never again), one worker exactly one.
  uint64_t giant_edges = 0;
  for (const Edge& e : g.edges) giant_edges += want[e.src] == want[hub];
  if (g_scatter == ScatterMode::kSparse)
    EXPECT_EQ(bfs_records, giant_edges);
  else if (engine_workers() == 1)
    EXPECT_EQ(bfs_records, giant - 1);
  else
    EXPECT_LE(bfs_records, engine_workers() * giant);
  uint64_t outside_edges = 0;
  for (const Edge& e : g.edges) outside_edges += want[e.src] != want[hub];
  for (size_t s = settle; s < r.steps.size(); ++s)
    EXPECT_LE(r.steps[s].messages_sent, outside_edges) << "superstep " << s << ": only the rest sends";
}

void check_cd(const EdgeList& directed, uint32_t iterations) {
  SCOPED_TRACE("cd, " + std::to_string(iterations) + " iterations");
  EdgeList g = directed;
  add_reverse_edges(g);  // as the loader does for cd
  remove_self_loops(g);
  const auto out = run_engine(directed, LabelPropagation(iterations));
  const std::vector<VertexId> want = ref::label_propagation(directed, iterations);
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v) ASSERT_EQ(out.values[v], want[v]) << "vertex " << v;
  // Every vertex applies and sends to every neighbour in supersteps 0..K-1;
  // slots never overflow (that would be a dropped bucket).
  const RunReport& r = out.report;
  expect_every_superstep_balanced(r);
  ASSERT_EQ(r.steps.size(), iterations + 1u);
  for (uint32_t s = 0; s < iterations; ++s) {
    EXPECT_EQ(r.steps[s].active, g.num_vertices) << s;
    EXPECT_EQ(r.steps[s].messages_sent, g.num_edges()) << s << ": slot accumulators get one record per edge";
  }
}

// ---- graphs ----------------------------------------------------------------------

const EdgeList& kron() {
  static const EdgeList g = load_graph("kron:10:8");
  return g;
}

VertexId max_out_degree_vertex(const EdgeList& g) {
  const std::vector<uint64_t> d = out_degrees(g);
  return static_cast<VertexId>(std::max_element(d.begin(), d.end()) - d.begin());
}

EdgeList edgeless(VertexId n) {
  EdgeList g;
  g.num_vertices = n;
  return g;
}

TEST(EngineCornerCases, PageRank) {
  const EdgeList g = test::corner_case_graph();
  check_pagerank(g, 20);
  check_pagerank(g, 0);
  check_pagerank(g, 1);
  check_pagerank(g, 2);
}
TEST(EngineCornerCases, Bfs) {
  const EdgeList g = test::corner_case_graph();
  check_bfs(g, 0);
  check_bfs(g, 101);  // reaches the core through 100 and 5
  check_bfs(g, 99);   // dangling: only itself
}
TEST(EngineCornerCases, Sssp) {
  const EdgeList g = test::corner_case_graph();
  check_sssp(g, 0);
  check_sssp(g, 102);  // self-loop source
  check_sssp(g, 119);
}
// Distances near 2^32: the largest one exact, a vertex first reached by an
// overflowing path and then by a short one exact, and distances past 2^32-3
// (by one, and by summing to more than 2^32) an error.
TEST(EngineSsspOverflow, ExactUpToTheLargestDistanceAndAnErrorBeyond) {
  constexpr Weight kBig = 4294967295u;
  EdgeList fits;
  fits.num_vertices = 5;
  fits.weighted = true;
  fits.edges = {{0, 1, kBig - 3}, {1, 2, 1},     // 2: exactly 2^32-3
                {0, 3, kBig}, {0, 4, 1}, {4, 3, 1}};  // 3: overflowing at superstep 1, 2 at superstep 2
  check_sssp_or_overflow(fits, 0);
  EXPECT_EQ(ref::sssp(fits, 0)[2], Sssp::kMaxDistance);  // the case the test claims

  EdgeList one_past = fits;
  one_past.edges[1].weight = 2;  // 2: 2^32-2
  check_sssp_or_overflow(one_past, 0);

  EdgeList sums;  // a chain of 2^31 weights: 2^31, 2^32, 3 * 2^31 (no 32-bit sum holds them)
  sums.num_vertices = 4;
  sums.weighted = true;
  sums.edges = {{0, 1, 1u << 31}, {1, 2, 1u << 31}, {2, 3, 1u << 31}};
  check_sssp_or_overflow(sums, 0);
  check_sssp_or_overflow(sums, 1);  // from 1: 2^31 and 2^32 (one too far)
  check_sssp_or_overflow(sums, 2);  // from 2: fits
}

TEST(EngineCornerCases, Cc) { check_cc(test::corner_case_graph()); }
TEST(EngineCornerCases, Cd) {
  const EdgeList g = test::corner_case_graph();
  check_cd(g, 5);
  check_cd(g, 0);
  check_cd(g, 1);
}

TEST(EngineKronecker, PageRank) {
  check_pagerank(kron(), 20);
  check_pagerank(kron(), 1);
}
TEST(EngineKronecker, Bfs) {
  check_bfs(kron(), max_out_degree_vertex(kron()));
  check_bfs(kron(), 0);
}
TEST(EngineKronecker, Sssp) {
  check_sssp(kron(), max_out_degree_vertex(kron()));
  check_sssp(kron(), 0);
}
TEST(EngineKronecker, Cc) { check_cc(kron()); }
TEST(EngineKronecker, Cd) { check_cd(kron(), 4); }

TEST(EngineKronecker, BigEnoughToFillBuckets) {
  // The point of using it: supersteps with many full buckets (177 records).
  EXPECT_GT(kron().num_edges(), 20u * wire::kMaxRecords);
}

TEST(EngineNoEdges, AllPrograms) {
  const EdgeList g = edgeless(5);
  check_cd(g, 3);
  check_pagerank(g, 20);
  check_pagerank(g, 0);
  check_bfs(g, 0);
  check_bfs(g, 4);
  check_sssp(g, 2);
  check_cc(g);
  // By hand: every vertex dangling, so every rank stays 1/5; labels are ids.
  const auto pr = run_engine(g, PageRank(5, 20));
  for (double y : pr.values) EXPECT_NEAR(y, 0.2, 1e-12);
  const auto cc = run_engine(g, ConnectedComponents());
  EXPECT_EQ(cc.values, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
}

// --tolerance (networkx's rule): the run stops after the first iteration
// whose L1 change from the one before is below V x T, found here from the
// plain K-iteration oracle, and keeps that iteration's ranks; reaching the
// cap first, it keeps the cap's. Double messages: the stopping iteration is
// then the oracle's exactly, not one off near the threshold.
uint32_t first_converged_iteration(const EdgeList& g, double tolerance, uint32_t cap) {
  std::vector<double> last = ref::pagerank(g, 0);
  for (uint32_t k = 1; k <= cap; ++k) {
    const std::vector<double> now = ref::pagerank(g, k);
    double change = 0;
    for (VertexId v = 0; v < g.num_vertices; ++v) change += std::fabs(now[v] - last[v]);
    if (change < g.num_vertices * tolerance) return k;
    last = now;
  }
  return cap;
}

void check_pagerank_tolerance(const EdgeList& g, double tolerance, uint32_t cap) {
  SCOPED_TRACE("pagerank, tolerance " + std::to_string(tolerance) + ", at most " + std::to_string(cap));
  const uint32_t k = first_converged_iteration(g, tolerance, cap);
  const auto out = run_engine(g, BasicPageRank<double>(g.num_vertices, cap, 0.85, tolerance));
  EXPECT_EQ(out.report.steps.size(), k + 1u) << "supersteps 0..K: no iteration past the converged one";
  const std::vector<double> want = ref::pagerank(g, k);
  EXPECT_EQ(ref::pagerank(g, cap, 0.85, tolerance), want) << "the oracle stops at the same iteration";
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v)
    ASSERT_NEAR(out.values[v], want[v], 1e-9 * std::fabs(want[v]) + 1e-15) << "vertex " << v;
}

TEST(EnginePageRankTolerance, StopsAtTheIterationThatConverged) {
  check_pagerank_tolerance(kron(), 1e-6, 100);
  check_pagerank_tolerance(kron(), 1e-3, 100);
  check_pagerank_tolerance(test::corner_case_graph(), 1e-6, 100);
  check_pagerank_tolerance(kron(), 1e-15, 5);  // the cap first: 5 iterations, unconverged
}

// Weighted PageRank against a plain transition matrix, built here apart
// from the program's oracle: P[u][v] = (sum of u->v weights) / W(u), a row
// of zeros where W(u) = 0 (dangling); x' = (1-d)/V + d (x P + D/V).
std::vector<double> matrix_weighted_pagerank(const EdgeList& g, uint32_t iterations) {
  const VertexId n = g.num_vertices;
  std::vector<std::vector<double>> p(n, std::vector<double>(n, 0.0));
  std::vector<double> out(n, 0.0);
  for (const Edge& e : g.edges) {
    p[e.src][e.dst] += e.weight;
    out[e.src] += e.weight;
  }
  for (VertexId u = 0; u < n; ++u)
    for (double& x : p[u]) x = out[u] > 0 ? x / out[u] : 0.0;
  std::vector<double> x(n, 1.0 / n);
  for (uint32_t it = 0; it < iterations; ++it) {
    double dangling = 0;
    for (VertexId u = 0; u < n; ++u) dangling += out[u] > 0 ? 0.0 : x[u];
    std::vector<double> next(n, 0.0);
    for (VertexId v = 0; v < n; ++v) {
      double in = 0;
      for (VertexId u = 0; u < n; ++u) in += x[u] * p[u][v];
      next[v] = 0.15 / n + 0.85 * (in + dangling / n);
    }
    x = next;
  }
  return x;
}

// Zero weights (vertex 7's out-edges all weigh 0: dangling though it has
// edges), parallel edges (their weights add), self-loops, vertices without
// out-edges; then GAP's kron weights 1..255.
EdgeList weighted_corner_graph() {
  EdgeList g;
  g.num_vertices = 40;
  for (VertexId v = 0; v < 34; ++v) {
    g.edges.push_back({v, (v * 5 + 1) % 40, v % 4});        // weights 0..3
    g.edges.push_back({v, (v * 5 + 1) % 40, 1});            // parallel to it
    if (v % 3 == 0) g.edges.push_back({v, v, 2});           // self-loop
    if (v % 7 == 0) g.edges.push_back({v, (v + 11) % 40, 5});
  }
  g.edges.push_back({7, 8, 0});
  for (Edge& e : g.edges)
    if (e.src == 7) e.weight = 0;
  return g;
}

void check_weighted_pagerank(const EdgeList& g, uint32_t iterations) {
  SCOPED_TRACE("weighted pagerank, " + std::to_string(iterations) + " iterations");
  const auto out = run_engine(g, WeightedPageRank(g.num_vertices, iterations));
  const std::vector<double> want = matrix_weighted_pagerank(g, iterations);
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v)
    ASSERT_NEAR(out.values[v], want[v], 1e-12 * std::fabs(want[v]) + 1e-15) << "vertex " << v;
  const std::vector<double> oracle = ref::weighted_pagerank(g, iterations);
  for (VertexId v = 0; v < g.num_vertices; ++v) ASSERT_NEAR(oracle[v], want[v], 1e-13) << "the oracle, vertex " << v;
  expect_messages_balanced(out.report);
  ASSERT_EQ(out.report.steps.size(), iterations + 1u);
}

TEST(EngineWeightedPageRank, ZeroWeightsParallelEdgesDanglingAsTheMatrix) {
  check_weighted_pagerank(weighted_corner_graph(), 20);
  check_weighted_pagerank(weighted_corner_graph(), 1);
  check_weighted_pagerank(weighted_corner_graph(), 0);
  check_weighted_pagerank(test::corner_case_graph(), 20);
}

TEST(EngineWeightedPageRank, KronWeightsAsTheOracleWithTolerance) {
  const EdgeList g = kron();
  const auto out = run_engine(g, WeightedPageRank(g.num_vertices, 100, 0.85, 1e-8));
  const std::vector<double> want = ref::weighted_pagerank(g, 100, 0.85, 1e-8);
  const std::vector<double> unweighted = ref::pagerank(g, 100, 0.85, 1e-8);
  ASSERT_EQ(out.values.size(), want.size());
  double differs = 0;
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    ASSERT_NEAR(out.values[v], want[v], 1e-9 * std::fabs(want[v]) + 1e-15) << "vertex " << v;
    differs = std::max(differs, std::fabs(want[v] - unweighted[v]));
  }
  EXPECT_GT(differs, 1e-4) << "kron's weights 1..255 change the ranks";
}

// networkx 3.6.1's pagerank(G, alpha=0.85, tol=1e-6) on email-Eu-core read as
// a DiGraph with nodes 0..1004 (the file has no repeated edge; self-loops are
// ordinary edges in both): it converges at iteration 16 (max_iter=15 raises
// PowerIterationFailedConvergence, 16 does not). The busiest vertices and a
// few others, from
//   G = nx.DiGraph(); G.add_nodes_from(range(1005)); G.add_edges_from(...)
//   nx.pagerank(G, alpha=0.85, tol=1e-6)
TEST(EnginePageRankTolerance, EmailEuCoreAsNetworkx) {
  const std::string path = test::datasets_dir() + "/email-Eu-core.csv";
  ASSERT_TRUE(std::filesystem::exists(path)) << "dataset not found: " << path << " (WG_DATASETS)";
  const EdgeList g = load_graph(path);
  ASSERT_EQ(g.num_vertices, 1005u);
  const std::pair<VertexId, double> networkx[] = {
      {1, 0.00941156018638},   {130, 0.00691389023444}, {160, 0.00675889376076},   {62, 0.00532221713226},
      {86, 0.00513004831817},  {107, 0.00500436666361}, {365, 0.00478668961142},   {121, 0.00472080820777},
      {0, 0.00127547755046},   {500, 0.000773217583705}, {1004, 0.000206233309829},
  };
  const auto out = run_engine(g, PageRank(g.num_vertices, 100, 0.85, 1e-6));  // float messages, as run by default
  EXPECT_EQ(out.report.steps.size(), 17u) << "16 iterations, as networkx";
  const std::vector<double> oracle = ref::pagerank(g, 100, 0.85, 1e-6);
  for (const auto& [v, want] : networkx) {
    EXPECT_NEAR(out.values[v], want, 1e-4 * want) << "vertex " << v;
    EXPECT_NEAR(oracle[v], want, 1e-9 * want) << "the oracle, vertex " << v;
  }
}

// --normalize networkx / none with --sources all: networkx 3.6.1's
// betweenness_centrality(G, normalized=True / False) of the undirected G
// below (a 4-cycle 0-1-2-3, a triangle 4-5-6 hung on 2, 7 alone; the loader
// drops the self-loop and the repeated edge and adds the reverse edges).
TEST(EngineBcNormalisations, EveryVertexAsNetworkx) {
  EdgeList g;
  g.num_vertices = 8;
  g.edges = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}, {2, 4, 1}, {4, 5, 1}, {5, 6, 1}, {6, 4, 1},
             {1, 0, 1}, {5, 5, 1}};
  const double raw[] = {0.5, 2.0, 9.5, 2.0, 8.0, 0.0, 0.0, 0.0};  // normalized=False
  for (const BcScale scale : {BcScale::kNone, BcScale::kNetworkx}) {
    SCOPED_TRACE(scale == BcScale::kNone ? "none" : "networkx");
    // normalized=True: the unhalved sums (2 raw) over (n-1)(n-2) = 42, as networkx printed them
    const double f = scale == BcScale::kNone ? 1.0 : 2.0 / 42;
    const auto out = run_engine(g, Bc(g.num_vertices, 0, kAllSources, scale));
    const std::vector<double> oracle = oracle::bc(g, 0, kAllSources, scale);
    for (VertexId v = 0; v < g.num_vertices; ++v) {
      EXPECT_NEAR(out.values[v].score, raw[v] * f, 1e-12) << "vertex " << v;
      EXPECT_NEAR(oracle[v], raw[v] * f, 1e-12) << "the oracle, vertex " << v;
    }
  }
  // GAP's scale is unchanged by --sources all: the oracle's, divided by the largest.
  const auto gap = run_engine(g, Bc(g.num_vertices, 0, kAllSources));
  const std::vector<double> gap_oracle = oracle::bc(g, 0, kAllSources);
  for (VertexId v = 0; v < g.num_vertices; ++v) EXPECT_NEAR(gap.values[v].score, gap_oracle[v], 1e-12) << v;
  EXPECT_DOUBLE_EQ(*std::max_element(gap_oracle.begin(), gap_oracle.end()), 1.0);
}

TEST(EngineNoEdges, NoVerticesAtAll) {
  const EdgeList g = edgeless(0);
  const auto pr = run_engine(g, PageRank(0, 20));
  EXPECT_TRUE(pr.values.empty());
  const auto cc = run_engine(g, ConnectedComponents());
  EXPECT_TRUE(cc.values.empty());
  ASSERT_EQ(cc.report.steps.size(), 1u);
  EXPECT_EQ(cc.report.steps[0].cluster_active, 0u);
}

TEST(EngineHandMade, ChainByHand) {
  // 0 -> 1 -> 2 -> 3 with weights 5, 0, 7; 4 -> 0 (4 unreachable from 0).
  EdgeList g;
  g.num_vertices = 5;
  g.weighted = true;
  g.edges = {{0, 1, 5}, {1, 2, 0}, {2, 3, 7}, {4, 0, 1}};
  const auto sssp = run_engine(g, Sssp(0));
  EXPECT_EQ(sssp.values, (std::vector<uint32_t>{0, 5, 5, 12, kInfinity}));
  const auto bfs = run_engine(g, Bfs(0));
  EXPECT_EQ(bfs.values, (std::vector<uint32_t>{0, 1, 2, 3, kInfinity}));
  EXPECT_EQ(bfs.report.steps.size(), 5u);  // supersteps 0..3 find levels 0..3, 4 finds nothing
  const auto cc = run_engine(g, ConnectedComponents());  // the loader symmetrises
  EXPECT_EQ(cc.values, (std::vector<uint32_t>{0, 0, 0, 0, 0}));
}

TEST(EngineHandMade, PageRankTwoCycleAndDangling) {
  // 0 <-> 1, 2 -> 0, 3 dangling. V = 4, d = 0.85. One iteration from 1/4:
  //   dangling mass D = 1/4 (vertex 3)
  //   in[0] = 1/4 (from 1) + 1/4 (from 2) = 1/2, in[1] = 1/4, in[2] = in[3] = 0
  //   y = 0.15/4 + 0.85 * (in + D/4)
  EdgeList g;
  g.num_vertices = 4;
  g.edges = {{0, 1, 1}, {1, 0, 1}, {2, 0, 1}};
  const auto pr = run_engine(g, PageRank(4, 1));
  const double base = 0.15 / 4 + 0.85 * (0.25 / 4);
  const double want[4] = {base + 0.85 * 0.5, base + 0.85 * 0.25, base, base};
  ASSERT_EQ(pr.values.size(), 4u);
  for (int v = 0; v < 4; ++v) EXPECT_NEAR(pr.values[v], want[v], 1e-7) << v;
  EXPECT_NEAR(pr.values[0] + pr.values[1] + pr.values[2] + pr.values[3], 1.0, 1e-7);
}

// ---- the traversal switches (tests/graphs_for_tests.h: traversal_graph) --------

// BFS, SSSP and CC on the star, the deep chain, the heavy and free edges and
// the many small components, in every scatter mode and on one lcore: from the
// hub (a huge frontier at once), from a leaf (top-down, then bottom-up, then
// top-down down the chain), from the middle of the chain.
void check_traversals() {
  const EdgeList g = test::traversal_graph();
  for (VertexId source : {0u, 5u, 1900u}) {
    check_bfs(g, source);
    check_sssp(g, source);
  }
  check_cc(g);
}

TEST(EngineTraversals, EveryScatterModeAgreesWithTheOracles) {
  for (ScatterMode mode : {ScatterMode::kAuto, ScatterMode::kSparse, ScatterMode::kDense}) {
    SCOPED_TRACE("mode " + std::to_string(static_cast<int>(mode)));
    g_scatter = mode;
    check_traversals();
    g_roles = RolesSpec::shared();
    check_traversals();
    g_roles = RolesSpec{};
  }
}

// Delta-stepping's local rounds (compute/engine/worker.h): the light stretches of
// a 400-edge chain in the worker's own vertices, with zero-weight edges,
// heavy edges between the stretches, a heavy shortcut and detours, are
// relaxed within a superstep each, distances exact; a superstep per chain
// edge past the shortcut would need 200. Every scatter mode, the default
// roles (several workers under engine_4lcores: the chain crosses slices)
// and one shared lcore.
TEST(EngineLocalRounds, LightStretchesOfADeepChainSettleWithinASuperstep) {
  const EdgeList g = test::local_rounds_graph();
  for (ScatterMode mode : {ScatterMode::kAuto, ScatterMode::kSparse, ScatterMode::kDense})
    for (RolesSpec roles : {RolesSpec{}, RolesSpec::shared()}) {
      SCOPED_TRACE("mode " + std::to_string(static_cast<int>(mode)) + (roles.kind == RolesSpec::Kind::kShared ? ", shared" : ""));
      g_scatter = mode;
      g_roles = roles;
      g_local_rounds = true;
      RunReport r;
      check_sssp(g, 0, &r);
      if (HasFatalFailure()) break;
      uint64_t rounds = 0, relaxed = 0;
      for (const StepStats& s : r.steps) {
        rounds += s.local_rounds;
        relaxed += s.relaxed_locally;
      }
      EXPECT_GE(rounds, 20u) << "at least a round per light stretch";
      EXPECT_GT(relaxed, 0u);
      EXPECT_LT(r.steps.size(), 200u);
    }
}

// The same chain with local rounds off (the default): exact, no record
// applied early, and a superstep per light hop of the chain.
TEST(EngineLocalRounds, OffByDefault) {
  const EdgeList g = test::local_rounds_graph();
  RunReport r;
  check_sssp(g, 0, &r);
  uint64_t rounds = 0, relaxed = 0;
  for (const StepStats& s : r.steps) {
    rounds += s.local_rounds;
    relaxed += s.relaxed_locally;
  }
  EXPECT_EQ(rounds, 0u);
  EXPECT_EQ(relaxed, 0u);
  EXPECT_GE(r.steps.size(), 200u);
}

// ---- k-core: a program with a slot accumulator and its own stop rule ----------

void check_kcore(const EdgeList& directed) {
  SCOPED_TRACE("kcore");
  const auto out = run_engine(directed, KCore{});
  const std::vector<uint64_t> want = ref::kcore(directed);
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < directed.num_vertices; ++v) ASSERT_EQ(out.values[v].core, want[v]) << "vertex " << v;
  expect_messages_balanced(out.report);
  // Every vertex sends every superstep, and the last one changed nothing.
  EXPECT_GE(out.report.steps.size(), 2u);
  for (const StepStats& st : out.report.steps) EXPECT_EQ(st.active, directed.num_vertices);
}

TEST(EngineSlotPrograms, KCoreAgreesWithPeeling) {
  check_kcore(test::corner_case_graph());
  check_kcore(kron());
  check_kcore(edgeless(4));
  g_roles = RolesSpec::shared();
  check_kcore(test::corner_case_graph());
}

// ---- bc: K sources picked as GAP's, one sweep after another ----------------------

void check_bc_sources(const EdgeList& g, uint32_t sources, const std::vector<VertexId>& picks) {
  SCOPED_TRACE("bc --sources " + std::to_string(sources));
  const ProgramParams params{.source = 0, .iterations = 0, .damping = 0.85, .sources = sources};
  const auto out = run_engine(g, Bc::make(params, g.num_vertices));
  const std::vector<double> want = Bc::reference(g, params).reals;
  ASSERT_EQ(out.values.size(), want.size());
  uint64_t swept = 0;
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    ASSERT_NEAR(out.values[v].score, want[v], 1e-9 * std::fabs(want[v]) + 1e-12) << "vertex " << v;
    swept += out.values[v].sourced;
  }
  EXPECT_EQ(swept, sources);
  for (const VertexId s : picks) EXPECT_GE(out.values[s].sourced, 1u) << "GAP's source " << s;
  expect_messages_balanced(out.report);
}

// The path 0-2-...-998 and 998-999 (the odd vertices but 999 isolated): GAP's
// bc -i 5 sweeps from 272, 782, 148, 788 and 550 (tests/test_reference.cc),
// passing over 359 and 95; the engine finds them by its seed supersteps.
TEST(EngineBc, SourcesArePickedAsGapsAndTheirSweepsAddUp) {
  std::vector<Edge> edges;
  for (VertexId v = 0; v + 2 < 1000; v += 2) edges.push_back({v, v + 2, 1});
  edges.push_back({998, 999, 1});
  check_bc_sources(test::make_graph(1000, edges), 5, {272, 782, 148, 788, 550});
  check_bc_sources(kron(), 4, {});
  g_roles = RolesSpec::shared();
  check_bc_sources(test::corner_case_graph(), 3, {});
}

// Sweeps from K sources with pruned records (below): each sweep's forward
// phase starts a new stretch, which must forget what the last one knew.
TEST(EngineBc, SourcesSweptDenseAndAutoAddUpAlike) {
  for (ScatterMode mode : {ScatterMode::kDense, ScatterMode::kAuto}) {
    g_scatter = mode;
    check_bc_sources(kron(), 4, {});
    g_roles = RolesSpec::shared();
    check_bc_sources(test::corner_case_graph(), 3, {});
    g_roles = RolesSpec{};
  }
}

// BFS levels from `source` over the neighbour lists `adj`, -1 where unreached.
std::vector<int64_t> bfs_levels(const std::vector<std::vector<VertexId>>& adj, VertexId source) {
  std::vector<int64_t> depth(adj.size(), -1);
  std::vector<VertexId> queue{source};
  depth[source] = 0;
  for (size_t h = 0; h < queue.size(); ++h)
    for (const VertexId w : adj[queue[h]])
      if (depth[w] < 0) depth[w] = depth[queue[h]] + 1, queue.push_back(w);
  return depth;
}

// BC's forward phase settles a vertex with its first level's messages
// (settles_on_message, compute/engine/worker/settled_destinations.h), and
// in its backward phase only the vertices one level up take a level's
// messages (takes_messages, compute/engine/worker/own_takers.h). One worker
// owns every vertex, so from the BFS levels (computed here) the records of
// every superstep are known exactly:
//   forward level d (superstep d; the seed's is level 0):
//     dense  - one per vertex of level d + 1: a reached vertex's in-list is
//              not read, an unreached one's is;
//     sparse - one per edge into level d + 1 or back to the source (the
//              source received nothing: nobody knows it is reached);
//   backward level L: dense one per vertex of level L - 1 with a neighbour
//     at level L; sparse one per edge of level L;
//   --scatter sparse: one per edge of the level, forward and back.
TEST(EngineBc, ReachedVerticesAndTheWrongLevelsGetNoRecords) {
  const EdgeList& g = kron();
  const VertexId source = max_out_degree_vertex(g);
  const std::vector<std::vector<VertexId>> adj = oracle::undirected_simple_neighbours(g);
  const std::vector<int64_t> depth = bfs_levels(adj, source);
  const int64_t deepest = *std::max_element(depth.begin(), depth.end());
  ASSERT_GE(deepest, 3) << "a graph with levels to prune";
  auto count = [&](auto&& f) {
    uint64_t n = 0;
    for (VertexId v = 0; v < g.num_vertices; ++v)
      for (const VertexId w : adj[v]) n += f(v, w);
    return n;
  };
  auto level_size = [&](int64_t d) { return static_cast<uint64_t>(std::count(depth.begin(), depth.end(), d)); };
  auto level_edges = [&](int64_t d) { return count([&](VertexId v, VertexId) { return depth[v] == d; }); };
  for (ScatterMode mode : {ScatterMode::kDense, ScatterMode::kAuto, ScatterMode::kSparse}) {
    SCOPED_TRACE(mode == ScatterMode::kDense ? "dense" : mode == ScatterMode::kAuto ? "auto" : "sparse");
    g_scatter = mode;
    g_roles = RolesSpec::shared();  // one worker
    ASSERT_EQ(engine_workers(), 1u);
    const auto out = run_engine(g, Bc(g.num_vertices, source, 0));
    const std::vector<double> want = oracle::bc(g, source, 0);
    for (VertexId v = 0; v < g.num_vertices; ++v)
      ASSERT_NEAR(out.values[v].score, want[v], 1e-9 * std::fabs(want[v]) + 1e-12) << "vertex " << v;
    const std::vector<StepStats>& steps = out.report.steps;
    // seed + levels 1..deepest + the empty one, backward deepest..0, normalise
    ASSERT_EQ(steps.size(), static_cast<size_t>(2 * deepest + 4));
    if (mode == ScatterMode::kDense) {
      for (const StepStats& s : steps) EXPECT_TRUE(s.dense) << "superstep " << s.superstep;
    }
    for (int64_t d = 0; d <= deepest; ++d) {
      const StepStats& s = steps[d];
      SCOPED_TRACE("forward level " + std::to_string(d) + (s.dense ? ", dense" : ", sparse"));
      uint64_t want_records = level_edges(d);
      if (mode != ScatterMode::kSparse)
        want_records = s.dense ? level_size(d + 1) : count([&](VertexId v, VertexId w) {
          return depth[v] == d && (depth[w] == d + 1 || w == source);
        });
      EXPECT_EQ(s.messages_sent, want_records);
    }
    for (int64_t level = deepest; level > 0; --level) {
      const StepStats& s = steps[deepest + 1 + (deepest - level) + 1];
      SCOPED_TRACE("backward level " + std::to_string(level) + (s.dense ? ", dense" : ", sparse"));
      EXPECT_EQ(s.active, level_size(level));
      uint64_t want_records = level_edges(level);
      if (s.dense && mode != ScatterMode::kSparse) {
        std::set<VertexId> up;
        count([&](VertexId v, VertexId w) {
          return depth[v] == level && depth[w] == level - 1 && up.insert(w).second;
        });
        want_records = up.size();
      }
      EXPECT_EQ(s.messages_sent, want_records);
    }
    expect_messages_balanced(out.report);
  }
}

// ---- every registered program (apps/programs.h) against its oracle ------------

// Each vertex's value as the program prints it in its result file.
template <class Prog>
std::vector<std::string> printed(const std::vector<typename Prog::Value>& values) {
  std::vector<std::string> out;
  for (const auto& y : values) {
    char* buf = nullptr;
    size_t len = 0;
    std::FILE* f = open_memstream(&buf, &len);
    Prog::print_value(f, y);
    std::fclose(f);
    out.emplace_back(buf, len);
    std::free(buf);
  }
  return out;
}

template <class Prog>
void check_registered_program(const EdgeList& input, VertexId source) {
  SCOPED_TRACE(std::string(Prog::kTraits.name));
  const ProgramParams params{source, Prog::kTraits.default_iterations};
  const auto out = run_engine(input, Prog::make(params, input.num_vertices));
  std::vector<std::string> got = printed<Prog>(out.values);
  if constexpr (PerEdgeResults<Prog>) {  // as the cluster harness reads result lines: "dst:value" by src
    std::fill(got.begin(), got.end(), std::string());
    for (const auto& e : out.edges) {
      std::string& row = got[static_cast<size_t>(e.src)];
      if (!row.empty()) row += ' ';
      row.append(std::to_string(e.dst)).append(1, ':').append(printed<Prog>({e.value})[0]);
    }
  }
  EXPECT_TRUE(test::check_expected(got, ref::oracle(Prog::kTraits.name, input, source, params.iterations)));
  expect_messages_balanced(out.report);
}

template <RunnableProgram... P>
void check_all(ProgramList<P...>, const EdgeList& input, VertexId source) {
  (check_registered_program<P>(input, source), ...);
}

// The in-edge capability alone (compute/engine/capabilities/edge_direction.h),
// apart from SCC: superstep 0 sends 1 along in-edges (a vertex hears from
// its out-neighbours: its out-degree), 1 along both (out + in), 2 along
// out-edges (its in-degree). Multi-edges count; a self-loop counts once
// each way.
class DirectedDegrees : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{.name = "directed_degrees",
                                         .summary = "out-, total and in-degree counted along in-edges, both, out-edges",
                                         .graph = {.in_edges = true},
                                         .output = "degrees",
                                         .value_column = "degrees",
                                         .comparison = Comparison::kExact};
  struct Value {
    uint32_t out = 0, both = 0, in = 0;
    bool operator==(const Value&) const = default;
  };
  using Message = uint32_t;
  static DirectedDegrees make(const ProgramParams&, VertexId) { return {}; }
  static constexpr EdgeDirection scatter_direction(uint32_t phase) {
    return phase == 0 ? EdgeDirection::kIn : phase == 1 ? EdgeDirection::kBoth : EdgeDirection::kOut;
  }
  static Message identity() { return 0; }
  static Message combine(Message a, Message b) { return a + b; }
  bool init(Value& y, const VertexInfo&) const {
    y = Value{};
    return true;
  }
  // step.phase is this superstep's; the sum came from the one before.
  bool apply(Value& y, Message sum, const VertexInfo&, const StepInfo<Aggregate>& step) const {
    (step.phase == 1 ? y.out : step.phase == 2 ? y.both : y.in) = sum;
    return step.phase < 3;
  }
  Message scatter_value(const Value&, const VertexInfo&) const { return 1; }
  static Message edge_message(Message sv, Weight) { return sv; }
  Decision next(const StepOutcome<Aggregate>& done) const { return {done.phase == 3, done.phase + 1}; }
  static void print_value(std::FILE* out, const Value& y) { std::fprintf(out, "%u %u %u", y.out, y.both, y.in); }
  static double sort_key(const Value& y) { return y.both; }
};
static_assert(VertexProgram<DirectedDegrees>);
static_assert(WorkerModes<DirectedDegrees>::kInEdges && !WorkerModes<DirectedDegrees>::kPulls);
static_assert(!WorkerModes<ConnectedComponents>::kInEdges, "a program that does not declare it keeps its worker");

void check_directed_degrees(const EdgeList& g) {
  const auto out = run_engine(g, DirectedDegrees{});
  std::vector<DirectedDegrees::Value> want(g.num_vertices);
  for (const Edge& e : g.edges) {
    ++want[e.src].out;
    ++want[e.dst].in;
    ++want[e.src].both;
    ++want[e.dst].both;
  }
  ASSERT_EQ(out.values.size(), want.size());
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    EXPECT_EQ(out.values[v].out, want[v].out) << "vertex " << v;
    EXPECT_EQ(out.values[v].both, want[v].both) << "vertex " << v;
    EXPECT_EQ(out.values[v].in, want[v].in) << "vertex " << v;
  }
  expect_messages_balanced(out.report);
  ASSERT_EQ(out.report.steps.size(), 4u);
  EXPECT_EQ(out.report.steps[0].messages_sent, g.edges.size()) << "one record per in-edge";
  EXPECT_EQ(out.report.steps[1].messages_sent, 2 * g.edges.size()) << "one per out- and one per in-edge";
  EXPECT_EQ(out.report.steps[2].messages_sent, g.edges.size()) << "one per out-edge";
}

TEST(EngineInEdges, ScattersAlongInEdgesBothWaysAndOutEdgesByPhase) {
  check_directed_degrees(test::corner_case_graph());
  check_directed_degrees(kron());
  const RolesSpec roles = g_roles;
  g_roles = RolesSpec::shared();
  check_directed_degrees(kron());
  g_roles = roles;
}

// A program added to apps/programs.h is run here without touching this file,
// against its own oracle (its reference(), which the registry requires).
TEST(EngineAllPrograms, EveryRegisteredProgramMatchesItsOracle) {
  check_all(AllPrograms{}, test::corner_case_graph(), 0);
  check_all(AllPrograms{}, kron(), max_out_degree_vertex(kron()));
  g_roles = RolesSpec::shared();
  check_all(AllPrograms{}, test::corner_case_graph(), 101);
}

// ---- programs in the minimal form (compute/engine/program_model.h) ---------------

// minlabel: nothing but its value, Min and init/scatter; the engine applies
// only the vertices that received a label (what a Min program without apply
// is), against the tests' own flooding oracle. indegree: its own apply,
// against a count made here.
TEST(EngineMinimalPrograms, MinLabelAndInDegreeMatchPlainCounts) {
  std::vector<EdgeList> graphs{test::corner_case_graph(), kron(), test::traversal_graph()};
  graphs.push_back(load_graph(test::datasets_dir() + "/email-Eu-core.csv"));
  for (const EdgeList& g : graphs) {
    const auto labels = run_engine(g, Completed<MinLabelComponents>::make({}, g.num_vertices));
    const std::vector<uint64_t> want = ref::components_by_flooding(g);
    ASSERT_EQ(labels.values.size(), want.size());
    for (VertexId v = 0; v < g.num_vertices; ++v) ASSERT_EQ(labels.values[v], want[v]) << "vertex " << v;
    expect_messages_balanced(labels.report);

    const auto degrees = run_engine(g, Completed<InDegree>::make({}, g.num_vertices));
    std::vector<uint32_t> count(g.num_vertices, 0);
    for (const Edge& e : g.edges) ++count[e.dst];
    EXPECT_EQ(degrees.values, count);
  }
}

// Every edge both ways: the triangle driver then folds a neighbour's two
// directions into one entry (lcc: m = 2), which a mostly one-way graph
// hardly exercises.
TEST(EngineTriangles, SymmetricGraph) {
  EdgeList g = kron();
  add_reverse_edges(g);
  check_registered_program<Completed<Lcc>>(g, 0);
  check_registered_program<Completed<TriangleCount>>(g, 0);
}

// The other graphs the cluster suite's one-node runs use (those runs are in
// the full suite now; a single node is the engine alone): the datasets
// (rome99: a road network with real weights; email-Eu-core: self-loops,
// dangling and isolated vertices, several components) from their busiest
// vertex, and the traversal graph from a leaf of its star (top-down,
// bottom-up, then down its chain).
TEST(EngineAllPrograms, DatasetsAndTheTraversalGraph) {
  for (const char* name : {"rome99.gr", "email-Eu-core.csv"}) {
    const std::string path = test::datasets_dir() + "/" + name;
    ASSERT_TRUE(std::filesystem::exists(path)) << "dataset not found: " << path << " (WG_DATASETS)";
    SCOPED_TRACE(name);
    const EdgeList g = load_graph(path);
    check_all(AllPrograms{}, g, max_out_degree_vertex(g));
  }
  SCOPED_TRACE("traversal graph");
  check_all(AllPrograms{}, test::traversal_graph(), 5);
}

// ---- wire classes: every program runs in the fast default's cluster tests -------

template <class Prog>
constexpr bool kSlotAccumulated = false;
template <class Prog>
  requires requires { typename Prog::Accumulator; }
constexpr bool kSlotAccumulated<Prog> = std::is_same_v<typename Prog::Accumulator, SlotAccumulator<typename Prog::Message>>;

// The class of tests/wire_classes.h a program falls in, from its types:
// what travels (the message's width) and how it is folded (a driver of its
// own, a slot per in-edge, or one value per vertex).
template <class Prog>
std::optional<test::WireClass> wire_class_of() {
  if constexpr (DriverProgram<Prog>)
    return test::WireClass::kOwnDriver;
  else if constexpr (kSlotAccumulated<Prog>)
    return test::WireClass::kSlot;
  else if constexpr (sizeof(typename Prog::Message) == 4)
    return test::WireClass::kScalar4;
  else if constexpr (sizeof(typename Prog::Message) == 8)
    return test::WireClass::kScalar8;
  return std::nullopt;
}

template <class Prog>
void expect_among_members(bool double_precision) {
  const std::string_view name = Prog::kTraits.name;
  const std::optional<test::WireClass> c = wire_class_of<Prog>();
  ASSERT_TRUE(c.has_value()) << name << (double_precision ? " --precision double" : "") << ": "
                             << footprint_of<Prog>().message_bytes
                             << "-byte messages fit no class of tests/wire_classes.h: add one, with members";
  const test::ProgramRun run = double_precision ? test::double_run(name) : test::plain_run(name);
  const std::vector<test::ProgramRun> members = test::class_members(*c);
  EXPECT_NE(std::find(members.begin(), members.end(), run), members.end())
      << run.label << " is in wire class " << static_cast<int>(*c)
      << " but not among its members (tests/wire_classes.h): no cluster test of the fast default would run it";
}

template <RunnableProgram... P>
void expect_all_among_members(ProgramList<P...>) {
  (expect_among_members<P>(false), ...);
  (
      [] {
        if constexpr (!std::is_same_v<typename DoublePrecision<P>::type, P>)
          expect_among_members<typename DoublePrecision<P>::type>(true);
      }(),
      ...);
}

// A program added to apps/programs.h lands in a class by its types; if that
// class does not list it (or there is no class for its message width), the
// fast default's cluster tests would never run it: this fails instead.
TEST(WireClasses, EveryProgramIsAMemberOfItsClass) { expect_all_among_members(AllPrograms{}); }

// ---- the open model: 8- and 16-byte messages, an aggregate of the program's
// own type, phases -------------------------------------------------------------

// PageRank with double messages (12-byte records): the same math as
// ref::pagerank, so it agrees far closer than the float program's 1e-4.
class DoublePageRank : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{.name = "pagerank64", .summary = "test", .output = "rank"};
  using Value = double;
  using Message = double;
  using Aggregate = double;
  static DoublePageRank make(const ProgramParams& p, VertexId n) { return {n, p.iterations}; }
  DoublePageRank(VertexId n, uint32_t iterations) : inv_v_(n ? 1.0 / n : 0.0), iterations_(iterations) {}
  static Message identity() { return 0.0; }
  static Message combine(Message a, Message b) { return a + b; }
  bool init(Value& y, const VertexInfo&) const {
    y = inv_v_;
    return iterations_ > 0;
  }
  bool apply(Value& y, Message sum, const VertexInfo&, const StepInfo<Aggregate>& step) const {
    y = 0.15 * inv_v_ + 0.85 * (sum + step.aggregate * inv_v_);
    return step.superstep < iterations_;
  }
  Message scatter_value(const Value& y, const VertexInfo& v) const { return v.out_degree ? y / v.out_degree : 0.0; }
  static Message edge_message(Message sv, Weight) { return sv; }
  void aggregate(const Value& y, const VertexInfo& v, Aggregate& into) const { into += v.out_degree ? 0.0 : y; }
  static void merge(Aggregate& into, const Aggregate& from) { into += from; }
  static void print_value(std::FILE*, const Value&) {}
  static double sort_key(const Value& y) { return y; }

 private:
  double inv_v_;
  uint32_t iterations_;
};
static_assert(VertexProgram<DoublePageRank>);

// Two phases, a 16-byte message that names its sender, and a 24-byte
// aggregate. Phase 0 is BFS from vertex 0 (hop counts). When no vertex is
// active, phase 1 runs one superstep in which every reached vertex tells its
// out-neighbours (sum of sender ids, count): each vertex ends with the number
// and id sum of its reached in-neighbours. The aggregate counts reached
// vertices and sums their hops.
class TwoPhase : public ProgramBase {
 public:
  static constexpr ProgramTraits kTraits{.name = "twophase", .summary = "test", .output = "test"};
  struct Message {
    uint64_t sender_sum;  // phase 1: sum of the senders' ids; phase 0: hops in the low word
    uint32_t count;
    uint32_t hops;
  };
  struct Value {
    uint32_t hops = UINT32_MAX;
    uint32_t in_count = 0;
    uint64_t in_sum = 0;
    uint32_t phase_one_seen = 0;  // the first phase-1 apply has run
    uint64_t reached_seen = 0;    // the cluster aggregate that apply saw then
    uint64_t hop_sum_seen = 0;
  };
  struct Aggregate {
    uint64_t reached = 0;
    uint64_t hop_sum = 0;
    uint64_t phase_one_senders = 0;
  };
  static TwoPhase make(const ProgramParams&, VertexId) { return {}; }
  static Message identity() { return {0, 0, UINT32_MAX}; }
  static Message combine(Message a, Message b) {
    return {a.sender_sum + b.sender_sum, a.count + b.count, std::min(a.hops, b.hops)};
  }
  bool init(Value& y, const VertexInfo& v) const {
    y = Value{};
    if (v.id == 0) y.hops = 0;
    return v.id == 0;
  }
  bool apply(Value& y, Message m, const VertexInfo&, const StepInfo<Aggregate>& step) const {
    if (step.phase == 0) {
      if (m.hops >= y.hops) return false;
      y.hops = m.hops;
      return true;
    }
    if (!y.phase_one_seen) {  // the first phase-1 superstep: reached vertices send
      y.phase_one_seen = 1;
      y.reached_seen = step.aggregate.reached;
      y.hop_sum_seen = step.aggregate.hop_sum;
      return y.hops != UINT32_MAX;
    }
    y.in_count = m.count;  // the second: what they sent
    y.in_sum = m.sender_sum;
    return false;
  }
  Message scatter_value(const Value& y, const VertexInfo& v) const { return {v.id, 1, y.hops + 1}; }
  static Message edge_message(Message sv, Weight) { return sv; }
  void aggregate(const Value& y, const VertexInfo&, Aggregate& into) const {
    if (y.hops == UINT32_MAX) return;
    ++into.reached;
    into.hop_sum += y.hops;
  }
  static void merge(Aggregate& into, const Aggregate& from) {
    into.reached += from.reached;
    into.hop_sum += from.hop_sum;
    into.phase_one_senders += from.phase_one_senders;
  }
  // Phase 0 until nothing is active; then one superstep of phase 1 in which
  // every reached vertex sends, and one more to apply what they sent.
  Decision next(const StepOutcome<Aggregate>& done) const {
    if (done.phase == 0) return {false, done.active == 0 ? 1u : 0u};
    return {done.active == 0, 1};
  }
  static void print_value(std::FILE*, const Value&) {}
  static double sort_key(const Value& y) { return y.hops; }
};
static_assert(VertexProgram<TwoPhase>);
static_assert(sizeof(TwoPhase::Message) == 16 && sizeof(TwoPhase::Aggregate) == 24);

// Wide messages (compute/engine/capabilities/wide_message.h): personalized
// PageRank from 16 seeds travels in 64-byte messages (68-byte records, 20 to a
// frame), 5 seeds in 8 lanes; every lane against the oracle's own run of its
// seed, in every scatter mode.
TEST(EngineOpenModel, WideMessagesCarryEverySeedsRanks) {
  const EdgeList graph = kron();
  auto check = [&](auto prog, const std::vector<int64_t>& seeds) {
    using Prog = decltype(prog);
    SCOPED_TRACE(std::to_string(seeds.size()) + " seeds in " + std::to_string(Prog::Message::kWidth) + " lanes");
    ProgramParams p{.source = 0, .iterations = 20, .damping = 0.85};
    p.seed_ids = seeds;
    p.seeds_given = true;
    const auto out = run_engine(graph, Prog::make(p, graph.num_vertices));
    std::vector<VertexId> dense(seeds.begin(), seeds.end());
    const std::vector<double> want = oracle::personalized_pagerank(graph, dense, 20, 0.85, 0);
    ASSERT_EQ(out.values.size(), graph.num_vertices);
    for (VertexId v = 0; v < graph.num_vertices; ++v) {
      ASSERT_EQ(out.values[v].k, seeds.size());
      for (size_t j = 0; j < seeds.size(); ++j)
        ASSERT_NEAR(out.values[v].r[j], want[v * seeds.size() + j], 1e-12 + 1e-4 * want[v * seeds.size() + j])
            << "vertex " << v << ", seed " << seeds[j];
      for (size_t j = seeds.size(); j < Prog::Message::kWidth; ++j) ASSERT_EQ(out.values[v].r[j], 0.0);
    }
    expect_every_superstep_balanced(out.report);
  };
  std::vector<int64_t> sixteen;
  for (int64_t s = 0; s < 16; ++s) sixteen.push_back(s * 37 % graph.num_vertices);
  for (const ScatterMode mode : {ScatterMode::kSparse, ScatterMode::kDense, ScatterMode::kAuto}) {
    g_scatter = mode;
    check(BasicPpr<16>{}, sixteen);
    check(BasicPpr<8>{}, {0, 5, 9, 100, static_cast<int64_t>(max_out_degree_vertex(graph))});
  }
}

TEST(EngineOpenModel, EightByteMessagesMatchTheOracleClosely) {
  for (const EdgeList& graph : {kron(), test::corner_case_graph()}) {
    const auto out = run_engine(graph, DoublePageRank(graph.num_vertices, 20));
    const std::vector<double> want = ref::pagerank(graph, 20);
    ASSERT_EQ(out.values.size(), want.size());
    for (VertexId v = 0; v < graph.num_vertices; ++v)
      ASSERT_NEAR(out.values[v], want[v], 1e-12 + 1e-10 * want[v]) << "vertex " << v;
    expect_every_superstep_balanced(out.report);
  }
}

TEST(EngineOpenModel, PhasesSixteenByteMessagesAndOwnAggregates) {
  const EdgeList g = test::corner_case_graph();
  const std::vector<uint64_t> hops = ref::bfs(g, 0);
  const auto out = run_engine(g, TwoPhase{});
  ASSERT_EQ(out.values.size(), g.num_vertices);
  std::vector<uint64_t> count(g.num_vertices, 0), sum(g.num_vertices, 0);
  uint64_t reached = 0, hop_sum = 0;
  for (uint64_t h : hops)
    if (h != ref::kInfinity) {
      ++reached;
      hop_sum += h;
    }
  for (const Edge& e : g.edges)
    if (hops[e.src] != ref::kInfinity) {
      ++count[e.dst];
      sum[e.dst] += e.src;
    }
  for (VertexId v = 0; v < g.num_vertices; ++v) {
    const uint64_t h = out.values[v].hops == UINT32_MAX ? ref::kInfinity : out.values[v].hops;
    ASSERT_EQ(h, hops[v]) << "vertex " << v;
    ASSERT_EQ(out.values[v].in_count, count[v]) << "vertex " << v;
    ASSERT_EQ(out.values[v].in_sum, sum[v]) << "vertex " << v;
    ASSERT_EQ(out.values[v].reached_seen, reached) << "vertex " << v << ": the aggregate apply saw";
    ASSERT_EQ(out.values[v].hop_sum_seen, hop_sum) << "vertex " << v;
  }
  expect_messages_balanced(out.report);
  // BFS levels 0..ecc, one superstep with nothing new (phase switch), the
  // senders' superstep and the one that applies their messages.
  uint64_t ecc = 0;
  for (uint64_t h : hops)
    if (h != ref::kInfinity) ecc = std::max(ecc, h);
  EXPECT_EQ(out.report.steps.size(), ecc + 4);
}

// With split roles (the default, and what the tests above use when the EAL has
// more than one lcore) the network role runs on its own lcore; here every role
// runs in turn on the main lcore instead.
// Every program on the corner-case graph and on kron:10:8, against the oracles.
void check_every_program() {
  const EdgeList g = test::corner_case_graph();
  check_pagerank(g, 20);
  check_bfs(g, 0);
  check_sssp(g, 0);
  check_cc(g);
  check_cd(g, 3);
  check_bfs(kron(), max_out_degree_vertex(kron()));
  check_pagerank(kron(), 3);
}

TEST(EngineSharedRoles, AllProgramsOnOneLcore) {
  g_roles = RolesSpec::shared();
  check_every_program();
}

// Dense supersteps (one record per destination, compute/engine/dense_block.h): the
// same results as the oracles, with fewer records; and auto switches by the
// active vertices' share of the edges.
TEST(EngineDenseScatter, AllProgramsAgreeWithTheOracles) {
  g_scatter = ScatterMode::kDense;
  check_every_program();
  check_sssp(kron(), max_out_degree_vertex(kron()));
  g_roles = RolesSpec::shared();  // one worker, which also folds same-node records itself
  check_every_program();
  check_cc(kron());
}

// Segmented pulls (compute/engine/dense_block.h): segments of 4 and of 64 vertices
// on graphs of 120 and 1024, so that most destinations get a record from
// several segments; results still agree with the oracles and the record
// count is one per (segment, destination).
TEST(EngineDenseScatter, SegmentedPullsAgreeWithTheOracles) {
  g_scatter = ScatterMode::kDense;
  for (size_t bytes : {size_t{16}, size_t{256}}) {
    SCOPED_TRACE(std::to_string(bytes) + "-byte segments");
    g_segment_bytes = bytes;
    check_every_program();
    g_roles = RolesSpec::shared();  // one worker: the record count is exact
    check_every_program();
    check_sssp(kron(), max_out_degree_vertex(kron()));
    g_roles = RolesSpec{};
  }
}

TEST(EngineDenseScatter, AutoGoesDenseOnlyWhenActiveVerticesHoldMostEdges) {
  g_scatter = ScatterMode::kAuto;
  const EdgeList& g = kron();
  check_pagerank(g, 3);  // every vertex active: asserts every superstep dense
  // SSSP from a vertex with few out-edges: superstep 0 is sparse, at most
  // one record per (light) out-edge of the source.
  const std::vector<uint64_t> deg = out_degrees(g);
  VertexId low = 0;
  while (low < g.num_vertices && (deg[low] == 0 || Worker<Sssp>::dense_pays(deg[low], g.num_edges()))) ++low;
  ASSERT_LT(low, g.num_vertices);
  const auto out = run_engine(g, Sssp(low));
  EXPECT_FALSE(out.report.steps[0].dense);
  EXPECT_LE(out.report.steps[0].messages_sent, deg[low]) << "its light edges (apps/sssp.h)";
}

// BFS in auto mode is direction-optimizing (compute/engine/scatter_policy.h): from
// the busiest vertex of kron:10:8 the big middle levels go bottom-up, the
// first and last top-down; results and record counts as check_bfs wants.
TEST(EngineDenseScatter, BfsGoesBottomUpForTheBigLevels) {
  g_scatter = ScatterMode::kAuto;
  const EdgeList& g = kron();
  const VertexId hub = max_out_degree_vertex(g);
  check_bfs(g, hub);
  check_bfs(g, 0);
  check_bfs(test::corner_case_graph(), 0);
  const auto out = run_engine(g, Bfs(hub));
  // Which supersteps Beamer's rule (one worker: the whole graph) sends bottom-up.
  unsigned bottom_up = 0;
  for (size_t d = 0; d < out.report.steps.size(); ++d) bottom_up += out.report.steps[d].dense;
  if (engine_workers() == 1) {
    EXPECT_GE(bottom_up, 1u) << "the level holding most edges goes bottom-up";
    EXPECT_FALSE(out.report.steps.back().dense) << "the empty last level is top-down";
  }
}

// ---- Graphalytics graphs: sparse ids mapped while loading ----------------------

// A Graphalytics id for dense id i: strictly increasing, from -5e9 to above 2^32.
int64_t sparse_id(VertexId i) { return -5'000'000'000LL + int64_t{i} * 50'000'000LL + (i % 7); }

// `g` written as NAME.v (every vertex, isolated ones too) and NAME.e with
// weights w/4 (fractional, exact in binary), as a Graphalytics graph.
std::string write_graphalytics(const test::TempDir& dir, const EdgeList& g) {
  std::FILE* v = std::fopen(dir.file("g.v").c_str(), "w");
  for (VertexId i = 0; i < g.num_vertices; ++i) std::fprintf(v, "%" PRId64 "\n", sparse_id(i));
  std::fclose(v);
  std::FILE* e = std::fopen(dir.file("g.e").c_str(), "w");
  for (const Edge& x : g.edges) std::fprintf(e, "%" PRId64 " %" PRId64 " %.2f\n", sparse_id(x.src), sparse_id(x.dst), x.weight / 4.0);
  std::fclose(e);
  std::FILE* p = std::fopen(dir.file("g.properties").c_str(), "w");
  std::fprintf(p, "graph.g.directed = true\ngraph.g.edge-properties.names = weight\n"
                  "graph.g.edge-properties.types = real\n");
  std::fclose(p);
  return dir.file("g.properties");
}

// The node's part of a graph whose ids the loader maps (a Graphalytics graph,
// or an edge list under --ids sparse): values by slot and each slot's original id.
template <class Prog>
RunResult<Prog> run_mapped(const std::string& graph, bool graphalytics, unsigned domains, int64_t source) {
  Config cfg;
  cfg.app = Prog::kTraits.name;
  cfg.program = Prog::kTraits;
  cfg.graph = graph;
  cfg.graphalytics = graphalytics;
  cfg.ids = graphalytics ? IdsOption::kAuto : IdsOption::kSparse;
  cfg.sparse_ids = !graphalytics;
  cfg.source_id = source;
  cfg.job_token = 0x5eed0002;
  cfg.mbufs = 4095;
  cfg.domains = domains;
  cfg.engine.roles = g_roles;
  cfg.rx_queues = g_queues;
  cfg.engine.range_bytes = g_range_bytes;
  Node node(cfg);
  return compute_on_node<Prog>(node, node.input(), [](VertexId n, VertexId s) {
    ProgramParams p;
    p.source = s;
    p.iterations = 20;
    return Prog::make(p, n);
  }, false);
}
template <class Prog>
RunResult<Prog> run_graphalytics(const std::string& properties, unsigned domains, int64_t source) {
  return run_mapped<Prog>(properties, true, domains, source);
}

// Every worker reads its slice of both files (three workers under
// engine_4lcores), the ids are mapped by their rank in the vertex file, the
// source by its original id, and every slot knows its original id, also with
// the slots renumbered by NUMA domain.
TEST(EngineGraphalytics, SparseIdsMappedByRankWithEveryWorker) {
  const EdgeList& g = kron();
  test::TempDir dir;
  const std::string properties = write_graphalytics(dir, g);
  const VertexId source = 3;
  const std::vector<uint64_t> hops = ref::bfs(g, source);
  const std::vector<uint64_t> dist = ref::sssp(g, source);
  for (unsigned domains : {1u, 2u}) {
    SCOPED_TRACE("domains " + std::to_string(domains));
    const RunResult<Bfs> bfs = run_graphalytics<Bfs>(properties, domains, sparse_id(source));
    ASSERT_EQ(bfs.graph.original_id.size(), g.num_vertices);
    for (uint32_t i = 0; i < bfs.graph.num_local; ++i) {
      const VertexId v = bfs.graph.global_id(i);
      ASSERT_EQ(bfs.graph.original_id[i], sparse_id(v)) << "slot " << i;
      ASSERT_EQ(from_engine(bfs.values[i]), hops[v]) << "vertex " << v;
    }
    const RunResult<RealSssp> sssp = run_graphalytics<RealSssp>(properties, domains, sparse_id(source));
    for (uint32_t i = 0; i < sssp.graph.num_local; ++i) {
      const VertexId v = sssp.graph.global_id(i);
      const double want = dist[v] == ref::kInfinity ? INFINITY : dist[v] / 4.0;
      ASSERT_EQ(sssp.values[i], want) << "vertex " << v;  // quarters add exactly
    }
    EXPECT_EQ(sssp.report.load.input_edges, g.num_edges());
  }
}

// --ids sparse on an edge list: the vertices are the ids its edges name
// (kron:10:8's isolated vertices are gone), numbered by rank, every worker
// collecting the ids of its range; the source by its original id; every slot
// knows its original id, also with the slots renumbered by NUMA domain.
TEST(EngineSparseIds, EdgeListIdsNumberedByRankWithEveryWorker) {
  const EdgeList& g = kron();
  test::TempDir dir;
  const std::string path = dir.file("g.el");
  std::FILE* f = std::fopen(path.c_str(), "w");
  for (const Edge& x : g.edges) std::fprintf(f, "%" PRId64 " %" PRId64 " %u\n", sparse_id(x.src), sparse_id(x.dst), x.weight);
  std::fclose(f);
  // The test's own compaction: the vertices with an edge, in id order.
  std::vector<VertexId> rank(g.num_vertices, UINT32_MAX);
  for (const Edge& x : g.edges) rank[x.src] = rank[x.dst] = 0;
  std::vector<int64_t> original;
  for (VertexId v = 0; v < g.num_vertices; ++v)
    if (rank[v] == 0) rank[v] = static_cast<VertexId>(original.size()), original.push_back(sparse_id(v));
  ASSERT_LT(original.size(), g.num_vertices) << "kron:10:8 has isolated vertices";
  EdgeList compacted;
  compacted.num_vertices = static_cast<VertexId>(original.size());
  for (const Edge& x : g.edges) compacted.edges.push_back({rank[x.src], rank[x.dst], x.weight});
  const VertexId source = max_out_degree_vertex(g);
  const std::vector<uint64_t> hops = ref::bfs(compacted, rank[source]);
  for (unsigned domains : {1u, 2u}) {
    SCOPED_TRACE("domains " + std::to_string(domains));
    const RunResult<Bfs> bfs = run_mapped<Bfs>(path, false, domains, sparse_id(source));
    EXPECT_EQ(bfs.report.load.num_vertices, original.size());
    ASSERT_EQ(bfs.graph.original_id.size(), original.size());
    for (uint32_t i = 0; i < bfs.graph.num_local; ++i) {
      const VertexId v = bfs.graph.global_id(i);
      ASSERT_EQ(bfs.graph.original_id[i], original[v]) << "slot " << i;
      ASSERT_EQ(from_engine(bfs.values[i]), hops[v]) << "vertex " << v;
    }
  }
}

// The auto switch goes dense when the active vertices hold more than 4/10
// of the slice's out-edges (compute/engine/scatter_policy.h, measured there),
// for every program: exactly at the boundary, not by choosing a test vertex
// with the function itself.
TEST(DensePays, SwitchesAboveFourTenthsOfTheEdges) {
  EXPECT_FALSE(Worker<Bfs>::dense_pays(40, 100));  // exactly 4/10 stays sparse
  EXPECT_TRUE(Worker<Bfs>::dense_pays(41, 100));
  EXPECT_FALSE(Worker<Bfs>::dense_pays(39, 100));
  EXPECT_FALSE(Worker<Bfs>::dense_pays(21, 100));  // a 2/10 threshold would say dense
  EXPECT_FALSE(Worker<Bfs>::dense_pays(399, 1000));
  EXPECT_FALSE(Worker<Bfs>::dense_pays(400, 1000));
  EXPECT_TRUE(Worker<Bfs>::dense_pays(401, 1000));
  EXPECT_TRUE(Worker<Bfs>::dense_pays(100, 100));
  EXPECT_FALSE(Worker<Bfs>::dense_pays(0, 0));  // a slice without edges has nothing to pull
  EXPECT_FALSE(Worker<Bfs>::dense_pays(0, 100));
  // Large slices: no overflow for the edge counts of a 2^32-vertex graph.
  EXPECT_FALSE(Worker<Bfs>::dense_pays(4ull << 36, 10ull << 36));
  EXPECT_TRUE(Worker<Bfs>::dense_pays((4ull << 36) + 1, 10ull << 36));
  // The same rule for every program.
  EXPECT_EQ(Worker<PageRank>::dense_pays(41, 100), Worker<ConnectedComponents>::dense_pays(41, 100));
  EXPECT_EQ(Worker<Bc>::dense_pays(41, 100), Worker<Bfs>::dense_pays(41, 100));
}

// Beamer's rule (compute/engine/scatter_policy.h) on hand-made figures: a slice of
// 1000 vertices and 15000 edges.
TEST(BeamerSwitch, GoesBottomUpForBigFrontiersAndBackWhenTheyShrink) {
  BeamerSwitch b(15000);
  EXPECT_FALSE(b.bottom_up(1, 1000, 1000)) << "1000 edges = 1/15 of the unexplored: not above";
  // 14000 unexplored now: 934 > 14000 / 15 = 933.
  EXPECT_TRUE(b.bottom_up(50, 934, 1000));
  EXPECT_TRUE(b.bottom_up(400, 9000, 1000)) << "growing: stays bottom-up";
  EXPECT_TRUE(b.bottom_up(300, 3000, 1000)) << "shrinking, but 300 > 1000 / 18";
  EXPECT_FALSE(b.bottom_up(55, 500, 1000)) << "shrinking and 55 <= 1000 / 18: top-down";
  // Top-down subtracted 500 (13500 left): 900 = 13500 / 15 is not above.
  EXPECT_FALSE(b.bottom_up(60, 900, 1000));
  EXPECT_TRUE(b.bottom_up(60, 841, 1000)) << "12600 left: 841 > 840";
  BeamerSwitch empty(0);
  EXPECT_FALSE(empty.bottom_up(0, 0, 0)) << "a slice without edges has nothing to pull";
  EXPECT_FALSE(empty.bottom_up(1, 0, 1));
}

// ---- time by role (compute/report/role_clock.h) -------------------------------------------

void spin_cycles(uint64_t n) {
  const uint64_t t = rte_rdtsc();
  while (rte_rdtsc() - t < n) {
  }
}

TEST(RoleClock, ChargesTheRoleThatWasCurrentAndNoOther) {
  RoleClock c;
  EXPECT_EQ(c.switch_to(Role::kApply), Role::kWait) << "a new clock waits";
  spin_cycles(10000);
  EXPECT_EQ(c.switch_to(Role::kScatter), Role::kApply);
  RoleCycles t{};
  c.add_to(t);
  EXPECT_GE(t[static_cast<unsigned>(Role::kApply)], 10000u);
  EXPECT_EQ(t[static_cast<unsigned>(Role::kScatter)], 0u);
  EXPECT_EQ(t[static_cast<unsigned>(Role::kNetwork)], 0u);

  // charge(r) bills r for the time since the last switch and keeps the role.
  spin_cycles(10000);
  c.charge(Role::kNetwork);
  EXPECT_EQ(c.current(), Role::kScatter);
  RoleCycles u{};
  c.add_to(u);
  EXPECT_GE(u[static_cast<unsigned>(Role::kNetwork)], 10000u);
  EXPECT_EQ(u[static_cast<unsigned>(Role::kScatter)], 0u);
  EXPECT_EQ(u[static_cast<unsigned>(Role::kApply)], t[static_cast<unsigned>(Role::kApply)]);
  EXPECT_STREQ(role_name(Role::kNetwork), "network");
}

// ---- telemetry (compute/report/telemetry.h) ---------------------------------------------

// Sends one command to this process's own DPDK telemetry socket; the reply.
std::string telemetry_query(const std::string& cmd) {
  const std::string path = std::string(rte_eal_get_runtime_dir()) + "/dpdk_telemetry.v2";
  const int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
  if (fd < 0) return "socket: " + std::string(std::strerror(errno));
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  std::string reply;
  char buf[16384];
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    reply = "connect " + path + ": " + std::strerror(errno);
  } else if (recv(fd, buf, sizeof buf, 0) > 0 &&  // the server's greeting first
             send(fd, cmd.data(), cmd.size(), 0) == static_cast<ssize_t>(cmd.size())) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n > 0) reply.assign(buf, static_cast<size_t>(n));
  }
  close(fd);
  return reply;
}

TEST(Telemetry, CommandsReadThePublishedSourceAndNothingOnceDetached) {
  DataplaneOptions o;
  o.mbufs = 2047;
  Dataplane dp(o);
  dp.tx_q[0].frames = 12345;
  dp.rx_q[0].records = 678;
  dp.rx_q[0].drop(DropReason::kBadChecksum);
  std::atomic<int64_t> superstep{7};
  const TelemetrySource src{3, &dp, nullptr, &superstep};
  publish_telemetry(&src);
  const std::string stats = telemetry_query("/wiregraph/stats");
  const std::string drops = telemetry_query("/wiregraph/drops");
  publish_telemetry(nullptr);
  const std::string detached = telemetry_query("/wiregraph/stats");

  EXPECT_NE(stats.find("\"rank\":3"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"superstep\":7"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"tx_frames\":12345"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"rx_records\":678"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"rx_dropped\":1"), std::string::npos) << stats;
  EXPECT_NE(drops.find(std::string("\"") + drop_reason_name(DropReason::kBadChecksum) + "\":1"), std::string::npos)
      << drops;
  EXPECT_EQ(detached.find("rank"), std::string::npos) << "a detached source is not read: " << detached;
  EXPECT_NE(detached.find("/wiregraph/stats"), std::string::npos) << detached;
}

// ---- the Dataplane's own resources -----------------------------------------------

unsigned count_mempools() {
  unsigned n = 0;
  rte_mempool_walk([](rte_mempool*, void* arg) { ++*static_cast<unsigned*>(arg); }, &n);
  return n;
}
unsigned count_memzones() {
  unsigned n = 0;
  rte_memzone_walk([](const rte_memzone*, void* arg) { ++*static_cast<unsigned*>(arg); }, &n);
  return n;
}

TEST(DataplaneResources, FreedByTheDestructor) {
  const unsigned pools = count_mempools(), zones = count_memzones();
  {
    DataplaneOptions o;
    o.mbufs = 2047;
    Dataplane a(o);
    Dataplane b(o);  // a second instance in one process: distinct names
    // One transmit pool per NUMA socket with an lcore: the test EAL's lcores
    // are all on this machine's sockets.
    std::set<unsigned> sockets;
    unsigned lcore;
    RTE_LCORE_FOREACH(lcore) sockets.insert(rte_lcore_to_socket_id(lcore));
    EXPECT_EQ(count_mempools(), pools + 2 * static_cast<unsigned>(sockets.size()));
    EXPECT_NE(a.pool(), b.pool());
    rte_mbuf* own = a.alloc();  // from this lcore's socket's pool
    ASSERT_NE(own, nullptr);
    EXPECT_EQ(own->pool, a.local_pool());
    EXPECT_EQ(a.local_pool(), a.pool()) << "the main lcore's socket uses the main pool";
    rte_pktmbuf_free(own);
    // Buckets left in the local queue are freed too.
    rte_mbuf* m = a.alloc();
    ASSERT_NE(m, nullptr);
    a.enqueue_local(0, m);
  }
  EXPECT_EQ(count_mempools(), pools);
  EXPECT_EQ(count_memzones(), zones);
}

TEST(DataplaneResources, LocalQueueKeepsOrder) {
  DataplaneOptions o;
  o.mbufs = 1023;
  o.queues = 2;
  Dataplane dp(o);
  std::vector<rte_mbuf*> sent;
  for (int i = 0; i < 100; ++i) {
    rte_mbuf* m = dp.alloc();
    ASSERT_NE(m, nullptr);
    sent.push_back(m);
    dp.enqueue_local(1, m);
  }
  rte_mbuf* none[1];
  EXPECT_EQ(dp.dequeue_local(0, none, 1), 0u) << "each receive queue has its own local ring";
  std::vector<rte_mbuf*> got(128);
  unsigned n = 0;
  while (unsigned k = dp.dequeue_local(1, got.data() + n, Dataplane::kBurst)) n += k;
  ASSERT_EQ(n, 100u);
  got.resize(n);
  EXPECT_EQ(got, sent);
  for (rte_mbuf* m : got) rte_pktmbuf_free(m);
}

TEST(DataplaneResources, ClusterWithoutPortsIsRefused) {
  DataplaneOptions o;
  o.nodes = 2;
  o.mbufs = 1023;
  try {
    Dataplane dp(o);
    FAIL() << "a 2-node dataplane without ports was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("at least one DPDK port"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wg

// WG_TEST_ENGINE_LCORES (optional): an EAL --lcores map, e.g. 0@0,1@0,2@1,3@1
// for three workers and a network lcore on two CPUs; the binary then uses its
// own file prefix, so both variants can run at once.
int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  testing::UnitTest::GetInstance()->listeners().Append(new wg::EngineDefaults);  // gtest owns it
  const char* lcores = std::getenv("WG_TEST_ENGINE_LCORES");
  const bool with_lcores = lcores != nullptr && *lcores != '\0';
  if (!wg::test::init_test_eal("test_engine", with_lcores ? "wg_test_engine_lcores" : "wg_test_engine", 512,
                               with_lcores ? std::vector<std::string>{"--lcores", lcores} : std::vector<std::string>{}))
    return 1;
  const int rc = RUN_ALL_TESTS();
  rte_eal_cleanup();
  return rc;
}
