#include "apps/node/node.h"

#include <rte_memory.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>

#include "apps/node/input_choice.h"
#include "compute/engine/dense_block.h"
#include "compute/graph/memory_limit.h"
#include "numa/topology.h"
#include "reliability/membership.h"

namespace wg {

DataplaneOptions dataplane_options(const Config& c) {
  DataplaneOptions o;
  o.job_token = c.job_token;
  o.rank = c.rank;
  o.nodes = c.nodes;
  o.udp_port = c.udp_port;
  o.mbufs = c.mbufs;
  o.rx_mbufs = 0;  // the dataplane's default for this many nodes and this window
  o.window = c.transport.window;
  o.checksum = c.transport.checksum;
  o.auth.authenticated = c.authenticated;
  o.auth.key = c.key;
  o.queues = c.rx_queues;
  o.mtu = c.mtu;
  o.server_wait_s = c.engine.hello_timeout_s;
  o.ntuple = c.ntuple;  // a memif client's wait for its server is part of discovery
  return o;
}

DataplaneOptions sized_dataplane_options(const Config& c, unsigned queues) {
  DataplaneOptions o = dataplane_options(c);
  o.queues = queues;
  o.rx_mbufs = Dataplane::estimated_rx_mbufs(c.nodes, c.transport.window, queues);
  return o;
}

// NUMA domains from the machine; the lcore layout from --roles and the
// EAL's lcores, and from it the receive queues when --rx-queues is not given.
Config resolve_config(Config c, LcoreLayout* layout) {
  if (c.domains == 0) c.domains = static_cast<unsigned>(read_topology().numa_domains);
  try {
    *layout = plan_lcores(c.engine.roles, c.rx_queues);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  c.rx_queues = layout->queues;
  c.engine.queues = layout->queues;
  // A Config filled in by hand (tests, benchmarks) has not had its --graph
  // parsed by parse_app_args: parse it here, once, as that would have.
  if (c.graph_spec.text != c.graph) {
    try {
      c.graph_spec = parse_graph_spec(c.graph, c.format);
    } catch (const GraphError& e) {
      throw ConfigError(std::string("--graph: ") + e.what());
    }
  }
  return c;
}

Node::Node(const Config& config)
    : cfg_(resolve_config(config, &layout_)), dp_(std::make_unique<Dataplane>(dataplane_options(cfg_))) {
  try {
    choose_input(cfg_);
  } catch (const std::exception& e) {
    // The peers hear it now rather than time out waiting for this node.
    Membership::abort_cluster(*dp_, "node " + std::to_string(cfg_.rank) + ": " + e.what());
    throw;
  }
}

MemoryLimit node_memory_limit() {
  unsigned sharing = 1;
  if (const char* n = std::getenv("WIREGRAPH_NODES_PER_HOST")) sharing = static_cast<unsigned>(std::atoi(n));
  return share_of(read_memory_limit(), sharing);
}

MemoryLimit Node::memory_limit() const { return node_memory_limit(); }

MemoryFit node_memory_fit(const Config& cfg, unsigned workers, NodeShape shape, const AppFootprint& app, uint64_t held,
                          const MemoryLimit& limit) {
  shape.workers = std::max(1u, workers);
  shape.nodes = cfg.nodes;
  shape.domains = cfg.domains;
  shape.scatter = cfg.engine.scatter;
  shape.segment_bytes = cfg.engine.segment_bytes ? cfg.engine.segment_bytes : default_segment_bytes();
  shape.queues = cfg.rx_queues;  // resolved: the layout's
  shape.range_bytes = cfg.engine.range_bytes;  // 0: range_entries_of's default
  shape.local_rounds = cfg.engine.local_rounds;
  shape.degree_order = cfg.degree_order;
  AppFootprint loaded = app;
  loaded.symmetrize |= cfg.undirected;  // --undirected doubles the edges like the program's own rule
  return fit_to_memory(shape, loaded, held, limit);
}

MemoryNeed node_memory_need(const Config& cfg, unsigned workers, NodeShape shape, const AppFootprint& app) {
  return node_memory_fit(cfg, workers, shape, app, 0, MemoryLimit{}).need;  // no limit: --scatter as given
}

nlohmann::ordered_json Node::memory_estimate_json(NodeShape shape, const AppFootprint& app) const {
  const MemoryNeed need = node_memory_need(cfg_, layout_.workers(), shape, app);
  // The EAL's part is what it holds: with hugepages, the whole -m it
  // reserved at start (the launcher's -m is the pools' need with a margin,
  // and a peak counts the hugepages held); without, the pools' need.
  const uint64_t eal = std::max(Dataplane::eal_memory_bytes(sized_dataplane_options(cfg_, layout_.queues), 1),
                                hugepage_bytes_held());
  nlohmann::ordered_json j;
  j["graph"] = {{"load", need.load},           {"build", need.build}, {"run", need.run},
                {"peak", need.peak()},          {"csr", need.local_graph}, {"dense", need.dense},
                {"light_first", need.light_first}, {"ranges", need.ranges}};
  // (the mode the estimate is for: "sparse" too when the node pushes only to fit)
  const ScatterMode m = cfg_.engine.scatter;
  j["scatter"] = m == ScatterMode::kSparse ? "sparse" : m == ScatterMode::kDense ? "dense" : "auto";
  j["eal"] = eal;
  j["process"] = kProcessBytes;
  j["total"] = need.peak() + eal + kProcessBytes;
  return j;
}

MemoryFit Node::check_memory_for(NodeShape shape, const AppFootprint& app, uint64_t held, const std::string& what) {
  const MemoryLimit limit = memory_limit();
  const MemoryFit fit = node_memory_fit(cfg_, layout_.workers(), shape, app, held, limit);
  check_memory(fit.need, held, limit, what);
  cfg_.engine.scatter = fit.scatter;
  return fit;
}

double Node::line_rate_gbps() const {
  if (cfg_.engine.line_rate_gbps > 0) return cfg_.engine.line_rate_gbps;
  return dp_->link_speed_gbps() > 0 ? dp_->link_speed_gbps() : 10.0;
}

uint64_t hugepage_bytes_held() {
  uint64_t bytes = 0;
  rte_memseg_walk(
      [](const rte_memseg_list* msl, const rte_memseg* ms, void* arg) {
        if (!msl->external && ms->hugepage_sz > RTE_PGSIZE_4K) *static_cast<uint64_t*>(arg) += ms->len;
        return 0;
      },
      &bytes);
  return bytes;
}

uint64_t peak_rss_bytes() {
  struct rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace wg
