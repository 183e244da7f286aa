// Graph input: text edge lists, Matrix Market, binary edge lists, DIMACS .gr,
// and the Kronecker generator, all behind one entry point that takes the
// --graph SPEC of the command line.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "compute/graph/edge_list.h"

namespace wg {

enum class GraphFormat {
  kAuto,      // from the file extension
  kEdgeList,  // SNAP-style text: "src dst [weight]", whitespace or comma separated
  kMatrixMarket,  // .mtx coordinate pattern/integer/real, general/symmetric
  kBinary,    // .bin/.el32: little-endian uint32 (src, dst) pairs (Gemini's format)
  kBinaryWeighted,  // .wbin/.wel32: little-endian uint32 (src, dst, weight) triples
  kDimacs,    // .gr: "p sp n m" / "a u v w", 1-based
  kMetis,     // .graph: METIS adjacency lists, "n m [fmt [ncon]]", 1-based, optional weights
};

// Parses "auto", "edgelist", "mtx", "bin", "wbin", "dimacs", "metis"; throws GraphError.
GraphFormat parse_graph_format(const std::string& name);
const char* graph_format_name(GraphFormat f);
// The name's format, without a .gz or .zst suffix (g.txt.gz: an edge list).
GraphFormat format_from_extension(const std::string& path);
// Whether a format's ids can be mapped (--ids sparse): edge lists and binary
// files name their vertices only by their edges. The formats whose header
// declares n vertices numbered 1..n (Matrix Market, DIMACS, METIS) are dense
// already: for them, the reason they are refused; nullptr when allowed.
const char* why_ids_are_dense(GraphFormat f);

// The largest --vertices N: ids are 32-bit, 0..4294967294 (4294967295 is
// reserved), so N = 4294967295 names them all.
inline constexpr uint64_t kMaxGivenVertices = 0xFFFFFFFFull;

// Every error names the file, the line (0 when not line-based, e.g. binary
// files, where the byte offset is in the message) and what is wrong.
class GraphError : public std::runtime_error {
 public:
  GraphError(const std::string& file, uint64_t line, const std::string& what);
  const std::string& file() const { return file_; }
  uint64_t line() const { return line_; }
  const std::string& detail() const { return detail_; }  // the message without "file:line: "

 private:
  std::string file_;
  uint64_t line_;
  std::string detail_;
};

// What an input says about its size before it is read: a Matrix Market,
// DIMACS or METIS header, a binary file's length, the lines of an edge list
// (at most one edge each), a kron: spec.
struct DeclaredSize {
  uint64_t vertices = 0;  // 0 when the input does not say
  uint64_t edges = 0;     // directed edges it will give, at most
  std::string what;       // "the header (line 2) declares 4294967295 vertices and 1 entries"
};
// Called before anything of that size is allocated; throws to refuse.
using SizeCheck = std::function<void(const DeclaredSize&)>;

// Bounds the whole-graph reader applies before it allocates, given by its
// caller (tests; wiregraph-convert gives none). A node does not use this
// reader: it loads its share (compute/load/graph_loader.h) and checks its memory
// budget there (LoadOptions::check_memory, apps/node/run_program.h).
struct LoadLimits {
  SizeCheck check;                          // empty: no check
  uint64_t max_stream_bytes = UINT64_MAX;   // pipes and devices are read into memory up to this
};

// `vertices` is --vertices N (0: not given): an edge list's or binary file's
// vertices are 0..N-1 and an id >= N is refused; a file whose header
// declares its count, and the generator, must agree with it.
EdgeList read_graph_file(const std::string& path, GraphFormat format = GraphFormat::kAuto,
                         const LoadLimits& limits = {}, uint64_t vertices = 0);

// SPEC is a path, or "kron:SCALE:DEGREE[:SEED]". Throws GraphError, or what
// limits.check throws.
EdgeList load_graph(const std::string& spec, GraphFormat format = GraphFormat::kAuto, const LoadLimits& limits = {},
                    uint64_t vertices = 0);

}  // namespace wg
