// The sample a node takes of its input before loading (compute/graph/
// input_sample.h) and the --ids auto rule on it: the figures against the
// test's own count of the file's ids (std::set), the decision on the
// datasets and on files large enough to be sampled, dense and sparse.
#include "compute/graph/input_sample.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/graph/graph_reader.h"
#include "compute/graph/kronecker.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

std::string dataset(const std::string& name) {
  const char* dir = std::getenv("WG_DATASETS");
  return std::string(dir != nullptr ? dir : "../shared/datasets") + "/" + name;
}

InputSample sample_file(const std::string& path, uint64_t* bytes_read = nullptr) {
  FileBytes in(path);
  const reader::InputHeader h = reader::read_header(in, GraphFormat::kAuto);
  const InputSample s = sample_input(in, h);
  if (bytes_read != nullptr) *bytes_read = in.bytes_read();
  return s;
}

InputSample sample_text(const std::string& text, GraphFormat f = GraphFormat::kEdgeList) {
  MemoryBytes in("text", text);
  return sample_input(in, reader::read_header(in, f));
}

// The test's own count: distinct ids and the largest of a text edge list's
// first two fields ('#' and '%' lines skipped, blanks or commas between).
struct Truth {
  std::set<long long> ids;
  uint64_t lines = 0;
};
Truth count_ids(const std::string& path) {
  Truth t;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    for (char& c : line)
      if (c == ',') c = ' ';
    std::istringstream f(line);
    long long a, b;
    if (line.empty() || line[0] == '#' || line[0] == '%' || !(f >> a >> b)) continue;
    t.ids.insert(a);
    t.ids.insert(b);
    ++t.lines;
  }
  return t;
}

TEST(InputSample, SmallFilesAreReadWholeWithEveryId) {
  for (const char* name : {"ca-GrQc.csv", "wiki-Vote.txt", "email-Eu-core.csv", "soc-sign-bitcoinotc.csv"}) {
    SCOPED_TRACE(name);
    const Truth truth = count_ids(dataset(name));
    const InputSample s = sample_file(dataset(name));
    EXPECT_TRUE(s.whole);
    EXPECT_EQ(s.edges, truth.lines);
    EXPECT_EQ(s.distinct, truth.ids.size());
    EXPECT_EQ(s.largest, *truth.ids.rbegin());
    EXPECT_FALSE(s.beyond_dense);
    // The rule: the vertices are the ids the edges name; dense only when
    // they are every id 0..largest.
    const IdsVerdict v = judge_ids(s);
    EXPECT_EQ(v.estimated, truth.ids.size());
    EXPECT_EQ(v.unnamed, static_cast<uint64_t>(*truth.ids.rbegin()) + 1 - truth.ids.size());
    EXPECT_EQ(v.sparse, truth.ids.size() != static_cast<uint64_t>(*truth.ids.rbegin()) + 1);
  }
  const IdsVerdict grqc = judge_ids(sample_file(dataset("ca-GrQc.csv")));
  EXPECT_TRUE(grqc.sparse) << "5,242 of 26,197 ids";
  EXPECT_NE(grqc.why.find("the edges name 5,242 ids; 20,955 of 0..26,196 are named by no edge"), std::string::npos)
      << grqc.why;
  // wiki-Vote names 7,115 of 0..8,297 (86%): networkx's 7,115 nodes, not 8,298.
  const IdsVerdict wiki = judge_ids(sample_file(dataset("wiki-Vote.txt")));
  EXPECT_TRUE(wiki.sparse) << wiki.why;
  EXPECT_EQ(wiki.unnamed, 1183u);
  // email-Eu-core names every id 0..1,004: dense, no mapping.
  const IdsVerdict email = judge_ids(sample_file(dataset("email-Eu-core.csv")));
  EXPECT_FALSE(email.sparse) << email.why;
  EXPECT_NE(email.why.find("every id 0..1,004"), std::string::npos) << email.why;
}

// Files beyond the whole-file size are sampled in ranges, and a sample
// cannot show that every id 0..largest is named: they are mapped (sparse),
// whatever their ids (a Kronecker graph written as text or binary records
// names 71% of its ids at scale 16). The estimate stays near the truth and
// the sample reads little more than its ranges.
TEST(InputSample, LargeFilesAreSampledAndMapped) {
  const EdgeList g = generate_kronecker(parse_kronecker_spec("kron:16:16"));
  std::set<VertexId> named;
  for (const Edge& e : g.edges) named.insert({e.src, e.dst});
  ASSERT_GE(2 * named.size(), g.num_vertices) << "the premise: kron:16:16 names most of its ids";
  test::TempDir dir;
  const std::string text = dir.file("kron.el"), scaled = dir.file("scaled.el"), bin = dir.file("kron.bin");
  {
    std::FILE* t = std::fopen(text.c_str(), "w");
    std::FILE* s = std::fopen(scaled.c_str(), "w");
    std::FILE* b = std::fopen(bin.c_str(), "wb");
    for (const Edge& e : g.edges) {
      std::fprintf(t, "%u %u\n", e.src, e.dst);
      std::fprintf(s, "%llu %llu\n", 8ull * e.src + 1, 8ull * e.dst + 1);
      const uint32_t rec[2] = {e.src, e.dst};
      std::fwrite(rec, sizeof rec, 1, b);
    }
    std::fclose(t);
    std::fclose(s);
    std::fclose(b);
  }
  const uint64_t most = InputSample::kRanges * (InputSample::kRangeBytes + 4096);
  for (const std::string& path : {text, bin}) {
    SCOPED_TRACE(path);
    uint64_t read = 0;
    const InputSample s = sample_file(path, &read);
    EXPECT_FALSE(s.whole);
    EXPECT_LE(read, most);
    EXPECT_LT(s.distinct, named.size()) << "a sample sees some of the ids";
    EXPECT_EQ(s.first_source, int64_t{g.edges[0].src});
    const IdsVerdict v = judge_ids(s);
    EXPECT_TRUE(v.sparse) << v.why;
    EXPECT_GE(4 * v.estimated, 3 * named.size()) << v.why;
    EXPECT_LT(v.estimated, g.num_vertices) << v.why;
  }
  const IdsVerdict sparse = judge_ids(sample_file(scaled));
  EXPECT_TRUE(sparse.sparse) << sparse.why;
}

// --source's default: the first edge's source, as each format names it.
TEST(InputSample, TheFirstEdgesSourceIsFound) {
  EXPECT_EQ(sample_text("# c\n\n7 3\n1 2\n").first_source, 7);
  EXPECT_EQ(sample_text("src,dst\n-5,3\n").first_source, -5);
  EXPECT_EQ(sample_text("").first_source, -1);
  EXPECT_EQ(sample_text("%%MatrixMarket matrix coordinate pattern general\n% c\n4 4 2\n3 1\n1 2\n",
                        GraphFormat::kMatrixMarket)
                .first_source,
            3);
  EXPECT_EQ(sample_text("c x\np sp 4 2\na 2 1 5\na 1 2 5\n", GraphFormat::kDimacs).first_source, 2);
  // METIS: vertex 1 has no neighbour (a blank line), vertex 2 lists 3.
  EXPECT_EQ(sample_text("% c\n3 1\n\n3\n2\n", GraphFormat::kMetis).first_source, 2);
  // The datasets: wiki-Vote's first edge is 30 -> 1412, rome99's first arc 2958 -> 2959.
  EXPECT_EQ(sample_file(dataset("wiki-Vote.txt")).first_source, 30);
  EXPECT_EQ(sample_file(dataset("rome99.gr")).first_source, 2958);
}

// A first line whose fields are all names (no number) is a header: skipped,
// its names kept; a line with a number among them is data (refused where
// it is malformed).
TEST(InputSample, AFirstLineOfNamesIsAHeader) {
  {
    MemoryBytes in("t.csv", "source,target,weight\n0,1,2\n1,2,5\n");
    const reader::InputHeader h = reader::read_header(in, GraphFormat::kEdgeList);
    EXPECT_EQ(h.field_names, (std::vector<std::string>{"source", "target", "weight"}));
    EXPECT_EQ(h.names_line, 1u);
    EXPECT_EQ(h.data_start, 21u);
  }
  {
    MemoryBytes in("t.txt", "# SNAP\nFromNodeId\tToNodeId\n3 4\n");
    const reader::InputHeader h = reader::read_header(in, GraphFormat::kEdgeList);
    EXPECT_EQ(h.field_names, (std::vector<std::string>{"FromNodeId", "ToNodeId"}));
    EXPECT_EQ(h.names_line, 2u);
  }
  for (const char* data : {"0 1\n", "1 x\n", "a 1\n", "src\n0 1\n", "1e3 x\n"}) {
    MemoryBytes in("t.txt", data);
    EXPECT_TRUE(reader::read_header(in, GraphFormat::kEdgeList).field_names.empty()) << data;
  }
  // The whole file reads as the edges after the header.
  test::TempDir dir;
  const std::string path = dir.file("named.csv");
  std::FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("source,target,weight\n0,1,2\n1,2,5\n", f);
  std::fclose(f);
  const EdgeList g = read_graph_file(path);
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.edges[1].src, 1u);
  EXPECT_EQ(g.edges[1].dst, 2u);
  EXPECT_EQ(g.num_vertices, 3u);
  EXPECT_EQ(sample_text("source,target\n-5,3\n").first_source, -5);
}

TEST(InputSample, IdsThatDenseIdsCannotHoldMakeItSparse) {
  for (const char* text : {"0 1\n-3 5\n", "1 4294967295\n", "1 99999999999\n"}) {
    const InputSample s = sample_text(text);
    EXPECT_TRUE(s.beyond_dense) << text;
    EXPECT_TRUE(judge_ids(s).sparse) << text;
  }
  EXPECT_FALSE(sample_text("0 4294967294\n").beyond_dense);
}

// Lines the sample cannot read are skipped: the loader names them.
TEST(InputSample, MalformedLinesAreLeftToTheLoader) {
  const InputSample s = sample_text("# header\n0 1\nfoo bar\n2\n,,\n1 2 x\n");
  EXPECT_EQ(s.edges, 2u);
  EXPECT_EQ(s.distinct, 3u);
  EXPECT_EQ(s.weights, 0u);
}

TEST(InputSample, FractionalWeightsAreSeen) {
  EXPECT_FALSE(sample_text("0 1 1.0\n1 2 2\n2 0 3e0\n").fractional);
  EXPECT_EQ(sample_text("0 1 1.0\n1 2 2\n2 0 3e0\n").weights, 3u);
  const InputSample half = sample_text("0 1 2\n1 2 0.5\n2 0 0.25\n");
  EXPECT_TRUE(half.fractional);
  EXPECT_EQ(half.fractional_token, "0.5");
  EXPECT_TRUE(sample_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1.5\n",
                          GraphFormat::kMatrixMarket)
                  .fractional);
  EXPECT_FALSE(sample_text("p sp 2 1\na 1 2 7\n", GraphFormat::kDimacs).fractional);
  EXPECT_TRUE(sample_file(dataset("fixtures/lagraph/west0067.mtx")).fractional);
}

TEST(InputSample, CountsWithCommas) {
  EXPECT_EQ(with_commas(0), "0");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(5242), "5,242");
  EXPECT_EQ(with_commas(1048576), "1,048,576");
}

}  // namespace
}  // namespace wg
