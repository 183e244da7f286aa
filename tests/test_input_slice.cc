// Reading a graph file in byte ranges (compute/graph/line_slice.h, graph_formats.h):
// whatever the boundaries, the slices of a file hold each edge exactly once
// and in file order, and a slice reads nothing before its range and little
// past it (only the line that crosses its end). The expected edges are
// written by hand next to each file; the bounds on what is read come from the
// ownership rule, worked out here on the file's bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/kronecker.h"
#include "compute/load/load_aggregate.h"
#include "tests/datasets.h"

namespace wg {
namespace {

using Triple = std::tuple<VertexId, VertexId, Weight>;

// Serves a string and records every read.
class RecordingBytes final : public InputBytes {
 public:
  RecordingBytes(std::string name, std::string bytes) : InputBytes(std::move(name)), bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }
  struct Read {
    uint64_t offset, bytes;
  };
  std::vector<Read> reads;
  uint64_t lowest() const {
    uint64_t m = UINT64_MAX;
    for (const Read& r : reads) m = std::min(m, r.offset);
    return m;
  }
  uint64_t highest_end() const {
    uint64_t m = 0;
    for (const Read& r : reads) m = std::max(m, r.offset + r.bytes);
    return m;
  }

 private:
  size_t do_read(uint64_t offset, char* out, size_t n) override {
    if (offset >= bytes_.size()) return 0;
    const size_t got = std::min<uint64_t>(n, bytes_.size() - offset);
    std::copy_n(bytes_.data() + offset, got, out);
    if (got > 0) reads.push_back({offset, got});
    return got;
  }
  std::string bytes_;
};

std::vector<Triple> parse_range(const std::string& name, const std::string& bytes, GraphFormat f, uint64_t begin,
                                uint64_t end, bool first, RecordingBytes::Read* bounds = nullptr) {
  RecordingBytes header_in(name, bytes);
  const reader::InputHeader h = reader::read_header(header_in, f);
  RecordingBytes in(name, bytes);
  reader::SliceSpec sp;
  sp.begin = begin;
  sp.end = end;
  sp.first = first;
  sp.entries_before_known = first;
  std::vector<Triple> out;
  reader::parse_slice(in, h, sp, [&](VertexId s, VertexId d, Weight w) { out.emplace_back(s, d, w); });
  if (bounds != nullptr) *bounds = {in.reads.empty() ? begin : in.lowest(), in.highest_end()};
  return out;
}

uint64_t data_start(const std::string& name, const std::string& bytes, GraphFormat f) {
  RecordingBytes in(name, bytes);
  return reader::read_header(in, f).data_start;
}

// The end of the bytes a text range [begin, end) may need: its last line is
// the one ending at the first line break at or after `end` (the file's end
// if none). A range with no line break in it reads only [begin, end).
uint64_t last_line_end(const std::string& bytes, uint64_t begin, uint64_t end) {
  const size_t first_break = bytes.find('\n', begin);
  if (first_break == std::string::npos || first_break >= end) return end;
  const size_t at = bytes.find('\n', end);
  return at == std::string::npos ? bytes.size() : at + 1;
}

// Every way of cutting the data into two and into three ranges yields the
// expected edges, in order, each exactly once; and every range reads only
// from its start to the end of its last line (plus the doubling reads past
// its end: at most twice what it needed there, and 256 bytes).
void check_every_cut(const std::string& name, const std::string& bytes, GraphFormat f,
                     const std::vector<Triple>& want) {
  SCOPED_TRACE(name);
  const uint64_t ds = data_start(name, bytes, f);
  const uint64_t n = bytes.size();
  auto check_read = [&](uint64_t b, uint64_t e, const RecordingBytes::Read& r) {
    EXPECT_GE(r.offset, b) << "range [" << b << ", " << e << ") read before its start";
    const uint64_t need = last_line_end(bytes, b, e);
    EXPECT_LE(r.bytes, need + (need - std::min(need, e)) + 256) << "range [" << b << ", " << e << ") read far past "
                                                                  << need;
  };
  for (uint64_t cut = ds; cut <= n; ++cut) {
    RecordingBytes::Read r1{}, r2{};
    std::vector<Triple> got = parse_range(name, bytes, f, ds, cut, true, &r1);
    const std::vector<Triple> tail = parse_range(name, bytes, f, cut, n, false, &r2);
    got.insert(got.end(), tail.begin(), tail.end());
    ASSERT_EQ(got, want) << "cut at byte " << cut;
    check_read(ds, cut, r1);
    check_read(cut, n, r2);
  }
  for (uint64_t a = ds; a <= n; a += 3)
    for (uint64_t b = a; b <= n; b += 2) {
      std::vector<Triple> got = parse_range(name, bytes, f, ds, a, true);
      for (const auto& [lo, hi] : {std::pair{a, b}, std::pair{b, n}}) {
        const std::vector<Triple> part = parse_range(name, bytes, f, lo, hi, false);
        got.insert(got.end(), part.begin(), part.end());
      }
      ASSERT_EQ(got, want) << "cuts at bytes " << a << " and " << b;
    }
}

TEST(InputSlice, EdgeListCutAnywhere) {
  // CRLF line ends, comments of both kinds (one long enough to hold a cut),
  // blank lines, tabs and a comma, weights, and no final newline.
  const std::string text =
      "# a comment line that is long enough to be cut in the middle\r\n"
      "0 1 5\r\n"
      "\r\n"
      "% another comment\r\n"
      "2\t3 7\r\n"
      "4,5 0\r\n"
      "10 0 1\r\n"
      "  6 6 9";
  check_every_cut("g.wel", text, GraphFormat::kEdgeList, {{0, 1, 5}, {2, 3, 7}, {4, 5, 0}, {10, 0, 1}, {6, 6, 9}});
}

TEST(InputSlice, EdgeListWithFinalNewlineAndOneLine) {
  check_every_cut("one.el", "3 4\n", GraphFormat::kEdgeList, {{3, 4, 1}});
  check_every_cut("two.el", "3 4\n5 6\n", GraphFormat::kEdgeList, {{3, 4, 1}, {5, 6, 1}});
  check_every_cut("empty.el", "", GraphFormat::kEdgeList, {});
  check_every_cut("comments.el", "# x\n# y\n", GraphFormat::kEdgeList, {});
}

TEST(InputSlice, MatrixMarketCutAnywhereAfterTheHeader) {
  const std::string text =
      "%%MatrixMarket matrix coordinate integer symmetric\n"
      "% comment in the header\n"
      "4 4 4\n"
      "1 1 3\n"
      "% a comment among the entries\n"
      "2 1 4\r\n"
      "4 3 5\n"
      "3 2 6";
  // Symmetric: every off-diagonal entry gives both directions, the diagonal one.
  check_every_cut("m.mtx", text, GraphFormat::kMatrixMarket,
                  {{0, 0, 3}, {1, 0, 4}, {0, 1, 4}, {3, 2, 5}, {2, 3, 5}, {2, 1, 6}, {1, 2, 6}});
}

TEST(InputSlice, DimacsCutAnywhereAfterTheHeader) {
  const std::string text =
      "c a shortest-path file\n"
      "p sp 4 3\n"
      "c between arcs\n"
      "a 1 2 10\n"
      "a 2 3 20\n"
      "a 4 1 30\n";
  check_every_cut("d.gr", text, GraphFormat::kDimacs, {{0, 1, 10}, {1, 2, 20}, {3, 0, 30}});
}

// METIS lines are vertices, so a slice needs its first vertex (the loader
// counts every slice's vertex lines first): here the test gives it.
TEST(InputSlice, MetisSlicesWithTheirFirstVertex) {
  const std::string text =
      "% a comment\n"
      "4 2 1\n"
      "2 7 3 8\n"
      "% between vertices\n"
      "1 7\n"
      "\n"
      "1 8";
  const std::vector<Triple> want = {{0, 1, 7}, {0, 2, 8}, {1, 0, 7}, {3, 0, 8}};
  const uint64_t ds = data_start("g.graph", text, GraphFormat::kMetis);
  RecordingBytes hin("g.graph", text);
  const reader::InputHeader h = reader::read_header(hin, GraphFormat::kMetis);
  for (uint64_t cut = ds; cut <= text.size(); ++cut) {
    reader::SliceSpec a, b;
    a.begin = ds;
    a.end = b.begin = cut;
    b.end = text.size();
    b.first = false;
    b.entries_before_known = false;
    RecordingBytes in("g.graph", text);
    b.vertex_base = reader::count_metis_vertex_lines(in, h, a);
    std::vector<Triple> got;
    auto emit = [&](VertexId s, VertexId d, Weight w) { got.emplace_back(s, d, w); };
    const reader::SliceTotals ta = reader::parse_slice(in, h, a, emit);
    const reader::SliceTotals tb = reader::parse_slice(in, h, b, emit);
    EXPECT_EQ(got, want) << "cut at " << cut;
    EXPECT_EQ(ta.vertex_lines + tb.vertex_lines, 4u) << "cut at " << cut;
    EXPECT_EQ(ta.entries + tb.entries, 4u) << "cut at " << cut;
  }
}

TEST(InputSlice, BinaryRecordRanges) {
  std::string bytes;
  const std::vector<Triple> want = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}, {13, 14, 15}};
  for (const auto& [s, d, w] : want)
    for (uint32_t v : {s, d, w})
      for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  RecordingBytes hin("g.wbin", bytes);
  const reader::InputHeader h = reader::read_header(hin, GraphFormat::kAuto);
  ASSERT_EQ(h.record_bytes, 12u);
  for (unsigned parts = 1; parts <= 7; ++parts) {
    std::vector<Triple> got;
    uint64_t read = 0;
    for (unsigned i = 0; i < parts; ++i) {
      const reader::SliceSpec sp = reader::slice_of(h, i, parts);
      RecordingBytes in("g.wbin", bytes);
      reader::parse_slice(in, h, sp, [&](VertexId s, VertexId d, Weight w) { got.emplace_back(s, d, w); });
      // Whole records of its own range, nothing else.
      for (const RecordingBytes::Read& r : in.reads) {
        EXPECT_GE(r.offset, sp.begin * 12);
        EXPECT_LE(r.offset + r.bytes, sp.end * 12);
        EXPECT_EQ(r.offset % 12, 0u);
      }
      read += (sp.end - sp.begin) * 12;
    }
    EXPECT_EQ(got, want) << parts << " parts";
    EXPECT_EQ(read, bytes.size());
  }
}

// More parts than lines: some ranges own nothing, and every line is still read once.
TEST(InputSlice, MorePartsThanLines) {
  const std::string text = "0 1\n1 2\n2 3";
  RecordingBytes hin("g.el", text);
  const reader::InputHeader h = reader::read_header(hin, GraphFormat::kEdgeList);
  for (unsigned parts : {1u, 2u, 3u, 5u, 11u, 40u}) {
    std::vector<Triple> got;
    unsigned empty = 0;
    for (unsigned i = 0; i < parts; ++i) {
      RecordingBytes in("g.el", text);
      const size_t before = got.size();
      reader::parse_slice(in, h, reader::slice_of(h, i, parts),
                          [&](VertexId s, VertexId d, Weight w) { got.emplace_back(s, d, w); });
      empty += got.size() == before;
    }
    EXPECT_EQ(got, (std::vector<Triple>{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}})) << parts << " parts";
    if (parts > 3) {
      EXPECT_GE(empty, parts - 3);
    }
  }
}

// On a real file, P = 4: each node's reads stay in its range (and the line
// past it), and the four parts together are the file.
TEST(InputSlice, DatasetPartsReadOnlyTheirRange) {
  const char* dir = std::getenv("WG_DATASETS");
  ASSERT_NE(dir, nullptr) << "WG_DATASETS is not set; run the tests with `meson test`";
  for (const char* name : {"wiki-Vote.txt", "rome99.gr", "luxembourg_osm.mtx"}) {
    const std::string path = std::string(dir) + "/" + name;
    FileBytes whole(path);
    std::string bytes(whole.size(), '\0');
    whole.read_at(0, bytes.data(), bytes.size());
    // luxembourg_osm.mtx is a Matrix Market body without its banner and size
    // line (shared/datasets/SOURCES.md): here an edge list; with its header
    // restored, DatasetMatrixMarketNodesReadTheHeaderAndTheirRange.
    const GraphFormat f = std::string(name).ends_with(".mtx") ? GraphFormat::kEdgeList : GraphFormat::kAuto;
    RecordingBytes hin(path, bytes);
    const reader::InputHeader h = reader::read_header(hin, f);
    std::vector<Triple> parts;
    uint64_t total_read = 0;
    for (unsigned r = 0; r < 4; ++r) {
      const reader::SliceSpec sp = reader::slice_of(h, r, 4);
      RecordingBytes in(path, bytes);
      reader::parse_slice(in, h, sp, [&](VertexId s, VertexId d, Weight w) { parts.emplace_back(s, d, w); });
      EXPECT_GE(in.lowest(), sp.begin) << name << " node " << r;
      const uint64_t need = last_line_end(bytes, sp.begin, sp.end);
      EXPECT_LE(in.highest_end(), need + (need - std::min(need, sp.end)) + 256) << name << " node " << r;
      for (const RecordingBytes::Read& rd : in.reads) total_read += rd.bytes;
    }
    // The four parts read the file once, give or take the lines at the cuts.
    EXPECT_LE(total_read, bytes.size() + 4 * 4096) << name;
    MemoryBytes all(path, bytes);
    std::vector<Triple> want;
    reader::parse_slice(all, h, reader::slice_of(h, 0, 1),
                        [&](VertexId s, VertexId d, Weight w) { want.emplace_back(s, d, w); });
    EXPECT_EQ(parts.size(), want.size()) << name;
    EXPECT_EQ(parts, want) << name;
  }
}

// The Matrix Market path on a real file: luxembourg_osm.mtx with the banner
// and size line SuiteSparse gives it (n = 114599, 119666 lower-triangle
// entries of a symmetric pattern; SOURCES.md). Each of 4 nodes reads the
// header and then its range, on one counted input as the loader does; what
// it counts is the header's bytes plus its range's (and the line past it),
// and the four ranges give every entry, both directions, 1-based ids made
// 0-based. The expected edges come from reading the body with a stream.
TEST(InputSlice, DatasetMatrixMarketNodesReadTheHeaderAndTheirRange) {
  const char* dir = std::getenv("WG_DATASETS");
  ASSERT_NE(dir, nullptr) << "WG_DATASETS is not set; run the tests with `meson test`";
  const std::string path = std::string(dir) + "/luxembourg_osm.mtx";
  FileBytes file(path);
  std::string body(file.size(), '\0');
  ASSERT_EQ(file.read_at(0, body.data(), body.size()), body.size());
  const std::string header =
      "%%MatrixMarket matrix coordinate pattern symmetric\n"
      "% DIMACS10/luxembourg_osm: its banner and size line, stripped from the file\n"
      "114599 114599 119666\n";
  const std::string text = header + body;

  std::vector<Triple> want;
  std::istringstream lines(body);
  for (uint64_t r, c; lines >> r >> c;) {
    want.emplace_back(static_cast<VertexId>(r - 1), static_cast<VertexId>(c - 1), 1);
    if (r != c) want.emplace_back(static_cast<VertexId>(c - 1), static_cast<VertexId>(r - 1), 1);
  }
  ASSERT_EQ(want.size(), 2u * 119666) << "the body as SOURCES.md describes it";

  std::vector<Triple> got;
  uint64_t data_read = 0;
  for (unsigned r = 0; r < 4; ++r) {
    SCOPED_TRACE("node " + std::to_string(r));
    RecordingBytes node(path, text);
    const reader::InputHeader h = reader::read_header(node, GraphFormat::kAuto);
    ASSERT_EQ(h.format, GraphFormat::kMatrixMarket);
    EXPECT_EQ(h.data_start, header.size());
    EXPECT_EQ(h.declared_vertices, 114599u);
    EXPECT_EQ(h.declared_entries, 119666u);
    const size_t header_reads = node.reads.size();
    const uint64_t header_bytes = node.bytes_read();
    EXPECT_LE(node.highest_end(), 2 * header.size() + 256) << "the header read reaches into the data";
    const reader::SliceSpec sp = reader::slice_of(h, r, 4);
    EXPECT_GE(sp.begin, header.size());
    EXPECT_LE(sp.end - sp.begin, body.size() / 4 + 1);
    reader::parse_slice(node, h, sp, [&](VertexId s, VertexId d, Weight w) { got.emplace_back(s, d, w); });
    const uint64_t need = last_line_end(text, sp.begin, sp.end);
    for (size_t i = header_reads; i < node.reads.size(); ++i) {
      EXPECT_GE(node.reads[i].offset, sp.begin) << "read before its range";
      EXPECT_LE(node.reads[i].offset + node.reads[i].bytes, need + (need - std::min(need, sp.end)) + 256)
          << "read far past its range";
    }
    // What the node counts: the header, and its range with the line past its end.
    const uint64_t range_read = node.bytes_read() - header_bytes;
    EXPECT_GE(range_read, sp.end - sp.begin);
    EXPECT_LE(range_read, need - sp.begin + (need - std::min(need, sp.end)) + 256);
    data_read += range_read;
  }
  EXPECT_LE(data_read, body.size() + 4 * 4096) << "the four nodes read the data about once";
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(got, want);
}

// A header is read by every node: what that costs is about its own bytes.
TEST(InputSlice, HeaderReadsLittleMoreThanTheHeader) {
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n3 3 1000\n";
  const uint64_t header = text.size();
  for (int i = 0; i < 1000; ++i) text += "1 2\n";
  RecordingBytes in("big.mtx", text);
  const reader::InputHeader h = reader::read_header(in, GraphFormat::kMatrixMarket);
  EXPECT_EQ(h.data_start, header);
  EXPECT_EQ(h.header_lines, 2u);
  EXPECT_LE(in.highest_end(), 2 * header + 256) << "a header read must not read the data";
}

// An error in a slice names the line's number in the whole file.
// Two-column lines are read in place once the first has set the columns
// (reader::take_plain_id_pairs): cut anywhere, a file of plain lines mixed
// with every other form a line may take reads the same edges as the general
// path would, each once, in order.
TEST(InputSlice, PlainIdPairsCutAnywhere) {
  const std::string text =
      "0 1\n"
      "2 3\r\n"
      "4,5\n"
      "6 , 7\n"
      "# a comment\n"
      "8\t9\n"
      "10 11  \n"
      "\n"
      "  12 13\n"
      "00014 15\n"
      "4294967294 0\n"
      "16 17";
  check_every_cut("plain.el", text, GraphFormat::kEdgeList,
                  {{0, 1, 1}, {2, 3, 1}, {4, 5, 1}, {6, 7, 1}, {8, 9, 1}, {10, 11, 1}, {12, 13, 1}, {14, 15, 1},
                   {4294967294u, 0, 1}, {16, 17, 1}});
}

// The digits of an id read eight at a time (reader::detail::read_digits)
// give std::from_chars' value and stop where it stops, for every length of
// 1 to 19 digits, leading zeros, every byte that can follow (a blank, a
// comma, '\r', '\n', a letter, a byte above 0x7f, the end of the buffer),
// and with fewer than 8 bytes left to read.
TEST(InputSlice, DigitsEightAtATimeMatchFromChars) {
  std::mt19937_64 rng(7);
  const std::string follows[] = {" ", ",", "\r", "\n", "x", "/", ":", "\xff", "\xfa", ""};
  for (int len = 1; len <= 19; ++len)
    for (int trial = 0; trial < 200; ++trial) {
      std::string digits;
      for (int i = 0; i < len; ++i) digits += static_cast<char>('0' + rng() % 10);
      if (trial % 7 == 0) digits[0] = '0';
      for (const std::string& after : follows)
        for (const std::string& tail : {std::string(), std::string("12345678")}) {
          const std::string text = digits + after + (after.empty() ? "" : tail);
          const char* p = text.data();
          const uint64_t v = reader::detail::read_digits(p, text.data() + text.size());
          uint64_t want = 0;
          std::from_chars(digits.data(), digits.data() + digits.size(), want);
          ASSERT_EQ(p - text.data(), len) << text;
          ASSERT_EQ(v, want) << text;
        }
    }
  for (const std::string& text : {std::string("x1234567"), std::string(" 12"), std::string()}) {
    const char* p = text.data();
    EXPECT_EQ(reader::detail::read_digits(p, text.data() + text.size()), 0u) << text;
    EXPECT_EQ(p, text.data()) << "no digit read from '" << text << "'";
  }
}

// Lines of every shape the in-place reader takes, mixed at random: one space
// and ids of 1 to 8 digits (read 16 bytes at a time), and the rest (9 to 18
// digits, leading zeros, two blanks, a tab, a comma, '\r\n') one number at
// a time: every pair comes back as written, in order, and the reader stops
// at the first line that is not two ids, with the bytes before it.
TEST(InputSlice, PlainIdPairsOfEveryShape) {
  std::mt19937_64 rng(11);
  auto id = [&](unsigned digits) {
    std::string s;
    for (unsigned i = 0; i < digits; ++i) s += static_cast<char>('0' + rng() % 10);
    return s;
  };
  const char* const seps[] = {" ", " ", " ", "  ", "\t", ",", " , "};
  const char* const ends[] = {"\n", "\n", "\n", "\r\n", " \n"};
  std::string text;
  std::vector<std::pair<uint64_t, uint64_t>> want;
  for (int i = 0; i < 5000; ++i) {
    const std::string a = id(1 + rng() % 18), b = id(1 + rng() % (i % 2 ? 8 : 18));
    text += a + seps[rng() % std::size(seps)] + b + ends[rng() % std::size(ends)];
    want.emplace_back(std::stoull(a), std::stoull(b));
  }
  const size_t plain = text.size();
  text += "12 x\n3 4\n" + std::string(32, '\n');
  uint64_t lines = 0;
  std::vector<std::pair<uint64_t, uint64_t>> got;
  const size_t taken = reader::take_plain_id_pairs(text, lines, [&](uint64_t a, uint64_t b) {
    got.emplace_back(a, b);
    return true;
  });
  EXPECT_EQ(taken, plain);
  EXPECT_EQ(lines, want.size());
  EXPECT_EQ(got, want);
  // A take() that refuses stops the reader before that line.
  got.clear();
  lines = 0;
  const size_t until = reader::take_plain_id_pairs(text, lines, [&](uint64_t a, uint64_t b) {
    if (got.size() == 100) return false;
    got.emplace_back(a, b);
    return true;
  });
  EXPECT_EQ(lines, 100u);
  EXPECT_EQ(until, text.find(std::to_string(want[100].first), until)) << "the refused line is the next one";
}

// Lines read in place count toward the line numbers that errors name: a bad
// line after plain ones, and an id beyond --vertices, are named by their
// line, from the start of the data and from a range that starts inside it.
TEST(InputSlice, ErrorsAfterPlainLinesNameTheirLine) {
  struct Case {
    std::string text;
    uint64_t vertices;  // --vertices (0: none)
    uint64_t line;
    const char* says;
  };
  for (const Case& c : {Case{"0 1\n1 2\n2 3\n3 4\n4 5\n5 x\n6 7\n", 0, 6, "'x'"},
                        Case{"0 1\n1 2\n2 3\n3 4\n4 5\n5 4294967295\n6 7\n", 0, 6, "4294967295"},
                        Case{"0 1\n1 2\n2 3\n3 4\n4 5\n5 1 2\n6 7\n", 0, 6, "inconsistent column count"},
                        Case{"0 1\n1 2\n2 3\n3 4\n4 9\n5 6\n", 8, 5, "9"}})
    for (const uint64_t begin : {uint64_t{0}, uint64_t{5}}) {
      SCOPED_TRACE(c.text + " from byte " + std::to_string(begin));
      RecordingBytes hin("g.el", c.text);
      const reader::InputHeader h = reader::read_header(hin, GraphFormat::kEdgeList, "", c.vertices);
      reader::SliceSpec sp;
      sp.begin = begin;
      sp.end = c.text.size();
      sp.first = begin == 0;
      sp.entries_before_known = sp.first;
      RecordingBytes in("g.el", c.text);
      uint64_t edges = 0;
      try {
        reader::parse_slice(in, h, sp, [&](VertexId, VertexId, Weight) { ++edges; });
        FAIL() << "no error";
      } catch (const GraphError& e) {
        EXPECT_EQ(e.line(), c.line) << e.what();
        EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
      }
      // (byte 5 lies in line 2, whose line break before it is the first range's: lines 1 and 2 are not this one's)
      EXPECT_EQ(edges, c.line - 1 - (begin == 0 ? 0 : 2)) << "the lines before the bad one, each once";
    }
}

TEST(InputSlice, ErrorsNameTheFileLine) {
  const std::string text = "0 1\n1 2\n2 3\n3 x\n4 5\n";
  RecordingBytes hin("g.el", text);
  const reader::InputHeader h = reader::read_header(hin, GraphFormat::kEdgeList);
  reader::SliceSpec sp;
  sp.begin = 9;  // inside line 3: the range owns lines 4 and 5
  sp.end = text.size();
  sp.first = false;
  sp.entries_before_known = false;
  RecordingBytes in("g.el", text);
  try {
    reader::parse_slice(in, h, sp, [](VertexId, VertexId, Weight) {});
    FAIL() << "no error for 'x'";
  } catch (const GraphError& e) {
    EXPECT_EQ(e.line(), 4u) << e.what();
    EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos) << e.what();
  }
}

// A node's share of the generator is blocks of the one edge stream: the
// shares the loader gives P nodes (KroneckerGenerator::share, and the parts
// of it its workers take), in rank order, are the whole graph as the
// whole-graph generator makes it, for every P; no share is empty while
// P <= the blocks.
TEST(InputSlice, GeneratorSharesAreTheWholeGraph) {
  KroneckerSpec spec;
  spec.scale = 12;
  spec.degree = 40;  // 163,840 edges: three blocks of 65,536 (the last part-full)
  const EdgeList whole = generate_kronecker(spec);
  const KroneckerGenerator gen(spec);
  ASSERT_EQ(gen.num_blocks(), 3u);
  std::vector<Edge> block(KroneckerGenerator::kBlockEdges);
  for (unsigned p = 1; p <= 5; ++p)
    for (unsigned workers = 1; workers <= 2; ++workers) {
      SCOPED_TRACE("P = " + std::to_string(p) + ", " + std::to_string(workers) + " workers");
      std::vector<Edge> got;
      for (unsigned r = 0; r < p; ++r) {
        const KroneckerGenerator::BlockRange share = gen.share(r, p);
        if (p <= gen.num_blocks()) {
          EXPECT_LT(share.begin, share.end) << "node " << r << " generates nothing";
        }
        for (unsigned w = 0; w < workers; ++w) {
          const KroneckerGenerator::BlockRange mine = share.part(w, workers);
          for (uint64_t b = mine.begin; b < mine.end; ++b)
            got.insert(got.end(), block.begin(), block.begin() + static_cast<ptrdiff_t>(gen.block(b, block.data())));
        }
      }
      ASSERT_EQ(got.size(), whole.edges.size());
      EXPECT_TRUE(std::equal(got.begin(), got.end(), whole.edges.begin(), [](const Edge& a, const Edge& b) {
        return a.src == b.src && a.dst == b.dst && a.weight == b.weight;
      }));
    }
}

// The loader makes its blocks in chunks (network passes run between them):
// the same edges, in the same order, as whole blocks, the last block's
// short tail included.
TEST(InputSlice, GeneratorChunksAreTheBlocks) {
  KroneckerSpec spec;
  spec.scale = 12;
  spec.degree = 40;  // the last block holds 32,768 edges: 8 chunks
  const EdgeList whole = generate_kronecker(spec);
  const KroneckerGenerator gen(spec);
  std::vector<Edge> chunk(KroneckerGenerator::kChunkEdges), got;
  unsigned calls = 0;
  for (uint64_t b = 0; b < gen.num_blocks(); ++b)
    gen.block_in_chunks(b, chunk.data(), [&](const Edge* e, uint64_t n) {
      EXPECT_LE(n, KroneckerGenerator::kChunkEdges);
      got.insert(got.end(), e, e + n);
      ++calls;
    });
  EXPECT_EQ(calls, 16u + 16u + 8u);
  ASSERT_EQ(got.size(), whole.edges.size());
  EXPECT_TRUE(std::equal(got.begin(), got.end(), whole.edges.begin(), [](const Edge& a, const Edge& b) {
    return a.src == b.src && a.dst == b.dst && a.weight == b.weight;
  }));
}

// ---- the loading phase's reductions (compute/load/load_aggregate.h) ----------------

// Node r's part, as its END carries it.
load::LoadAggregate part(unsigned rank, uint8_t columns, std::optional<uint64_t> head, std::optional<uint64_t> tail) {
  load::LoadAggregate a{};
  a.origin = static_cast<uint8_t>(rank);
  a.columns = columns;
  a.entries = 10;
  a.edges = 10 + rank;
  a.max_id_plus1 = 100 * (rank + 1);
  a.flags = load::kSeen;
  if (head) {
    a.flags |= load::kHasHead;
    a.head_hash = *head;
  }
  if (tail) {
    a.flags |= load::kHasTail;
    a.tail_hash = *tail;
    a.tail_rank = static_cast<uint8_t>(rank);
  }
  return a;
}

load::LoadAggregate merge_all(const std::vector<load::LoadAggregate>& parts) {
  load::LoadAggregate into{};
  for (const load::LoadAggregate& p : parts) load::merge_edges(into, p);
  return into;
}

TEST(LoadAggregate, SumsAndMaxima) {
  const load::LoadAggregate m = merge_all({part(0, 2, std::nullopt, 7), part(1, 2, 7, 8), part(2, 2, 8, std::nullopt)});
  EXPECT_EQ(m.entries, 30u);
  EXPECT_EQ(m.edges, 33u);
  EXPECT_EQ(m.max_id_plus1, 300u);
  EXPECT_EQ(m.columns, 2u);
  EXPECT_EQ(m.flags & (load::kColumnsDiffer | load::kBoundaryDiffers), 0) << "same file, same columns";
}

// The degree balance (LoadAggregate::degree_balance): summed over three
// nodes' parts of wiki-Vote (directed: voters are not the voted) it is not
// zero; with every vote also listed the other way (a symmetric graph, every
// in-degree its out-degree) it is, as it is for a directed cycle (in-degree
// 1, out-degree 1) but not for a path.
TEST(LoadAggregate, DegreeBalanceTellsWhetherInDegreesAreOutDegrees) {
  std::ifstream in(test::dataset("wiki-Vote.txt"));
  std::vector<std::pair<uint32_t, uint32_t>> votes;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    uint32_t a, b;
    fields >> a >> b;
    votes.emplace_back(a, b);
  }
  ASSERT_EQ(votes.size(), 103689u) << "the file's own header count";
  auto balance = [](const std::vector<std::pair<uint32_t, uint32_t>>& edges, bool both_ways) {
    std::vector<load::LoadAggregate> parts(3);
    for (size_t i = 0; i < edges.size(); ++i) {
      load::LoadAggregate& a = parts[i % 3];
      a.flags = load::kSeen;
      a.degree_balance += load::degree_balance_term(edges[i].first, edges[i].second);
      if (both_ways) parts[(i + 1) % 3].degree_balance += load::degree_balance_term(edges[i].second, edges[i].first);
    }
    return merge_all(parts).degree_balance;
  };
  EXPECT_NE(balance(votes, false), 0u);
  EXPECT_EQ(balance(votes, true), 0u);
  EXPECT_EQ(balance({{1, 2}, {2, 3}, {3, 1}}, false), 0u);
  EXPECT_NE(balance({{1, 2}, {2, 3}}, false), 0u);
}

TEST(LoadAggregate, ColumnCountsThatDifferAreNamed) {
  const load::LoadAggregate m = merge_all({part(0, 0, std::nullopt, 1), part(1, 3, 1, 2), part(2, 2, 2, std::nullopt)});
  EXPECT_TRUE(m.flags & load::kColumnsDiffer);
  EXPECT_EQ(m.columns, 3u) << "the first count seen (node 0 had no data line)";
  EXPECT_EQ(m.other_columns, 2u);
  EXPECT_EQ(m.mismatch_rank, 2u);
}

TEST(LoadAggregate, BoundaryCheckBetweenAdjacentNodesOnly) {
  // Node 1's head differs from node 0's tail: different files.
  load::LoadAggregate m = merge_all({part(0, 2, std::nullopt, 5), part(1, 2, 6, 9)});
  EXPECT_TRUE(m.flags & load::kBoundaryDiffers);
  EXPECT_EQ(m.mismatch_rank, 1u);
  // Node 1 owns nothing (no head, no tail): nodes 0 and 2 are not adjacent and are not compared.
  m = merge_all({part(0, 2, std::nullopt, 5), part(1, 0, std::nullopt, std::nullopt), part(2, 2, 6, std::nullopt)});
  EXPECT_FALSE(m.flags & load::kBoundaryDiffers);
  // Within a node (its workers, the same origin) nothing is compared either.
  m = merge_all({part(3, 2, 1, 5), part(3, 2, 6, 7)});
  EXPECT_FALSE(m.flags & load::kBoundaryDiffers);
  EXPECT_EQ(m.tail_hash, 7u) << "a node's tail is its last worker's";
  EXPECT_EQ(m.head_hash, 1u) << "and its head the first worker's";
}

TEST(LoadAggregate, LineCountsGiveEachNodeTheLinesBeforeIt) {
  // Node 1's view: node 0 has 5 lines, node 1's workers 3 and 4, node 2 has 6.
  load::LineCount node{};
  load::merge_line_counts(node, {3, 0, 1, 0}, 1);
  load::merge_line_counts(node, {4, 0, 1, 0}, 1);
  EXPECT_EQ(node.lines, 7u);
  load::LineCount cluster{};
  load::merge_line_counts(cluster, {5, 0, 0, 0}, 1);
  load::merge_line_counts(cluster, node, 1);
  load::merge_line_counts(cluster, {6, 0, 2, 0}, 1);
  EXPECT_EQ(cluster.lines, 18u);
  EXPECT_EQ(cluster.before_me, 5u);
}

}  // namespace
}  // namespace wg
