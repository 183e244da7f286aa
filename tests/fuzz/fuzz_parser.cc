// libFuzzer target for one graph parser, chosen at compile time
// (WG_FUZZ_PARSER, tests/fuzz/meson.build): the whole-file entry points
// read_edge_list, read_matrix_market, read_dimacs, read_metis and
// read_binary (compute/graph/reader_support.h) on arbitrary bytes.
//
// A parser may refuse input only with a GraphError; anything else thrown is
// a bug (libFuzzer reports the uncaught exception). What it accepts must be
// safe for the rest of the node: every edge's ends are vertices of the graph
// (the partition indexes per-vertex arrays with them), an unweighted graph
// has unit weights, and no more edges than the size the SizeCheck was shown
// (the memory check before reading relies on it). And a node reading its
// byte range must get exactly its part: the same bytes cut into three ranges
// at places taken from a hash of the input, each parsed alone as the loader
// parses them (compute/graph/graph_formats.h), give the whole-file reader's edges
// in the same order. The weight column read as the programs that read none
// read it (SkipWeight) and as sssp in double precision does (RealWeight)
// gives the same edges, with weight 1 and with the integer weight as a
// double. The sample a node takes before loading (compute/graph/input_sample.h)
// reads any bytes with at most a GraphError.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

#include "compute/graph/graph_formats.h"
#include "compute/graph/input_sample.h"
#include "compute/graph/reader_support.h"

namespace {

using namespace wg;

// The parser's format and the bytes it reads (the binary target spends the
// first byte on choosing the record).
GraphFormat format_of([[maybe_unused]] std::string_view& bytes) {
#if WG_FUZZ_PARSER == 1
  return GraphFormat::kEdgeList;
#elif WG_FUZZ_PARSER == 2
  return GraphFormat::kMatrixMarket;
#elif WG_FUZZ_PARSER == 3
  return GraphFormat::kDimacs;
#elif WG_FUZZ_PARSER == 4
  return GraphFormat::kMetis;
#else
  const bool weighted = !bytes.empty() && (bytes[0] & 1) != 0;
  bytes.remove_prefix(bytes.empty() ? 0 : 1);
  return weighted ? GraphFormat::kBinaryWeighted : GraphFormat::kBinary;
#endif
}

EdgeList parse(std::string_view bytes, const SizeCheck& check) {
  const std::string path = "fuzz-input";
#if WG_FUZZ_PARSER == 1
  return reader::read_edge_list(path, bytes, check);
#elif WG_FUZZ_PARSER == 2
  return reader::read_matrix_market(path, bytes, check);
#elif WG_FUZZ_PARSER == 3
  return reader::read_dimacs(path, bytes, check);
#elif WG_FUZZ_PARSER == 4
  return reader::read_metis(path, bytes, check);
#elif WG_FUZZ_PARSER == 5
  // The first byte chooses the record: (src, dst) or (src, dst, weight).
  if (bytes.empty()) return {};
  return reader::read_binary(path, bytes.substr(1), (bytes[0] & 1) != 0, check);
#else
#error "WG_FUZZ_PARSER must be 1..5"
#endif
}

[[noreturn]] void broken(const char* what, uint64_t a, uint64_t b) {
  std::fprintf(stderr, "fuzz_parser: %s (%llu, %llu)\n", what, static_cast<unsigned long long>(a),
               static_cast<unsigned long long>(b));
  std::abort();
}

// Three ranges, parsed alone, in order: the whole file's edges.
void check_ranges(std::string_view bytes, const EdgeList& whole) {
  const GraphFormat f = format_of(bytes);
  MemoryBytes in("fuzz-input", bytes);
  const reader::InputHeader h = reader::read_header(in, f);
  const uint64_t units = h.record_bytes ? h.size / h.record_bytes : h.size - h.data_start;
  const uint64_t base = h.record_bytes ? 0 : h.data_start;
  const uint64_t hash = fnv1a(bytes);
  uint64_t cut[2] = {hash % (units + 1), (hash >> 32) % (units + 1)};
  std::sort(cut, cut + 2);
  const uint64_t bounds[4] = {0, cut[0], cut[1], units};
  std::vector<Edge> got;
  uint64_t vertex_base = 0;
  for (int i = 0; i < 3; ++i) {
    reader::SliceSpec sp;
    sp.begin = base + bounds[i];
    sp.end = base + bounds[i + 1];
    sp.first = i == 0;
    sp.entries_before_known = i == 0;
    sp.vertex_base = vertex_base;
    if (f == GraphFormat::kMetis) vertex_base += reader::count_metis_vertex_lines(in, h, sp);
    reader::parse_slice(in, h, sp, [&](VertexId s, VertexId d, Weight w) { got.push_back(Edge{s, d, w}); });
  }
  if (got.size() != whole.edges.size()) broken("ranges gave another edge count than the whole file", got.size(),
                                               whole.edges.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const Edge& a = got[i];
    const Edge& b = whole.edges[i];
    if (a.src != b.src || a.dst != b.dst || a.weight != b.weight) broken("ranges gave another edge at", i, cut[0]);
  }
}

// The whole data read with the weight column skipped and as reals.
void check_weight_columns(std::string_view bytes, const EdgeList& whole) {
  const GraphFormat f = format_of(bytes);
  MemoryBytes in("fuzz-input", bytes);
  const reader::InputHeader h = reader::read_header(in, f);
  const reader::SliceSpec all = reader::slice_of(h, 0, 1);
  size_t i = 0;
  reader::parse_slice<reader::SkipWeight>(in, h, all, [&](VertexId s, VertexId d, Weight w) {
    if (i >= whole.edges.size() || s != whole.edges[i].src || d != whole.edges[i].dst || w != 1)
      broken("skipped weights gave another edge at", i, w);
    ++i;
  });
  if (i != whole.edges.size()) broken("skipped weights gave another edge count", i, whole.edges.size());
  i = 0;
  reader::parse_slice<reader::RealWeight>(in, h, all, [&](VertexId s, VertexId d, double w) {
    if (i >= whole.edges.size() || s != whole.edges[i].src || d != whole.edges[i].dst ||
        w != static_cast<double>(whole.edges[i].weight))
      broken("real weights gave another edge at", i, static_cast<uint64_t>(w));
    ++i;
  });
  if (i != whole.edges.size()) broken("real weights gave another edge count", i, whole.edges.size());
}

// The sample and the --ids auto rule on any bytes.
void check_sample(std::string_view bytes) {
  const GraphFormat f = format_of(bytes);
  MemoryBytes in("fuzz-input", bytes);
  try {
    const InputSample s = sample_input(in, reader::read_header(in, f));
    const IdsVerdict v = judge_ids(s);
    if (s.distinct > 2 * s.edges) broken("the sample counts more ids than its edges have ends", s.distinct, s.edges);
    // Dense only where a whole-file sample names every id 0..largest.
    if (!v.sparse && s.has_ids && s.edges > 0 && (!s.whole || s.distinct != static_cast<uint64_t>(s.largest + 1)))
      broken("dense without every id named", s.distinct, static_cast<uint64_t>(s.largest + 1));
    if (v.sparse && !s.beyond_dense && s.whole && s.distinct == static_cast<uint64_t>(s.largest + 1))
      broken("sparse though every id is named", s.distinct, static_cast<uint64_t>(s.largest + 1));
  } catch (const GraphError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_sample(bytes);
  uint64_t declared_edges = UINT64_MAX;
  EdgeList g;
  try {
    g = parse(bytes, [&](const DeclaredSize& d) { declared_edges = d.edges; });
  } catch (const GraphError&) {
    return 0;  // a refusal that names the problem: fine
  }
  if (g.num_edges() > declared_edges) broken("more edges than declared", g.num_edges(), declared_edges);
  for (const Edge& e : g.edges) {
    if (e.src >= g.num_vertices || e.dst >= g.num_vertices) broken("edge end beyond V", e.src, e.dst);
    if (!g.weighted && e.weight != 1) broken("unweighted graph with a weight", e.weight, 1);
  }
  check_ranges(bytes, g);  // a GraphError here, after the whole file was accepted, is a bug
  check_weight_columns(bytes, g);
  return 0;
}
