// A node's input read whole by one process and numbered as the loader
// numbers it (compute/load/graph_loader.h), for --verify's single-node oracle
// (apps/node/verify.h): a file in a dense format and the generator through
// wiregraph-convert's reader (graph_reader.h); under --ids sparse an id's
// dense id is its rank among the distinct ids the edges name; in a
// Graphalytics graph, its line's rank in NAME.v. Mapped inputs go through the
// loader's own line parsers (graph_formats.h, graphalytics_input.h), so both
// accept and refuse the same lines.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/graph_input.h"

namespace wg {

struct WholeInput {
  EdgeList graph;                    // dense ids; a Graphalytics graph's weights also in real_weights
  std::vector<int64_t> original_id;  // dense id -> the input's own id; empty when they are the same
};

// Throws GraphError as the loader would for a malformed input. With
// `real_weights` a file's weights are read as the loader reads them for a
// program that reads real weights (sssp in double precision, pagerank
// --weighted): doubles in graph.real_weights, beside the integer weight 1.
WholeInput read_whole_input(const GraphInput& in, bool real_weights = false);

}  // namespace wg
