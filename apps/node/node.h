// One wiregraph node, assembled once from one Config: its DPDK resources
// (ports first, so links come up while the other nodes start) and the input
// it loads its share of; apps/node/run_program.h then runs the loader and the
// program on one runtime and writes the outputs. The node binary
// (apps/main.cc), the engine tests and the benchmarks all build nodes this way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "compute/graph/graph_input.h"
#include "compute/engine/lcore_layout.h"
#include "compute/engine/memory_budget.h"
#include "config/options.h"
#include "dataplane/dataplane.h"

namespace wg {

class Node {
 public:
  // The EAL must be initialised. config.domains == 0 is resolved to the
  // machine's NUMA node count, config.rx_queues == 0 to the layout's
  // accumulator lcores, and what the input decides (--ids auto, --precision
  // auto, the source's range) by choose_input (apps/node/input_choice.h).
  // Throws ConfigError for --roles that do not fit the EAL's lcores or a
  // --source that is not a vertex, GraphError for an input it cannot read
  // (the peers are told).
  explicit Node(const Config& config);
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const Config& config() const { return cfg_; }
  Dataplane& dataplane() { return *dp_; }
  // Which lcore runs which role (--roles over the EAL's lcores).
  const LcoreLayout& layout() const { return layout_; }

  // --graph as an input (a file or the generator), with --ids. Throws
  // GraphError for a bad kron: spec.
  GraphInput input() const {
    GraphInput in = GraphInput::from_spec(cfg_.graph_spec, cfg_.undirected);
    in.sparse_ids = cfg_.sparse_ids;
    in.sampled_id_span = cfg_.sampled_id_span;
    in.estimated_ids = cfg_.estimated_ids;
    in.weight_column = cfg_.weight_column;
    in.vertices = cfg_.vertices;
    return in;
  }

  // What this node may allocate: node_memory_limit().
  MemoryLimit memory_limit() const;
  // The estimate for `shape` (P, K, --scatter, --segment-kib, --rx-queues,
  // --range-kib and --local-rounds filled in from the configuration), less `held` bytes already allocated, checked
  // against memory_limit(); `what` starts the error. Throws MemoryBudgetError.
  // Under --scatter auto a node that fits only by pushing (fit_to_memory)
  // pushes only from then on: config().engine.scatter becomes kSparse.
  MemoryFit check_memory_for(NodeShape shape, const AppFootprint& app, uint64_t held, const std::string& what);
  // The same estimate as node<R>.json's "memory_estimate": the graph's bytes
  // by phase and their peak, the EAL's memory (pools and rings, as
  // --check-options says), the process's own (kProcessBytes), their sum.
  nlohmann::ordered_json memory_estimate_json(NodeShape shape, const AppFootprint& app) const;

  // The line rate the report compares with: --line-rate, else the port's, else 10.
  double line_rate_gbps() const;

 private:
  LcoreLayout layout_;
  Config cfg_;
  std::unique_ptr<Dataplane> dp_;
};

// `config` as a Node resolves it: domains == 0 to the machine's NUMA node
// count, rx_queues == 0 to the layout's accumulator lcores (*layout: --roles
// over the EAL's lcores; the EAL must be initialised). Throws ConfigError.
Config resolve_config(Config config, LcoreLayout* layout);

// What a node with the resolved `config` and `workers` worker lcores needs
// for `shape` (P, K and the options that shape its structures filled in from
// `config`): the estimate Node::check_memory_for checks, and `wiregraph
// doctor` reports.
MemoryNeed node_memory_need(const Config& config, unsigned workers, NodeShape shape, const AppFootprint& app);
// The same under `limit`, `held` bytes already allocated: whether the node
// pushes only to fit (fit_to_memory).
MemoryFit node_memory_fit(const Config& config, unsigned workers, NodeShape shape, const AppFootprint& app,
                          uint64_t held, const MemoryLimit& limit);

// What a node may allocate: read_memory_limit(), shared with the other nodes
// of the job on this host (WIREGRAPH_NODES_PER_HOST, set by scripts/wiregraph-cluster).
MemoryLimit node_memory_limit();

// Dataplane settings of a node: pools, ports' validation context.
DataplaneOptions dataplane_options(const Config& c);
// The same before the EAL has ports, for `queues` receive queues (the
// node's lcore layout's) and the receive pool they would get: what -m must
// hold is Dataplane::eal_memory_bytes(of these, 1). For the launcher's
// check (wiregraph --check-options) and the doctor.
DataplaneOptions sized_dataplane_options(const Config& c, unsigned queues);

// The process's largest resident set so far, in bytes (getrusage).
uint64_t peak_rss_bytes();
// The hugepages the EAL holds, in bytes: the node's memory, not in its
// resident set (with --no-huge the EAL's pages are ordinary, in RSS, and
// this is 0). A node's peak is peak_rss_bytes() + this.
uint64_t hugepage_bytes_held();

}  // namespace wg
