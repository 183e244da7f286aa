// The pieces of the sparse-id mapping (compute/load/id_directory.h, id_table.h,
// graph_formats.h's parse_sparse_slice), without DPDK: the directory ranges
// drawn from per-worker samples, the numbering they give (each id's rank
// among all distinct ids, the same for every P and worker split), the id
// table, and the readers of 64-bit ids with their errors. References are
// plain std::map / std::set computations in the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/load/id_directory.h"
#include "compute/graph/id_table.h"
#include "compute/graph/input_bytes.h"

namespace wg {
namespace {

// Deterministic pseudo-random ids (of a counter), for volume.
uint64_t mix(uint64_t x) { return splitmix64(x * 0x2545f4914f6cdd1dULL + 1); }

TEST(IdTable, AgreesWithAMapThroughGrowthAndTheReservedKey) {
  IdTable t;
  std::map<int64_t, uint32_t> want;
  for (uint32_t i = 0; i < 50000; ++i) {
    const int64_t id = i % 7 == 0 ? INT64_MIN + (i % 3) : static_cast<int64_t>(mix(i % 20000));
    const bool fresh = want.emplace(id, i).second;
    EXPECT_EQ(t.insert(id, i), fresh) << id;
  }
  EXPECT_EQ(t.size(), want.size());
  for (const auto& [id, dense] : want) {
    const uint32_t* got = t.find(id);
    ASSERT_NE(got, nullptr) << id;
    EXPECT_EQ(*got, dense) << id;
  }
  ASSERT_EQ(want.count(1), 0u);
  EXPECT_EQ(t.find(1), nullptr);
  EXPECT_EQ(t.find(INT64_MIN + 5), nullptr);
  std::map<int64_t, uint32_t> seen;
  t.for_each([&](int64_t id, uint32_t dense) { EXPECT_TRUE(seen.emplace(id, dense).second) << id; });
  EXPECT_EQ(seen, want);
}

TEST(RangeDirectory, CountsTheSplittersAtOrBelowTheId) {
  const std::vector<int64_t> s = {-5, 10, 10, 20};
  EXPECT_EQ(ids::range_directory(s, INT64_MIN), 0u);
  EXPECT_EQ(ids::range_directory(s, -6), 0u);
  EXPECT_EQ(ids::range_directory(s, -5), 1u);
  EXPECT_EQ(ids::range_directory(s, 9), 1u);
  EXPECT_EQ(ids::range_directory(s, 10), 3u) << "a repeated splitter leaves directory 2 empty";
  EXPECT_EQ(ids::range_directory(s, 19), 3u);
  EXPECT_EQ(ids::range_directory(s, 20), 4u);
  EXPECT_EQ(ids::range_directory(s, INT64_MAX), 4u);
  EXPECT_EQ(ids::range_directory({}, 77), 0u) << "one node: one directory";
}

TEST(HashDirectory, StaysBelowP) {
  for (unsigned p = 1; p <= 7; ++p)
    for (int64_t id = -1000; id < 1000; id += 7) EXPECT_LT(ids::hash_directory(id, p), p);
}

// number(id): each distinct id's rank in order of first sight (the loader
// keeps a worker's edges as these numbers between its two passes), through
// growth and the reserved key.
TEST(IdTable, NumbersIdsInOrderOfFirstSight) {
  IdTable t;
  std::map<int64_t, uint32_t> want;
  for (uint32_t i = 0; i < 50000; ++i) {
    const int64_t id = i % 11 == 0 ? INT64_MIN : static_cast<int64_t>(mix(i % 17000));
    const uint32_t next = static_cast<uint32_t>(want.size());
    const uint32_t expected = want.emplace(id, next).first->second;
    ASSERT_EQ(t.number(id), expected) << "id " << id << " at step " << i;
  }
  EXPECT_EQ(t.size(), want.size());
  for (const auto& [id, n] : want) EXPECT_EQ(*t.find(id), n) << id;
}

TEST(BottomK, KeepsTheKSmallestSampleKeys) {
  IdTable t;
  std::vector<std::pair<uint64_t, int64_t>> all;
  for (int64_t i = 0; i < 20000; ++i) {
    const int64_t id = i * 1000003 + 7 - 5000000000;
    t.insert(id);
    all.emplace_back(ids::sample_key(id), id);
  }
  std::sort(all.begin(), all.end());
  for (size_t k : {size_t{0}, size_t{1}, size_t{100}, size_t{4096}}) {
    std::vector<int64_t> got = ids::bottom_k(t, k);
    std::vector<int64_t> want;
    for (size_t i = 0; i < k; ++i) want.push_back(all[i].second);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "k = " << k;
  }
  EXPECT_EQ(ids::bottom_k(t, 30000).size(), 20000u) << "k above the count: every id";
}

// The ids a "cluster" holds: `workers` parts that overlap (an id named by
// edges in several ranges), as the workers of P nodes would see them.
std::vector<IdTable> split_ids(const std::vector<int64_t>& ids, unsigned workers) {
  std::vector<IdTable> parts(workers);
  for (size_t i = 0; i < ids.size(); ++i) {
    parts[i % workers].insert(ids[i]);
    if (i % 5 == 0) parts[(i + 1) % workers].insert(ids[i]);  // repeats across workers
  }
  return parts;
}

// Every part's sample to every node, the splitters, the directories'
// sorted shares and their rank-order prefix: dense id of each id.
std::map<int64_t, uint32_t> number_like_the_loader(const std::vector<IdTable>& parts, unsigned nodes,
                                                   std::vector<size_t>* shares = nullptr) {
  std::vector<int64_t> samples;
  for (const IdTable& p : parts) {
    const std::vector<int64_t> s = ids::bottom_k(p, ids::kSample);
    samples.insert(samples.end(), s.begin(), s.end());
  }
  const std::vector<int64_t> splitters = ids::choose_splitters(samples, ids::kSample, nodes);
  EXPECT_EQ(splitters.size(), nodes > 1 && !samples.empty() ? nodes - 1 : 0u);
  EXPECT_TRUE(std::is_sorted(splitters.begin(), splitters.end()));
  std::vector<std::vector<int64_t>> dir(nodes);
  for (const IdTable& p : parts)
    p.for_each([&](int64_t id, uint32_t) { dir[ids::range_directory(splitters, id)].push_back(id); });
  std::map<int64_t, uint32_t> dense;
  uint32_t base = 0;
  for (unsigned r = 0; r < nodes; ++r) {
    std::sort(dir[r].begin(), dir[r].end());
    dir[r].erase(std::unique(dir[r].begin(), dir[r].end()), dir[r].end());
    for (size_t i = 0; i < dir[r].size(); ++i) dense.emplace(dir[r][i], base + static_cast<uint32_t>(i));
    base += static_cast<uint32_t>(dir[r].size());
    if (shares != nullptr) shares->push_back(dir[r].size());
  }
  return dense;
}

// The numbering is each id's rank among the distinct ids: the same whatever
// P, the workers and their overlaps.
TEST(SparseNumbering, IsTheRankOfTheIdForEveryPAndWorkerSplit) {
  std::vector<int64_t> ids = {INT64_MIN, -9000000000, -7, 0, 3, 4294967295, 4294967296, 9000000000, INT64_MAX};
  for (uint64_t i = 0; i < 30000; ++i) {
    const auto x = static_cast<int64_t>(mix(i) >> (1 + i % 40));  // every magnitude, both signs
    ids.push_back(i % 2 ? -x : x);
  }
  std::set<int64_t> distinct(ids.begin(), ids.end());
  std::map<int64_t, uint32_t> want;
  for (int64_t id : distinct) want.emplace(id, static_cast<uint32_t>(want.size()));
  for (unsigned nodes = 1; nodes <= 6; ++nodes)
    for (unsigned workers_per_node : {1u, 3u}) {
      SCOPED_TRACE("P = " + std::to_string(nodes) + ", W = " + std::to_string(workers_per_node));
      EXPECT_EQ(number_like_the_loader(split_ids(ids, nodes * workers_per_node), nodes), want);
    }
}

// Fewer distinct ids than nodes, and none at all.
TEST(SparseNumbering, FewIdsLeaveDirectoriesEmptyAndNoneGivesNoSplitters) {
  const std::vector<int64_t> two = {5, -5, 5};
  const std::map<int64_t, uint32_t> want = {{-5, 0}, {5, 1}};
  for (unsigned nodes = 1; nodes <= 5; ++nodes) EXPECT_EQ(number_like_the_loader(split_ids(two, nodes), nodes), want);
  EXPECT_TRUE(ids::choose_splitters({}, ids::kSample, 4).empty());
  EXPECT_TRUE(ids::choose_splitters({1, 2, 3}, ids::kSample, 1).empty());
}

// Each directory holds about V/P ids, also for ids in arithmetic progression
// (which a plain multiplicative hash or low-bit split would clump) and for
// clustered ids.
TEST(SparseNumbering, DirectoriesShareTheIdsEvenly) {
  const size_t v = 200000;
  std::vector<int64_t> progression, clustered;
  for (size_t i = 0; i < v; ++i) {
    progression.push_back(static_cast<int64_t>(i) * 1000003 + 7);
    clustered.push_back(i < v / 2 ? static_cast<int64_t>(i) : (int64_t{1} << 50) + static_cast<int64_t>(i) * 4096);
  }
  for (const auto* ids : {&progression, &clustered})
    for (unsigned nodes : {2u, 3u, 4u, 8u}) {
      std::vector<size_t> shares;
      number_like_the_loader(split_ids(*ids, nodes), nodes, &shares);
      for (size_t r = 0; r < shares.size(); ++r) {
        EXPECT_GT(shares[r], v / nodes * 8 / 10) << "P = " << nodes << ", directory " << r;
        EXPECT_LT(shares[r], v / nodes * 12 / 10) << "P = " << nodes << ", directory " << r;
      }
    }
}

// ---- reading 64-bit ids (--ids sparse) --------------------------------------

using Edge64 = std::tuple<int64_t, int64_t, Weight>;

std::vector<Edge64> sparse_range(const std::string& name, const std::string& bytes, GraphFormat f, uint64_t begin,
                                 uint64_t end) {
  MemoryBytes in(name, bytes);
  const reader::InputHeader h = reader::read_header(in, f);
  reader::SliceSpec sp;
  sp.begin = begin;
  sp.end = end;
  sp.first = begin == 0;
  sp.entries_before_known = sp.first;
  std::vector<Edge64> out;
  reader::parse_sparse_slice(in, h, sp, [&](int64_t s, int64_t d, Weight w) { out.emplace_back(s, d, w); });
  return out;
}

const char kSparseText[] =
    "# ids as written: negative, above 2^32, gaps\n"
    "-9000000000 4294967301 3\n"
    "4294967301,7 1\n"
    "\n"
    "% a comment\r\n"
    "7 -9000000000 2\r\n"
    "9223372036854775807 -9223372036854775808 5";

TEST(SparseSlices, TextIdsAreSigned64BitAndEveryCutReadsEachEdgeOnce) {
  const std::string text = kSparseText;
  const std::vector<Edge64> want = {{-9000000000, 4294967301, 3},
                                    {4294967301, 7, 1},
                                    {7, -9000000000, 2},
                                    {INT64_MAX, INT64_MIN, 5}};
  EXPECT_EQ(sparse_range("s.el", text, GraphFormat::kEdgeList, 0, text.size()), want);
  for (uint64_t cut = 0; cut <= text.size(); ++cut) {
    std::vector<Edge64> both = sparse_range("s.el", text, GraphFormat::kEdgeList, 0, cut);
    const std::vector<Edge64> second = sparse_range("s.el", text, GraphFormat::kEdgeList, cut, text.size());
    both.insert(both.end(), second.begin(), second.end());
    EXPECT_EQ(both, want) << "cut at byte " << cut;
  }
}

std::string error_of(const std::string& name, const std::string& text, GraphFormat f) {
  try {
    sparse_range(name, text, f, 0, text.size());
  } catch (const GraphError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SparseSlices, BadIdsNameTheFileLineFieldAndValue) {
  EXPECT_EQ(error_of("g.el", "1 2\n3 12x\n", GraphFormat::kEdgeList),
            "g.el:2: field 2 (dst): '12x' is not a vertex id (a signed 64-bit integer)");
  EXPECT_EQ(error_of("g.el", "# c\n9223372036854775808 1\n", GraphFormat::kEdgeList),
            "g.el:2: field 1 (src): '9223372036854775808' is out of the signed 64-bit range");
  EXPECT_EQ(error_of("g.el", "1 2\n1.5 2\n", GraphFormat::kEdgeList),
            "g.el:2: field 1 (src): '1.5' is not a vertex id (a signed 64-bit integer)");
  EXPECT_EQ(error_of("g.el", "1 2 -3\n", GraphFormat::kEdgeList).rfind("g.el:1: field 3 (weight): '-3' is negative: ", 0),
            0u);
  EXPECT_NE(error_of("g.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
                     GraphFormat::kMatrixMarket)
                .find("g.mtx: --ids sparse: a Matrix Market file declares"),
            std::string::npos);
}

// Binary records under --ids sparse: any uint32 is an id, 4294967295 too
// (the dense reader reserves it: V = max id + 1 would not fit).
TEST(SparseSlices, BinaryRecordsTakeEveryUint32) {
  const uint32_t words[] = {4294967295u, 0u, 7u, 4000000000u, 0u, 4294967295u};
  std::string bytes(reinterpret_cast<const char*>(words), sizeof words);
  const std::vector<Edge64> want = {{4294967295, 0, 1}, {7, 4000000000, 1}, {0, 4294967295, 1}};
  EXPECT_EQ(sparse_range("g.bin", bytes, GraphFormat::kBinary, 0, 3), want);
  MemoryBytes in("g.bin", bytes);
  const reader::InputHeader h = reader::read_header(in, GraphFormat::kBinary);
  EXPECT_THROW(reader::parse_slice(in, h, reader::slice_of(h, 0, 1), [](VertexId, VertexId, Weight) {}), GraphError);
}

TEST(SparseSlices, OnlyFormatsWithoutADeclaredVertexCountAreMapped) {
  for (GraphFormat f : {GraphFormat::kAuto, GraphFormat::kEdgeList, GraphFormat::kBinary, GraphFormat::kBinaryWeighted})
    EXPECT_EQ(why_ids_are_dense(f), nullptr) << graph_format_name(f);
  for (GraphFormat f : {GraphFormat::kMatrixMarket, GraphFormat::kDimacs, GraphFormat::kMetis})
    EXPECT_NE(why_ids_are_dense(f), nullptr) << graph_format_name(f);
}

}  // namespace
}  // namespace wg
