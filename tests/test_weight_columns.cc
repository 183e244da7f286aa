// How the slice parsers read a weight column (compute/graph/reader_support.h):
// not at all for programs that read no weights (SkipWeight: neither parsed
// nor validated), as integers, or as doubles (RealWeight: sssp in double
// precision); negative weights refused only where they are read, naming the
// file, line, field, value and why. Expected values come from the files as
// written here or from SOURCES.md, not from the parser.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/graph/input_bytes.h"

namespace wg {
namespace {

std::string dataset(const std::string& name) {
  const char* dir = std::getenv("WG_DATASETS");
  return std::string(dir != nullptr ? dir : "../shared/datasets") + "/" + name;
}

template <class W>
using Parsed = std::vector<std::tuple<VertexId, VertexId, decltype(reader::unit_weight<W>())>>;

// The whole data of `in` as one slice, weights read as W.
template <class W>
Parsed<W> parse(InputBytes& in, GraphFormat f) {
  const reader::InputHeader h = reader::read_header(in, f);
  Parsed<W> out;
  reader::parse_slice<W>(in, h, reader::slice_of(h, 0, 1), [&](VertexId s, VertexId d, auto w) { out.emplace_back(s, d, w); });
  return out;
}
template <class W>
Parsed<W> parse_text(const std::string& text, GraphFormat f) {
  MemoryBytes in("g", text);
  return parse<W>(in, f);
}
template <class W>
std::string error_of(const std::string& text, GraphFormat f) {
  try {
    parse_text<W>(text, f);
  } catch (const GraphError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(WeightColumns, SkippedColumnsAreNeitherParsedNorValidated) {
  using reader::SkipWeight;
  using P = Parsed<SkipWeight>;
  EXPECT_EQ(parse_text<SkipWeight>("0 1 -5\n1 2 0.5\n2 0 junk\n", GraphFormat::kEdgeList), (P{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}}));
  EXPECT_EQ(parse_text<SkipWeight>("p sp 2 1\na 1 2 -7\n", GraphFormat::kDimacs), (P{{0, 1, 1}}));
  EXPECT_EQ(parse_text<SkipWeight>("%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -0.5\n",
                                   GraphFormat::kMatrixMarket),
            (P{{1, 0, 1}}));
  EXPECT_EQ(parse_text<SkipWeight>("2 1 001\n2 -3\n1 x\n", GraphFormat::kMetis), (P{{0, 1, 1}, {1, 0, 1}}));
  // The structure is still checked: a missing weight of a METIS edge.
  EXPECT_NE(error_of<SkipWeight>("2 1 001\n2\n1 4\n", GraphFormat::kMetis).find("without its edge weight"),
            std::string::npos);
}

// soc-sign-bitcoinotc: 35,592 ratings from -10 to 10; west0067: 294 real
// entries, negative ones among them (SOURCES.md).
TEST(WeightColumns, DatasetsWithNegativeWeightsLoadWhenTheWeightsAreNotRead) {
  FileBytes bitcoin(dataset("soc-sign-bitcoinotc.csv"));
  EXPECT_EQ(parse<reader::SkipWeight>(bitcoin, GraphFormat::kAuto).size(), 35592u);
  FileBytes west(dataset("fixtures/lagraph/west0067.mtx"));
  EXPECT_EQ(parse<reader::SkipWeight>(west, GraphFormat::kAuto).size(), 294u);
}

TEST(WeightColumns, RealWeightsAreReadAsWritten) {
  using reader::RealWeight;
  using P = Parsed<RealWeight>;
  EXPECT_EQ(parse_text<RealWeight>("0 1 0.5\n1 2 3\n2 0 2.5e-1\n3 0 -0\n", GraphFormat::kEdgeList),
            (P{{0, 1, 0.5}, {1, 2, 3.0}, {2, 0, 0.25}, {3, 0, 0.0}}));
  EXPECT_EQ(parse_text<RealWeight>("0 1\n", GraphFormat::kEdgeList), (P{{0, 1, 1.0}}));
  EXPECT_EQ(parse_text<RealWeight>("%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 0.125\n",
                                   GraphFormat::kMatrixMarket),
            (P{{1, 0, 0.125}}));
  EXPECT_EQ(parse_text<RealWeight>("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n",
                                   GraphFormat::kMatrixMarket),
            (P{{1, 0, 1.0}}));
  EXPECT_NE(error_of<RealWeight>("0 1 inf\n", GraphFormat::kEdgeList).find("not a finite number"), std::string::npos);
  EXPECT_NE(error_of<RealWeight>("0 1 x\n", GraphFormat::kEdgeList).find("'x' is not a number"), std::string::npos);
}

// Where weights are read (sssp), a negative one is refused with the line,
// the field, the value and the reason; so is a fraction read as an integer,
// naming the option that reads it.
TEST(WeightColumns, NegativeWeightsAreRefusedWhereTheyAreReadWithTheReason) {
  for (const std::string& e : {error_of<Weight>("0 1 2\n1 2 -3\n", GraphFormat::kEdgeList),
                               error_of<reader::RealWeight>("0 1 2\n1 2 -3\n", GraphFormat::kEdgeList)}) {
    for (const char* want : {"g:2:", "field 3 (weight)", "'-3'", "negative", "Dijkstra and delta-stepping", "sssp"})
      EXPECT_NE(e.find(want), std::string::npos) << want << " not in: " << e;
  }
  const std::string dimacs = error_of<Weight>("p sp 2 1\na 1 2 -7\n", GraphFormat::kDimacs);
  EXPECT_NE(dimacs.find("g:2: arc weight: '-7' is negative"), std::string::npos) << dimacs;
  const std::string half = error_of<Weight>("0 1 0.5\n", GraphFormat::kEdgeList);
  EXPECT_NE(half.find("'0.5' is not an integer"), std::string::npos) << half;
  EXPECT_NE(half.find("--precision double"), std::string::npos) << half;
}

// Dense ids: an id that only sparse ids can hold names the option that reads it.
TEST(WeightColumns, DenseIdErrorsNameSparseIds) {
  const std::string e = error_of<Weight>("0 1\n-4 2\n", GraphFormat::kEdgeList);
  EXPECT_NE(e.find("g:2: field 1 (src): '-4' is negative"), std::string::npos) << e;
  EXPECT_NE(e.find("--ids sparse"), std::string::npos) << e;
}

// --weight-column: another field by number, or by the header line's name;
// a line without it, a name the header lacks, or an edge's end refused.
TEST(WeightColumns, AnotherColumnIsReadByNumberOrByName) {
  using P = Parsed<Weight>;
  const auto parse_column = [](const std::string& text, const std::string& column) {
    MemoryBytes in("g", text);
    const reader::InputHeader h = reader::read_header(in, GraphFormat::kEdgeList, column);
    P out;
    reader::parse_slice<Weight>(in, h, reader::slice_of(h, 0, 1),
                                [&](VertexId s, VertexId d, Weight w) { out.emplace_back(s, d, w); });
    return out;
  };
  EXPECT_EQ(parse_column("0 1 7 9\n1 2 8 4\n", "4"), (P{{0, 1, 9}, {1, 2, 4}}));
  EXPECT_EQ(parse_column("src,dst,time,weight\n0,1,7,9\n1,2,8,4\n", "weight"), (P{{0, 1, 9}, {1, 2, 4}}));
  EXPECT_EQ(parse_column("src,dst,weight,time\n0,1,7,9\n", ""), (P{{0, 1, 7}}));
  const auto error_with = [&](const std::string& text, const std::string& column) -> std::string {
    try {
      parse_column(text, column);
    } catch (const GraphError& e) {
      return e.what();
    }
    return "";
  };
  const std::string missing = error_with("0 1 7\n1 2 8\n", "4");
  EXPECT_NE(missing.find("g:1: --weight-column: this line has 3 fields, no field 4 (weight)"), std::string::npos)
      << missing;
  const std::string unnamed = error_with("src,dst,w\n0,1,7\n", "weight");
  EXPECT_NE(unnamed.find("g:1: --weight-column weight: the header names src, dst, w"), std::string::npos) << unnamed;
  EXPECT_NE(error_with("0 1 7\n", "weight").find("no header line of field names"), std::string::npos);
  EXPECT_NE(error_with("0 1 7\n", "2").find("a weight column is 3..64"), std::string::npos);
  EXPECT_NE(error_with("src,dst,w\n0,1,7\n", "dst").find("is an edge's end"), std::string::npos);
  // A named column's bad value names it.
  const std::string bad = error_with("a,b,rating\n0,1,-3\n", "rating");
  EXPECT_NE(bad.find("field 3 (weight 'rating'): '-3' is negative"), std::string::npos) << bad;
}

}  // namespace
}  // namespace wg
