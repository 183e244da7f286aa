#include "compute/graph/graph_format.h"

#include <utility>

#include "compute/graph/compressed_input.h"
#include "compute/graph/reader_support.h"

namespace wg {

using namespace reader;

GraphFormat parse_graph_format(const std::string& name) {
  static const std::pair<const char*, GraphFormat> kNames[] = {
      {"auto", GraphFormat::kAuto},  {"edgelist", GraphFormat::kEdgeList},     {"mtx", GraphFormat::kMatrixMarket},
      {"bin", GraphFormat::kBinary}, {"wbin", GraphFormat::kBinaryWeighted}, {"dimacs", GraphFormat::kDimacs},
      {"metis", GraphFormat::kMetis},
  };
  const std::string l = lower(name);
  for (const auto& [n, f] : kNames)
    if (l == n) return f;
  throw GraphError("--format", 0, "unknown graph format " + quoted(name) +
                                      " (expected auto, edgelist, mtx, bin, wbin, dimacs or metis)");
}

const char* graph_format_name(GraphFormat f) {
  switch (f) {
    case GraphFormat::kAuto: return "auto";
    case GraphFormat::kEdgeList: return "edgelist";
    case GraphFormat::kMatrixMarket: return "mtx";
    case GraphFormat::kBinary: return "bin";
    case GraphFormat::kBinaryWeighted: return "wbin";
    case GraphFormat::kDimacs: return "dimacs";
    case GraphFormat::kMetis: return "metis";
  }
  return "unknown";
}

const char* why_ids_are_dense(GraphFormat f) {
  switch (f) {
    case GraphFormat::kMatrixMarket:
      return "a Matrix Market file declares its rows and columns on its size line: its vertices are 1..n, dense already "
             "(sparse ids are for edge lists: text, bin or wbin)";
    case GraphFormat::kDimacs:
      return "a DIMACS file declares n on its 'p' line: its vertices are 1..n, dense already (sparse ids are for edge "
             "lists: text, bin or wbin)";
    case GraphFormat::kMetis:
      return "a METIS file numbers its vertices by line, 1..n as its header declares: dense already (sparse ids are for "
             "edge lists: text, bin or wbin)";
    default: return nullptr;
  }
}

GraphFormat format_from_extension(const std::string& path) {
  const std::string l = lower(without_compression_suffix(path));  // g.txt.gz: an edge list
  if (ends_with(l, ".mtx")) return GraphFormat::kMatrixMarket;
  if (ends_with(l, ".gr")) return GraphFormat::kDimacs;
  if (ends_with(l, ".graph")) return GraphFormat::kMetis;
  if (ends_with(l, ".bin") || ends_with(l, ".el32")) return GraphFormat::kBinary;
  if (ends_with(l, ".wbin") || ends_with(l, ".wel32")) return GraphFormat::kBinaryWeighted;
  return GraphFormat::kEdgeList;  // .txt, .csv, .el, .wel, .tsv and anything else
}

}  // namespace wg
