#include "runtime/node.h"

#include <chrono>

#include "compute/graph_reader.h"
#include "numa/topology.h"

namespace wg {

DataplaneOptions dataplane_options(const Config& c, unsigned record_bytes) {
  DataplaneOptions o;
  o.job_token = c.job_token;
  o.rank = c.rank;
  o.nodes = c.nodes;
  o.udp_port = c.udp_port;
  o.mbufs = c.mbufs;
  o.rx_mbufs = 0;  // the dataplane's default for this many nodes and this window
  o.window = c.transport.window;
  o.checksum = c.transport.checksum;
  o.domains = c.domains;
  o.record_bytes = record_bytes;
  return o;
}

namespace {

Config resolved(Config c) {
  if (c.domains == 0) c.domains = static_cast<unsigned>(read_topology().numa_domains);
  return c;
}

}  // namespace

Node::Node(const Config& config, unsigned record_bytes)
    : cfg_(resolved(config)), dp_(std::make_unique<Dataplane>(dataplane_options(cfg_, record_bytes))) {}

LoadedGraph Node::load() const {
  const auto t0 = std::chrono::steady_clock::now();
  LoadedGraph g = prepare(load_graph(cfg_.graph, cfg_.format));
  g.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return g;
}

LoadedGraph Node::prepare(EdgeList edges) const {
  const GraphRules& rules = cfg_.program.graph;
  LoadedGraph g;
  g.edges = std::move(edges);
  if (cfg_.undirected || rules.symmetrize) add_reverse_edges(g.edges);
  if (rules.drop_self_loops) remove_self_loops(g.edges);
  if (rules.drop_duplicates) remove_duplicate_edges(g.edges);
  if (cfg_.program.uses_source && cfg_.source >= g.edges.num_vertices)
    throw ConfigError("--source " + std::to_string(cfg_.source) + " is not a vertex of " + cfg_.graph + " (it has " +
                      std::to_string(g.edges.num_vertices) + " vertices)");
  g.fingerprint = fingerprint(g.edges);
  return g;
}

double Node::line_rate_gbps() const {
  if (cfg_.engine.line_rate_gbps > 0) return cfg_.engine.line_rate_gbps;
  return dp_->link_speed_gbps() > 0 ? dp_->link_speed_gbps() : 10.0;
}

}  // namespace wg
