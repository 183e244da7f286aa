// What a node decides about its input before it loads anything, where the
// command line leaves it to the input (docs/INPUT.md):
//   - ids: --ids auto on an edge list or binary file becomes sparse or dense
//     from a sample of the file (compute/graph/input_sample.h); files that
//     number their vertices 1..n (Matrix Market, DIMACS, METIS) keep their
//     own ids in --source and the results;
//   - precision: --precision auto runs sssp with real weights when the
//     sampled weights are not all integers;
//   - the source: within the ids the input declares, when it declares them.
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
