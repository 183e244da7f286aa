// Graph input tests. Expected values come from hand-written files (written to
// a temp dir here) and from the counts in shared/datasets/SOURCES.md, never
// from the reader itself.
#include "compute/graph/graph_reader.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/graph_spec.h"
#include "tests/datasets.h"

namespace wg {
namespace {

using Triple = std::tuple<VertexId, VertexId, Weight>;

using test::dataset;

struct Caught {
  bool thrown = false;
  std::string file;
  uint64_t line = 0;
  std::string what;
};

Caught catch_graph_error(const std::function<void()>& f) {
  Caught c;
  try {
    f();
  } catch (const GraphError& e) {
    c = Caught{true, e.file(), e.line(), e.what()};
  }
  return c;
}

Caught read_error(const std::string& path, GraphFormat f = GraphFormat::kAuto) {
  return catch_graph_error([&] { read_graph_file(path, f); });
}

// Asserts a GraphError for PATH at LINE whose message names the file, the
// line and contains every string in NEEDLES.
void expect_error(const std::string& path, uint64_t line, const std::vector<std::string>& needles,
                  GraphFormat f = GraphFormat::kAuto) {
  SCOPED_TRACE(path);
  const Caught c = read_error(path, f);
  ASSERT_TRUE(c.thrown) << "expected a GraphError";
  EXPECT_EQ(c.file, path);
  EXPECT_EQ(c.line, line) << c.what;
  const std::string prefix = line == 0 ? path + ": " : path + ":" + std::to_string(line) + ": ";
  EXPECT_EQ(c.what.rfind(prefix, 0), 0u) << c.what;
  for (const std::string& n : needles) EXPECT_NE(c.what.find(n), std::string::npos) << "'" << n << "' not in: " << c.what;
}

std::vector<Triple> triples(const EdgeList& g) {
  std::vector<Triple> t;
  for (const Edge& e : g.edges) t.emplace_back(e.src, e.dst, e.weight);
  return t;
}

std::vector<std::pair<VertexId, VertexId>> sorted_pairs(const EdgeList& g) {
  std::vector<std::pair<VertexId, VertexId>> p;
  for (const Edge& e : g.edges) p.emplace_back(e.src, e.dst);
  std::sort(p.begin(), p.end());
  return p;
}

size_t self_loops(const EdgeList& g) {
  return std::count_if(g.edges.begin(), g.edges.end(), [](const Edge& e) { return e.src == e.dst; });
}

size_t distinct_ids(const EdgeList& g) {
  std::set<VertexId> ids;
  for (const Edge& e : g.edges) ids.insert({e.src, e.dst});
  return ids.size();
}

bool all_weights_one(const EdgeList& g) {
  return std::all_of(g.edges.begin(), g.edges.end(), [](const Edge& e) { return e.weight == 1; });
}

class ReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "wg_reader_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::string write_u32(const std::string& name, const std::vector<uint32_t>& words) {
    std::string bytes;
    for (uint32_t w : words)
      for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((w >> (8 * i)) & 0xff));
    return write(name, bytes);
  }

  std::string dir_;
};

// ---- GraphError and formats ------------------------------------------------

TEST(GraphErrorTest, MessageNamesFileAndLine) {
  const GraphError with_line("g.txt", 7, "bad token");
  EXPECT_STREQ(with_line.what(), "g.txt:7: bad token");
  EXPECT_EQ(with_line.file(), "g.txt");
  EXPECT_EQ(with_line.line(), 7u);
  EXPECT_STREQ(GraphError("g.bin", 0, "short").what(), "g.bin: short");
}

// --graph is parsed once: its kind, and the fields of that kind.
TEST(GraphSpecTest, KindsAndFields) {
  const GraphSpec kron = parse_graph_spec("kron:12:8:5", GraphFormat::kMetis);  // the generator ignores --format
  EXPECT_TRUE(kron.is_generator());
  EXPECT_EQ(kron.kron.scale, 12u);
  EXPECT_EQ(kron.kron.degree, 8u);
  EXPECT_EQ(kron.kron.seed, 5u);
  const GraphSpec snap = parse_graph_spec("snapshot:/tmp/s", GraphFormat::kAuto);
  EXPECT_TRUE(snap.is_snapshot());
  EXPECT_EQ(snap.snapshot_dir, "/tmp/s");
  EXPECT_TRUE(parse_graph_spec("g.properties", GraphFormat::kAuto).is_graphalytics());
  EXPECT_TRUE(parse_graph_spec("g.e", GraphFormat::kAuto).is_graphalytics());
  const GraphSpec forced = parse_graph_spec("g.e", GraphFormat::kBinary);  // --format: a file, not Graphalytics
  EXPECT_TRUE(forced.is_file());
  EXPECT_EQ(forced.format, GraphFormat::kBinary);
  EXPECT_EQ(parse_graph_spec("g.mtx.gz", GraphFormat::kAuto).format, GraphFormat::kMatrixMarket);
  EXPECT_THROW(parse_graph_spec("kron:x:8", GraphFormat::kAuto), GraphError);
  EXPECT_THROW(parse_graph_spec("snapshot:", GraphFormat::kAuto), GraphError);
}

TEST(GraphFormatTest, NamesRoundTrip) {
  for (GraphFormat f : {GraphFormat::kAuto, GraphFormat::kEdgeList, GraphFormat::kMatrixMarket, GraphFormat::kBinary,
                        GraphFormat::kBinaryWeighted, GraphFormat::kDimacs, GraphFormat::kMetis})
    EXPECT_EQ(parse_graph_format(graph_format_name(f)), f);
  EXPECT_EQ(parse_graph_format("edgelist"), GraphFormat::kEdgeList);
  EXPECT_EQ(parse_graph_format("dimacs"), GraphFormat::kDimacs);
  EXPECT_EQ(parse_graph_format("MTX"), GraphFormat::kMatrixMarket);
  const Caught c = catch_graph_error([] { parse_graph_format("chaco"); });
  ASSERT_TRUE(c.thrown);
  EXPECT_NE(c.what.find("chaco"), std::string::npos) << c.what;
}

TEST(GraphFormatTest, FromExtension) {
  EXPECT_EQ(format_from_extension("a/b.mtx"), GraphFormat::kMatrixMarket);
  EXPECT_EQ(format_from_extension("B.MTX"), GraphFormat::kMatrixMarket);
  EXPECT_EQ(format_from_extension("rome99.gr"), GraphFormat::kDimacs);
  EXPECT_EQ(format_from_extension("g.bin"), GraphFormat::kBinary);
  EXPECT_EQ(format_from_extension("g.el32"), GraphFormat::kBinary);
  EXPECT_EQ(format_from_extension("g.wbin"), GraphFormat::kBinaryWeighted);
  EXPECT_EQ(format_from_extension("g.wel32"), GraphFormat::kBinaryWeighted);
  EXPECT_EQ(format_from_extension("4elt.graph"), GraphFormat::kMetis);  // was read as an edge list (#14)
  for (const char* p : {"g.txt", "g.csv", "g.el", "g.wel", "g.tsv", "noext", "dir.mtx/g"})
    EXPECT_EQ(format_from_extension(p), GraphFormat::kEdgeList) << p;
}

// ---- text edge lists -------------------------------------------------------

TEST_F(ReaderTest, TextSeparatorsCommentsAndBlankLines) {
  const std::string p = write("g.txt",
                              "# SNAP header\n% also a comment\n\n0 1\n  2\t\t3  \n4,5\n6 , 7\r\n8,\t9\n   \n"
                              "\t# indented comment\n10 11");
  const EdgeList g = read_graph_file(p);
  EXPECT_FALSE(g.weighted);
  EXPECT_EQ(g.num_vertices, 12u);
  EXPECT_EQ(triples(g), (std::vector<Triple>{{0, 1, 1}, {2, 3, 1}, {4, 5, 1}, {6, 7, 1}, {8, 9, 1}, {10, 11, 1}}));
}

TEST_F(ReaderTest, TextCrlfAndMissingFinalNewline) {
  const EdgeList g = read_graph_file(write("g.el", "1 2\r\n3 4\r\n5 6"));
  EXPECT_EQ(triples(g), (std::vector<Triple>{{1, 2, 1}, {3, 4, 1}, {5, 6, 1}}));
  EXPECT_EQ(g.num_vertices, 7u);
}

TEST_F(ReaderTest, TextWeightsAcceptIntegralReals) {
  const EdgeList g = read_graph_file(write("g.wel", "0 1 5\n1 2 1.0\n2 0 3e0\n0 0 0\n3 3 4294967295\n"));
  EXPECT_TRUE(g.weighted);
  EXPECT_EQ(g.num_vertices, 4u);
  EXPECT_EQ(triples(g),
            (std::vector<Triple>{{0, 1, 5}, {1, 2, 1}, {2, 0, 3}, {0, 0, 0}, {3, 3, 4294967295u}}));
}

TEST_F(ReaderTest, TextExtraColumnsTakeWeightFromColumnThree) {
  // bitcoin-otc style: src,dst,rating,time; later columns are not parsed.
  const EdgeList g = read_graph_file(write("g.csv", "1,2,7,1289241912\r\n2,3,9,1289241911.72836\r\n"));
  EXPECT_TRUE(g.weighted);
  EXPECT_EQ(triples(g), (std::vector<Triple>{{1, 2, 7}, {2, 3, 9}}));
}

TEST_F(ReaderTest, TextMaxVertexId) {
  const EdgeList g = read_graph_file(write("g.txt", "4294967294 0\n"));
  EXPECT_EQ(g.num_vertices, 4294967295u);
}

TEST_F(ReaderTest, EmptyAndCommentOnlyFilesGiveEmptyGraph) {
  for (const char* content : {"", "# nothing\n\n", "\r\n"}) {
    const EdgeList g = read_graph_file(write("e.txt", content));
    EXPECT_EQ(g.num_vertices, 0u);
    EXPECT_EQ(g.num_edges(), 0u);
    EXPECT_FALSE(g.weighted);
  }
}

TEST_F(ReaderTest, TextErrorsNameFileLineFieldAndToken) {
  struct Case {
    const char* content;
    uint64_t line;
    std::vector<std::string> needles;
  };
  const std::vector<Case> cases = {
      {"0 1\n-3 4\n", 2, {"field 1", "'-3'", "negative"}},
      {"0 1\n1 abc\n", 2, {"field 2", "'abc'", "not a vertex id"}},
      {"1.5 2\n", 1, {"'1.5'", "not a vertex id"}},
      {"0 4294967295\n", 1, {"'4294967295'", "too large"}},
      {"# c\n99999999999999999999999 1\n", 2, {"'99999999999999999999999'", "too large"}},
      {"0 1 -10\n", 1, {"field 3", "'-10'", "negative"}},
      {"0 1 2.5\n", 1, {"'2.5'", "not an integer"}},
      {"0 1 4294967296\n", 1, {"'4294967296'", "too large"}},
      {"0 1 1e400\n", 1, {"'1e400'", "out of range"}},
      {"0 1 nan\n", 1, {"'nan'"}},
      {"0 1 inf\n", 1, {"'inf'"}},
      {"0 1 x7\n", 1, {"'x7'", "not a number"}},
      {"0 1\n1 2\n2 3 4\n", 3, {"inconsistent column count", "3 fields", "line 1 has 2"}},
      {"\n0 1 1\n\n1 2\n", 4, {"inconsistent column count", "line 2 has 3"}},
      {"0 1\n5\n", 2, {"1 field", "'5'"}},
      {"0,,1\n", 1, {"empty field"}},
      {"0,1,\n", 1, {"trailing comma"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.content);
    expect_error(write("bad.txt", c.content), c.line, c.needles);
  }
}

TEST_F(ReaderTest, MissingFileAndDirectory) {
  const std::string missing = dir_ + "/no-such-file.txt";
  expect_error(missing, 0, {"No such file or directory"});
  expect_error(dir_, 0, {"directory"});
}

// ---- real text files (counts from SOURCES.md) ------------------------------

TEST(RealFiles, WikiVoteCrlfTabs) {
  const EdgeList g = read_graph_file(dataset("wiki-Vote.txt"));
  EXPECT_EQ(g.num_edges(), 103689u);
  EXPECT_EQ(g.num_vertices, 8298u);  // max id 8297
  EXPECT_EQ(distinct_ids(g), 7115u);
  EXPECT_FALSE(g.weighted);
  EXPECT_EQ(triples(g).front(), Triple(30, 1412, 1));
  EXPECT_EQ(triples(g).back(), Triple(8274, 8275, 1));
  EXPECT_EQ(self_loops(g), 0u);
}

TEST(RealFiles, EmailEuCoreNominalWeights) {
  const EdgeList g = read_graph_file(dataset("email-Eu-core.csv"));
  EXPECT_EQ(g.num_edges(), 25571u);
  EXPECT_EQ(g.num_vertices, 1005u);
  EXPECT_TRUE(g.weighted);  // it has a weight column, all "1.0"
  EXPECT_TRUE(all_weights_one(g));
  EXPECT_EQ(self_loops(g), 642u);
}

TEST(RealFiles, CaGrQcCrlfWithoutFinalNewline) {
  const EdgeList g = read_graph_file(dataset("ca-GrQc.csv"));
  EXPECT_EQ(g.num_edges(), 28734u);
  EXPECT_EQ(g.num_vertices, 26197u);
  EXPECT_EQ(distinct_ids(g), 5242u);
  EXPECT_EQ(self_loops(g), 12u);
  EXPECT_EQ(triples(g).back(), Triple(5232, 14845, 1));  // the unterminated last line
}

TEST(RealFiles, CugraphFixtures) {
  const EdgeList d = read_graph_file(dataset("fixtures/cugraph/dolphins_multi_edge.csv"));
  EXPECT_EQ(d.num_edges(), 325u);
  EXPECT_EQ(d.num_vertices, 62u);
  EXPECT_TRUE(all_weights_one(d));
  const EdgeList k = read_graph_file(dataset("fixtures/cugraph/karate_s_loop.csv"));
  EXPECT_EQ(k.num_edges(), 160u);
  EXPECT_EQ(k.num_vertices, 34u);
  EXPECT_EQ(self_loops(k), 4u);
}

TEST(RealFiles, BitcoinNegativeRatingIsAnError) {
  // First negative rating: line 597 "104,179,-1,1300756036".
  expect_error(dataset("soc-sign-bitcoinotc.csv"), 597, {"field 3", "'-1'", "negative"});
}

TEST(RealFiles, LuxembourgWithoutBannerNeedsEdgelistFormat) {
  const std::string p = dataset("luxembourg_osm.mtx");
  expect_error(p, 1, {"%%MatrixMarket", "--format edgelist"});
  const EdgeList g = read_graph_file(p, GraphFormat::kEdgeList);
  EXPECT_EQ(g.num_edges(), 119666u);
  EXPECT_EQ(g.num_vertices, 114600u);  // 1-based ids kept as-is: vertex 0 is unused
  EXPECT_TRUE(std::all_of(g.edges.begin(), g.edges.end(), [](const Edge& e) { return e.src > e.dst; }));
}

// ---- GAP's graph "4" in four formats ----------------------------------------

TEST(GapbsFour, AllFormatsAgree) {
  const EdgeList el = read_graph_file(dataset("fixtures/gapbs/4.el"));
  const EdgeList wel = read_graph_file(dataset("fixtures/gapbs/4.wel"));
  const EdgeList gr = read_graph_file(dataset("fixtures/gapbs/4.gr"));
  const EdgeList mtx = read_graph_file(dataset("fixtures/gapbs/4.mtx"));
  for (const EdgeList* g : {&el, &wel, &gr, &mtx}) {
    EXPECT_EQ(g->num_edges(), 256u);
    EXPECT_EQ(g->num_vertices, 14u);  // ids 0..13 (DIMACS/MTX declare 14)
    EXPECT_EQ(self_loops(*g), 36u);
  }
  EXPECT_FALSE(el.weighted);
  EXPECT_FALSE(mtx.weighted);
  EXPECT_TRUE(wel.weighted);
  EXPECT_TRUE(gr.weighted);
  EXPECT_EQ(triples(el).front(), Triple(0, 13, 1));
  EXPECT_EQ(triples(wel).front(), Triple(0, 13, 92));
  EXPECT_EQ(triples(gr).front(), Triple(0, 13, 92));  // "a 1 14 92"
  EXPECT_EQ(sorted_pairs(el), sorted_pairs(mtx));     // MTX (row, col) is the arc row -> col
  std::vector<Triple> a = triples(wel), b = triples(gr);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
  const auto [lo, hi] = std::minmax_element(wel.edges.begin(), wel.edges.end(),
                                            [](const Edge& x, const Edge& y) { return x.weight < y.weight; });
  EXPECT_EQ(lo->weight, 1u);
  EXPECT_EQ(hi->weight, 254u);
}

// ---- Matrix Market ---------------------------------------------------------

TEST(MatrixMarketFiles, KarateSymmetricPatternBothCopies) {
  for (const char* rel : {"fixtures/cugraph/karate.mtx", "fixtures/lagraph/karate.mtx"}) {
    SCOPED_TRACE(rel);
    const EdgeList g = read_graph_file(dataset(rel));
    EXPECT_EQ(g.num_edges(), 156u);  // 78 lower-triangle entries, both directions
    EXPECT_EQ(g.num_vertices, 34u);
    EXPECT_FALSE(g.weighted);
    EXPECT_EQ(self_loops(g), 0u);
    EXPECT_EQ(triples(g)[0], Triple(1, 0, 1));  // first entry "2 1"
    EXPECT_EQ(triples(g)[1], Triple(0, 1, 1));
    auto fwd = sorted_pairs(g);
    EdgeList rev = g;
    for (Edge& e : rev.edges) std::swap(e.src, e.dst);
    EXPECT_EQ(fwd, sorted_pairs(rev));
  }
}

TEST(MatrixMarketFiles, West0067RealValuesAreRejected) {
  // "real general" with values such as -.2788416: negative and non-integral,
  // neither of which is a wiregraph weight. The first entry is line 15.
  expect_error(dataset("fixtures/lagraph/west0067.mtx"), 15, {"'-.2788416'", "negative"});
}

// Every LAGraph mangled*.mtx: rejected at the first problem our reader sees,
// or accepted where the defect is specific to GraphBLAS types (a %%GraphBLAS
// line is just a comment to us, and weights are uint32).
TEST(MatrixMarketFiles, LagraphMangled) {
  struct Case {
    const char* file;
    uint64_t line;
    std::vector<std::string> needles;
  };
  const std::vector<Case> rejected = {
      {"mangled1.mtx", 1, {"object", "'mangled'"}},
      {"mangled2.mtx", 1, {"format", "'mangled'"}},
      {"mangled3.mtx", 1, {"field", "'mangled'"}},
      {"mangled4.mtx", 1, {"symmetry", "'mangled'"}},
      {"mangled5.mtx", 1, {"unsupported", "'hermitian'"}},
      {"mangled6.mtx", 1, {"unsupported", "'hermitian'"}},
      {"mangled7.mtx", 5, {"'row col value'", "found 2 fields"}},
      {"mangled8.mtx", 4, {"size line", "found 1 field"}},
      {"mangled9.mtx", 4, {"square", "3 x 4"}},
      // 10, 13 and 14 target an early EOF, an out-of-range index and a
      // duplicate, but each first has the non-integral value 3.4; the
      // intended defects are covered by MatrixMarketHand below.
      {"mangled10.mtx", 6, {"'3.4'", "not an integer"}},
      {"mangled11.mtx", 5, {"column index", "'zero'"}},
      {"mangled12.mtx", 5, {"'row col value'", "found 2 fields"}},
      {"mangled13.mtx", 6, {"'3.4'", "not an integer"}},
      {"mangled14.mtx", 7, {"'3.4'", "not an integer"}},
      {"mangled15.mtx", 1, {"'array'", "unsupported"}},
      {"mangled16.mtx", 1, {"'array'", "unsupported"}},
      {"mangled_format.mtx", 1, {"'array'", "unsupported"}},
      {"mangled_int8.mtx", 8, {"'-129'", "negative"}},
      {"mangled_int16.mtx", 8, {"'-32769'", "negative"}},
      {"mangled_int32.mtx", 8, {"'-2147483649'", "negative"}},
      {"mangled_uint32.mtx", 9, {"'4294967296'", "too large"}},
      {"mangled_skew.mtx", 1, {"unsupported", "'skew-symmetric'"}},
  };
  for (const Case& c : rejected) expect_error(dataset(std::string("fixtures/lagraph/") + c.file), c.line, c.needles);

  // Accepted: "7 7 12" integer general; line 9 ("1 2 V") carries the value
  // that overflows the GraphBLAS type but is a fine uint32 weight.
  const std::vector<std::pair<const char*, Weight>> accepted = {
      {"mangled_bool.mtx", 1}, {"mangled_uint8.mtx", 256}, {"mangled_uint16.mtx", 65536}};
  for (const auto& [file, w12] : accepted) {
    SCOPED_TRACE(file);
    const EdgeList g = read_graph_file(dataset(std::string("fixtures/lagraph/") + file));
    EXPECT_EQ(g.num_edges(), 12u);
    EXPECT_EQ(g.num_vertices, 7u);
    EXPECT_TRUE(g.weighted);
    EXPECT_EQ(triples(g)[1], Triple(0, 1, w12));
    EXPECT_EQ(triples(g).back(), Triple(1, 6, std::string(file) == "mangled_bool.mtx" ? 1 : 8));
  }
  const EdgeList b = read_graph_file(dataset("fixtures/lagraph/mangled_bool.mtx"));
  EXPECT_EQ(triples(b)[0], Triple(3, 0, 0));  // weight 0 is allowed
  EXPECT_EQ(triples(b)[2], Triple(3, 2, 2));
}

TEST_F(ReaderTest, MatrixMarketHandWritten) {
  const std::string ok = write("s.mtx",
                               "%%MATRIXMARKET Matrix COORDINATE Integer SYMMETRIC\n%%GraphBLAS type uint8_t\n"
                               "% comment\n\n3 3 3\n2 1 5\n3 3 7\n% comment between entries\n3 1 1.0\n");
  const EdgeList g = read_graph_file(ok);
  EXPECT_TRUE(g.weighted);
  EXPECT_EQ(g.num_vertices, 3u);
  EXPECT_EQ(triples(g), (std::vector<Triple>{{1, 0, 5}, {0, 1, 5}, {2, 2, 7}, {2, 0, 1}, {0, 2, 1}}));

  // Non-square general: V = max(rows, cols); CRLF and no final newline.
  const EdgeList r = read_graph_file(write("r.mtx", "%%MatrixMarket matrix coordinate pattern general\r\n2 5 1\r\n1 5"));
  EXPECT_EQ(r.num_vertices, 5u);
  EXPECT_EQ(triples(r), (std::vector<Triple>{{0, 4, 1}}));

  const EdgeList e0 = read_graph_file(write("e0.mtx", "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n"));
  EXPECT_EQ(e0.num_vertices, 0u);
  const EdgeList e5 = read_graph_file(write("e5.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 0\n"));
  EXPECT_EQ(e5.num_vertices, 5u);
  EXPECT_EQ(e5.num_edges(), 0u);

  // Duplicates (mangled14's intent) are kept as parallel edges.
  const std::string ig = "%%MatrixMarket matrix coordinate integer general\n3 4 3\n";
  const EdgeList d = read_graph_file(write("d.mtx", ig + "1 1 3\n2 2 3\n2 2 7\n"));
  EXPECT_EQ(triples(d), (std::vector<Triple>{{0, 0, 3}, {1, 1, 3}, {1, 1, 7}}));
  EXPECT_EQ(d.num_vertices, 4u);

  // --format mtx overrides the extension.
  EXPECT_EQ(read_graph_file(write("m.txt", ig + "1 1 3\n2 2 3\n3 4 1\n"), GraphFormat::kMatrixMarket).num_edges(), 3u);
}

TEST_F(ReaderTest, MatrixMarketHandWrittenErrors) {
  const std::string ig = "%%MatrixMarket matrix coordinate integer general\n3 4 3\n";
  const std::string pg = "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n";
  // A count that the data contradicts is named at the line that declares it.
  expect_error(write("eof.mtx", ig + "1 1 3\n2 2 3\n"), 2, {"ends after 2 of the 3 entries", "line 2"});
  expect_error(write("range.mtx", ig + "1 1 3\n2 2 3\n3 9999 3\n"), 5, {"column index 9999", "1..4"});
  expect_error(write("row0.mtx", ig + "0 1 3\n"), 3, {"row index 0", "1..3"});
  expect_error(write("extra.mtx", pg + "1 1\n2 2\n"), 4, {"more entries than the 1 declared on line 2"});
  expect_error(write("pv.mtx", pg + "1 1 1\n"), 3, {"'row col'", "found 3 fields"});
  expect_error(write("neg.mtx", ig + "1 -2 3\n"), 3, {"column index", "'-2'", "negative"});
  expect_error(write("size4.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1 1\n1 1\n"), 2,
               {"size line", "found 4 fields"});
  expect_error(write("sizebad.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 x 1\n"), 2,
               {"columns", "'x'"});
  expect_error(write("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n"), 1,
               {"'complex'", "unsupported"});
  expect_error(write("short.mtx", "%%MatrixMarket matrix coordinate\n1 1 1\n"), 1, {"incomplete"});
  expect_error(write("nosize.mtx", "%%MatrixMarket matrix coordinate pattern general\n% only comments\n"), 2,
               {"missing size line"});
  expect_error(write("empty.mtx", ""), 1, {"empty file", "%%MatrixMarket"});
  expect_error(write("nobanner.mtx", "1 2\n2 3\n"), 1, {"missing '%%MatrixMarket' banner", "--format edgelist"});
  expect_error(write("m.txt", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 2.5\n"), 3, {"'2.5'"},
               GraphFormat::kMatrixMarket);
}

// ---- METIS .graph -------------------------------------------------------------

// A 4-cycle 1-2-3-4-1 as METIS writes it: every edge from both ends. Read as an
// edge list it would be a different graph (the header a bogus edge 4 -> 4).
TEST_F(ReaderTest, MetisFourCycleAndAnIsolatedVertex) {
  const EdgeList g = read_graph_file(write("c.graph", "% a 4-cycle and vertex 5 alone\n5 4\n2 4\n1 3\n2 4\n1 3\n\n"));
  EXPECT_EQ(g.num_vertices, 5u);
  EXPECT_FALSE(g.weighted);
  EXPECT_EQ(sorted_pairs(g), (std::vector<std::pair<VertexId, VertexId>>{
                                 {0, 1}, {0, 3}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 0}, {3, 2}}));
}

TEST_F(ReaderTest, MetisWeightsAndVertexFields) {
  // fmt 1: edge weights after each neighbour.
  const EdgeList w = read_graph_file(write("w.graph", "3 2 1\n2 7\n1 7 3 9\n2 9\n"));
  EXPECT_TRUE(w.weighted);
  EXPECT_EQ(triples(w), (std::vector<Triple>{{0, 1, 7}, {1, 0, 7}, {1, 2, 9}, {2, 1, 9}}));
  // fmt 111, ncon 2: a size and two vertex weights lead every line, then (neighbour, weight) pairs.
  const EdgeList v = read_graph_file(write("v.graph", "2 1 111 2\n5 1 1 2 4\n6 2 2 1 4\n"));
  EXPECT_EQ(triples(v), (std::vector<Triple>{{0, 1, 4}, {1, 0, 4}}));
  EXPECT_EQ(parse_graph_format("metis"), GraphFormat::kMetis);
}

TEST_F(ReaderTest, MetisErrorsNameTheLine) {
  expect_error(write("few.graph", "3 2\n2\n1 3\n"), 0, {"declares 3 vertices", "2 vertex lines"});
  expect_error(write("many.graph", "2 1\n2\n1\n1\n"), 4, {"more vertex lines than the 2"});
  expect_error(write("range.graph", "2 1\n3\n1\n"), 2, {"neighbour 3", "1..2"});
  expect_error(write("count.graph", "2 5\n2\n1\n"), 1, {"declares 5 edges", "lists 2"});
  expect_error(write("nowt.graph", "2 1 1\n2\n1 3\n"), 2, {"without its edge weight"});
  expect_error(write("fmt.graph", "2 1 2\n2\n1\n"), 1, {"format '2'"});
  expect_error(write("hdr.graph", "% only a comment\n"), 0, {"no METIS header"});
}

TEST(MetisFiles, DatasetsLoadWithEveryEdgeTwice) {
  for (const auto& [file, n, m] : {std::tuple{"4elt.graph", 15606u, 45878u}, std::tuple{"copter2.graph", 55476u, 352238u},
                                   std::tuple{"metis-mesh-dual.graph", 7434u, 43031u}}) {
    SCOPED_TRACE(file);
    const EdgeList g = read_graph_file(dataset(file));
    EXPECT_EQ(g.num_vertices, n);
    EXPECT_EQ(g.num_edges(), 2ull * m);
    std::vector<std::pair<VertexId, VertexId>> fwd = sorted_pairs(g), rev;
    for (const auto& [a, b] : fwd) rev.push_back({b, a});
    std::sort(rev.begin(), rev.end());
    EXPECT_EQ(fwd, rev) << "every edge is listed from both ends";
  }
}

// ---- DIMACS ------------------------------------------------------------------

TEST(DimacsFiles, Rome99) {
  const EdgeList g = read_graph_file(dataset("rome99.gr"));
  EXPECT_EQ(g.num_edges(), 8870u);
  EXPECT_EQ(g.num_vertices, 3353u);
  EXPECT_TRUE(g.weighted);
  EXPECT_EQ(triples(g).front(), Triple(2957, 2958, 535));  // "a 2958 2959 535"
  EXPECT_EQ(triples(g).back(), Triple(1373, 3352, 211));   // "a 1374 3353 211"
  const auto [lo, hi] = std::minmax_element(g.edges.begin(), g.edges.end(),
                                            [](const Edge& x, const Edge& y) { return x.weight < y.weight; });
  EXPECT_EQ(lo->weight, 1u);
  EXPECT_EQ(hi->weight, 12711u);
}

TEST_F(ReaderTest, DimacsDeclaredVerticesAndErrors) {
  const EdgeList g = read_graph_file(write("g.gr", "c tiny\np sp 5 2\nc mid\n\na 1 2 3\r\na 2 1 0"));
  EXPECT_EQ(g.num_vertices, 5u);  // vertices 2..4 are isolated but exist
  EXPECT_TRUE(g.weighted);
  EXPECT_EQ(triples(g), (std::vector<Triple>{{0, 1, 3}, {1, 0, 0}}));

  expect_error(write("a.gr", "c x\na 1 2 3\np sp 2 1\n"), 2, {"before the 'p sp"});
  expect_error(write("few.gr", "p sp 3 3\na 1 2 1\na 2 3 1\n"), 1, {"declares 3 arcs", "has 2"});
  expect_error(write("many.gr", "p sp 3 1\na 1 2 1\na 2 3 1\n"), 3, {"more arcs than the 1 declared on line 1"});
  expect_error(write("zero.gr", "p sp 3 1\na 0 2 1\n"), 2, {"arc source 0", "1..3"});
  expect_error(write("big.gr", "p sp 3 1\na 1 4 1\n"), 2, {"arc target 4", "1..3"});
  expect_error(write("negw.gr", "p sp 3 1\na 1 2 -5\n"), 2, {"'-5'", "negative"});
  expect_error(write("realw.gr", "p sp 3 1\na 1 2 0.5\n"), 2, {"'0.5'", "not an integer"});
  expect_error(write("tok.gr", "p sp 3 1\na 1 two 5\n"), 2, {"'two'"});
  expect_error(write("type.gr", "p sp 3 1\ne 1 2\n"), 2, {"line type 'e'"});
  expect_error(write("p2.gr", "p sp 3 0\np sp 3 0\n"), 2, {"second 'p' line", "line 1"});
  expect_error(write("max.gr", "p max 3 1\n"), 1, {"'p sp NODES ARCS'"});
  expect_error(write("arcs.gr", "p sp 3 1\na 1 2\n"), 2, {"'a SRC DST WEIGHT'"});
  expect_error(write("none.gr", "c nothing here\n"), 0, {"missing 'p sp"});
}

// ---- binary ------------------------------------------------------------------

TEST_F(ReaderTest, BinaryEdgeLists) {
  const std::vector<uint32_t> pairs = {0, 1, 5, 2, 3, 3, 0x01020304, 7};
  for (const char* name : {"g.bin", "g.el32"}) {
    const EdgeList g = read_graph_file(write_u32(name, pairs));
    EXPECT_FALSE(g.weighted);
    EXPECT_EQ(g.num_vertices, 0x01020305u);
    EXPECT_EQ(triples(g), (std::vector<Triple>{{0, 1, 1}, {5, 2, 1}, {3, 3, 1}, {0x01020304, 7, 1}}));
  }
  for (const char* name : {"g.wbin", "g.wel32"}) {
    const EdgeList g = read_graph_file(write_u32(name, {0, 1, 7, 2, 3, 4294967295u}));
    EXPECT_TRUE(g.weighted);
    EXPECT_EQ(g.num_vertices, 4u);
    EXPECT_EQ(triples(g), (std::vector<Triple>{{0, 1, 7}, {2, 3, 4294967295u}}));
  }
  // --format overrides the extension.
  EXPECT_EQ(read_graph_file(write_u32("g.dat", {4, 9}), GraphFormat::kBinary).num_vertices, 10u);
  const EdgeList e = read_graph_file(write("e.bin", ""));
  EXPECT_EQ(e.num_vertices, 0u);
  EXPECT_EQ(e.num_edges(), 0u);
}

TEST_F(ReaderTest, BinaryErrors) {
  expect_error(write_u32("odd.bin", {0, 1, 2}), 0, {"12 bytes", "8-byte record"});
  expect_error(write_u32("odd.wbin", {0, 1}), 0, {"8 bytes", "12-byte record"});
  expect_error(write("odd.dat", "abcde"), 0, {"5 bytes"}, GraphFormat::kBinary);
  expect_error(write_u32("max.bin", {0, 1, 2, 0xFFFFFFFFu}), 0, {"byte offset 8", "4294967295"});
}

// ---- load_graph ----------------------------------------------------------------

TEST_F(ReaderTest, LoadGraphDispatches) {
  const EdgeList k = load_graph("kron:4:2:7");
  EXPECT_EQ(k.num_vertices, 16u);
  EXPECT_EQ(k.num_edges(), 32u);
  EXPECT_EQ(triples(load_graph(write("g.txt", "1 2\n"))), (std::vector<Triple>{{1, 2, 1}}));
  EXPECT_EQ(load_graph(write_u32("g.raw", {1, 2}), GraphFormat::kBinary).num_vertices, 3u);
  const Caught c = catch_graph_error([] { load_graph("kron:4"); });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.file, "kron:4");
  const std::string missing = dir_ + "/kron.txt";
  EXPECT_TRUE(catch_graph_error([&] { load_graph(missing); }).thrown);
}

// ---- add_reverse_edges and fingerprint ------------------------------------------

TEST(EdgeListOps, AddReverseEdgesSkipsLoopsAndKeepsWeights) {
  EdgeList g;
  g.num_vertices = 4;
  g.weighted = true;
  g.edges = {{0, 1, 5}, {1, 1, 2}, {2, 0, 3}};
  add_reverse_edges(g);
  EXPECT_EQ(g.num_vertices, 4u);
  EXPECT_EQ(triples(g), (std::vector<Triple>{{0, 1, 5}, {1, 1, 2}, {2, 0, 3}, {1, 0, 5}, {0, 2, 3}}));
}

TEST(EdgeListOps, FingerprintIsOrderIndependentButContentSensitive) {
  EdgeList g;
  g.num_vertices = 10;
  for (VertexId i = 0; i < 9; ++i) g.edges.push_back(Edge{i, static_cast<VertexId>(9 - i), i + 1});
  const uint64_t base = fingerprint(g);

  EdgeList shuffled = g;
  std::reverse(shuffled.edges.begin(), shuffled.edges.end());
  std::swap(shuffled.edges[0], shuffled.edges[4]);
  EXPECT_EQ(fingerprint(shuffled), base);

  EdgeList w = g;
  w.edges[3].weight += 1;
  EXPECT_NE(fingerprint(w), base);
  EdgeList flipped = g;
  std::swap(flipped.edges[2].src, flipped.edges[2].dst);
  EXPECT_NE(fingerprint(flipped), base);
  EdgeList more_vertices = g;
  more_vertices.num_vertices = 11;
  EXPECT_NE(fingerprint(more_vertices), base);
  EdgeList dropped = g;
  dropped.edges.pop_back();
  EXPECT_NE(fingerprint(dropped), base);
  EdgeList duplicated = g;
  duplicated.edges.push_back(g.edges[0]);
  EXPECT_NE(fingerprint(duplicated), base);
}

TEST(EdgeListOps, FingerprintAgreesAcrossFormats) {
  // 4.wel and 4.gr hold the same weighted arcs (as a multiset) and the same V.
  EXPECT_EQ(fingerprint(read_graph_file(dataset("fixtures/gapbs/4.wel"))),
            fingerprint(read_graph_file(dataset("fixtures/gapbs/4.gr"))));
}

}  // namespace
}  // namespace wg

// ---- bounds applied before allocating (LoadLimits) ---------------------------

namespace wg {
namespace {

// What a SizeCheck saw, and a refusal thrown from it (as the node's memory
// check does) before the edges are reserved.
struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<DeclaredSize> declared_sizes(const std::string& spec, bool refuse) {
  std::vector<DeclaredSize> seen;
  LoadLimits limits;
  limits.check = [&](const DeclaredSize& d) {
    seen.push_back(d);
    if (refuse) throw Refused(d.what);
  };
  try {
    load_graph(spec, GraphFormat::kAuto, limits);
  } catch (const Refused&) {
  }
  return seen;
}

TEST_F(ReaderTest, DeclaredSizesAreCheckedBeforeTheEdgesAreRead) {
  // Every file's body is malformed after its header: a refusal from the check
  // must come first, so nothing past the header is parsed (or allocated).
  const std::string mtx = write("h.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                         "4294967295 4294967295 7\nnot an entry\n");
  const std::string gr = write("h.gr", "c x\np sp 4294967295 12\nnot an arc\n");
  const std::string metis = write("h.graph", "% x\n4294967294 9 1\nnot a vertex line\n");
  const std::string bin = write_u32("h.bin", {0, 1, 2, 3, 4, 5});
  const std::string el = write("h.el", "# one\n0 1\n1 2\n");
  struct Want {
    std::string spec;
    uint64_t vertices, edges;
    std::string what;
  };
  for (const Want& w : {Want{mtx, 4294967295u, 14, "the size line (line 2) declares 4294967295 x 4294967295 with 7 entries"},
                        Want{gr, 4294967295u, 12, "the 'p' line (line 2) declares 4294967295 nodes and 12 arcs"},
                        Want{metis, 4294967294u, 18, "the header (line 2) declares 4294967294 vertices and 9 edges"},
                        Want{bin, 0, 3, "its size (24 bytes, 8 per edge)"},
                        Want{el, 0, 4, "its 4 lines (at most one edge each)"},
                        Want{"kron:10:8", 1024, 8192, "it generates 1024 vertices and 8192 edges"}}) {
    SCOPED_TRACE(w.spec);
    const std::vector<DeclaredSize> seen = declared_sizes(w.spec, true);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].vertices, w.vertices);
    EXPECT_EQ(seen[0].edges, w.edges);
    EXPECT_EQ(seen[0].what, w.what);
  }
  // Accepted, the same files read on (and fail where they are malformed).
  EXPECT_TRUE(catch_graph_error([&] { load_graph(gr, GraphFormat::kAuto, LoadLimits{[](const DeclaredSize&) {}, UINT64_MAX}); })
                  .thrown);
  EXPECT_EQ(load_graph(el, GraphFormat::kAuto, LoadLimits{[](const DeclaredSize&) {}, UINT64_MAX}).num_edges(), 2u);
}

// A pipe or device is read into memory only up to max_stream_bytes
// (`--graph /dev/zero` once grew without bound).
TEST_F(ReaderTest, NonRegularInputsAreReadWithABound) {
  LoadLimits limits;
  limits.max_stream_bytes = 1 << 20;
  const Caught c = catch_graph_error([&] { read_graph_file("/dev/zero", GraphFormat::kEdgeList, limits); });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.file, "/dev/zero");
  EXPECT_NE(c.what.find("is not a regular file and holds more than 1.0 MiB (1048576 bytes)"), std::string::npos)
      << c.what;
  EXPECT_NE(c.what.find("save it to a regular file"), std::string::npos) << c.what;
  // A regular file is mapped, not read into memory: no bound applies to it.
  const std::string el = write("big.el", std::string(2 << 20, '\n') + "0 1\n");
  EXPECT_EQ(read_graph_file(el, GraphFormat::kEdgeList, limits).num_edges(), 1u);
}

}  // namespace
}  // namespace wg
