// The node's application options: everything after `--` on the command line
// (EAL options come before it, DPDK convention). Parsed once into an
// immutable Config; every error names the option and the value. Each option
// is declared once, in config/option_table.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/graph/graph_spec.h"
#include "compute/engine/program_traits.h"
#include "config/option_values.h"
#include "dataplane/frame_mac.h"
#include "dataplane/ntuple_rules.h"
#include "reliability/transport_config.h"

namespace wg {

// --ids and --precision as given; what auto becomes is decided by the node
// from the input (apps/node/input_choice.h).
enum class IdsOption : uint8_t { kAuto, kDense, kSparse };
enum class PrecisionOption : uint8_t { kAuto, kSingle, kDouble };

// --iterations' default under --tolerance: networkx.pagerank's max_iter.
inline constexpr uint32_t kToleranceIterations = 100;

struct Config {
  std::string app;                        // --app: a program's kTraits.name
  ProgramTraits program;                  // that program's traits (apps/programs.h)
  std::span<const ProgramTraits> programs;  // every program parse_app_args knew: errors name program ids
  std::string graph;                      // file path or kron:SCALE:DEGREE[:SEED]
  GraphSpec graph_spec;                   // --graph parsed: which kind of input (compute/graph/graph_spec.h)
  GraphFormat format = GraphFormat::kAuto;
  bool undirected = false;                // add reverse edges after loading
  unsigned nodes = 1;                     // P
  unsigned rank = 0;                      // R
  // Where P and R came from: "--nodes"/"--rank", "default", or the launcher's
  // environment variable that set them (SLURM_NTASKS, PMI_RANK, ...), so that
  // the banner, errors and nodeR.json name it instead of an option never given.
  std::string nodes_from = "default";
  std::string rank_from = "default";
  // The shared program parameters: each program reads those its traits name
  // (uses_source, ...); the others keep these defaults.
  VertexId source = 0;                    // --source as a dense id (once the node has checked it against the input)
  int64_t source_id = 0;                  // --source as the input names it (default: the first edge's source)
  // --source (or the properties' source) given; false when the command line
  // leaves it to the node, which reads the first edge's (a Config built in
  // code keeps the source it sets).
  bool source_given = true;
  uint32_t iterations = 0;                // --iterations, else the program's default_iterations
  double damping = ProgramParams{}.damping;  // --damping
  uint32_t sources = 0;                   // --sources K (bc): K sources picked as GAP's; 0: --source
  double tolerance = 0;                   // --tolerance (pagerank); 0: exactly --iterations
  BcScale normalize = BcScale::kGap;      // --normalize (bc)
  PrecisionOption precision = PrecisionOption::kAuto;  // --precision
  // Resolved: the program's DoublePrecision twin runs: PageRank's messages,
  // sssp's weights and distances in double (--precision double; auto:
  // Graphalytics graphs, and sssp on a file whose sampled weights are not all
  // integers).
  bool double_precision = false;
  // --weighted: the program's weighted twin (apps/programs.h: pagerank with
  // networkx's weight='weight'), which reads the weights as reals and runs
  // in double precision.
  bool weighted = false;
  bool graphalytics = false;              // --graph names a Graphalytics graph (NAME.properties, .v or .e)
  bool graphalytics_output = false;       // --output-format graphalytics
  IdsOption ids = IdsOption::kAuto;       // --ids
  std::string weight_column;              // --weight-column: an edge list's weight field (number from 1, or name)
  // --vertices N: the vertices are 0..N-1 (an edge list's or binary file's
  // isolated vertices, the highest ids too); dense ids. 0: not given.
  uint64_t vertices = 0;
  // Resolved: an edge list's ids mapped while loading (compute/load/graph_loader_ids.cc):
  // --ids sparse, or what --ids auto chose from the file.
  bool sparse_ids = false;
  // --ids auto's sample, for the loader when it maps: the sampled ids are
  // below `sampled_id_span` (the largest + 1), about `estimated_ids` of them
  // distinct in the file (0: no sample).
  uint64_t sampled_id_span = 0, estimated_ids = 0;
  // The input's first vertex id: 1 for the formats that number their vertices
  // 1..n (Matrix Market, DIMACS, METIS), whose own ids --source and the
  // results use (dense id = file id - 1); else 0.
  VertexId first_id = 0;
  // How the node chose the ids and the weights' precision, for the banner and
  // nodeR.json ("sparse (auto: ...)", "the file's own, 1..3353"); empty
  // until it has (apps/node/input_choice.h).
  std::string ids_chosen, precision_chosen;
  std::string out_dir;                    // empty: no result files
  bool out_keep_others = false;           // --out-keep-others: write into a DIR that holds files of no wiregraph run
  // Checkpoints (compute/engine/checkpointer.h): every N supersteps into DIR
  // (0: none); --resume DIR. --checkpoint-dir defaults to the resume DIR.
  uint32_t checkpoint_every = 0;
  std::string save_snapshot_dir;          // --save-snapshot DIR (compute/load/snapshot_format.h)
  std::string checkpoint_dir;
  std::string resume_dir;
  bool verify = false;                    // --verify: check the results (apps/node/verify.h)
  uint64_t verify_limit = 0;              // --verify-limit (testing): bytes --verify may use; 0: what the node may
  uint32_t job_token = 0;                 // frames of other jobs are dropped
  // Authenticated frames (dataplane/frame_mac.h): the job's secret from
  // --key-file or WIREGRAPH_KEY. Required with P > 1 unless --no-auth.
  bool authenticated = false;
  MasterKey key{};
  // "--key-file PATH", "environment variable WIREGRAPH_KEY", "--no-auth" or
  // "none (one node)": for the banner, errors and nodeR.json.
  std::string key_from = "none (one node)";
  uint16_t udp_port = 47000;
  unsigned mbufs = 16383;                 // mbufs in the node's pool
  unsigned domains = 0;                   // NUMA domains per node; 0: the machine's (libnuma)
  unsigned rx_queues = 0;                 // receive queues per port; 0: one per accumulator lcore (--roles)
  uint32_t mtu = 1500;                    // --mtu: frames' IP size, 1500..9000
  ntuple::Mode ntuple = ntuple::Mode::kAuto;  // --ntuple: net_af_xdp ports' steering rules
  bool domain_metis = true;               // refine the even split with METIS
  bool degree_order = true;               // --vertex-order degree: slots by out-degree within a domain
  EngineOptions engine;                   // the node runtime: timeouts, roles, scatter, report
  TransportConfig transport;              // reliability: windows, timers, checksum, faults

  // --seeds (ppr): the ids as the input names them; empty: the one seed is --source.
  std::vector<int64_t> seed_ids;
  ProgramParams params() const {
    return {source,    iterations, damping, sources, tolerance, normalize,
            seed_ids.empty() ? std::vector<int64_t>{source_id} : seed_ids, !seed_ids.empty(), int64_t{first_id}};
  }
  // Whether the program reads the program parameter `option` ("damping");
  // true for every option that is not a program parameter.
  bool reads(std::string_view option) const;
  // Whether the loader maps the input's ids (a Graphalytics graph, or sparse
  // ids): --source and the results then use the input's own ids.
  bool mapped_ids() const { return graphalytics || sparse_ids; }
  // Whether the program that runs reads the edges' weights: its own rules
  // (sssp), or its weighted twin's under --weighted (pagerank).
  bool reads_weights() const { return program.graph.weights || (program.uses_weighted && weighted); }
  // The program runs from the one vertex --source names (not bc's --sources K, nor ppr's --seeds).
  bool one_source() const { return program.uses_source && sources == 0 && seed_ids.empty(); }
  // The start-up banner: each option's part (config/option_table.cc), the
  // program parameters only where the program reads them.
  std::string describe() const;
  // What every node of a job must agree on: the program and the options the
  // table marks so (the hello carries it).
  uint64_t params_digest() const;
};

// Parses the application arguments (argv[0] is the program name); --app must
// name one of `programs` (apps/registry.h: program_traits()), and a program
// parameter the program does not read (--damping for bfs) is refused.
// Defaults from elsewhere: a Graphalytics graph's properties
// (config/graphalytics_defaults.h), the launcher's rank and size
// (config/launcher_env.h), the key from WIREGRAPH_KEY. Throws ConfigError.
Config parse_app_args(int argc, char** argv, std::span<const ProgramTraits> programs);

// The first argument before `--` (all of them when there is none) that is
// an application option, e.g. "--app" in `wiregraph --no-pci --app bfs`:
// the EAL would refuse it with its whole usage. nullopt when there is none.
std::optional<std::string> misplaced_app_option(int argc, char** argv);
// What to say about it (the node exits 2 with it).
std::string misplaced_app_option_error(const std::string& option);

}  // namespace wg
