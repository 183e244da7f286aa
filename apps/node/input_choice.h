// What a node decides about its input before it loads anything, where the
// command line leaves it to the input (docs/INPUT.md):
//   - ids: --ids auto on an edge list or binary file makes the vertices the
//     ids the edges name, dense where a whole-file sample shows them
//     contiguous from 0, else mapped (compute/graph/input_sample.h); files
//     that number their vertices 1..n (Matrix Market, DIMACS, METIS) keep
//     their own ids in --source and the results; a first line of field names
//     is said on the ids: line;
//   - precision: --precision auto runs sssp with real weights when the
//     sampled weights are not all integers;
//   - the source: by default the first edge's source (as the input names
//     it); within the ids the input declares, when it declares them.
// Every node decides from the same bytes (the sample depends on the file's
// size and header only), and the decisions enter Config::params_digest,
// which the hello compares: nodes that decided otherwise do not run together.
#pragma once

#include "config/options.h"

namespace wg {

// Fills in c.sparse_ids, c.ids_chosen, c.double_precision, c.precision_chosen
// and c.source for c.graph (nothing to decide for an empty name: edges in
// memory). Throws ConfigError for a --source outside the input's ids,
// GraphError for a file it cannot read.
void choose_input(Config& c);

}  // namespace wg
