// Compressed graph files (compute/graph/compressed_input.h): gzip and zstd
// read as their decompressed bytes, by magic and by the inner name's format.
// The compressed bytes are made here by zlib and libzstd directly from text
// written by hand; what is expected is that text's edges, never the reader's
// own output. The real files are SNAP's bitcoin-otc gzip against the plain
// CSV copy of it (shared/datasets/SOURCES.md note C) and a truncated SNAP
// gzip (note B).
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/graph/graph_reader.h"
#include "compute/graph/inflated_files.h"
#include "compute/graph/input_bytes.h"
#include "tests/datasets.h"
#include "tests/gzip_bytes.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

using Triple = std::tuple<VertexId, VertexId, Weight>;

using test::dataset;
using test::gzip;

// One zstd frame of `text` with its checksum, as zstd(1) writes it.
std::string zstd(const std::string& text) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const size_t n = ZSTD_compress2(c, out.data(), out.size(), text.data(), text.size());
  ZSTD_freeCCtx(c);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

std::string write(const test::TempDir& dir, const std::string& name, const std::string& bytes) {
  const std::string path = dir.file(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::vector<Triple> triples(const EdgeList& g) {
  std::vector<Triple> t;
  for (const Edge& e : g.edges) t.emplace_back(e.src, e.dst, e.weight);
  return t;
}

// The error reading `path` whole; "" when it reads.
std::string read_error(const std::string& path) {
  try {
    read_graph_file(path);
  } catch (const GraphError& e) {
    return e.what();
  }
  return "";
}

// Every file's (src, dst) in file order, through the loader's slices cut
// into `ranges` byte ranges (as nodes and workers read them), weights not read.
std::vector<std::pair<VertexId, VertexId>> sliced_edges(const std::string& path, unsigned ranges) {
  FileBytes in(path);
  const reader::InputHeader h = reader::read_header(in, GraphFormat::kAuto);
  std::vector<std::pair<VertexId, VertexId>> edges;
  for (unsigned i = 0; i < ranges; ++i)
    reader::parse_slice<reader::SkipWeight>(in, h, reader::slice_of(h, i, ranges),
                                            [&](VertexId s, VertexId d, auto) { edges.emplace_back(s, d); });
  return edges;
}

const std::string kEdges = "# a comment\n0 1 5\n1 2 7\n2 0 9\n";
const std::vector<Triple> kTriples = {{0, 1, 5}, {1, 2, 7}, {2, 0, 9}};

TEST(CompressedInput, EveryFormatByItsInnerName) {
  const test::TempDir dir;
  EXPECT_EQ(triples(read_graph_file(write(dir, "g.txt.gz", gzip(kEdges)))), kTriples);
  EXPECT_EQ(triples(read_graph_file(write(dir, "g.csv.zst", zstd("0,1,5\n1,2,7\n2,0,9\n")))), kTriples);
  const EdgeList mtx = read_graph_file(
      write(dir, "m.mtx.gz", gzip("%%MatrixMarket matrix coordinate integer general\n3 3 3\n1 2 5\n2 3 7\n3 1 9\n")));
  EXPECT_EQ(triples(mtx), kTriples);  // 1-based: vertex i is i - 1
  const EdgeList gr = read_graph_file(write(dir, "r.gr.zst", zstd("c x\np sp 3 3\na 1 2 5\na 2 3 7\na 3 1 9\n")));
  EXPECT_EQ(triples(gr), kTriples);
  const std::string records("\0\0\0\0\1\0\0\0\5\0\0\0\1\0\0\0\2\0\0\0\7\0\0\0\2\0\0\0\0\0\0\0\11\0\0\0", 36);
  EXPECT_EQ(triples(read_graph_file(write(dir, "e.wbin.gz", gzip(records)))), kTriples);
  EXPECT_EQ(format_from_extension("x/M.MTX.GZ"), GraphFormat::kMatrixMarket);
  EXPECT_EQ(format_from_extension("g.graph.zst"), GraphFormat::kMetis);
}

TEST(CompressedInput, KnownByMagicWhateverTheName) {
  const test::TempDir dir;
  EXPECT_EQ(triples(read_graph_file(write(dir, "g.txt", gzip(kEdges)))), kTriples);
  EXPECT_EQ(triples(read_graph_file(write(dir, "g", zstd(kEdges)))), kTriples);
  // A .gz name on plain text: the text.
  EXPECT_EQ(triples(read_graph_file(write(dir, "plain.txt.gz", kEdges))), kTriples);
  // A binary record may begin with gzip's bytes: src 0x00088b1f is an id.
  const std::string record("\x1f\x8b\x08\x00\1\0\0\0", 8);
  const EdgeList g = read_graph_file(write(dir, "e.bin", record));
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].src, 0x00088b1fu);
}

TEST(CompressedInput, ConcatenatedMembersAndFrames) {
  const test::TempDir dir;
  EXPECT_EQ(triples(read_graph_file(write(dir, "g.txt.gz", gzip("0 1 5\n1 2 7\n") + gzip("2 0 9\n")))), kTriples);
  EXPECT_EQ(triples(read_graph_file(write(dir, "g.txt.zst", zstd("0 1 5\n") + zstd("1 2 7\n2 0 9\n")))), kTriples);
}

TEST(CompressedInput, SlicedRangesOfALargeFile) {
  // Several MiB that compress well, in two members (frames) whose sizes
  // mislead the first mapping (gzip's trailer gives the last member's
  // size, zstd's header the first frame's): the output grows past it. The
  // byte ranges of the decompressed text hold each line once.
  std::string text;
  std::vector<std::pair<VertexId, VertexId>> want;
  for (VertexId i = 0; i < 300000; ++i) {
    const VertexId s = i % 1000 * 7919 % 100003, d = i % 1000 * 104729 % 99991;  // repeats within deflate's window
    text += std::to_string(s) + "\t" + std::to_string(d) + "\n";
    want.emplace_back(s, d);
  }
  const size_t last_line = text.rfind('\n', text.size() - 2) + 1;
  const std::string gz = gzip(text.substr(0, last_line)) + gzip(text.substr(last_line));
  const std::string zs = zstd(text.substr(0, 4)) + zstd(text.substr(4));
  ASSERT_LT(4 * gz.size(), text.size());
  const test::TempDir dir;
  for (const std::string& path : {write(dir, "big.el.gz", gz), write(dir, "big.el.zst", zs)}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(FileBytes(path).size(), text.size());
    EXPECT_EQ(sliced_edges(path, 1), want);
    EXPECT_EQ(sliced_edges(path, 7), want);
  }
}

TEST(CompressedInput, OneDecompressionPerFileUntilReleased) {
  const test::TempDir dir;
  const std::string path = write(dir, "g.txt.gz", gzip(kEdges));
  release_inflated_files();
  {
    const FileBytes a(path), b(path);
    EXPECT_TRUE(a.decompressed());
    EXPECT_EQ(a.size(), kEdges.size());
  }
  const std::string summary = inflated_files_summary();
  EXPECT_NE(summary.find("input: " + path + ": gzip, "), std::string::npos) << summary;
  EXPECT_NE(summary.find("decompressed to " + std::to_string(kEdges.size())), std::string::npos) << summary;
  EXPECT_EQ(summary.find('\n'), summary.size() - 1) << "one line, one decompression: " << summary;
  release_inflated_files();
  EXPECT_EQ(inflated_files_summary(), "");
  EXPECT_FALSE(FileBytes(write(dir, "plain.txt", kEdges)).decompressed());
}

TEST(CompressedInput, TruncatedAndCorruptStreamsNameFileAndWhat) {
  const test::TempDir dir;
  const std::string gz = gzip(kEdges), zs = zstd(kEdges);
  const std::string cut_gz = write(dir, "cut.txt.gz", gz.substr(0, gz.size() - 6));
  EXPECT_EQ(read_error(cut_gz).rfind(cut_gz + ": truncated gzip stream: the file ends after " +
                                         std::to_string(gz.size() - 6) + " bytes",
                                     0),
            0u)
      << read_error(cut_gz);
  const std::string cut_zst = write(dir, "cut.txt.zst", zs.substr(0, zs.size() - 3));
  EXPECT_NE(read_error(cut_zst).find(cut_zst + ": truncated zstd stream"), std::string::npos) << read_error(cut_zst);
  // The CRC-32 in the trailer no longer matches the data.
  std::string bad = gz;
  bad[bad.size() - 8] ^= 0x55;
  const std::string crc = write(dir, "crc.txt.gz", bad);
  EXPECT_NE(read_error(crc).find("corrupt gzip stream at compressed byte"), std::string::npos) << read_error(crc);
  EXPECT_NE(read_error(crc).find("incorrect data check"), std::string::npos) << read_error(crc);
  std::string bad_zst = zs;
  bad_zst[bad_zst.size() - 1] ^= 0x55;  // the frame's checksum
  const std::string zcorrupt = write(dir, "bad.txt.zst", bad_zst);
  EXPECT_NE(read_error(zcorrupt).find("corrupt zstd stream at compressed byte"), std::string::npos)
      << read_error(zcorrupt);
  const std::string trailing = write(dir, "tail.txt.gz", gz + "junk");
  EXPECT_NE(read_error(trailing).find("trailing bytes after the gzip stream's end are not another member"),
            std::string::npos)
      << read_error(trailing);
  // FileBytes, as every node opens --graph, says the same.
  try {
    FileBytes in(cut_gz);
    ADD_FAILURE() << "a truncated gzip opened";
  } catch (const GraphError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated gzip stream"), std::string::npos) << e.what();
  }
}

TEST(CompressedInput, Bzip2AndXzAreRecognisedNotRead) {
  const test::TempDir dir;
  const std::string xz = write(dir, "g.txt.xz", std::string("\xfd" "7zXZ\0\0\4", 8));
  EXPECT_NE(read_error(xz).find("xz input is not read (gzip and zstd are)"), std::string::npos) << read_error(xz);
  const std::string bz = write(dir, "g.txt.bz2", std::string("BZh91AY&SY\0\0", 12));
  EXPECT_NE(read_error(bz).find("bzip2 input is not read"), std::string::npos) << read_error(bz);
}

// ---- the real files --------------------------------------------------------

TEST(CompressedRealFiles, TruncatedSnapGzip) {
  // 1,253,376 bytes; gzip -t: "unexpected end of file" (SOURCES.md note B).
  const std::string path = dataset("fixtures/malformed/soc-Epinions1-truncated.txt.gz");
  EXPECT_EQ(read_error(path).rfind(path + ": truncated gzip stream: the file ends after 1,253,376 bytes", 0), 0u)
      << read_error(path);
}

TEST(CompressedRealFiles, BitcoinGzipHasThePlainCopysEdges) {
  // The CSV copy rounds the gzip's timestamps and ends its lines in CRLF
  // (SOURCES.md note C); src and dst are the same, in the same order.
  const auto plain = sliced_edges(dataset("soc-sign-bitcoinotc.csv"), 3);
  EXPECT_EQ(plain.size(), 35592u);
  EXPECT_EQ(sliced_edges(dataset("soc-sign-bitcoinotc.csv.gz"), 3), plain);
  // Line numbers count decompressed lines: the first negative rating.
  EXPECT_NE(read_error(dataset("soc-sign-bitcoinotc.csv.gz")).find("soc-sign-bitcoinotc.csv.gz:597: field 3"),
            std::string::npos);
}

}  // namespace
}  // namespace wg
