#include "apps/node/snapshots.h"

#include <chrono>
#include <cstdio>

#include "compute/load/snapshot_manifest.h"
#include "compute/load/snapshot_reader.h"
#include "compute/load/snapshot_writer.h"
#include "compute/report/build_info.h"

namespace wg {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The partition report of a share read back: its domains as saved, without
// the METIS figures of the run that made them (recounting the node-local
// edges would cost a pass over every edge).
DomainPartition partition_as_saved(const LocalGraph& g) {
  DomainPartition p;
  p.domains = g.domains;
  p.domain_of.resize(g.num_local);
  p.vertices_per_domain.assign(g.domains, 0);
  p.edges_per_domain.assign(g.domains, 0);
  for (unsigned d = 0; d < g.domains; ++d)
    for (uint32_t i = g.domain_offset[d]; i < g.domain_offset[d + 1]; ++i) {
      p.domain_of[i] = static_cast<uint8_t>(d);
      ++p.vertices_per_domain[d];
      p.edges_per_domain[d] += g.out_degree[i];
    }
  p.vertex_imbalance = p.edge_imbalance = 1.0;
  p.note = "read from a snapshot: the domains as saved";
  return p;
}

}  // namespace

SnapshotManifest snapshot_for_job(const Config& cfg, const LoadOptions& lo) {
  const std::string& dir = cfg.graph_spec.snapshot_dir;
  if (lo.in_edges)  // refused before anything starts, as another job's snapshot is
    throw ConfigError("--app " + cfg.app + " scatters along in-edges, and a snapshot holds the out-edges only (" +
                      dir + "): give the graph itself");
  try {
    const SnapshotManifest m = read_snapshot_manifest(dir);
    check_snapshot_serves(dir, m, cfg.nodes, SnapshotRules::of(lo));
    return m;
  } catch (const SnapshotError& e) {
    throw ConfigError(e.what());  // the user's to mend: another job's snapshot
  }
}

LocalGraph load_snapshot_share(const Config& cfg, const SnapshotManifest& m, LoadReport* load) {
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t bytes = 0;
  LocalGraph g = read_node_snapshot(cfg.graph_spec.snapshot_dir, cfg.rank, m, &bytes);
  LoadReport& r = *load;
  r.num_vertices = m.vertices;
  r.num_edges = m.edges;
  r.input_edges = m.input_edges;
  r.weighted = m.weighted;
  r.degrees_alike = m.degrees_alike;
  r.fingerprint = m.fingerprint;
  r.input_bytes = bytes;
  r.bytes_read = bytes;
  r.local_edges = local_out_edges(g);
  r.read_seconds = seconds_since(t0);
  r.seconds = r.read_seconds;
  r.partition = partition_as_saved(g);
  return g;
}

SnapshotManifest save_snapshot_share(const Config& cfg, const LoadOptions& lo, const LoadReport& load,
                                     const LocalGraph& g) {
  SnapshotManifest m;
  m.build = build::version_line("wiregraph");
  m.nodes = cfg.nodes;
  m.vertices = load.num_vertices;
  m.edges = load.num_edges;
  m.input_edges = load.input_edges;
  m.fingerprint = load.fingerprint;
  m.weighted = load.weighted;
  m.degrees_alike = load.degrees_alike;
  m.rules = SnapshotRules::of(lo);
  m.graph = cfg.graph;
  m.first_id = static_cast<uint32_t>(cfg.first_id);
  m.mapped_ids = cfg.graphalytics || cfg.sparse_ids;  // alike on every node
  m.ids_chosen = cfg.ids_chosen;
  if (cfg.one_source() && !cfg.source_given) m.default_source = cfg.source_id;
  if (m.mapped_ids && cfg.one_source() && load.source) {
    m.mapped_source_id = cfg.source_id;
    m.mapped_source_dense = *load.source;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t bytes = write_node_snapshot(cfg.save_snapshot_dir, g, m);
  if (cfg.rank == 0 || cfg.engine.verbose)
    std::printf("%ssnapshot: saved this node's share to %s (%.1f MB in %.3f s)\n",
                cfg.rank == 0 && !cfg.engine.verbose ? "" : ("node " + std::to_string(cfg.rank) + ": ").c_str(),
                snapshot_file_path(cfg.save_snapshot_dir, cfg.rank).c_str(), bytes / 1e6, seconds_since(t0));
  return m;
}

}  // namespace wg
