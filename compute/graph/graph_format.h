// The graph file formats by name, and a file's format from its name.
#pragma once

#include <string>

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

}  // namespace wg
