// Graph input: text edge lists, Matrix Market, binary edge lists, DIMACS .gr,
// and the Kronecker generator, all behind one entry point that takes the
// --graph SPEC of the command line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "compute/graph/declared_size.h"
#include "compute/graph/edge_list.h"
#include "compute/graph/graph_error.h"
#include "compute/graph/graph_format.h"

namespace wg {

// The largest --vertices N: ids are 32-bit, 0..4294967294 (4294967295 is
// reserved), so N = 4294967295 names them all.
inline constexpr uint64_t kMaxGivenVertices = 0xFFFFFFFFull;

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
