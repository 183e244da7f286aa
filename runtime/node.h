// One wiregraph node, assembled once from one Config: its DPDK resources
// (ports first, so links come up while the graph loads), its graph as the
// program needs it, and (runtime/run_program.h) the partition, the engine,
// the runtime and the outputs. The node binary (apps/main.cc), the engine
// tests and the benchmarks all build nodes this way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "compute/edge_list.h"
#include "compute/memory_budget.h"
#include "config/options.h"
#include "dataplane/dataplane.h"

namespace wg {

struct LoadedGraph {
  EdgeList edges;
  uint64_t fingerprint = 0;
  double load_seconds = 0.0;
};

class Node {
 public:
  // The EAL must be initialised. record_bytes: the program's record size
  // (8, 12 or 20; frames are validated against it). config.domains == 0 is
  // resolved to the machine's NUMA node count.
  Node(const Config& config, unsigned record_bytes);
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const Config& config() const { return cfg_; }
  Dataplane& dataplane() { return *dp_; }

  // Reads or generates the graph and applies the program's rules
  // (ProgramTraits::graph, --undirected); checks --source. Checks memory
  // before it is spent (compute/memory_budget.h, against memory_limit()):
  // the size an input declares before reading it, the graph's own before
  // partitioning. Throws GraphError, ConfigError or MemoryBudgetError.
  LoadedGraph load(const AppFootprint& app) const;
  // The same rules and check on a graph the caller already holds.
  LoadedGraph prepare(EdgeList edges, const AppFootprint& app) const;

  // What this node may allocate: read_memory_limit(), shared with the other
  // nodes of the job on this host (WIREGRAPH_NODES_PER_HOST, set by
  // scripts/wiregraph-cluster).
  MemoryLimit memory_limit() const;
  // The estimate for `shape` (P, K, --scatter and --segment-kib filled in
  // from the configuration), less `held` bytes already allocated, checked
  // against memory_limit(); `what` starts the error.
  void check_memory_for(NodeShape shape, const AppFootprint& app, uint64_t held, const std::string& what) const;

  // The line rate the report compares with: --line-rate, else the port's, else 10.
  double line_rate_gbps() const;

 private:
  Config cfg_;
  std::unique_ptr<Dataplane> dp_;
};

// Dataplane settings of a node: pools, ports' validation context.
DataplaneOptions dataplane_options(const Config& c, unsigned record_bytes);

}  // namespace wg
