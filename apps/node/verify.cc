#include "apps/node/verify.h"

#include <cstdio>

#include "compute/graph/types.h"

namespace wg {

// A bound, not a measurement: the edges as read (12 bytes each, 8 more with
// real weights, twice under --undirected); a mapped input's sort of the ids
// its edges name (16 bytes per edge) and table (24 bytes per id) beside the
// 8-byte original id per vertex; and the largest oracle's own structures,
// k-core's and LCC's ordered sets (up to two 48-byte tree nodes per edge as
// loaded, both directions) and per-vertex arrays (up to 128 bytes).
uint64_t oracle_memory_need(const LoadFigures& load, bool mapped_ids, bool real_weights, bool undirected) {
  const uint64_t read = std::max(load.input_edges, load.num_edges);
  const uint64_t edge_bytes = sizeof(Edge) + (real_weights ? sizeof(double) : 0);
  uint64_t need = read * edge_bytes * (undirected ? 2 : 1);
  if (mapped_ids) need += read * 16 + load.num_vertices * (24 + 8);
  need += load.num_edges * 2 * 48 + load.num_vertices * 128;
  return need;
}

namespace verify_detail {

std::string integer_text(uint64_t x, bool unreachable) { return unreachable ? "inf" : std::to_string(x); }

std::string real_text(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}

std::string vertex_text(int64_t id, bool mapped) {
  return "vertex " + std::to_string(id) + (mapped ? " (the file's own id)" : "");
}

}  // namespace verify_detail
}  // namespace wg
