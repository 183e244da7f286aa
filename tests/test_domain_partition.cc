// Level-2 (NUMA domain) partition tests. Every count the partitioner reports
// is checked against a count made here with a separate loop over the edge
// blocks, and the real-graph cases check that METIS beats the even split
// while keeping each domain's work (its out-edges) within the bound.
#include "compute/partition/domain_partition.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/graph_reader.h"
#include "compute/graph/kronecker.h"
#include "compute/partition/partition.h"

namespace wg {
namespace {

constexpr double kImbalance = 1.03;

std::string dataset(const std::string& name) {
  const char* dir = std::getenv("WG_DATASETS");
  if (dir == nullptr) throw std::runtime_error("WG_DATASETS is not set; run the tests with `meson test`");
  return std::string(dir) + "/" + name;
}

// Directed edges u->v with u != v and both on this node, and how many cross
// domains under `domain_of`. Written independently of the library's counter.
struct LocalCut {
  uint64_t edges = 0;
  uint64_t cross = 0;
};

LocalCut independent_cut(const LocalGraph& g, const std::vector<uint8_t>& domain_of) {
  LocalCut c;
  const EdgeBlock& b = g.blocks[g.rank];
  for (size_t i = 0; i < b.sources.size(); ++i) {
    for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
      const uint32_t u = b.sources[i];
      const uint32_t v = b.targets[e];
      if (u == v) continue;
      ++c.edges;
      if (domain_of.at(u) != domain_of.at(v)) ++c.cross;
    }
  }
  return c;
}

// A vertex's work as the header states it: its out-degree, or 1 for every
// vertex of a graph without edges.
std::vector<uint64_t> reference_work(const LocalGraph& g) {
  std::vector<uint64_t> w(g.out_degree.begin(), g.out_degree.end());
  uint64_t total = 0;
  for (uint64_t x : w) total += x;
  if (total == 0) w.assign(g.num_local, 1);
  return w;
}

// The even split as the header states it: contiguous ranges, domain d
// starting at the last vertex whose work prefix is at most d/k of the total,
// each domain keeping at least one vertex.
std::vector<uint8_t> reference_even_split(const LocalGraph& g, unsigned k) {
  const uint32_t n = g.num_local;
  const std::vector<uint64_t> w = reference_work(g);
  std::vector<uint64_t> prefix(n + 1, 0);
  for (uint32_t v = 0; v < n; ++v) prefix[v + 1] = prefix[v] + w[v];
  std::vector<uint32_t> start(k + 1, n);
  start[0] = 0;
  for (unsigned d = 1; d < k; ++d) {
    uint32_t s = 0;
    for (uint32_t v = 0; v <= n; ++v)
      if (prefix[v] * k <= uint64_t{d} * prefix[n]) s = v;
    s = std::max(s, start[d - 1] + 1);
    s = std::min(s, n - (k - d));
    start[d] = s;
  }
  std::vector<uint8_t> dom(n);
  for (unsigned d = 0; d < k; ++d)
    for (uint32_t v = start[d]; v < start[d + 1]; ++v) dom[v] = static_cast<uint8_t>(d);
  return dom;
}

// The old even split, [d*n/k, (d+1)*n/k): what the work split must equal without edges.
std::vector<uint8_t> vertex_count_split(uint32_t n, unsigned k) {
  std::vector<uint8_t> d(n);
  for (uint32_t v = 0; v < n; ++v) {
    unsigned dom = 0;
    while (!(uint64_t{dom} * n / k <= v && v < uint64_t{dom + 1} * n / k)) ++dom;
    d[v] = static_cast<uint8_t>(dom);
  }
  return d;
}

// The work bound, computed here: max(ceil(W/k) + heaviest, floor(W/k * imbalance)).
uint64_t work_limit(const LocalGraph& g, unsigned k, double imbalance) {
  uint64_t total = 0;
  uint64_t heaviest = 0;
  for (uint64_t w : reference_work(g)) {
    total += w;
    heaviest = std::max(heaviest, w);
  }
  const uint64_t scaled = static_cast<uint64_t>(std::floor(static_cast<double>(total) / k * imbalance + 1e-9));
  return std::max((total + k - 1) / k + heaviest, scaled);
}

// Checks every invariant of a result against counts made here.
void check_consistent(const LocalGraph& g, unsigned k, const DomainPartition& p) {
  const uint32_t n = g.num_local;
  ASSERT_EQ(p.domains, k);
  ASSERT_EQ(p.domain_of.size(), n);
  std::vector<uint32_t> sizes(k, 0);
  std::vector<uint64_t> edges(k, 0);
  for (uint32_t v = 0; v < n; ++v) {
    ASSERT_LT(p.domain_of[v], k) << "vertex " << v;
    ++sizes[p.domain_of[v]];
    edges[p.domain_of[v]] += g.out_degree[v];
  }
  EXPECT_EQ(p.vertices_per_domain, sizes);
  EXPECT_EQ(p.edges_per_domain, edges);
  const uint64_t limit = work_limit(g, k, kImbalance);
  for (unsigned d = 0; d < k; ++d) {
    EXPECT_GT(sizes[d], 0u) << "domain " << d << " is empty";
    EXPECT_LE(edges[d], limit) << "domain " << d << " breaks the work bound";
  }
  uint64_t max_edges = 0, all_edges = 0;
  uint32_t max_vertices = 0;
  for (unsigned d = 0; d < k; ++d) {
    max_edges = std::max(max_edges, edges[d]);
    all_edges += edges[d];
    max_vertices = std::max(max_vertices, sizes[d]);
  }
  EXPECT_NEAR(p.vertex_imbalance, static_cast<double>(max_vertices) * k / n, 1e-9);
  EXPECT_NEAR(p.edge_imbalance, all_edges ? static_cast<double>(max_edges) * k / all_edges : 0.0, 1e-9);
  const LocalCut even = independent_cut(g, reference_even_split(g, k));
  const LocalCut now = independent_cut(g, p.domain_of);
  EXPECT_EQ(p.local_edges, even.edges);
  EXPECT_EQ(p.cross_even, even.cross);
  EXPECT_EQ(p.cross_metis, now.cross);
  EXPECT_LE(p.cross_metis, p.cross_even);  // never worse than even
  if (!p.used_metis) {
    EXPECT_EQ(p.domain_of, reference_even_split(g, k));
  }
}

// ---- real graphs -----------------------------------------------------------

struct Dataset {
  const char* file;
  GraphFormat format;
};

const Dataset kDatasets[] = {
    {"wiki-Vote.txt", GraphFormat::kAuto},
    {"email-Eu-core.csv", GraphFormat::kAuto},
    {"ca-GrQc.csv", GraphFormat::kAuto},
    {"rome99.gr", GraphFormat::kAuto},
    // Banner and size line are stripped (SOURCES.md): read it as an edge list.
    {"luxembourg_osm.mtx", GraphFormat::kEdgeList},
};

const EdgeList& cached_graph(const Dataset& ds) {
  static std::map<std::string, EdgeList> cache;
  auto it = cache.find(ds.file);
  if (it == cache.end()) it = cache.emplace(ds.file, load_graph(dataset(ds.file), ds.format)).first;
  return it->second;
}

using RealCase = std::tuple<int /*dataset*/, unsigned /*P*/, unsigned /*k*/>;

class RealGraph : public ::testing::TestWithParam<RealCase> {};

TEST_P(RealGraph, MetisCutsFewerEdgesThanEvenSplit) {
  const auto [which, nodes, k] = GetParam();
  const Dataset& ds = kDatasets[which];
  const LocalGraph g = build_local_graph(cached_graph(ds), nodes, /*rank=*/0, /*keep_weights=*/false);

  const DomainPartition p = partition_domains(g, k, /*refine_with_metis=*/true, kImbalance);
  check_consistent(g, k, p);
  EXPECT_TRUE(p.used_metis) << p.note;
  EXPECT_LT(p.cross_metis, p.cross_even) << p.note;
  EXPECT_GT(p.metis_seconds, 0.0);

  // Deterministic: a second run gives the same placement and counts.
  const DomainPartition again = partition_domains(g, k, true, kImbalance);
  EXPECT_EQ(again.domain_of, p.domain_of);
  EXPECT_EQ(again.cross_metis, p.cross_metis);
  EXPECT_EQ(again.cross_even, p.cross_even);

  // Without refinement the result is the even split with the same counts.
  const DomainPartition plain = partition_domains(g, k, /*refine_with_metis=*/false, kImbalance);
  check_consistent(g, k, plain);
  EXPECT_FALSE(plain.used_metis);
  EXPECT_EQ(plain.cross_metis, plain.cross_even);
  EXPECT_EQ(plain.cross_even, p.cross_even);

  std::printf("%s P=%u k=%u n=%u: local edges %llu, even cut %llu (%.2f%%), METIS cut %llu (%.2f%%), %.3f ms\n",
              ds.file, nodes, k, g.num_local, static_cast<unsigned long long>(p.local_edges),
              static_cast<unsigned long long>(p.cross_even), 100.0 * p.cross_even / p.local_edges,
              static_cast<unsigned long long>(p.cross_metis), 100.0 * p.cross_metis / p.local_edges,
              p.metis_seconds * 1e3);
}

INSTANTIATE_TEST_SUITE_P(Datasets, RealGraph,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kDatasets))),
                                            ::testing::Values(1u, 2u), ::testing::Values(2u, 4u)),
                         [](const ::testing::TestParamInfo<RealCase>& param_info) {
                           const RealCase& c = param_info.param;
                           std::string name = kDatasets[std::get<0>(c)].file;
                           name = name.substr(0, name.find('.'));
                           for (char& ch : name)
                             if (ch == '-' || ch == '_') ch = 'x';
                           return name + "_P" + std::to_string(std::get<1>(c)) + "_k" +
                                  std::to_string(std::get<2>(c));
                         });

// A power-law graph: with unit vertex weights METIS packed the hubs together
// (kron:20:16, P=1, k=2: 14.2 M vs 2.55 M out-edges). Each domain's out-edges
// must now stay within 5% of equal, and the cut below the even split's.
class SkewedGraph : public ::testing::TestWithParam<unsigned /*k*/> {};

TEST_P(SkewedGraph, MetisBalancesOutEdges) {
  const unsigned k = GetParam();
  KroneckerSpec spec;
  spec.scale = 12;
  spec.degree = 16;
  const LocalGraph g = build_local_graph(generate_kronecker(spec), 1, 0, false);
  const DomainPartition p = partition_domains(g, k, true, kImbalance);
  check_consistent(g, k, p);
  EXPECT_TRUE(p.used_metis) << p.note;
  EXPECT_LT(p.cross_metis, p.cross_even) << p.note;
  EXPECT_LE(p.edge_imbalance, 1.05) << format_partition_report(p);
  const DomainPartition even = partition_domains(g, k, false, kImbalance);
  EXPECT_LE(even.edge_imbalance, 1.05) << format_partition_report(even);
  std::printf("kron:12:16 k=%u: edge imbalance METIS %.3f even %.3f, vertex imbalance METIS %.3f, cut %llu vs %llu\n",
              k, p.edge_imbalance, even.edge_imbalance, p.vertex_imbalance,
              static_cast<unsigned long long>(p.cross_metis), static_cast<unsigned long long>(p.cross_even));
}

INSTANTIATE_TEST_SUITE_P(Kron12, SkewedGraph, ::testing::Values(2u, 4u));

// ---- hand-made graphs ------------------------------------------------------

void add_undirected(EdgeList& g, VertexId u, VertexId v) {
  g.edges.push_back({u, v, 1});
  g.edges.push_back({v, u, 1});
}

// Two 5-cliques joined by the single edge a0-b0 (both directions).
EdgeList two_cliques(const std::vector<VertexId>& a, const std::vector<VertexId>& b) {
  EdgeList g;
  g.num_vertices = static_cast<VertexId>(a.size() + b.size());
  for (const auto* c : {&a, &b})
    for (size_t i = 0; i < c->size(); ++i)
      for (size_t j = i + 1; j < c->size(); ++j) add_undirected(g, (*c)[i], (*c)[j]);
  add_undirected(g, a[0], b[0]);
  return g;
}

TEST(DomainPartition, InterleavedCliquesAreSeparatedByMetis) {
  // Clique A is the even ids, B the odd ids: the even split cuts most edges.
  const EdgeList el = two_cliques({0, 2, 4, 6, 8}, {1, 3, 5, 7, 9});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  const DomainPartition p = partition_domains(g, 2, true);
  check_consistent(g, 2, p);
  EXPECT_TRUE(p.used_metis) << p.note;
  EXPECT_EQ(p.local_edges, 42u);  // 2 * (2 * 10 clique edges + 1 bridge)
  EXPECT_EQ(p.cross_metis, 2u);   // the bridge, once per direction
  EXPECT_GT(p.cross_even, p.cross_metis);
  EXPECT_EQ(p.vertices_per_domain, (std::vector<uint32_t>{5, 5}));
  for (VertexId v : {2, 4, 6, 8}) EXPECT_EQ(p.domain_of[v], p.domain_of[0]);
  for (VertexId v : {3, 5, 7, 9}) EXPECT_EQ(p.domain_of[v], p.domain_of[1]);
  EXPECT_TRUE(p.note.empty()) << p.note;
}

TEST(DomainPartition, EvenSplitKeptWhenMetisIsNoBetter) {
  // Contiguous cliques: the even split already cuts only the bridge.
  const EdgeList el = two_cliques({0, 1, 2, 3, 4}, {5, 6, 7, 8, 9});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  const DomainPartition p = partition_domains(g, 2, true);
  check_consistent(g, 2, p);
  EXPECT_EQ(p.cross_even, 2u);
  EXPECT_EQ(p.cross_metis, 2u);
  EXPECT_FALSE(p.used_metis);
  EXPECT_NE(p.note.find("even split kept"), std::string::npos) << p.note;
}

TEST(DomainPartition, MultiEdgesWeighTheCut) {
  // A directed 40-cycle i -> i+1 where every edge appears 5 times except
  // 9->10 and 29->30. The even split {0..19}|{20..39} cuts two heavy edges
  // (10); cutting the two light ones costs 2 at the same balance. Only the
  // multiplicity weights tell METIS the difference.
  EdgeList el;
  el.num_vertices = 40;
  for (VertexId v = 0; v < 40; ++v) {
    const int copies = (v == 9 || v == 29) ? 1 : 5;
    for (int c = 0; c < copies; ++c) el.edges.push_back({v, (v + 1) % 40, 1});
  }
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  const DomainPartition p = partition_domains(g, 2, true);
  check_consistent(g, 2, p);
  EXPECT_EQ(p.local_edges, 38u * 5 + 2);
  EXPECT_EQ(p.cross_even, 10u);
  EXPECT_TRUE(p.used_metis) << p.note;
  EXPECT_EQ(p.cross_metis, 2u);
  EXPECT_NE(p.domain_of[9], p.domain_of[10]);
  EXPECT_NE(p.domain_of[29], p.domain_of[30]);
  EXPECT_TRUE(p.note.empty()) << p.note;  // METIS's own answer, no repair
}

TEST(DomainPartition, HeavyPairsStayTogetherAtEqualWork) {
  // Pairs {1,2} and {0,3}, each joined by 5 edges each way, and the light
  // edges 0->1 and 2->3. Work 6, 5, 6, 5: the even split is {0,1}|{2,3}
  // (cut 20); {1,2}|{0,3} cuts 2 at the same work, 11 each.
  EdgeList el;
  el.num_vertices = 4;
  el.edges = {{0, 1, 1}, {2, 3, 1}};
  for (int i = 0; i < 5; ++i)
    for (auto [u, v] : {std::pair{1u, 2u}, {2u, 1u}, {0u, 3u}, {3u, 0u}}) el.edges.push_back({u, v, 1});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  const DomainPartition p = partition_domains(g, 2, true);
  check_consistent(g, 2, p);
  EXPECT_EQ(p.local_edges, 22u);
  EXPECT_EQ(p.cross_even, 20u);
  EXPECT_TRUE(p.used_metis) << p.note;
  EXPECT_EQ(p.cross_metis, 2u);
  EXPECT_EQ(p.domain_of[1], p.domain_of[2]);
  EXPECT_EQ(p.vertices_per_domain, (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(p.edges_per_domain[0], 11u);
}

// A hub that outweighs the tolerance: METIS cannot meet floor(W/k * 1.03),
// so the bound is W/k + the hub's work, which the repair keeps.
TEST(DomainPartition, HubHeavierThanTheToleranceStaysWithinTheBound) {
  EdgeList el;
  el.num_vertices = 40;
  for (VertexId v = 1; v < 40; ++v) {
    el.edges.push_back({0, v, 1});
    el.edges.push_back({v, (v % 39) + 1, 1});
  }
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  for (unsigned k : {2u, 3u, 4u}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    const DomainPartition p = partition_domains(g, k, true);
    check_consistent(g, k, p);
  }
}

// The repair METIS's answer gets when it misses the work bound or leaves a
// domain empty, on placements METIS does not produce here.
TEST(DomainPartition, RepairMovesTheVerticesThatCutLeast) {
  // A 5-clique {0..4} and five vertices {5..9} with four self-loops each:
  // every vertex has 4 out-edges, but moving a self-looped one cuts nothing.
  EdgeList el;
  el.num_vertices = 10;
  for (VertexId u = 0; u < 5; ++u)
    for (VertexId v = 0; v < 5; ++v)
      if (u != v) el.edges.push_back({u, v, 1});
  for (VertexId v = 5; v < 10; ++v)
    for (int i = 0; i < 4; ++i) el.edges.push_back({v, v, 1});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  std::vector<uint8_t> all_in_0(10, 0);
  const uint32_t moved = repair_domains(g, 2, kImbalance, all_in_0);
  // W = 40, bound max(20 + 4, floor(20.6)) = 24: four vertices of 4 must go.
  EXPECT_EQ(moved, 4u);
  for (VertexId v = 0; v < 5; ++v) EXPECT_EQ(all_in_0[v], 0) << "clique vertex " << v << " moved";
  EXPECT_EQ(independent_cut(g, all_in_0).cross, 0u);
}

TEST(DomainPartition, RepairFillsEmptyDomainsAndKeepsTheBound) {
  const EdgeList el = two_cliques({0, 2, 4, 6, 8}, {1, 3, 5, 7, 9});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  for (unsigned k : {2u, 3u, 5u, 10u}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    std::vector<uint8_t> d(10, 0);
    const uint32_t moved = repair_domains(g, k, kImbalance, d);
    std::vector<uint64_t> load(k, 0);
    std::vector<uint32_t> size(k, 0);
    for (VertexId v = 0; v < 10; ++v) {
      load[d[v]] += g.out_degree[v];
      ++size[d[v]];
    }
    uint32_t changed = 0;
    for (uint8_t x : d) changed += x != 0;
    EXPECT_EQ(moved, changed);
    for (unsigned i = 0; i < k; ++i) {
      EXPECT_GT(size[i], 0u) << "domain " << i;
      EXPECT_LE(load[i], work_limit(g, k, kImbalance)) << "domain " << i;
    }
  }
  std::vector<uint8_t> bad(10, 2);
  EXPECT_THROW(repair_domains(g, 2, kImbalance, bad), std::invalid_argument);
}

TEST(DomainPartition, OneDomainIsTrivial) {
  const EdgeList el = two_cliques({0, 2, 4, 6, 8}, {1, 3, 5, 7, 9});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  const DomainPartition p = partition_domains(g, 1, true);
  check_consistent(g, 1, p);
  EXPECT_FALSE(p.used_metis);
  EXPECT_EQ(p.metis_seconds, 0.0);
  EXPECT_EQ(p.cross_even, 0u);
  EXPECT_EQ(p.cross_metis, 0u);
  EXPECT_EQ(p.vertices_per_domain, (std::vector<uint32_t>{10}));
  EXPECT_EQ(p.edges_per_domain, (std::vector<uint64_t>{42}));
}

TEST(DomainPartition, EvenSplitSizesDifferByAtMostOne) {
  EdgeList el;
  el.num_vertices = 10;
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  const DomainPartition p = partition_domains(g, 3, false);
  EXPECT_EQ(p.vertices_per_domain, (std::vector<uint32_t>{3, 3, 4}));
  EXPECT_EQ(p.domain_of, vertex_count_split(10, 3));
}

TEST(DomainPartition, NoLocalEdgesKeepsEvenSplit) {
  // P = 2: every edge joins an even and an odd id, so rank 0's local subgraph
  // holds only the self-loop 0->0, which does not count.
  EdgeList el;
  el.num_vertices = 8;
  for (VertexId v = 0; v + 1 < 8; ++v) add_undirected(el, v, v + 1);
  el.edges.push_back({0, 0, 1});
  const LocalGraph g = build_local_graph(el, 2, 0, false);
  ASSERT_EQ(g.num_local, 4u);
  const DomainPartition p = partition_domains(g, 2, true);
  check_consistent(g, 2, p);
  EXPECT_EQ(p.local_edges, 0u);
  EXPECT_FALSE(p.used_metis);
  EXPECT_EQ(p.metis_seconds, 0.0);
  EXPECT_NE(p.note.find("no edges"), std::string::npos) << p.note;
  // Out-edges to the other node still count per domain: 0->1, 0->0 | 2->1, 2->3 ...
  uint64_t total = 0;
  for (uint64_t e : p.edges_per_domain) total += e;
  EXPECT_EQ(total, 8u);  // 7 edges from even ids to odd ids, plus the self-loop
}

TEST(DomainPartition, BadArgumentsThrow) {
  const EdgeList el = two_cliques({0, 2, 4, 6, 8}, {1, 3, 5, 7, 9});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  EXPECT_THROW(partition_domains(g, 0, true), std::invalid_argument);
  EXPECT_THROW(partition_domains(g, 11, true), std::invalid_argument);  // more domains than vertices
  EXPECT_THROW(partition_domains(g, 65, true), std::invalid_argument);
  EXPECT_THROW(partition_domains(g, 2, true, 0.9), std::invalid_argument);
  EXPECT_NO_THROW(partition_domains(g, 10, true));  // one vertex per domain is allowed
  try {
    partition_domains(g, 11, true);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("10 vertices"), std::string::npos) << e.what();
  }
}

TEST(DomainPartition, ReportsCarryTheFields) {
  const EdgeList el = two_cliques({0, 2, 4, 6, 8}, {1, 3, 5, 7, 9});
  const LocalGraph g = build_local_graph(el, 1, 0, false);
  DomainPartition p = partition_domains(g, 2, true);
  const std::string text = format_partition_report(p);
  EXPECT_NE(text.find("domain  0"), std::string::npos) << text;
  EXPECT_NE(text.find("domain  1"), std::string::npos) << text;
  EXPECT_NE(text.find("even split: " + std::to_string(p.cross_even)), std::string::npos) << text;
  EXPECT_NE(text.find("after METIS: 2 "), std::string::npos) << text;
  EXPECT_NE(text.find("METIS time"), std::string::npos) << text;
  EXPECT_NE(text.find("imbalance (largest / mean): vertices 1.000, out-edges 1.000"), std::string::npos) << text;

  p.note = "say \"why\"\n";
  const nlohmann::ordered_json json = partition_report_json(p);
  ASSERT_TRUE(json.is_object()) << json.dump();
  EXPECT_EQ(json.at("domains"), 2) << json.dump();
  EXPECT_EQ(json.at("vertices_per_domain"), nlohmann::ordered_json::array({5, 5})) << json.dump();
  EXPECT_TRUE(json.at("edges_per_domain").is_array()) << json.dump();
  EXPECT_EQ(json.at("local_edges"), 42) << json.dump();
  EXPECT_EQ(json.at("vertex_imbalance"), 1.0) << json.dump();
  EXPECT_EQ(json.at("edge_imbalance"), 1.0) << json.dump();
  EXPECT_EQ(json.at("cross_metis"), 2) << json.dump();
  EXPECT_TRUE(json.at("cross_even").is_number_unsigned()) << json.dump();
  EXPECT_TRUE(json.at("metis_seconds").is_number_float()) << json.dump();
  EXPECT_EQ(json.at("used_metis"), true) << json.dump();
  EXPECT_NEAR(json.at("cross_metis_fraction").get<double>(), 2.0 / 42, 1e-12) << json.dump();
  EXPECT_EQ(json.at("note"), "say \"why\"\n") << json.dump();
  // The text is valid JSON, the note escaped.
  EXPECT_NE(json.dump().find("\"note\":\"say \\\"why\\\"\\n\""), std::string::npos) << json.dump();
}

}  // namespace
}  // namespace wg
