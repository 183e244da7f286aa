#include "apps/app_runner.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "apps/bfs.h"
#include "apps/cc.h"
#include "apps/label_propagation.h"
#include "apps/pagerank.h"
#include "apps/sssp.h"
#include "compute/engine.h"
#include "compute/partition.h"
#include "report/run_report.h"
#include "compute/domain_plan.h"
#include "config/config_json.h"

namespace wg {

namespace {

template <VertexProgram Prog>
void write_results(const std::string& path, const LocalGraph& g, const std::vector<typename Prog::Value>& values) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  std::unique_ptr<char[]> buffer(new char[1 << 20]);
  std::setvbuf(f, buffer.get(), _IOFBF, 1 << 20);
  for (uint32_t i = 0; i < g.num_local; ++i) {
    std::fprintf(f, "%u ", g.global_id(i));
    Prog::print_value(f, values[i]);
    std::fputc('\n', f);
  }
  const bool bad = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || bad) throw std::runtime_error("error writing " + path);
}

void print_fault_counts(const RunReport& r) {
  auto line = [](const char* dir, const FaultCounts& f) {
    if (f.seen == 0) return;
    std::printf("        injected on %s: %lu frames seen, dropped %lu, duplicated %lu, reordered %lu, "
                "corrupted %lu, delayed %lu\n",
                dir, static_cast<unsigned long>(f.seen), static_cast<unsigned long>(f.dropped),
                static_cast<unsigned long>(f.duplicated), static_cast<unsigned long>(f.reordered),
                static_cast<unsigned long>(f.corrupted), static_cast<unsigned long>(f.delayed));
  };
  line("receive", r.rx_faults);
  line("transmit", r.tx_faults);
}

void print_top(App app, const RunReport& r) {
  if (app != App::kPageRank || r.cluster_top.empty()) return;
  std::printf("top %zu vertices by rank:\n", r.cluster_top.size());
  for (size_t i = 0; i < r.cluster_top.size(); ++i)
    std::printf("  %2zu. vertex %10u  rank %.9g\n", i + 1, r.cluster_top[i].vertex, r.cluster_top[i].value);
}

template <VertexProgram Prog>
int run(const Config& cfg, Dataplane& dp, LoadedGraph& graph, Prog prog, uint32_t app_id) {
  DomainPlan plan = plan_domains(graph.edges, cfg.nodes, cfg.rank, cfg.domains, cfg.domain_metis);
  const LocalGraph lg = build_local_graph(graph.edges, cfg.nodes, cfg.rank, Prog::kNeedsWeights, &plan.map);
  if (cfg.domains == 1) plan.mine = partition_domains(lg, 1, false);
  std::printf("%s", format_partition_report(plan.mine).c_str());
  EngineOptions eo;
  eo.peer_timeout_s = cfg.peer_timeout_s;
  eo.hello_timeout_s = cfg.hello_timeout_s;
  eo.params_digest = cfg.params_digest();
  eo.graph_fingerprint = graph.fingerprint;
  eo.app_id = app_id;
  eo.quiet = cfg.quiet;
  eo.top = cfg.top;
  eo.crash_at_superstep = cfg.crash_at_superstep;
  eo.split_roles = cfg.split_roles;
  eo.scatter = cfg.scatter;
  eo.segment_bytes = size_t{cfg.segment_kib} * 1024;
  eo.line_rate_gbps = cfg.line_rate_gbps > 0 ? cfg.line_rate_gbps
                      : dp.link_speed_gbps() > 0 ? dp.link_speed_gbps() : 10.0;
  {
    EdgeList none;
    std::swap(none, graph.edges);  // the node keeps only its part from here on
  }
  std::printf("partition: %u local vertices, %lu local out-edges\n", lg.num_local,
              [&lg] {
                unsigned long n = 0;
                for (const EdgeBlock& b : lg.blocks) n += b.num_edges();
                return n;
              }());
  std::fflush(stdout);

  Transport transport(dp, cfg.transport);
  Engine<Prog> engine(eo, dp, transport, lg, prog);
  std::printf("roles: %s\n", engine.role_summary().c_str());
  std::fflush(stdout);
  RunReport report;
  try {
    report = engine.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wiregraph: error: node %u: %s\n", cfg.rank, e.what());
    engine.abort(e.what());
    return 1;
  }
  report.load_seconds = graph.load_seconds;
  report.partition_json = partition_report_json(plan.mine);
  print_run_totals(report);
  print_fault_counts(report);
  if (cfg.rank == 0) print_top(cfg.app, report);
  if (!cfg.out_dir.empty()) {
    std::filesystem::create_directories(cfg.out_dir);
    const std::string dir = cfg.out_dir + "/";
    write_results<Prog>(dir + "result-" + std::to_string(cfg.rank) + ".txt", lg, engine.values());
    write_node_json(dir + "node" + std::to_string(cfg.rank) + ".json", config_json(cfg), report);
    if (cfg.rank == 0) write_summary_json(dir + "summary.json", config_json(cfg), report);
    std::printf("results written to %sresult-%u.txt\n", dir.c_str(), cfg.rank);
  }
  return 0;
}

}  // namespace

int run_app(const Config& cfg, Dataplane& dp, LoadedGraph& graph) {
  const VertexId v = graph.edges.num_vertices;
  switch (cfg.app) {
    case App::kPageRank: return run(cfg, dp, graph, PageRank(v, cfg.iterations), 1);
    case App::kSssp: return run(cfg, dp, graph, Sssp(cfg.source), 2);
    case App::kBfs: return run(cfg, dp, graph, Bfs(cfg.source), 3);
    case App::kCc: return run(cfg, dp, graph, ConnectedComponents(), 4);
    case App::kCd: return run(cfg, dp, graph, LabelPropagation(cfg.iterations), 5);
  }
  return 1;
}

}  // namespace wg
