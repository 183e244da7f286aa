// A program's run on an assembled node (runtime/node.h): partition the
// loaded graph, build the engine and the runtime, run, and (run_program)
// report and write the outputs. The only code instantiated per program
// outside compute/engine.h and compute/worker.h.
#pragma once

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compute/domain_plan.h"
#include "compute/engine.h"
#include "compute/lcore_layout.h"
#include "compute/partition.h"
#include "compute/runtime.h"
#include "compute/vertex_program.h"
#include "reliability/membership.h"
#include "reliability/transport.h"
#include "report/run_report.h"
#include "runtime/node.h"
#include "runtime/outputs.h"

namespace wg {

template <VertexProgram Prog>
struct RunResult {
  LocalGraph graph;                          // this node's part
  std::vector<typename Prog::Value> values;  // by slot: graph.global_id(i) is the vertex
  RunReport report;
};

// The error of a run that failed inside the runtime, after it told the peers.
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// compute_on_node without the ABORT on failure.
template <VertexProgram Prog>
RunResult<Prog> compute_unguarded(Node& node, LoadedGraph& g, Prog prog, bool announce) {
  const Config& cfg = node.config();
  DomainPlan plan = plan_domains(g.edges, cfg.nodes, cfg.rank, cfg.domains, cfg.domain_metis);
  RunResult<Prog> out;
  out.graph = build_local_graph(g.edges, cfg.nodes, cfg.rank, Prog::kTraits.graph.weights, &plan.map);
  const LocalGraph& lg = out.graph;
  if (cfg.domains == 1) plan.mine = partition_domains(lg, 1, false);
  const JobIdentity job{program_id(Prog::kTraits.name), cfg.params_digest(), g.fingerprint};
  const double load_seconds = g.load_seconds;
  {
    EdgeList none;
    std::swap(none, g.edges);  // the node keeps only its part from here on
  }
  EngineOptions eo = cfg.engine;
  eo.line_rate_gbps = node.line_rate_gbps();
  const LcoreLayout layout = plan_lcores(eo.split_roles);
  if (announce) {
    std::printf("%s", format_partition_report(plan.mine).c_str());
    std::printf("partition: %u local vertices, %lu local out-edges\n", lg.num_local,
                static_cast<unsigned long>(local_out_edges(lg)));
    std::printf("roles: %s\n", layout.describe(lg.domains).c_str());
    std::fflush(stdout);
  }
  Transport transport(node.dataplane(), cfg.transport);
  Engine<Prog> engine(eo, node.dataplane(), lg, layout, prog);
  Runtime runtime(eo, job, node.dataplane(), transport, lg, layout, engine);
  try {
    out.report = runtime.run();
  } catch (const std::exception& e) {
    runtime.abort(e.what());
    throw RuntimeFailure(e.what());
  }
  out.report.load_seconds = load_seconds;
  out.report.partition_json = partition_report_json(plan.mine);
  out.values = engine.values();
  return out;
}

// Runs `prog` on this node's part of `g` (which is released as soon as the
// node has its part). Prints the partition report and the role layout when
// `announce`. A failure is sent to the peers (ABORT) and rethrown.
template <VertexProgram Prog>
RunResult<Prog> compute_on_node(Node& node, LoadedGraph& g, Prog prog, bool announce) {
  const Config& cfg = node.config();
  try {
    return compute_unguarded(node, g, prog, announce);
  } catch (const RuntimeFailure&) {
    throw;  // the runtime has told the peers
  } catch (const std::exception& e) {
    // Tell the other nodes now (they may still be discovering us), so they
    // stop with this reason instead of timing out.
    Membership::abort_cluster(node.dataplane(), "node " + std::to_string(cfg.rank) + ": " + e.what());
    throw;
  }
}

// The node binary's run: compute, print the totals, write --out. Returns
// the exit code (errors are printed and sent to the peers).
template <VertexProgram Prog>
int run_program(Node& node, LoadedGraph& g) {
  const Config& cfg = node.config();
  RunResult<Prog> r;
  try {
    r = compute_on_node(node, g, Prog::make(cfg.params(), g.edges.num_vertices), true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wiregraph: error: node %u: %s\n", cfg.rank, e.what());
    return 1;
  }
  print_run_totals(r.report);
  print_fault_counts(r.report);
  if (cfg.rank == 0 && Prog::kTraits.ranks_top) print_top(r.report);
  if (!cfg.out_dir.empty()) {
    write_outputs(cfg, r.report, [&](std::FILE* f) {
      for (uint32_t i = 0; i < r.graph.num_local; ++i) {
        std::fprintf(f, "%u ", r.graph.global_id(i));
        Prog::print_value(f, r.values[i]);
        std::fputc('\n', f);
      }
    });
  }
  return 0;
}

}  // namespace wg
