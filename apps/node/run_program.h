// A program's run on an assembled node (apps/node/node.h): one runtime, two
// phases. The loader gives the node its share of the graph
// (compute/load/graph_loader.h), then the program's engine runs on it; run_program
// verifies (--verify, apps/node/verify.h), reports and writes the outputs. The
// only code instantiated per program outside compute/engine/engine.h and
// compute/engine/worker.h.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "compute/engine/checkpointer.h"
#include "compute/engine/engine.h"
#include "compute/graph/graph_input.h"
#include "compute/graph/inflated_files.h"
#include "compute/load/graph_loader.h"
#include "compute/load/id_lookup.h"
#include "compute/engine/lcore_layout.h"
#include "compute/partition/partition.h"
#include "compute/engine/range_plan.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/value_summary.h"
#include "compute/engine/superstep_runtime.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/vertex_program.h"
#include "compute/report/run_summary.h"
#include "config/option_table.h"
#include "reliability/membership.h"
#include "reliability/transport.h"
#include "compute/report/run_report.h"
#include "apps/node/node.h"
#include "apps/node/graphalytics_output.h"
#include "apps/node/out_dir.h"
#include "apps/node/snapshots.h"
#include "compute/load/snapshot_manifest.h"
#include "apps/node/outputs.h"
#include "apps/node/verify.h"
#include "apps/node/verify_edges.h"
#include "apps/node/verify_verdict.h"

namespace wg {

// What runs a program: Engine<Prog>, or the program's own driver (Prog::Driver,
// compute/engine/program_driver.h: tc's, lcc's, jaccard's) built from the
// same arguments.
template <class Prog>
struct DriverFor {
  using type = Engine<Prog>;
};
template <DriverProgram Prog>
struct DriverFor<Prog> {
  using type = typename Prog::Driver;
};

template <RunnableProgram Prog>
struct RunResult {
  LocalGraph graph;                          // this node's part
  std::vector<typename Prog::Value> values;  // by slot: graph.global_id(i) is the vertex
  // Labels (WCC, CDLP) as original ids, by slot, when the loader mapped the
  // input's ids (a Graphalytics graph, --ids sparse; compute/load/id_lookup.h);
  // else empty.
  std::vector<int64_t> label_ids;
  VertexId source = 0;  // the dense id of --source the program ran from
  std::vector<VertexId> seeds;  // ppr's --seeds as the loader mapped them (mapped ids only; else empty)
  // Per-edge programs (compute/engine/capabilities/neighbourhood.h): this
  // node's edges and their results, sorted; empty for every other program.
  std::vector<EdgeResult<typename Prog::Value>> edges;
  RunReport report;
};

// The error of a run that failed after it told the peers (ABORT).
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Which vertex each of this node's slots holds, as one number (a checkpoint's fingerprint).
inline uint64_t partition_digest_of(const LocalGraph& g) {
  std::vector<uint32_t> ids(g.num_local);
  for (uint32_t i = 0; i < g.num_local; ++i) ids[i] = g.global_id(i);
  return partition_digest(ids, g.num_vertices, local_out_edges(g));
}

// What every node of the job must agree on before anything is loaded.
template <RunnableProgram Prog>
JobIdentity job_identity(const Config& cfg, const GraphInput& input) {
  const InputIdentity in = identify_input(input);
  return JobIdentity{program_id(Prog::kTraits.name), cfg.params_digest(), in.kind, in.size, in.digest, &describe_input,
                     [programs = cfg.programs](uint32_t id) { return program_name(id, programs); }};
}

// What a node's own lines start with: "node R: " for srun, mpirun or a
// terminal; nothing under scripts/wiregraph-cluster, whose "[node R] " prefix
// says it already.
inline std::string node_tag(const Config& cfg) {
  return std::getenv("WIREGRAPH_LAUNCHER") != nullptr ? "" : "node " + std::to_string(cfg.rank) + ": ";
}

// A node that pushes only to fit its memory (Node::check_memory_for) says
// so, and what would let it pull.
inline void warn_if_pushing_only(const Node& node, const MemoryFit& fit) {
  if (!fit.pushes_only_to_fit()) return;
  const MemoryLimit limit = node.memory_limit();
  std::fprintf(stderr,
               "wiregraph: warning: %spulling needs a dense copy of the edges (%s) that does not fit beside the "
               "graph (this node may use %s: %s): it pushes only, as --scatter sparse, which is slower on "
               "supersteps with large frontiers (more memory or more --nodes let it pull)\n",
               node_tag(node.config()).c_str(), format_bytes(fit.dense_left_out).c_str(),
               format_bytes(limit.bytes).c_str(), limit.source.c_str());
}

// What the input declares (a header, a binary file's length, the generator's
// spec) against what this node may use, before anything is read or sent. An
// edge list declares nothing: the loader checks it once its edges are in.
template <RunnableProgram Prog>
void check_declared_memory(Node& node, const GraphInput& input) {
  const Config& cfg = node.config();
  const DeclaredSize d = declared_size_of(input);
  if (d.vertices == 0 && d.edges == 0) return;
  const NodeShape shape =
      declared_shape(d, cfg.nodes, cfg.domains, cfg.undirected || Prog::kTraits.graph.symmetrize);
  warn_if_pushing_only(node, node.check_memory_for(shape, footprint_of<Prog>(), 0, input.spec + ": " + d.what));
}

inline uint32_t max_range_size(const LocalGraph& g) {
  uint32_t m = 0;
  for (unsigned d = 0; d < g.domains; ++d) m = std::max(m, g.domain_size(d));
  return m;
}

// "0..8297", "1..3353": the ids --source may name when the input is not mapped.
inline std::string id_range(const Config& cfg, uint64_t vertices) {
  return std::to_string(cfg.first_id) + ".." + std::to_string(cfg.first_id + vertices - 1);
}

// The source's owner warns when it has no out-edges: the program reaches no
// other vertex (once per job: only the owner knows, and only it prints).
inline void warn_if_source_is_a_sink(const Config& cfg, const LocalGraph& lg, VertexId source) {
  if (lg.partition.owner(source) != lg.rank) return;
  for (uint32_t i = 0; i < lg.num_local; ++i) {
    if (lg.global_id(i) != source) continue;
    if (lg.out_degree[i] == 0)
      std::fprintf(stderr,
                   "wiregraph: warning: the source, vertex %" PRId64 " of %s, has no out-edges: %s reaches no "
                   "other vertex (--source chooses another)\n",
                   cfg.source_id, cfg.graph.c_str(), cfg.app.c_str());
    return;
  }
}

// How loading shows its progress (compute/load/graph_loader.h). Under
// scripts/wiregraph-cluster (WIREGRAPH_LAUNCHER in the environment) every node
// prints a line a second and the launcher makes one line for the cluster of
// them; otherwise rank 0 alone speaks for the cluster (the byte ranges are
// even), on one terminal line rewritten in place or, into a file or pipe,
// every few seconds. --verbose: every node, with its edge counts.
inline LoadProgress load_progress(const Config& cfg) {
  LoadProgress p;
  const bool launcher = std::getenv("WIREGRAPH_LAUNCHER") != nullptr;
  p.details = cfg.engine.verbose;
  p.lines = launcher || cfg.engine.verbose || cfg.rank == 0;
  p.in_place = !launcher && !cfg.engine.verbose && isatty(STDOUT_FILENO);
  p.interval_s = launcher || p.in_place ? 1.0 : 5.0;
  return p;
}

// This node's program summary statistics as bytes for its FIN
// (compute/engine/summary_stats.h); none for a program without the hook.
// The engine's program as the run left it (its next() may keep figures for
// the summary: PageRank's convergence); a program on its own driver
// summarizes statically.
// A per-edge program without a summary of its own: its edges' values'
// (compute/engine/value_summary.h).
template <RunnableProgram Prog, class Driver, class Edges>
std::vector<uint8_t> summary_stats_bytes(const Driver& engine, const LocalGraph& g, const Edges& edges) {
  if constexpr (PerEdgeResults<Prog> && !SummarizesAnswer<Prog>) {
    const ValueSummary s = edge_value_summary_of(std::span(edges));
    std::vector<uint8_t> bytes(sizeof s);
    std::memcpy(bytes.data(), &s, sizeof s);
    return bytes;
  } else if constexpr (SummarizesAnswer<Prog>) {
    const std::span<const typename Prog::Value> values(engine.values());
    typename Prog::Summary s;
    if constexpr (requires { engine.program(); })
      s = engine.program().summarize(values, g);
    else
      s = Prog::summarize(values, g);
    std::vector<uint8_t> bytes(sizeof s);
    std::memcpy(bytes.data(), &s, sizeof s);
    return bytes;
  } else {
    return {};
  }
}

// The statistics a node sends with its FIN: the program's Summary, else a
// per-edge program's ValueSummary of its edges.
template <class Prog>
struct AnswerSummary {
  using type = ValueSummary;
};
template <SummarizesAnswer Prog>
struct AnswerSummary<Prog> {
  using type = typename Prog::Summary;
};

// Rank 0: the program's word on the answer, from every node's statistics.
template <RunnableProgram Prog>
ProgramOutcome describe_answer(const RunReport& r, const SummaryContext& c) {
  constexpr bool kEdgeSummary = PerEdgeResults<Prog> && !SummarizesAnswer<Prog>;
  if constexpr (kEdgeSummary || SummarizesAnswer<Prog>) {
    using Summary = typename AnswerSummary<Prog>::type;
    std::vector<Summary> nodes(r.cluster_stats.size());
    for (size_t p = 0; p < nodes.size(); ++p) {
      if (r.cluster_stats[p].size() != sizeof(Summary)) {
        ProgramOutcome missing;
        missing.warnings.push_back("node " + std::to_string(p) + "'s statistics did not come with its FIN: no answer line");
        return missing;
      }
      std::memcpy(&nodes[p], r.cluster_stats[p].data(), sizeof(Summary));
    }
    if constexpr (kEdgeSummary)
      return describe_edge_values(std::span<const Summary>(nodes));
    else
      return Prog::describe(std::span<const Summary>(nodes), c);
  } else {
    return {};
  }
}

// What the node prints once its share is loaded: the graph line, and with
// --verbose its partition, lcore roles and accumulation ranges.
inline void announce_graph(const Config& cfg, const LoadReport& load, const LocalGraph& lg, const LcoreLayout& layout,
                           const char* steering) {
  std::printf("graph: %lu vertices, %lu edges%s (fingerprint 0x%016lx); this node read %.1f MB and holds %u "
              "vertices, %lu out-edges; loaded in %.3f s\n",
              static_cast<unsigned long>(load.num_vertices), static_cast<unsigned long>(load.num_edges),
              weights_label(load.weighted, cfg.reads_weights()),
              static_cast<unsigned long>(load.fingerprint), load.bytes_read / 1e6,
              lg.num_local, static_cast<unsigned long>(local_out_edges(lg)), load.seconds);
  if (load.num_vertices == 0 || load.num_edges == 0)
    std::fprintf(stderr, "wiregraph: warning: %s has no %s: every vertex keeps its initial value\n", cfg.graph.c_str(),
                 load.num_vertices == 0 ? "vertices" : "edges");
  if (!cfg.engine.verbose) {
    std::fflush(stdout);
    return;
  }
  std::printf("%s", format_partition_report(load.partition).c_str());
  std::printf("roles: %s\n", layout.describe().c_str());
  const unsigned numa = lg.numa_count();
  std::printf("accumulation: %u range%s of up to %u vertices in %u NUMA domain%s, over %u receive queue%s",
              lg.domains, lg.domains == 1 ? "" : "s", max_range_size(lg), numa, numa == 1 ? "" : "s",
              layout.queues, layout.queues == 1 ? "" : "s");
  if (layout.queues > 1) {
    for (unsigned q = 0; q < layout.queues; ++q) {
      unsigned first = UINT32_MAX, last = 0;
      for (unsigned r = 0; r < lg.domains; ++r)
        if (lg.range_queue.empty() ? q == 0 : lg.range_queue[r] == q) first = std::min(first, r), last = r;
      if (first != UINT32_MAX) std::printf("%squeue %u: ranges %u-%u", q ? "; " : " (", q, first, last);
    }
    std::printf(")");
  }
  std::printf("; steering: %s\n", steering);
  std::fflush(stdout);
}

// Loads this node's share of `input` and runs the program `make(V)` (or
// `make(V, source)`, the dense id of --source) returns on it. A failure is
// sent to the peers (ABORT) and rethrown: ConfigError as itself (exit status
// 2), anything else as RuntimeFailure.
template <RunnableProgram Prog, class Make>
RunResult<Prog> compute_on_node(Node& node, const GraphInput& input, Make&& make, bool announce) {
  const Config& cfg = node.config();
  EngineOptions eo = cfg.engine;
  eo.line_rate_gbps = node.line_rate_gbps();
  if (!Prog::kTraits.ranks_top) eo.top = 0;  // a min-label program's "top" would be its smallest labels
  const LcoreLayout& layout = node.layout();
  Dataplane& dp = node.dataplane();
  Transport transport(dp, cfg.transport);
  // Destroyed in reverse order: the runtime (its lcores stopped) before the
  // drivers its network role folds into (the engine, the label lookup), and
  // all before the graph they read (also on the error path, where the runtime
  // still runs while the peers are told).
  RunResult<Prog> out;
  std::unique_ptr<typename DriverFor<Prog>::type> engine;
  std::unique_ptr<IdLookup> lookup;
  std::unique_ptr<SuperstepRuntime> runtime;
  auto tell_peers = [&](const std::string& what) {
    if (runtime) runtime->abort(what);
    else Membership::abort_cluster(dp, "node " + std::to_string(cfg.rank) + ": " + what);
  };
  try {
    const auto started = std::chrono::steady_clock::now();
    std::optional<SnapshotManifest> snapshot;  // --graph snapshot:DIR, refused before anything starts
    if (input.kind == GraphInput::Kind::kSnapshot)
      snapshot = snapshot_for_job(cfg, load_options(Prog::kTraits.graph, cfg.undirected, cfg.domains,
                                                    cfg.domain_metis, cfg.degree_order));
    check_declared_memory<Prog>(node, input);  // (a snapshot's memory after its refusals: they name the cause)
    const JobIdentity job = job_identity<Prog>(cfg, input);
    JobIdentity hello = job;  // with --resume, every node must go on from the same superstep
    if (!cfg.resume_dir.empty()) {
      try {
        hello.params_digest = digest_with_resume_point(job.params_digest, cfg.resume_dir);
      } catch (const CheckpointError& e) {
        throw ConfigError(e.what());
      }
    }
    runtime = std::make_unique<SuperstepRuntime>(eo, hello, dp, transport, layout, cfg.rank, cfg.nodes);
    LoadReport load;
    runtime->start();
    // Every node has started and heard rank 0: the run is one and has an id,
    // and now claims --out before anything is loaded (apps/node/out_dir.h).
    if (!cfg.out_dir.empty()) claim_out_dir(cfg, runtime->run_id());
    LoadOptions lo = load_options(Prog::kTraits.graph, cfg.undirected, cfg.domains, cfg.domain_metis, cfg.degree_order);
    if (announce) lo.progress = load_progress(cfg);
    lo.crash_in_shuffle = eo.crash_in_load;
    const bool mapped_ids = input.kind == GraphInput::Kind::kGraphalytics ||
                            (input.kind == GraphInput::Kind::kFile && input.sparse_ids);
    if (mapped_ids && cfg.one_source()) lo.source = cfg.source_id;  // the loader maps it
    if (mapped_ids) lo.lookups = cfg.seed_ids;                        // and ppr's seeds
    lo.check_memory = [&node, &cfg, &input](const HeldShape& h) {
      NodeShape shape;
      shape.vertices = h.vertices;
      shape.kron_scale = input.kron_scale();  // its model counts the pairs; without it, the degrees below
      shape.held_edges = shape.out_edges = h.held_edges;
      shape.in_edges = std::max<uint64_t>(h.held_edges, h.edges / cfg.nodes);  // in-edges are not known yet
      shape.out_degrees = h.out_degrees;
      shape.degrees_alike = h.degrees_alike;
      // (a node that already pushes only, from the declared size, is not told again: it asks sparse now)
      warn_if_pushing_only(node, node.check_memory_for(shape, footprint_of<Prog>(), h.held_bytes, h.what));
    };
    out.graph = snapshot ? load_snapshot_share(cfg, *snapshot, &load)
                         : load_graph_share(*runtime, dp, input, lo, layout, &load);
    std::optional<SnapshotManifest> saved;  // --save-snapshot: rank 0 writes the manifest after the computation
    if (!cfg.save_snapshot_dir.empty()) saved = save_snapshot_share(cfg, lo, load, out.graph);
    // A gzip or zstd --graph was decompressed into memory, before the hello
    // (the ids sample reads it): loaded now, that memory goes.
    if (announce) std::printf("%s", inflated_files_summary().c_str());
    release_inflated_files();
    const LocalGraph& lg = out.graph;
    const VertexId source = load.source ? *load.source : cfg.source;
    if (cfg.one_source() && !mapped_ids && cfg.source >= load.num_vertices)
      throw ConfigError("--source " + std::to_string(cfg.source_id) + " is not a vertex of " + cfg.graph +
                        (load.num_vertices == 0 ? std::string(" (it has no vertices)")
                                                : " (its vertices are " + id_range(cfg, load.num_vertices) + ")"));
    if (cfg.one_source()) warn_if_source_is_a_sink(cfg, lg, source);
    // Ranges of Σ that stay in cache, owned by the receive queues
    // (compute/engine/range_plan.h), planned alike on every node.
    split_into_ranges(out.graph, plan_ranges(out.graph.node_domain_offset, layout.queues,
                                             range_entries_of(eo.range_bytes, largest_node_slots(out.graph.node_domain_offset),
                                                              footprint_of<Prog>().message_bytes,
                                                              footprint_of<Prog>().pulls_only)));
    if (announce) announce_graph(cfg, load, lg, layout, dp.ports().steering_summary().c_str());
    const auto n = static_cast<VertexId>(load.num_vertices);
    eo.scatter = cfg.engine.scatter;  // sparse if the dense copy did not fit (Node::check_memory_for)
    if constexpr (DriverProgram<Prog>)
      engine = std::make_unique<typename Prog::Driver>(eo, dp, lg, layout);
    else if constexpr (std::is_invocable_v<Make, VertexId, VertexId, const std::vector<VertexId>&>)
      engine = std::make_unique<Engine<Prog>>(eo, dp, out.graph, layout, make(n, source, load.lookups));
    else if constexpr (std::is_invocable_v<Make, VertexId, VertexId>)
      engine = std::make_unique<Engine<Prog>>(eo, dp, out.graph, layout, make(n, source));
    else
      engine = std::make_unique<Engine<Prog>>(eo, dp, out.graph, layout, make(n));
    PhaseOptions phase{"the computation", eo.verbose, eo.crash_at_superstep};
    std::optional<CheckpointStore> store;
    std::optional<Checkpointer> checkpoints;
    if constexpr (!DriverProgram<Prog>) {
      if (!cfg.checkpoint_dir.empty()) {
        const CheckpointFingerprint fp = CheckpointFingerprint::of(job, cfg.nodes, cfg.rank, partition_digest_of(lg));
        store.emplace(cfg.checkpoint_dir, cfg.rank, cfg.nodes, fp, job.name_program);
        checkpoints.emplace(*store, *engine, cfg.checkpoint_every, cfg.rank, eo.crash_in_checkpoint);
        if (!cfg.resume_dir.empty()) {
          try {
            phase.first =
                checkpoints->resume(CheckpointStore(cfg.resume_dir, cfg.rank, cfg.nodes, fp, job.name_program));
          } catch (const CheckpointError& e) {
            throw ConfigError(e.what());  // the user's to mend: another job's, or none
          }
          if (cfg.rank == 0 || eo.verbose)
            std::printf("%sresumed from the checkpoint of superstep %u in %s: the computation goes on at superstep %u\n",
                        node_tag(cfg).c_str(), phase.first.superstep - 1,
                        cfg.resume_dir.c_str(), phase.first.superstep);
          std::fflush(stdout);
        }
        if (cfg.checkpoint_every != 0) {
          phase.between_supersteps = [&](const StepControl& next) { checkpoints->between(next); };
          phase.before_end = [&](uint32_t s) { checkpoints->before_end(s); };
        }
      }
    }
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = process_cpu_seconds();
    out.report.steps = runtime->run_phase(*engine, phase);
    out.report.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.report.compute_cpu_seconds = process_cpu_seconds() - cpu0;
    // Every node has saved its share before it took part in the computation.
    if (saved && cfg.rank == 0) write_snapshot_manifest(cfg.save_snapshot_dir, *saved);
    if (checkpoints) {
      checkpoints->finish();
      out.report.checkpoints = checkpoints->json(out.report.compute_seconds);
      const std::string line = checkpoints->line(out.report.compute_seconds);
      if (!line.empty() && (cfg.rank == 0 || eo.verbose)) std::printf("%s%s\n", node_tag(cfg).c_str(), line.c_str());
    }
    if constexpr (Prog::kTraits.value_kind == ValueKind::kLabel) {
      // Labels are dense ids: their original ids come from their owners
      // (dense ids follow the original ids' order, so the smallest label is
      // the smallest original id either way).
      if (!lg.original_id.empty()) {
        // A label is the value's result (scc holds its color beside it).
        std::vector<uint32_t> labels;
        labels.reserve(engine->values().size());
        for (const typename Prog::Value& y : engine->values()) labels.push_back(result_of<Prog>(y));
        lookup = std::make_unique<IdLookup>(dp, lg, layout.workers(), std::vector<uint32_t>(labels));
        runtime->run_phase(*lookup, PhaseOptions{"the label lookup", false, -1});
        out.label_ids.reserve(labels.size());
        for (const uint32_t label : labels) out.label_ids.push_back(lookup->original(label));
        lookup.reset();  // the phase is over: the runtime has let it go
      }
    }
    SuperstepRuntime::FinContents fin;
    fin.figures.peak_rss_bytes = peak_rss_bytes();
    if (!out.report.steps.empty())
      for (const ConnectionReport& c : out.report.steps.back().links) {
        fin.figures.frames_sent += c.send.frames;
        fin.figures.retransmissions += c.send.retransmissions;
        fin.figures.needless += c.send.spurious;
      }
    if constexpr (PerEdgeResults<Prog>) out.edges = engine->edge_results(cfg.first_id);
    fin.stats = summary_stats_bytes<Prog>(*engine, out.graph, out.edges);
    runtime->finish(*engine, fin, out.report);
    out.report.ranks_top = Prog::kTraits.ranks_top;
    if (lg.original_id.empty())  // the input's own ids: 1-based files count from 1
      for (wire::TopEntry& t : out.report.cluster_top) t.vertex += cfg.first_id;
    out.report.makespan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out.report.rank = cfg.rank;
    out.report.nodes = cfg.nodes;
    out.report.line_rate_gbps = eo.line_rate_gbps;
    out.report.discovery_seconds = runtime->discovery_seconds();
    out.report.load_seconds = load.seconds;
    out.report.load = load;
    out.report.partition_json = partition_report_json(load.partition);
    const NodeDegreeCounts degrees = node_degree_counts(lg);
    out.report.degrees = degree_counts_json(degrees);
    out.report.peak_rss_bytes = peak_rss_bytes();
    out.report.hugepage_bytes = hugepage_bytes_held();
    NodeShape built = balanced_shape(load.num_vertices, load.num_edges, cfg.nodes, cfg.domains, input.kron_scale());
    if (degrees.out) built.out_degrees = *degrees.out;
    built.degrees_alike = load.degrees_alike;
    built.as_built = input.kind == GraphInput::Kind::kSnapshot;
    out.report.memory_estimate = node.memory_estimate_json(built, footprint_of<Prog>());
    out.source = source;
    out.seeds = load.lookups;
    out.values = engine->values();
    runtime.reset();
    engine.reset();
    return out;
  } catch (const ConfigError& e) {
    tell_peers(e.what());
    throw;
  } catch (const std::exception& e) {
    // Tell the other nodes now (they may still be discovering us), so they
    // stop with this reason instead of timing out.
    tell_peers(e.what());
    throw RuntimeFailure(e.what());
  }
}

// What the result files hold and how they compare with an oracle's:
// nodeR.json's and summary.json's `results` (scripts/wiregraph-validate).
// Reals are written with 9 significant digits in plain output (print_value's
// %.9g): no two files compare closer than kPrintedTolerance.
inline constexpr double kPrintedTolerance = 1e-7;
template <RunnableProgram Prog>
nlohmann::ordered_json results_json(const Config& cfg) {
  constexpr ProgramTraits t = Prog::kTraits;
  nlohmann::ordered_json j = {
      {"program", t.name},
      {"format", cfg.graphalytics_output ? "graphalytics" : "plain"},
      {"value_column", t.value_column},
      {"value_type", value_type_name(t.value_kind)},
      {"comparison", comparison_name(t.comparison)},
      {"tolerance", t.comparison == Comparison::kReal ? std::max(t.tolerance, kPrintedTolerance) : 0.0},
      {"rows", PerEdgeResults<Prog> ? "edge" : "vertex"}};  // per-edge results: src dst value lines
  // Several values per vertex (compute/engine/capabilities/multi_value.h):
  // a column each, in the order of the result lines' values.
  if constexpr (MultiValued<Prog>) j["value_columns"] = Prog::value_columns(cfg.params());
  return j;
}

// This node's slots in the order of their vertices' input ids: result-R.txt
// is sorted by vertex, so that scripts/wiregraph-results merges the nodes'
// files into DIR/results.tsv in one pass (a k-way merge). Dense ids follow the
// input's order, so the slots are mostly in order already.
inline std::vector<uint32_t> slots_by_vertex(const LocalGraph& g, VertexId first_id) {
  std::vector<int64_t> id(g.num_local);
  for (uint32_t i = 0; i < g.num_local; ++i) id[i] = g.input_id(i, first_id);
  std::vector<uint32_t> order(g.num_local);
  std::iota(order.begin(), order.end(), 0u);
  auto by_id = [&id](uint32_t a, uint32_t b) { return id[a] < id[b]; };
  if (!std::is_sorted(order.begin(), order.end(), by_id)) std::sort(order.begin(), order.end(), by_id);
  return order;
}

// Called on a run's results before they are verified and written: the
// tests hand --verify a wrong result this way.
template <RunnableProgram Prog>
using ResultHook = std::function<void(RunResult<Prog>&)>;

// The node binary's run: compute, verify, print the totals, write --out.
// Returns the exit code (errors are printed and sent to the peers; a failed
// --verify is 1) and the verdict.
template <RunnableProgram Prog>
RunOutcome run_program(Node& node, const ResultHook<Prog>& before_verify = {}) {
  const Config& cfg = node.config();
  RunResult<Prog> r;
  RunOutcome outcome;
  try {
    r = compute_on_node<Prog>(node, node.input(),
                              [&cfg](VertexId n, VertexId source, const std::vector<VertexId>& seeds) {
                                ProgramParams p = cfg.params();
                                p.source = source;
                                p.seeds_dense = seeds;
                                return Prog::make(p, n);
                              },
                              true);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "wiregraph: error: node %u: %s\n", cfg.rank, e.what());
    return {2, {}};
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wiregraph: error: node %u: %s\n", cfg.rank, e.what());
    return {1, {}};
  }
  if (before_verify) before_verify(r);
  if (cfg.verify) {
    try {
      const VerifyInput<Prog> in{cfg,     node.input(),       r.graph, r.values, r.source,
                                 r.seeds, r.report.load, node.memory_limit()};
      if constexpr (PerEdgeResults<Prog>)
        outcome.verify = verify_edge_run<Prog>(in, r.edges);
      else
        outcome.verify = verify_run<Prog>(in);
    } catch (const std::exception& e) {  // the input changed or vanished since it was loaded
      outcome.verify.outcome = VerifyVerdict::Outcome::kInvalid;
      outcome.verify.first = std::string("cannot read the input again: ") + e.what();
    }
    std::printf("%s%s\n", node_tag(cfg).c_str(), outcome.verify.line().c_str());
    r.report.verify = outcome.verify.json();
    if (outcome.verify.failed()) outcome.exit_code = 1;
  }
  r.report.results = results_json<Prog>(cfg);
  if (cfg.engine.verbose) print_run_totals(r.report);
  print_fault_counts(r.report);
  for (const std::string& w : transport_warnings(r.report))
    std::fprintf(stderr, "wiregraph: warning: %s%s\n", node_tag(cfg).c_str(), w.c_str());
  // Rank 0 speaks for the cluster: every node's figures came with its FIN.
  std::optional<RunSummary> summary;
  if (cfg.rank == 0) {
    summary = summary_head(cfg);
    summary->outcome = describe_answer<Prog>(r.report, summary_context(cfg, r.report));
    // Each node checks its own vertices and prints its verdict; a node that
    // finds a difference exits 1, which fails the job.
    if (cfg.verify)
      summary->verify = outcome.verify.line().substr(sizeof "verify: " - 1) + " on node 0; every node checks its own " +
                        (PerEdgeResults<Prog> ? "edges" : "vertices");
    summary->ranks_top = Prog::kTraits.ranks_top;
    summary->top_value = Prog::kTraits.top_value;
  }
  if (!cfg.out_dir.empty()) {
    write_outputs(cfg, r.report, summary ? summary_json(r.report, *summary) : nlohmann::ordered_json(),
                  [&](std::FILE* f) {
      if constexpr (PerEdgeResults<Prog>) {  // `src dst value`, sorted by (src, dst)
        for (const EdgeResult<typename Prog::Value>& e : r.edges) {
          std::fprintf(f, "%" PRId64 " %" PRId64 " ", e.src, e.dst);
          Prog::print_value(f, e.value);
          std::fputc('\n', f);
        }
        return;
      }
      // Vertices and labels (vertex ids too) as the input names them: its
      // original ids when they were mapped, else the dense id + first_id.
      const int64_t first = cfg.first_id;
      for (const uint32_t i : slots_by_vertex(r.graph, cfg.first_id)) {
        std::fprintf(f, "%" PRId64 " ", r.graph.input_id(i, cfg.first_id));
        auto label_id = [&](uint32_t label) { return r.label_ids.empty() ? int64_t{label} + first : r.label_ids[i]; };
        if (cfg.graphalytics_output)
          write_graphalytics_value<Prog>(f, r.values[i], label_id);
        else if constexpr (Prog::kTraits.value_kind == ValueKind::kLabel)
          std::fprintf(f, "%" PRId64, label_id(result_of<Prog>(r.values[i])));
        else
          Prog::print_value(f, r.values[i]);
        std::fputc('\n', f);
      }
    });
  }
  if (summary) {
    std::fflush(stderr);  // the nodes' warnings come before the summary
    for (const std::string& line : summary_lines(r.report, *summary)) std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
  return outcome;
}

}  // namespace wg
