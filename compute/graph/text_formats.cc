// The whole-file readers: each format's slice parser (compute/graph/graph_formats.h)
// over one slice that holds all the data, then the checks of the totals.
#include "compute/graph/graph_formats.h"

namespace wg::reader {

namespace {

// Line breaks + 1: at least the lines, so at least the edges.
uint64_t count_lines(InputBytes& in) {
  std::vector<char> chunk(size_t{1} << 20);
  uint64_t breaks = 0;
  for (uint64_t at = 0; at < in.size();) {
    const size_t got = in.read_at(at, chunk.data(), chunk.size());
    if (got == 0) break;
    breaks += static_cast<uint64_t>(std::count(chunk.data(), chunk.data() + got, '\n'));
    at += got;
  }
  return breaks + 1;
}

}  // namespace

EdgeList read_whole(InputBytes& in, GraphFormat format, const SizeCheck& check, uint64_t vertices) {
  const InputHeader h = read_header(in, format, "", vertices);
  if (check) {
    DeclaredSize d = declared_size(h);
    if (h.format == GraphFormat::kEdgeList || h.format == GraphFormat::kAuto) {
      const uint64_t lines = count_lines(in);
      d = DeclaredSize{0, lines, "its " + std::to_string(lines) + " lines (at most one edge each)"};
    }
    check(d);
  }
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
EdgeList read_text(const std::string& path, std::string_view text, GraphFormat f, const SizeCheck& check) {
  MemoryBytes in(path, text);
  return read_whole(in, f, check);
}
}  // namespace

EdgeList read_edge_list(const std::string& path, std::string_view text, const SizeCheck& check) {
  return read_text(path, text, GraphFormat::kEdgeList, check);
}
EdgeList read_matrix_market(const std::string& path, std::string_view text, const SizeCheck& check) {
  return read_text(path, text, GraphFormat::kMatrixMarket, check);
}
EdgeList read_dimacs(const std::string& path, std::string_view text, const SizeCheck& check) {
  return read_text(path, text, GraphFormat::kDimacs, check);
}
EdgeList read_metis(const std::string& path, std::string_view text, const SizeCheck& check) {
  return read_text(path, text, GraphFormat::kMetis, check);
}
EdgeList read_binary(const std::string& path, std::string_view data, bool weighted, const SizeCheck& check) {
  return read_text(path, data, weighted ? GraphFormat::kBinaryWeighted : GraphFormat::kBinary, check);
}

}  // namespace wg::reader
