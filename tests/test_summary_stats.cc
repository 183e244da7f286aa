// The end-of-run summary's statistics (compute/engine/summary_stats.h): the
// label census and its cluster totals against plain counts made here, the
// HyperLogLog estimate against known counts, and the warnings a degenerate
// answer gets. Pure logic, no EAL.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "compute/engine/summary_stats.h"
#include "compute/partition/partition.h"

namespace wg {
namespace {

// Node `rank`'s part of a graph of `n` vertices and no edges (the census
// reads slots' ids and out-degrees only), with `degree` as every vertex's
// out-degree.
LocalGraph part_of(VertexId n, unsigned nodes, unsigned rank, uint32_t degree = 1) {
  EdgeList g;
  g.num_vertices = n;
  LocalGraph lg = build_local_graph(g, nodes, rank, false);
  lg.out_degree.assign(lg.num_local, degree);
  return lg;
}

// labels[v] for every vertex v, cut into the nodes' slot order.
std::vector<std::vector<uint32_t>> by_node(const std::vector<uint32_t>& labels, unsigned nodes,
                                           std::vector<LocalGraph>* parts) {
  std::vector<std::vector<uint32_t>> out(nodes);
  parts->clear();
  for (unsigned r = 0; r < nodes; ++r) {
    parts->push_back(part_of(static_cast<VertexId>(labels.size()), nodes, r));
    for (uint32_t i = 0; i < parts->back().num_local; ++i) out[r].push_back(labels[parts->back().global_id(i)]);
  }
  return out;
}

struct PlainCounts {
  uint64_t distinct = 0, largest = 0, own = 0;
};
PlainCounts plain_counts(const std::vector<uint32_t>& labels) {
  std::map<uint32_t, uint64_t> count;
  PlainCounts p;
  for (uint32_t v = 0; v < labels.size(); ++v) {
    ++count[labels[v]];
    p.own += labels[v] == v;
  }
  p.distinct = count.size();
  for (const auto& [label, n] : count) p.largest = std::max(p.largest, n);
  return p;
}

CensusTotals census_totals(const std::vector<uint32_t>& labels, unsigned nodes) {
  std::vector<LocalGraph> parts;
  const std::vector<std::vector<uint32_t>> mine = by_node(labels, nodes, &parts);
  std::vector<LabelCensus> census;
  for (unsigned r = 0; r < nodes; ++r) census.push_back(census_of(mine[r], parts[r]));
  return total_census(census);
}

TEST(LabelCensus, FewLabelsAreCountedExactly) {
  // Components of sizes 50, 30, 15, 5 (labelled by their smallest id) over 3 nodes.
  std::vector<uint32_t> labels(100);
  for (uint32_t v = 0; v < 100; ++v) labels[v] = v < 50 ? 0 : v < 80 ? 50 : v < 95 ? 80 : 95;
  const PlainCounts want = plain_counts(labels);
  const CensusTotals t = census_totals(labels, 3);
  EXPECT_TRUE(t.labels_exact);
  EXPECT_EQ(t.labels, want.distinct);
  EXPECT_EQ(t.labels, 4u);
  EXPECT_TRUE(t.largest_exact);
  EXPECT_EQ(t.largest, want.largest);
  EXPECT_EQ(t.own_label, want.own);
  EXPECT_EQ(t.vertices, 100u);
}

// More labels than a node lists: a giant and thousands of small ones. The
// giant is still found exactly (it heads every node's list), the label count
// is the sketch's estimate.
TEST(LabelCensus, ManyLabelsGiantExactCountEstimated) {
  std::mt19937 rng(7);
  std::vector<uint32_t> labels(40000);
  for (uint32_t v = 0; v < labels.size(); ++v) labels[v] = v < 20000 ? 0 : 20000 + (v - 20000) / 4;  // 5000 of 4
  std::shuffle(labels.begin() + 1, labels.end(), rng);
  const PlainCounts want = plain_counts(labels);
  for (unsigned nodes : {2u, 3u, 5u}) {
    SCOPED_TRACE(nodes);
    const CensusTotals t = census_totals(labels, nodes);
    EXPECT_FALSE(t.labels_exact);
    EXPECT_NEAR(static_cast<double>(t.labels), static_cast<double>(want.distinct), 0.15 * want.distinct);
    EXPECT_TRUE(t.largest_exact);
    EXPECT_EQ(t.largest, want.largest);
  }
}

// Labels spread so thin that no node's list can prove which is the largest:
// the total is then a lower bound, never more than the truth, and says so.
TEST(LabelCensus, UnprovableLargestIsALowerBound) {
  std::vector<uint32_t> labels;
  // 200 labels of 40 vertices each and one of 60, spread evenly over the nodes.
  for (uint32_t l = 0; l < 200; ++l)
    for (int k = 0; k < 40; ++k) labels.push_back(l);
  for (int k = 0; k < 60; ++k) labels.push_back(7);
  std::mt19937 rng(3);
  std::shuffle(labels.begin(), labels.end(), rng);
  const PlainCounts want = plain_counts(labels);
  const CensusTotals t = census_totals(labels, 4);
  EXPECT_LE(t.largest, want.largest);
  if (t.largest_exact) {
    EXPECT_EQ(t.largest, want.largest);
  }
}

TEST(Sketch, EstimatesCountsWithinItsError) {
  for (uint32_t n : {1u, 10u, 100u, 1000u, 100000u}) {
    uint8_t sketch[1u << kSketchBits] = {};
    for (uint32_t i = 0; i < n; ++i) sketch_add(sketch, i * 2654435761u);
    for (uint32_t i = 0; i < n; ++i) sketch_add(sketch, i * 2654435761u);  // repeats change nothing
    EXPECT_NEAR(sketch_estimate(sketch), n, std::max(1.0, 0.15 * n)) << n;
  }
}

SummaryContext context(uint64_t vertices, uint64_t edges, bool undirected = false) {
  SummaryContext c;
  c.vertices = vertices;
  c.edges_read = c.edges_used = edges;
  c.undirected = undirected;
  c.source = "7";
  return c;
}

TEST(Reach, LineAndFigures) {
  const ReachSummary nodes[] = {{40, 3}, {60, 5}};
  const ProgramOutcome o = describe_reach(total_reach(nodes), context(100, 300), "depth", true);
  EXPECT_EQ(o.line, "100 of 100 vertices reached (100.0%), depth 5");
  EXPECT_EQ(o.figures["reached"], 100u);
  EXPECT_EQ(o.figures["depth"], 5u);
  EXPECT_TRUE(o.warnings.empty());
}

TEST(Reach, TheSourceAloneIsWarnedAbout) {
  const ReachSummary nodes[] = {{1, 0}, {0, 0}};
  const ProgramOutcome o = describe_reach(total_reach(nodes), context(100, 300), "depth", true);
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_NE(o.warnings[0].find("the source 7 reaches only itself"), std::string::npos) << o.warnings[0];
  EXPECT_NE(o.warnings[0].find("--undirected"), std::string::npos) << o.warnings[0];
  // On an undirected graph the direction cannot be the reason.
  const ProgramOutcome u = describe_reach(total_reach(nodes), context(100, 300, true), "depth", true);
  ASSERT_EQ(u.warnings.size(), 1u);
  EXPECT_EQ(u.warnings[0].find("--undirected"), std::string::npos) << u.warnings[0];
}

TEST(Reach, AHandfulOutOfMostOfTheGraphIsWarnedAbout) {
  const ReachSummary few[] = {{kHandful, 4}};
  EXPECT_EQ(describe_reach(total_reach(few), context(1000, 3000), "depth", true).warnings.size(), 1u);
  // A handful of a small graph, or more than a handful: no warning.
  EXPECT_TRUE(describe_reach(total_reach(few), context(20, 30), "depth", true).warnings.empty());
  const ReachSummary more[] = {{kHandful + 1, 4}};
  EXPECT_TRUE(describe_reach(total_reach(more), context(1000, 3000), "depth", true).warnings.empty());
  // A graph of one vertex: reaching itself is everything.
  const ReachSummary one[] = {{1, 0}};
  EXPECT_TRUE(describe_reach(total_reach(one), context(1, 0), "depth", true).warnings.empty());
}

// Marked vertices (BC's sources) are named as the input names them: a dense
// id plus the format's first id (DIMACS numbers from 1), a mapped id as it
// is; the cluster's list in id order, "..." when marks are left out.
TEST(Marked, NamedAsTheInputNamesThem) {
  std::vector<LocalGraph> parts;
  std::vector<MarkedVertices> nodes;
  for (unsigned r = 0; r < 2; ++r) {
    parts.push_back(part_of(10, 2, r));
    std::vector<uint32_t> times(parts.back().num_local, 0);
    for (uint32_t i = 0; i < times.size(); ++i)  // marks vertices 3 (twice) and 6
      times[i] = parts.back().global_id(i) == 3 ? 2 : parts.back().global_id(i) == 6 ? 1 : 0;
    nodes.push_back(marked_of(std::span<const uint32_t>(times), parts.back(), [](uint32_t n) { return n; }));
  }
  SummaryContext c = context(10, 0);
  c.first_id = 1;
  MarkedTotal t = total_marked(nodes, c);
  EXPECT_EQ(t.marks, 3u);
  EXPECT_EQ(t.ids, (std::vector<int64_t>{4, 7}));
  EXPECT_EQ(t.listed, "4, 7, ...");  // 3 marks, 2 vertices
  for (LocalGraph& g : parts) {  // mapped ids: the input's own, first_id not added
    g.original_id.resize(g.num_local);
    for (uint32_t i = 0; i < g.num_local; ++i) g.original_id[i] = 1000 + g.global_id(i);
  }
  for (unsigned r = 0; r < 2; ++r) {
    std::vector<uint32_t> times(parts[r].num_local, 0);
    for (uint32_t i = 0; i < times.size(); ++i) times[i] = parts[r].global_id(i) == 6;
    nodes[r] = marked_of(std::span<const uint32_t>(times), parts[r], [](uint32_t n) { return n; });
  }
  t = total_marked(nodes, c);
  EXPECT_EQ(t.ids, (std::vector<int64_t>{1006}));
  EXPECT_EQ(t.listed, "1006");
}

// Every vertex marked (bc --sources all): the list holds the smallest ids,
// wherever their slots are (here the last: ids fall as slots rise).
TEST(Marked, ListsTheSmallestIds) {
  std::vector<MarkedVertices> nodes;
  for (unsigned r = 0; r < 2; ++r) {
    LocalGraph g = part_of(40, 2, r);
    g.original_id.resize(g.num_local);
    for (uint32_t i = 0; i < g.num_local; ++i) g.original_id[i] = 500 - g.global_id(i);
    const std::vector<uint32_t> once(g.num_local, 1);
    nodes.push_back(marked_of(std::span<const uint32_t>(once), g, [](uint32_t n) { return n; }));
  }
  const MarkedTotal t = total_marked(nodes, context(40, 0));
  EXPECT_EQ(t.marks, 40u);
  EXPECT_EQ(t.ids, (std::vector<int64_t>{461, 462, 463, 464, 465, 466, 467, 468}));
  EXPECT_EQ(t.listed, "461, 462, 463, 464, 465, 466, 467, 468, ...");
}

TEST(Isolated, MostlyIsolatedIsWarnedAbout) {
  ProgramOutcome o;
  warn_if_mostly_isolated(51, context(100, 10, true), o);
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_NE(o.warnings[0].find("51 of 100 vertices (51%) have no edges"), std::string::npos) << o.warnings[0];
  ProgramOutcome half;
  warn_if_mostly_isolated(50, context(100, 10, true), half);
  EXPECT_TRUE(half.warnings.empty());
}

}  // namespace
}  // namespace wg
