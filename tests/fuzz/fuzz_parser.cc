// libFuzzer target for one graph parser, chosen at compile time
// (WG_FUZZ_PARSER, tests/fuzz/meson.build): the whole-file entry points
// read_edge_list, read_matrix_market, read_dimacs, read_metis and
// read_binary (compute/reader_support.h) on arbitrary bytes.
//
// A parser may refuse input only with a GraphError; anything else thrown is
// a bug (libFuzzer reports the uncaught exception). What it accepts must be
// safe for the rest of the node: every edge's ends are vertices of the graph
// (the partition indexes per-vertex arrays with them), an unweighted graph
// has unit weights, and no more edges than the size the SizeCheck was shown
// (the memory check before reading relies on it).
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

#include "compute/reader_support.h"

namespace {

using namespace wg;

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
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
  return 0;
}
