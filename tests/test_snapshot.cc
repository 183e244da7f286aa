// Snapshots (compute/load/snapshot_format.h): a node's share written and read
// back exactly (every array of the LocalGraph, weights integer and real,
// mapped ids, k > 1 domains), the manifest's round trip, and every refusal:
// another P, build, format version or graph rules; a missing, truncated or
// damaged file (one flipped byte anywhere); another node's file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compute/graph/kronecker.h"
#include "compute/load/snapshot_manifest.h"
#include "compute/load/snapshot_reader.h"
#include "compute/load/snapshot_writer.h"
#include "compute/partition/partition.h"
#include "compute/report/build_info.h"
#include "tests/temp_dir.h"

namespace wg {
using test::TempDir;
namespace {

constexpr unsigned kNodes = 2;

SnapshotManifest manifest_for(const LocalGraph& g, SnapshotWeights w) {
  SnapshotManifest m;
  m.build = build::version_line("wiregraph");
  m.nodes = g.partition.nodes;
  m.vertices = g.num_vertices;
  m.edges = g.num_edges;
  m.input_edges = g.num_edges;
  m.fingerprint = 0x1234567890abcdefULL;
  m.weighted = w != SnapshotWeights::kNone;
  m.rules.weights = w;
  m.rules.domains = g.domains;
  m.graph = "kron:8:8";
  m.ids_chosen = "dense";
  return m;
}

// Node `rank`'s share of a small Kronecker graph, with what finish() adds.
LocalGraph share(unsigned rank, bool weights, bool real, bool mapped) {
  const EdgeList el = generate_kronecker(KroneckerSpec{8, 8, 7});
  LocalGraph g = build_local_graph(el, kNodes, rank, weights);
  g.in_degree.assign(g.num_local, 0);
  for (uint32_t i = 0; i < g.num_local; ++i) g.in_degree[i] = i % 13;
  if (mapped)
    for (uint32_t i = 0; i < g.num_local; ++i) g.original_id.push_back(int64_t{-5} * i - 1);
  if (real)
    for (EdgeBlock& b : g.blocks) {
      b.real_weights.clear();
      for (size_t e = 0; e < b.targets.size(); ++e) b.real_weights.push_back(0.25 * static_cast<double>(e) + 1e-9);
      b.weights.clear();
    }
  return g;
}

void expect_same(const LocalGraph& a, const LocalGraph& b) {
  EXPECT_EQ(a.partition.nodes, b.partition.nodes);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.num_edges, b.num_edges);
  EXPECT_EQ(a.num_local, b.num_local);
  EXPECT_EQ(a.domains, b.domains);
  EXPECT_EQ(a.domain_offset, b.domain_offset);
  EXPECT_EQ(a.global_of, b.global_of);
  EXPECT_EQ(a.original_id, b.original_id);
  EXPECT_EQ(a.out_degree, b.out_degree);
  EXPECT_EQ(a.in_degree, b.in_degree);
  EXPECT_EQ(a.node_domain_offset, b.node_domain_offset);
  ASSERT_EQ(a.blocks.size(), b.blocks.size());
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    EXPECT_EQ(a.blocks[i].sources, b.blocks[i].sources);
    EXPECT_EQ(a.blocks[i].offsets, b.blocks[i].offsets);
    EXPECT_TRUE(a.blocks[i].targets == b.blocks[i].targets);
    EXPECT_TRUE(a.blocks[i].weights == b.blocks[i].weights);
    EXPECT_TRUE(a.blocks[i].real_weights == b.blocks[i].real_weights);
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "";
}

TEST(SnapshotTest, RoundTripIsExact) {
  struct Case {
    bool weights, real, mapped;
    SnapshotWeights w;
  };
  for (const Case c : {Case{false, false, false, SnapshotWeights::kNone}, Case{true, false, true, SnapshotWeights::kInteger},
                       Case{true, true, false, SnapshotWeights::kReal}}) {
    TempDir tmp;
    for (unsigned r = 0; r < kNodes; ++r) {
      const LocalGraph g = share(r, c.weights, c.real, c.mapped);
      ASSERT_GT(local_out_edges(g), 0u);
      const SnapshotManifest m = manifest_for(g, c.w);
      const uint64_t written = write_node_snapshot(tmp.path(), g, m);
      EXPECT_FALSE(std::filesystem::exists(snapshot_file_path(tmp.path(), r) + ".tmp"));
      uint64_t read = 0;
      expect_same(g, read_node_snapshot(tmp.path(), r, m, &read));
      EXPECT_EQ(read, written);
    }
  }
}

TEST(SnapshotTest, RoundTripWithDomains) {
  const EdgeList el = generate_kronecker(KroneckerSpec{8, 8, 7});
  // Two domains per node: each node's first half of slots, then its second.
  SlotMap map;
  map.nodes = kNodes;
  map.domains = 2;
  RoundRobin rr{kNodes};
  for (VertexId v = 0; v < el.num_vertices; ++v) {
    const uint32_t local = rr.local_index(v);
    map.slot_of.push_back(local);
    map.domain_of.push_back(local < rr.local_count(rr.owner(v), el.num_vertices) / 2 ? 0 : 1);
  }
  for (unsigned p = 0; p < kNodes; ++p) {
    const uint32_t n = rr.local_count(p, el.num_vertices);
    map.domain_offset.push_back({0, n / 2, n});
  }
  LocalGraph g = build_local_graph(el, kNodes, 1, false, &map);
  g.in_degree.assign(g.num_local, 3);
  ASSERT_EQ(g.domains, 2u);
  TempDir tmp;
  const SnapshotManifest m = manifest_for(g, SnapshotWeights::kNone);
  write_node_snapshot(tmp.path(), g, m);
  expect_same(g, read_node_snapshot(tmp.path(), 1, m, nullptr));
}

TEST(SnapshotTest, ManifestRoundTrip) {
  TempDir tmp;
  SnapshotManifest m = manifest_for(share(0, false, false, false), SnapshotWeights::kInteger);
  m.rules.symmetrize = m.rules.drop_duplicates = m.rules.degree_order = true;
  m.first_id = 1;
  m.mapped_ids = true;
  m.default_source = -42;
  m.mapped_source_id = -42;
  m.mapped_source_dense = 17;
  m.degrees_alike = true;
  write_snapshot_manifest(tmp.path(), m);
  const SnapshotManifest back = read_snapshot_manifest(tmp.path());
  EXPECT_EQ(back.version, m.version);
  EXPECT_EQ(back.build, m.build);
  EXPECT_EQ(back.nodes, m.nodes);
  EXPECT_EQ(back.vertices, m.vertices);
  EXPECT_EQ(back.edges, m.edges);
  EXPECT_EQ(back.fingerprint, m.fingerprint);
  EXPECT_TRUE(back.rules == m.rules);
  EXPECT_EQ(back.graph, m.graph);
  EXPECT_EQ(back.first_id, 1u);
  EXPECT_TRUE(back.mapped_ids);
  EXPECT_EQ(back.default_source, m.default_source);
  EXPECT_EQ(back.mapped_source_id, m.mapped_source_id);
  EXPECT_EQ(back.mapped_source_dense, 17u);
  EXPECT_TRUE(back.degrees_alike);
  EXPECT_NO_THROW(check_snapshot_serves(tmp.path(), back, kNodes, m.rules));
}

// What the node's first memory check, --check-options and the doctor read of
// a snapshot before it is loaded: its manifest's V and |E|, the graph as the
// rules made it and as the loader built it (no edges held, none doubled).
TEST(SnapshotTest, DeclaresItsSizeFromItsManifest) {
  TempDir tmp;
  SnapshotManifest m = manifest_for(share(0, false, false, false), SnapshotWeights::kNone);
  m.vertices = 123456;
  m.edges = 7654321;
  write_snapshot_manifest(tmp.path(), m);
  const DeclaredSize d = declared_size_of(GraphInput::from_spec("snapshot:" + tmp.path(), GraphFormat::kAuto));
  EXPECT_EQ(d.vertices, 123456u);
  EXPECT_EQ(d.edges, 7654321u);
  EXPECT_TRUE(d.as_built);
  EXPECT_NE(d.what.find("manifest"), std::string::npos) << d.what;
  const TempDir none;
  EXPECT_THROW(declared_size_of(GraphInput::from_spec("snapshot:" + none.path(), GraphFormat::kAuto)), SnapshotError);
}

TEST(SnapshotTest, RefusesAnotherJob) {
  const SnapshotManifest m = manifest_for(share(0, false, false, false), SnapshotWeights::kNone);
  const SnapshotRules rules = m.rules;
  {
    const std::string e = error_of([&] { check_snapshot_serves("D", m, 3, rules); });
    EXPECT_NE(e.find("snapshot D was saved by 2 nodes; this job has 3"), std::string::npos) << e;
  }
  SnapshotRules undirected = rules;
  undirected.symmetrize = true;
  undirected.weights = SnapshotWeights::kReal;
  std::string e = error_of([&] { check_snapshot_serves("D", m, kNodes, undirected); });
  EXPECT_NE(e.find("symmetrized (undirected): saved no, this job needs yes"), std::string::npos) << e;
  EXPECT_NE(e.find("weights: saved none, this job needs real"), std::string::npos) << e;
  SnapshotRules deduplicated = rules;
  deduplicated.drop_duplicates = deduplicated.drop_self_loops = true;
  e = error_of([&] { check_snapshot_serves("D", m, kNodes, deduplicated); });
  EXPECT_NE(e.find("duplicate edges dropped: saved no"), std::string::npos) << e;
  EXPECT_NE(e.find("self-loops dropped: saved no"), std::string::npos) << e;
  SnapshotManifest old = m;
  old.version = kSnapshotVersion + 1;
  e = error_of([&] { check_snapshot_serves("D", old, kNodes, rules); });
  EXPECT_NE(e.find("format_version " + std::to_string(kSnapshotVersion + 1)), std::string::npos) << e;
  SnapshotManifest other = m;
  other.build = "wiregraph 0.0.9 (commit abcdef0)";
  e = error_of([&] { check_snapshot_serves("D", other, kNodes, rules); });
  EXPECT_NE(e.find("saved by 'wiregraph 0.0.9 (commit abcdef0)'"), std::string::npos) << e;
}

TEST(SnapshotTest, RefusesAMissingOrDamagedManifest) {
  TempDir tmp;
  EXPECT_NE(error_of([&] { read_snapshot_manifest(tmp.path()); }).find("not a snapshot directory"), std::string::npos);
  std::ofstream(tmp.file("manifest.json")) << "{\"format_version\": 1}";
  EXPECT_NE(error_of([&] { read_snapshot_manifest(tmp.path()); }).find("field build"), std::string::npos);
  std::ofstream(tmp.file("manifest.json")) << "{\"format_ver";
  EXPECT_NE(error_of([&] { read_snapshot_manifest(tmp.path()); }).find("is not JSON"), std::string::npos);
}

class SnapshotFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_ = share(1, true, false, true);
    m_ = manifest_for(g_, SnapshotWeights::kInteger);
    write_node_snapshot(tmp_.path(), g_, m_);
    path_ = snapshot_file_path(tmp_.path(), 1);
    size_ = std::filesystem::file_size(path_);
  }
  std::string read_error(unsigned rank = 1) {
    return error_of([&] { read_node_snapshot(tmp_.path(), rank, m_, nullptr); });
  }
  std::vector<char> bytes() const {
    std::ifstream f(path_, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(f), {});
  }
  void put(const std::vector<char>& b) const { std::ofstream(path_, std::ios::binary | std::ios::trunc).write(b.data(), static_cast<std::streamsize>(b.size())); }

  TempDir tmp_;
  LocalGraph g_;
  SnapshotManifest m_;
  std::string path_;
  uint64_t size_ = 0;
};

TEST_F(SnapshotFileTest, RefusesTruncation) {
  const std::vector<char> all = bytes();
  for (const uint64_t keep : {uint64_t{0}, uint64_t{100}, uint64_t{sizeof(SnapshotFileHeader)}, size_ / 2, size_ - 1}) {
    put(std::vector<char>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep)));
    const std::string e = read_error();
    EXPECT_NE(e.find("truncated"), std::string::npos) << keep << ": " << e;
    EXPECT_NE(e.find(path_), std::string::npos) << e;
  }
}

TEST_F(SnapshotFileTest, RefusesEveryFlippedByte) {
  // Every byte of a file of this size would take long; every header byte and
  // a spread of payload bytes, each flip alone.
  const std::vector<char> all = bytes();
  std::vector<uint64_t> at;
  for (uint64_t i = 0; i < sizeof(SnapshotFileHeader); ++i) at.push_back(i);
  for (uint64_t i = sizeof(SnapshotFileHeader); i < size_; i += 997) at.push_back(i);
  at.push_back(size_ - 1);
  for (const uint64_t i : at) {
    std::vector<char> b = all;
    b[i] = static_cast<char>(b[i] ^ 0x10);
    put(b);
    EXPECT_FALSE(read_error().empty()) << "byte " << i << " flipped went unnoticed";
  }
  put(all);
  EXPECT_EQ(read_error(), "");
}

TEST_F(SnapshotFileTest, RefusesAnotherNodesFileOrNone) {
  std::filesystem::copy_file(path_, snapshot_file_path(tmp_.path(), 0));
  EXPECT_NE(read_error(0).find("field rank is 1, the manifest says 0"), std::string::npos) << read_error(0);
  std::filesystem::remove(path_);
  EXPECT_NE(read_error().find("cannot open"), std::string::npos);
}

TEST_F(SnapshotFileTest, RefusesAFileOfAnotherSnapshot) {
  SnapshotManifest other = m_;
  other.fingerprint ^= 1;
  const std::string e = error_of([&] { read_node_snapshot(tmp_.path(), 1, other, nullptr); });
  EXPECT_NE(e.find("field fingerprint"), std::string::npos) << e;
}

}  // namespace
}  // namespace wg
