// The whole-file readers: each format's slice parser (compute/graph_formats.h)
// over one slice that holds all the data, then the checks of the totals.
#include "compute/graph_formats.h"

namespace wg::reader {

EdgeList read_whole(InputBytes& in, GraphFormat format) {
  const InputHeader h = read_header(in, format);
  EdgeList g;
  if (h.record_bytes != 0) g.edges.reserve(h.size / h.record_bytes);
  const SliceSpec all = slice_of(h, 0, 1);
  const SliceTotals t = parse_slice(in, h, all, [&g](VertexId src, VertexId dst, Weight w) {
    g.edges.push_back(Edge{src, dst, w});
  });
  g.num_vertices = check_totals(in.name(), h, t);
  g.weighted = weighted(h, t);
  return g;
}

namespace {
EdgeList read_text(const std::string& path, std::string_view text, GraphFormat f) {
  MemoryBytes in(path, text);
  return read_whole(in, f);
}
}  // namespace

EdgeList read_edge_list(const std::string& path, std::string_view text) {
  return read_text(path, text, GraphFormat::kEdgeList);
}
EdgeList read_matrix_market(const std::string& path, std::string_view text) {
  return read_text(path, text, GraphFormat::kMatrixMarket);
}
EdgeList read_dimacs(const std::string& path, std::string_view text) {
  return read_text(path, text, GraphFormat::kDimacs);
}
EdgeList read_metis(const std::string& path, std::string_view text) {
  return read_text(path, text, GraphFormat::kMetis);
}

}  // namespace wg::reader
