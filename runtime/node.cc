#include "runtime/node.h"

#include <chrono>
#include <cstdlib>

#include "compute/dense_block.h"
#include "compute/graph_reader.h"
#include "compute/memory_limit.h"
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

MemoryLimit Node::memory_limit() const {
  unsigned sharing = 1;
  if (const char* n = std::getenv("WIREGRAPH_NODES_PER_HOST")) sharing = static_cast<unsigned>(std::atoi(n));
  return share_of(read_memory_limit(), sharing);
}

void Node::check_memory_for(NodeShape shape, const AppFootprint& app, uint64_t held, const std::string& what) const {
  shape.nodes = cfg_.nodes;
  shape.domains = cfg_.domains;
  shape.scatter = cfg_.engine.scatter;
  shape.segment_bytes = cfg_.engine.segment_bytes ? cfg_.engine.segment_bytes : default_segment_bytes();
  AppFootprint loaded = app;
  loaded.symmetrize |= cfg_.undirected;  // --undirected grows the edge list like the program's own rule
  check_memory(estimate_node_memory(shape, loaded), held, memory_limit(), what);
}

LoadedGraph Node::load(const AppFootprint& app) const {
  const auto t0 = std::chrono::steady_clock::now();
  const bool doubled = cfg_.undirected || app.symmetrize;
  LoadLimits limits;
  limits.max_stream_bytes = memory_limit().bytes / 4;  // the edges take up to three times the text
  limits.check = [&](const DeclaredSize& d) {
    const uint64_t edges = doubled && d.edges <= UINT64_MAX / 2 ? 2 * d.edges : d.edges;
    check_memory_for(balanced_shape(d.vertices, edges, cfg_.nodes, cfg_.domains), app, 0, cfg_.graph + ": " + d.what);
  };
  LoadedGraph g = prepare(load_graph(cfg_.graph, cfg_.format, limits), app);
  g.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return g;
}

LoadedGraph Node::prepare(EdgeList edges, const AppFootprint& app) const {
  const GraphRules& rules = cfg_.program.graph;
  // This node's out- and in-edges, as the rules will leave them at most
  // (symmetrising gives each vertex its in-edges as out-edges too).
  NodeShape shape;
  shape.vertices = edges.num_vertices;
  for (const Edge& e : edges.edges) {
    shape.out_edges += e.src % cfg_.nodes == cfg_.rank;
    shape.in_edges += e.dst % cfg_.nodes == cfg_.rank;
  }
  shape.whole_edges = edges.num_edges();
  if (cfg_.undirected || rules.symmetrize) {
    shape.whole_edges *= 2;
    shape.out_edges = shape.in_edges = shape.out_edges + shape.in_edges;
  }
  check_memory_for(shape, app, edges.edges.capacity() * sizeof(Edge),
                   cfg_.graph + ": " + std::to_string(edges.num_vertices) + " vertices and " +
                       std::to_string(edges.num_edges()) + " edges");
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
