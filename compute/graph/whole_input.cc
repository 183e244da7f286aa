#include "compute/graph/whole_input.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

#include "compute/graph/graph_formats.h"
#include "compute/graph/graphalytics_input.h"
#include "compute/graph/id_table.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/line_slice.h"
#include "compute/graph/reader_support.h"

namespace wg {

namespace {

struct NamedEdge {
  int64_t src, dst;
  Weight weight;
  double real_weight;
};

// The edges renumbered by `dense` (an id -> dense id table over every id they name).
EdgeList renumbered(const std::vector<NamedEdge>& named, const IdTable& dense, VertexId num_vertices,
                    bool real_weights) {
  EdgeList g;
  g.num_vertices = num_vertices;
  g.edges.reserve(named.size());
  if (real_weights) g.real_weights.reserve(named.size());
  for (const NamedEdge& e : named) {
    g.edges.push_back(Edge{*dense.find(e.src), *dense.find(e.dst), e.weight});
    if (real_weights) g.real_weights.push_back(e.real_weight);
  }
  return g;
}

// An edge's weights as the slice parsers emit them: an integer weight
// stands for itself; a real one travels beside the integer 1.
NamedEdge named_edge(int64_t src, int64_t dst, Weight w) { return NamedEdge{src, dst, w, static_cast<double>(w)}; }
NamedEdge named_edge(int64_t src, int64_t dst, double w) { return NamedEdge{src, dst, 1, w}; }

// --ids sparse: the distinct ids the edges name, in ascending order, are the vertices.
WholeInput read_sparse_file(const GraphInput& in, bool real_weights) {
  FileBytes bytes(in.spec);
  const reader::InputHeader h = reader::read_header(bytes, in.format, in.weight_column);
  std::vector<NamedEdge> named;
  auto keep = [&](int64_t src, int64_t dst, auto w) { named.push_back(named_edge(src, dst, w)); };
  const reader::SliceSpec all = reader::slice_of(h, 0, 1);
  const reader::SliceTotals t = real_weights ? reader::parse_sparse_slice<reader::RealWeight>(bytes, h, all, keep)
                                             : reader::parse_sparse_slice(bytes, h, all, keep);
  WholeInput out;
  out.original_id.reserve(2 * named.size());
  for (const NamedEdge& e : named) {
    out.original_id.push_back(e.src);
    out.original_id.push_back(e.dst);
  }
  std::sort(out.original_id.begin(), out.original_id.end());
  out.original_id.erase(std::unique(out.original_id.begin(), out.original_id.end()), out.original_id.end());
  if (out.original_id.size() > reader::kMaxVertexId)
    reader::fail(in.spec, 0, "--ids sparse: more than 4294967294 distinct vertex ids");
  IdTable dense(out.original_id.size());
  for (size_t i = 0; i < out.original_id.size(); ++i) dense.insert(out.original_id[i], static_cast<uint32_t>(i));
  out.graph = renumbered(named, dense, static_cast<VertexId>(out.original_id.size()), real_weights);
  out.graph.weighted = reader::weighted(h, t);
  return out;
}

// Dense ids with real weights (the loader's reading for a program whose
// GraphRules say real_weights): the weight column as doubles, beside the
// integer weight 1.
EdgeList read_real_weighted_file(const GraphInput& in) {
  FileBytes bytes(in.spec);
  const reader::InputHeader h = reader::read_header(bytes, in.format, in.weight_column, in.vertices);
  EdgeList g;
  const reader::SliceTotals t = reader::parse_slice<reader::RealWeight>(
      bytes, h, reader::slice_of(h, 0, 1), [&g](VertexId src, VertexId dst, double w) {
        g.edges.push_back(Edge{src, dst, 1});
        g.real_weights.push_back(w);
      });
  g.num_vertices = reader::check_totals(in.spec, h, t);
  g.weighted = reader::weighted(h, t);
  return g;
}

// NAME.v and NAME.e: a vertex's dense id is its line's rank in NAME.v.
WholeInput read_graphalytics(const GraphalyticsSpec& spec) {
  WholeInput out;
  {
    FileBytes bytes(spec.vertex_file);
    LineSlice lines(bytes, 0, bytes.size(), true, 0);
    std::string_view line;
    while (lines.next(line)) {
      if (!reader::is_graphalytics_vertex_line(line)) continue;
      try {
        const int64_t id = reader::parse_graphalytics_vertex(spec.vertex_file, line);
        if (!out.original_id.empty() && id <= out.original_id.back())
          reader::fail(spec.vertex_file, 0,
                       "vertex id " + std::to_string(id) +
                           (id == out.original_id.back() ? " appears twice" : " comes after " +
                                                                                   std::to_string(out.original_id.back())) +
                           " (Graphalytics vertex files list their ids in ascending order)");
        out.original_id.push_back(id);
      } catch (const GraphError& e) {
        lines.rethrow_at_line(e.detail());
      }
    }
  }
  if (out.original_id.size() > reader::kMaxVertexId)
    reader::fail(spec.vertex_file, 0, "more than 4294967294 vertices");
  IdTable dense(out.original_id.size());
  for (size_t i = 0; i < out.original_id.size(); ++i) dense.insert(out.original_id[i], static_cast<uint32_t>(i));
  std::vector<NamedEdge> named;
  FileBytes bytes(spec.edge_file);
  LineSlice lines(bytes, 0, bytes.size(), true, 0);
  std::string_view line;
  unsigned columns = 0;
  while (lines.next(line)) {
    if (reader::is_skippable(line, true)) continue;
    try {
      const reader::GraphalyticsEdge e = reader::parse_graphalytics_edge(spec.edge_file, spec, line);
      if (columns == 0) columns = e.fields;
      for (const auto& [id, field] : {std::pair{e.src, "field 1 (src)"}, std::pair{e.dst, "field 2 (dst)"}})
        if (dense.find(id) == nullptr)
          reader::fail(spec.edge_file, 0,
                       std::string(field) + ": vertex " + std::to_string(id) + " is not in " + spec.vertex_file);
      // An integer weight only where the weight is one (the integer programs
      // refuse others while loading); the real one beside it.
      const bool integral = e.weight == std::floor(e.weight) && e.weight <= static_cast<double>(reader::kMaxWeight);
      named.push_back(NamedEdge{e.src, e.dst, integral ? static_cast<Weight>(e.weight) : Weight{1}, e.weight});
    } catch (const GraphError& err) {
      lines.rethrow_at_line(err.detail());
    }
  }
  const bool weighted = spec.weight_column >= 0 && columns >= 3u + static_cast<unsigned>(spec.weight_column);
  out.graph = renumbered(named, dense, static_cast<VertexId>(out.original_id.size()), weighted);
  out.graph.weighted = weighted;
  return out;
}

}  // namespace

WholeInput read_whole_input(const GraphInput& in, bool real_weights) {
  switch (in.kind) {
    case GraphInput::Kind::kMemory: return WholeInput{*in.edges, {}};
    case GraphInput::Kind::kGraphalytics: return read_graphalytics(*in.graphalytics);
    case GraphInput::Kind::kFile:
      if (in.sparse_ids) return read_sparse_file(in, real_weights);
      if (real_weights) return WholeInput{read_real_weighted_file(in), {}};
      return WholeInput{load_graph(in.spec, in.format, {}, in.vertices), {}};
    case GraphInput::Kind::kGenerator: break;
    case GraphInput::Kind::kSnapshot:
      throw GraphError(in.spec, 0, "a snapshot holds each node's share of the graph, not the whole graph: read the "
                                   "input it was saved from instead");
  }
  return WholeInput{load_graph(in.spec, GraphFormat::kAuto, {}, in.vertices), {}};
}

}  // namespace wg
