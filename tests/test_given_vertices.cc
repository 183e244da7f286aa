// --vertices N (docs/INPUT.md): the vertex count travels with the edges. An
// edge list or binary file names its vertices only through its edges; with
// N given its vertices are 0..N-1 (the highest ids may be isolated), an id
// >= N is refused naming the file, the line or byte offset, the field and
// the id, and a format that carries its own count (Matrix Market, DIMACS,
// METIS, kron:) must agree. Checked on the whole-file reader and on the
// slice parsers the loader runs (two slices, summed as the nodes sum them).
// Expected values are the hand-written files' own, never the reader's.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/graph/graph_reader.h"
#include "compute/graph/input_bytes.h"
#include "tests/gzip_bytes.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

using test::TempDir;
using test::gzip;

std::string write(const TempDir& dir, const std::string& name, const std::string& bytes) {
  const std::string path = dir.file(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Little-endian uint32 records, as wiregraph-convert writes them.
std::string records(const std::vector<std::vector<uint32_t>>& rows) {
  std::string out;
  for (const auto& row : rows)
    for (uint32_t v : row)
      for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>(v >> (8 * b)));
  return out;
}

struct Refusal {
  bool thrown = false;
  uint64_t line = 0;
  std::string what;
};
Refusal refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const GraphError& e) {
    return {true, e.line(), e.what()};
  }
  return {};
}

#define EXPECT_MENTIONS(text, ...)                                                           \
  for (const char* want_ : {__VA_ARGS__})                                                   \
  EXPECT_NE((text).find(want_), std::string::npos) << "does not mention \"" << want_ << "\": " << (text)

// Ids 0..4 named; 5..7 isolated under --vertices 8.
constexpr const char* kEdges = "# a comment\n0 1\n1 2\n2 0\n3 4\n";

TEST(GivenVertices, AnEdgeListKeepsItsIsolatedHighestIds) {
  TempDir dir;
  const std::string path = write(dir, "g.txt", kEdges);
  EXPECT_EQ(read_graph_file(path).num_vertices, 5u);  // the edges alone: 0..4
  const EdgeList g = read_graph_file(path, GraphFormat::kAuto, {}, 8);
  EXPECT_EQ(g.num_vertices, 8u);
  EXPECT_EQ(g.num_edges(), 4u);
  EXPECT_EQ(read_graph_file(path, GraphFormat::kAuto, {}, 5).num_vertices, 5u);  // exactly the named ids
}

TEST(GivenVertices, AnIdAtOrAboveNIsRefusedNamingLineFieldAndValue) {
  TempDir dir;
  const std::string path = write(dir, "g.txt", kEdges);
  const Refusal dst = refusal([&] { read_graph_file(path, GraphFormat::kAuto, {}, 4); });
  ASSERT_TRUE(dst.thrown);
  EXPECT_EQ(dst.line, 5u);  // "3 4", after the comment
  EXPECT_MENTIONS(dst.what, "g.txt", "field 2 (dst)", "vertex id 4", "--vertices 4", "0..3");
  const std::string src_path = write(dir, "s.txt", "0 1\n9 0\n");
  const Refusal src = refusal([&] { read_graph_file(src_path, GraphFormat::kAuto, {}, 3); });
  ASSERT_TRUE(src.thrown);
  EXPECT_EQ(src.line, 2u);
  EXPECT_MENTIONS(src.what, "field 1 (src)", "vertex id 9");
}

TEST(GivenVertices, BinaryFilesNameTheByteOffset) {
  TempDir dir;
  const std::string bin = write(dir, "g.bin", records({{0, 1}, {1, 2}, {2, 6}}));
  EXPECT_EQ(read_graph_file(bin, GraphFormat::kAuto, {}, 10).num_vertices, 10u);
  const Refusal r = refusal([&] { read_graph_file(bin, GraphFormat::kAuto, {}, 6); });
  ASSERT_TRUE(r.thrown);
  EXPECT_EQ(r.line, 0u);
  EXPECT_MENTIONS(r.what, "g.bin", "byte offset 16", "field 2 (dst)", "vertex id 6", "--vertices 6");
  const std::string wbin = write(dir, "g.wbin", records({{0, 1, 7}, {3, 1, 2}}));
  const EdgeList w = read_graph_file(wbin, GraphFormat::kAuto, {}, 5);
  EXPECT_EQ(w.num_vertices, 5u);
  EXPECT_EQ(w.edges[1].weight, 2u);
  const Refusal wr = refusal([&] { read_graph_file(wbin, GraphFormat::kAuto, {}, 3); });
  EXPECT_MENTIONS(wr.what, "byte offset 12", "field 1 (src)", "vertex id 3");
}

TEST(GivenVertices, CompressedFilesAsTheirPlainForm) {
  TempDir dir;
  const std::string gz = write(dir, "g.txt.gz", gzip(kEdges));
  EXPECT_EQ(read_graph_file(gz, GraphFormat::kAuto, {}, 8).num_vertices, 8u);
  const Refusal r = refusal([&] { read_graph_file(gz, GraphFormat::kAuto, {}, 2); });
  ASSERT_TRUE(r.thrown);
  EXPECT_EQ(r.line, 3u);  // "1 2", after the comment and "0 1"
  EXPECT_MENTIONS(r.what, "field 2 (dst)", "vertex id 2", "--vertices 2");
  const std::string bin_gz = write(dir, "g.bin.gz", gzip(records({{0, 1}, {4, 2}})));
  EXPECT_EQ(read_graph_file(bin_gz, GraphFormat::kAuto, {}, 9).num_vertices, 9u);
}

TEST(GivenVertices, FormatsWithTheirOwnCountMustAgree) {
  TempDir dir;
  const std::string mtx =
      write(dir, "g.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n8 8 2\n1 2\n2 3\n");
  EXPECT_EQ(read_graph_file(mtx, GraphFormat::kAuto, {}, 8).num_vertices, 8u);
  const Refusal m = refusal([&] { read_graph_file(mtx, GraphFormat::kAuto, {}, 9); });
  ASSERT_TRUE(m.thrown);
  EXPECT_EQ(m.line, 3u);  // the size line
  EXPECT_MENTIONS(m.what, "--vertices 9", "declares 8 vertices", "mtx");
  const std::string gr = write(dir, "g.gr", "p sp 4 1\na 1 2 5\n");
  EXPECT_EQ(read_graph_file(gr, GraphFormat::kAuto, {}, 4).num_vertices, 4u);
  EXPECT_MENTIONS(refusal([&] { read_graph_file(gr, GraphFormat::kAuto, {}, 3); }).what, "declares 4 vertices");
  const std::string metis = write(dir, "g.graph", "3 1\n2\n1\n\n");
  EXPECT_EQ(read_graph_file(metis, GraphFormat::kAuto, {}, 3).num_vertices, 3u);
  EXPECT_MENTIONS(refusal([&] { read_graph_file(metis, GraphFormat::kAuto, {}, 30); }).what, "declares 3 vertices");
  EXPECT_EQ(load_graph("kron:4:2", GraphFormat::kAuto, {}, 16).num_vertices, 16u);
  EXPECT_MENTIONS(refusal([&] { load_graph("kron:4:2", GraphFormat::kAuto, {}, 17); }).what, "--vertices 17",
                  "16 vertices");
}

TEST(GivenVertices, MoreThanThirtyTwoBitIdsAreRefused) {
  TempDir dir;
  const std::string path = write(dir, "g.txt", kEdges);
  EXPECT_MENTIONS(refusal([&] { read_graph_file(path, GraphFormat::kAuto, {}, kMaxGivenVertices + 1); }).what,
                  "--vertices 4294967296");
}

// The loader's path: each node parses its slice of the data and V comes from
// the totals summed over the slices (reader::check_totals).
TEST(GivenVertices, SlicesSumToTheGivenCountAndRefuseInTheirOwnSlice) {
  const std::string text = "0 1\n1 2\n2 3\n3 1\n";
  MemoryBytes in("g.txt", text);
  const reader::InputHeader h = reader::read_header(in, GraphFormat::kEdgeList, "", 10);
  EXPECT_TRUE(h.vertices_given);
  EXPECT_EQ(reader::declared_size(h).vertices, 0u);  // an edge list still declares no edges
  reader::SliceTotals all;
  for (unsigned i = 0; i < 2; ++i)
    all.add(reader::parse_slice(in, h, reader::slice_of(h, i, 2), [](VertexId, VertexId, Weight) {}));
  EXPECT_EQ(reader::check_totals("g.txt", h, all), 10u);

  const std::string last_beyond = "0 1\n1 2\n2 0\n3 1\n";  // only the second slice's line names 3
  MemoryBytes bad("g.txt", last_beyond);
  const reader::InputHeader h3 = reader::read_header(bad, GraphFormat::kEdgeList, "", 3);
  EXPECT_NO_THROW(reader::parse_slice(bad, h3, reader::slice_of(h3, 0, 2), [](VertexId, VertexId, Weight) {}));
  const Refusal r = refusal(
      [&] { reader::parse_slice(bad, h3, reader::slice_of(h3, 1, 2), [](VertexId, VertexId, Weight) {}); });
  ASSERT_TRUE(r.thrown);
  EXPECT_MENTIONS(r.what, "field 1 (src)", "vertex id 3", "--vertices 3");

  const std::string bin = records({{0, 1}, {7, 1}});
  MemoryBytes b("g.bin", bin);
  const reader::InputHeader hb = reader::read_header(b, GraphFormat::kBinary, "", 20);
  EXPECT_EQ(reader::declared_size(hb).vertices, 20u);  // the memory check knows V before loading
}

}  // namespace
}  // namespace wg
