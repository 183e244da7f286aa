// Runs one application on this node: partition the loaded graph, run the
// engine, write the outputs. One instantiation per vertex program.
#pragma once

#include <string>

#include "compute/edge_list.h"
#include "config/options.h"
#include "dataplane/dataplane.h"

namespace wg {

struct LoadedGraph {
  EdgeList edges;
  uint64_t fingerprint = 0;
  double load_seconds = 0.0;
};

// Returns the process exit code. Errors are printed, and sent to the peers as
// ABORT so that they stop too.
int run_app(const Config& cfg, Dataplane& dp, LoadedGraph& graph);

}  // namespace wg
