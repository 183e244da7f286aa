// The node's application options: everything after `--` on the command line
// (EAL options come before it, DPDK convention). Parsed once into an
// immutable Config; every error names the option and the value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/graph_reader.h"
#include "compute/scatter_mode.h"
#include "reliability/transport.h"

namespace wg {

enum class App { kPageRank, kSssp, kBfs, kCc, kCd };

const char* app_name(App a);

struct Config {
  App app = App::kPageRank;
  std::string graph;                      // file path or kron:SCALE:DEGREE[:SEED]
  GraphFormat format = GraphFormat::kAuto;
  bool undirected = false;                // add reverse edges after loading
  unsigned nodes = 1;                     // P
  unsigned rank = 0;                      // R
  VertexId source = 0;                    // sssp, bfs
  uint32_t iterations = 20;               // pagerank (default 20) and cd (default 10)
  std::string out_dir;                    // empty: no result files
  uint32_t job_token = 0;                 // frames of other jobs are dropped
  uint16_t udp_port = 47000;
  double peer_timeout_s = 30.0;           // a peer silent this long while awaited is dead
  double hello_timeout_s = 60.0;          // all peers must answer the hello within this
  unsigned mbufs = 16383;                 // mbufs in the node's pool
  unsigned top = 10;                      // top vertices printed at the end (0: none)
  bool quiet = false;                     // no per-superstep lines
  bool split_roles = true;                // --roles split|shared
  ScatterMode scatter = ScatterMode::kAuto;  // --scatter auto|sparse|dense
  unsigned segment_kib = 0;               // dense pull: KiB of scatter values per source segment; 0: half the L2
  unsigned domains = 0;                   // NUMA domains per node; 0: the machine's (libnuma)
  double line_rate_gbps = 0;              // link speed for the report; 0: the port's, else 10
  bool domain_metis = true;               // refine the even split with METIS
  TransportConfig transport;              // reliability: windows, timers, checksum, faults
  int64_t crash_at_superstep = -1;        // test hook (--crash-node R:S): SIGKILL itself at superstep S

  // One line per option, for the start-up banner.
  std::string describe() const;
  uint64_t params_digest() const;         // what every node of a job must agree on
};

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses the application arguments (argv[0] is the program name). Environment
// fallbacks: rank from SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK; nodes
// from SLURM_NTASKS, OMPI_COMM_WORLD_SIZE or PMI_SIZE. Throws ConfigError.
Config parse_app_args(int argc, char** argv);

// True if the arguments ask for help (-h / --help anywhere).
bool wants_help(int argc, char** argv);
void print_usage(const char* prog);

}  // namespace wg
