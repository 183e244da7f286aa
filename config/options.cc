#include "config/options.h"

#include <getopt.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <sstream>

#include "dataplane/wire.h"

namespace wg {

const char* app_name(App a) {
  switch (a) {
    case App::kPageRank: return "pagerank";
    case App::kSssp: return "sssp";
    case App::kBfs: return "bfs";
    case App::kCc: return "cc";
    case App::kCd: return "cd";
  }
  return "?";
}

namespace {

enum Opt {
  kOptApp = 256,  // long-only options start above any short option character
  kOptGraph,
  kOptFormat,
  kOptUndirected,
  kOptNodes,
  kOptRank,
  kOptSource,
  kOptIterations,
  kOptOut,
  kOptJobId,
  kOptUdpPort,
  kOptPeerTimeout,
  kOptHelloTimeout,
  kOptMbufs,
  kOptTop,
  kOptQuiet,
  kOptWindow,
  kOptRtoMin,
  kOptRtoMax,
  kOptAst,
  kOptAckDelay,
  kOptKeepalive,
  kOptChecksum,
  kOptFaultRx,
  kOptFaultTx,
  kOptFaultSeed,
  kOptFaultDelay,
  kOptCrashAt,
  kOptRoles,
  kOptScatter,
  kOptSegmentKib,
  kOptDomains,
  kOptDomainSplit,
  kOptLineRate,
  kOptHelp,
};

const option kLongOptions[] = {
    {"app", required_argument, nullptr, kOptApp},
    {"graph", required_argument, nullptr, kOptGraph},
    {"format", required_argument, nullptr, kOptFormat},
    {"undirected", no_argument, nullptr, kOptUndirected},
    {"nodes", required_argument, nullptr, kOptNodes},
    {"rank", required_argument, nullptr, kOptRank},
    {"source", required_argument, nullptr, kOptSource},
    {"iterations", required_argument, nullptr, kOptIterations},
    {"out", required_argument, nullptr, kOptOut},
    {"job-id", required_argument, nullptr, kOptJobId},
    {"udp-port", required_argument, nullptr, kOptUdpPort},
    {"peer-timeout", required_argument, nullptr, kOptPeerTimeout},
    {"hello-timeout", required_argument, nullptr, kOptHelloTimeout},
    {"mbufs", required_argument, nullptr, kOptMbufs},
    {"top", required_argument, nullptr, kOptTop},
    {"quiet", no_argument, nullptr, kOptQuiet},
    {"window", required_argument, nullptr, kOptWindow},
    {"rto-min-us", required_argument, nullptr, kOptRtoMin},
    {"rto-max-us", required_argument, nullptr, kOptRtoMax},
    {"ast-us", required_argument, nullptr, kOptAst},
    {"ack-delay-us", required_argument, nullptr, kOptAckDelay},
    {"keepalive-ms", required_argument, nullptr, kOptKeepalive},
    {"checksum", required_argument, nullptr, kOptChecksum},
    {"fault-rx", required_argument, nullptr, kOptFaultRx},
    {"fault-tx", required_argument, nullptr, kOptFaultTx},
    {"fault-seed", required_argument, nullptr, kOptFaultSeed},
    {"fault-delay-us", required_argument, nullptr, kOptFaultDelay},
    {"crash-node", required_argument, nullptr, kOptCrashAt},
    {"roles", required_argument, nullptr, kOptRoles},
    {"scatter", required_argument, nullptr, kOptScatter},
    {"segment-kib", required_argument, nullptr, kOptSegmentKib},
    {"domains", required_argument, nullptr, kOptDomains},
    {"line-rate", required_argument, nullptr, kOptLineRate},
    {"domain-split", required_argument, nullptr, kOptDomainSplit},
    {"help", no_argument, nullptr, kOptHelp},
    {nullptr, 0, nullptr, 0},
};

uint64_t parse_unsigned(const char* opt, const char* text, uint64_t min, uint64_t max) {
  uint64_t v = 0;
  int base = 10;
  const char* p = text;
  if (std::strncmp(p, "0x", 2) == 0 || std::strncmp(p, "0X", 2) == 0) {
    base = 16;
    p += 2;
  }
  const char* end = text + std::strlen(text);
  auto [ptr, ec] = std::from_chars(p, end, v, base);
  if (ec != std::errc() || ptr != end || p == end)
    throw ConfigError(std::string("--") + opt + ": '" + text + "' is not a non-negative integer");
  if (v < min || v > max)
    throw ConfigError(std::string("--") + opt + ": " + text + " is out of range [" +
                      std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

FaultSpec parse_faults(const char* opt, const char* text) {
  try {
    return parse_fault_spec(text);
  } catch (const std::exception& e) {
    throw ConfigError(std::string("--") + opt + ": " + e.what());
  }
}

bool parse_on_off(const char* opt, const char* text) {
  if (std::strcmp(text, "on") == 0) return true;
  if (std::strcmp(text, "off") == 0) return false;
  throw ConfigError(std::string("--") + opt + ": '" + text + "' is not on or off");
}

double parse_positive(const char* opt, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v <= 0)
    throw ConfigError(std::string("--") + opt + ": '" + text + "' is not a positive number");
  return v;
}

App parse_app(const char* text) {
  for (App a : {App::kPageRank, App::kSssp, App::kBfs, App::kCc, App::kCd})
    if (std::strcmp(text, app_name(a)) == 0) return a;
  throw ConfigError(std::string("--app: unknown application '") + text +
                    "' (expected pagerank, sssp, bfs, cc or cd)");
}

// The first of the launcher variables that is set, as (name, value).
const char* env_first(std::initializer_list<const char*> names, const char** which) {
  for (const char* n : names) {
    if (const char* v = std::getenv(n); v != nullptr && *v != '\0') {
      *which = n;
      return v;
    }
  }
  return nullptr;
}

uint32_t default_job_token(const Config& c) {
  // Nodes started without --job-id agree on a token derived from the graph
  // and P only: nodes whose other parameters differ must still exchange
  // hellos, so that the mismatch is reported by name instead of as silence.
  // Two jobs on one graph and segment must pass distinct --job-id.
  uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t{c.nodes} << 40);
  for (char ch : c.graph) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ULL;
  return static_cast<uint32_t>(h ^ (h >> 32)) | 1u;
}

}  // namespace

uint64_t Config::params_digest() const {
  uint64_t h = 0xcbf29ce484222325ULL;
  auto add = [&h](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; };
  add(static_cast<uint64_t>(app));
  add(undirected);
  add(source);
  add(app == App::kPageRank || app == App::kCd ? iterations : 0);
  add(transport.checksum);  // a node that checks CRCs drops every frame of one that does not send them
  add(domains);             // senders address vertices by their slot in the destination's domains
  add(domain_metis);
  return h;
}

std::string Config::describe() const {
  std::ostringstream o;
  o << "app " << app_name(app) << ", graph " << graph;
  if (format != GraphFormat::kAuto) o << " (" << graph_format_name(format) << ")";
  if (undirected) o << ", undirected";
  o << ", node " << rank << " of " << nodes;
  if (app == App::kPageRank || app == App::kCd) o << ", " << iterations << " iterations";
  if (app == App::kSssp || app == App::kBfs) o << ", source " << source;
  if (domains > 1) o << ", " << domains << " domains (" << (domain_metis ? "metis" : "even") << ")";
  if (scatter != ScatterMode::kAuto) o << ", scatter " << (scatter == ScatterMode::kDense ? "dense" : "sparse");
  if (segment_kib != 0) o << ", dense segments of " << segment_kib << " KiB";
  char job[16];
  std::snprintf(job, sizeof job, "0x%08x", job_token);
  o << ", job " << job << ", udp port " << udp_port;
  if (!out_dir.empty()) o << ", out " << out_dir;
  if (nodes > 1) {
    o << ", window " << transport.window << ", checksum " << (transport.checksum ? "on" : "off");
    if (transport.rx_faults.any()) o << ", rx faults " << wg::describe(transport.rx_faults);
    if (transport.tx_faults.any()) o << ", tx faults " << wg::describe(transport.tx_faults);
  }
  return o.str();
}

bool wants_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

void print_usage(const char* prog) {
  std::printf(
      "Usage: %s [EAL options] -- --app APP --graph SPEC [options]\n"
      "\n"
      "One wiregraph node. Start one per machine (srun, mpirun, pdsh, ssh) or let\n"
      "scripts/wiregraph-cluster start a local cluster. EAL options (before --) choose\n"
      "the DPDK port(s), lcores and memory, e.g. -a 0000:3b:00.0 or --vdev net_tap0.\n"
      "\n"
      "Application options (after --):\n"
      "  --app APP           pagerank | sssp | bfs | cc | cd (required)\n"
      "  --graph SPEC        graph file, or kron:SCALE:DEGREE[:SEED] for a generated\n"
      "                      Kronecker graph (2^SCALE vertices, DEGREE edges per vertex)\n"
      "  --format FMT        auto (default: from the extension) | edgelist | mtx | bin |\n"
      "                      wbin | dimacs\n"
      "  --undirected        add the reverse of every edge after loading\n"
      "  --nodes P           cluster size (default: SLURM_NTASKS, OMPI_COMM_WORLD_SIZE,\n"
      "                      PMI_SIZE, else 1); at most %u\n"
      "  --rank R            this node's rank 0..P-1 (default: SLURM_PROCID,\n"
      "                      OMPI_COMM_WORLD_RANK, PMI_RANK, else 0)\n"
      "  --source V          source vertex of sssp and bfs (default 0)\n"
      "  --iterations K      pagerank iterations (default 20), cd iterations (default 10)\n"
      "  --out DIR           write DIR/result-R.txt (`<vertex> <value>` lines for the\n"
      "                      vertices this node owns), DIR/nodeR.json (this node's\n"
      "                      per-superstep counts) and, on rank 0, DIR/summary.json\n"
      "  --job-id N          32-bit job token shared by all nodes of one job (default:\n"
      "                      derived from the graph and P); frames of other jobs are dropped\n"
      "  --udp-port N        UDP port of wiregraph frames (default %u)\n"
      "  --peer-timeout S    a peer silent for S seconds is declared dead and the node\n"
      "                      exits non-zero naming it (default 30; live peers send\n"
      "                      keepalives)\n"
      "  --hello-timeout S   time for all peers to be discovered (default 60)\n"
      "  --mbufs N           mbufs in the node's packet pool (default 16383)\n"
      "  --top N             print the N top-ranked vertices at the end (default 10, at\n"
      "                      most 10, 0: off)\n"
      "  --quiet             no per-superstep report lines\n"
      "  --line-rate GBPS    link speed the report compares with (10, 25, 40, 100...;\n"
      "                      default: the port's reported speed, else 10)\n"
      "  --domains K         NUMA domains per node (default: the machine's, from libnuma):\n"
      "                      vertices are split over K domains, each with its own\n"
      "                      accumulator arrays and same-node queue; K larger than the\n"
      "                      machine's emulates K logical domains (all nodes must agree)\n"
      "  --domain-split S    metis (default): the even split refined by METIS to cut\n"
      "                      cross-domain edges; even: contiguous ranges\n"
      "  --roles MODE        split (default): with several EAL lcores the last runs the\n"
      "                      sender and accumulator, the others are workers (the main\n"
      "                      lcore also coordinates); shared: every role on the main\n"
      "                      lcore. With one lcore (-l 0) both mean shared.\n"
      "  --scatter MODE      auto (default): a superstep whose active vertices hold more\n"
      "                      than 9/10 of a worker's out-edges is dense: one record per\n"
      "                      destination vertex (and source segment, --segment-kib)\n"
      "                      carrying the sum/min of that worker's messages to it; else\n"
      "                      sparse: one record per edge. sparse or dense force one. cd\n"
      "                      always scatters sparse (it needs every label). Dense keeps a\n"
      "                      second, destination-major copy of the node's edges (4 bytes\n"
      "                      per edge, 8 when weighted)\n"
      "  --segment-kib N     dense supersteps pull source segment by source segment, each\n"
      "                      with N KiB of scatter values, so that the values read at\n"
      "                      random stay in the L2 cache (one record per segment and\n"
      "                      destination). Default: half the L2 cache as the C library\n"
      "                      reports it, else 1024\n"
      "\n"
      "Transport (reliability/):\n"
      "  --window N          frames in flight per peer, also the reorder buffer (default 512)\n"
      "  --rto-min-us US     retransmission timeout floor (default 10000); the timeout\n"
      "                      follows the measured round trip (RFC 6298) and doubles on\n"
      "  --rto-max-us US     each expiry up to this ceiling (default 200000)\n"
      "  --ast-us US         initial average send time per frame, AST (default 0.2); the\n"
      "                      gap between sends to a peer is AST x N, N rising on 3 stale\n"
      "                      acks or a timeout and falling on 3 new acks\n"
      "  --ack-delay-us US   longest delay before a received frame is acked (default 50)\n"
      "  --keepalive-ms MS   an idle connection sends an ack this often (default 100,\n"
      "                      at most a fifth of --peer-timeout)\n"
      "  --checksum on|off   CRC32C over every bucket (default off; all nodes must agree)\n"
      "  --fault-rx SPEC     inject faults on receive: SPEC is KIND=FRACTION,... with\n"
      "                      KIND drop, dup, reorder, corrupt (flip one bit), delay\n"
      "  --fault-tx SPEC     the same on transmit\n"
      "  --fault-seed N      seed of the fault injectors (default 1): same seed, same faults\n"
      "  --fault-delay-us US how long a delay fault holds a frame (default 200)\n"
      "  --crash-node R:S    test hook: node R kills itself (SIGKILL) when it reaches\n"
      "                      superstep S, to exercise peer-failure detection\n"
      "  -h, --help          this text\n"
      "\n"
      "Output values: pagerank ranks (9 significant digits); sssp distances and bfs hop\n"
      "counts as integers or `inf` when unreachable; cc the smallest vertex id of the\n"
      "vertex's weakly connected component; cd the vertex's community label after K\n"
      "rounds of label propagation on the undirected graph (most frequent neighbour\n"
      "label, smallest on ties, self-loops ignored).\n",
      prog, wire::kMaxNodes, wire::kDefaultUdpPort);
}

Config parse_app_args(int argc, char** argv) {
  Config c;
  bool have_app = false, have_graph = false, have_rank = false, have_nodes = false,
       have_job = false, have_iterations = false;
  int64_t crash_rank = -1, crash_step = -1;
  optind = 0;  // full getopt reset (glibc): the EAL has used getopt before us
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, ":h", kLongOptions, nullptr)) != -1) {
    switch (opt) {
      case kOptApp: c.app = parse_app(optarg); have_app = true; break;
      case kOptGraph: c.graph = optarg; have_graph = true; break;
      case kOptFormat:
        try {
          c.format = parse_graph_format(optarg);
        } catch (const std::exception& e) {
          throw ConfigError(e.what());  // GraphError already says "--format: ..."
        }
        break;
      case kOptUndirected: c.undirected = true; break;
      case kOptNodes: c.nodes = parse_unsigned("nodes", optarg, 1, wire::kMaxNodes); have_nodes = true; break;
      case kOptRank: c.rank = parse_unsigned("rank", optarg, 0, wire::kMaxNodes - 1); have_rank = true; break;
      case kOptSource: c.source = parse_unsigned("source", optarg, 0, UINT32_MAX - 1); break;
      case kOptIterations:
        c.iterations = parse_unsigned("iterations", optarg, 0, 1000000);
        have_iterations = true;
        break;
      case kOptOut: c.out_dir = optarg; break;
      case kOptJobId: c.job_token = parse_unsigned("job-id", optarg, 1, UINT32_MAX); have_job = true; break;
      case kOptUdpPort: c.udp_port = parse_unsigned("udp-port", optarg, 1, 65535); break;
      case kOptPeerTimeout: c.peer_timeout_s = parse_positive("peer-timeout", optarg); break;
      case kOptHelloTimeout: c.hello_timeout_s = parse_positive("hello-timeout", optarg); break;
      case kOptMbufs: c.mbufs = parse_unsigned("mbufs", optarg, 1023, 1u << 24); break;
      case kOptTop: c.top = parse_unsigned("top", optarg, 0, wire::kTopK); break;
      case kOptQuiet: c.quiet = true; break;
      case kOptDomains: c.domains = parse_unsigned("domains", optarg, 1, 64); break;
      case kOptLineRate: c.line_rate_gbps = parse_positive("line-rate", optarg); break;
      case kOptDomainSplit:
        if (std::strcmp(optarg, "metis") == 0) c.domain_metis = true;
        else if (std::strcmp(optarg, "even") == 0) c.domain_metis = false;
        else throw ConfigError(std::string("--domain-split: '") + optarg + "' is not metis or even");
        break;
      case kOptScatter:
        if (std::strcmp(optarg, "auto") == 0) c.scatter = ScatterMode::kAuto;
        else if (std::strcmp(optarg, "sparse") == 0) c.scatter = ScatterMode::kSparse;
        else if (std::strcmp(optarg, "dense") == 0) c.scatter = ScatterMode::kDense;
        else throw ConfigError(std::string("--scatter: '") + optarg + "' is not auto, sparse or dense");
        break;
      case kOptSegmentKib: c.segment_kib = parse_unsigned("segment-kib", optarg, 1, 1u << 20); break;
      case kOptRoles:
        if (std::strcmp(optarg, "split") == 0) c.split_roles = true;
        else if (std::strcmp(optarg, "shared") == 0) c.split_roles = false;
        else throw ConfigError(std::string("--roles: '") + optarg + "' is not split or shared");
        break;
      case kOptWindow: c.transport.window = parse_unsigned("window", optarg, 1, 1u << 16); break;
      case kOptRtoMin: c.transport.rto_min_us = parse_positive("rto-min-us", optarg); break;
      case kOptRtoMax: c.transport.rto_max_us = parse_positive("rto-max-us", optarg); break;
      case kOptAst: c.transport.ast_us = parse_positive("ast-us", optarg); break;
      case kOptAckDelay: c.transport.ack_delay_us = parse_positive("ack-delay-us", optarg); break;
      case kOptKeepalive: c.transport.keepalive_ms = parse_positive("keepalive-ms", optarg); break;
      case kOptChecksum: c.transport.checksum = parse_on_off("checksum", optarg); break;
      case kOptFaultRx: c.transport.rx_faults = parse_faults("fault-rx", optarg); break;
      case kOptFaultTx: c.transport.tx_faults = parse_faults("fault-tx", optarg); break;
      case kOptFaultSeed: c.transport.fault_seed = parse_unsigned("fault-seed", optarg, 0, UINT64_MAX); break;
      case kOptFaultDelay: c.transport.fault_delay_us = parse_positive("fault-delay-us", optarg); break;
      case kOptCrashAt: {
        // R:S - node R kills itself at superstep S (the same options go to every node).
        const char* colon = std::strchr(optarg, ':');
        if (colon == nullptr) throw ConfigError(std::string("--crash-node: '") + optarg + "' is not RANK:SUPERSTEP");
        const std::string rank_text(optarg, static_cast<size_t>(colon - optarg));
        crash_rank = static_cast<int64_t>(parse_unsigned("crash-node", rank_text.c_str(), 0, wire::kMaxNodes - 1));
        crash_step = static_cast<int64_t>(parse_unsigned("crash-node", colon + 1, 0, UINT32_MAX));
        break;
      }
      case 'h':
      case kOptHelp: break;  // handled before EAL init by wants_help()
      case ':':
        throw ConfigError(std::string("option ") + argv[optind - 1] + " needs a value");
      default:
        throw ConfigError(std::string("unknown option '") + argv[optind - 1] + "' (see --help)");
    }
  }
  if (optind < argc)
    throw ConfigError(std::string("unexpected argument '") + argv[optind] + "' (see --help)");
  if (!have_app) throw ConfigError("--app is required (pagerank, sssp, bfs, cc or cd)");
  if (!have_iterations && c.app == App::kCd) c.iterations = 10;
  if (!have_graph) throw ConfigError("--graph is required (a file or kron:SCALE:DEGREE[:SEED])");

  const char* which = nullptr;
  if (!have_nodes) {
    if (const char* v = env_first({"SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, &which))
      c.nodes = parse_unsigned(which, v, 1, wire::kMaxNodes);
  }
  if (!have_rank) {
    if (const char* v = env_first({"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"}, &which))
      c.rank = parse_unsigned(which, v, 0, wire::kMaxNodes - 1);
  }
  if (c.rank >= c.nodes)
    throw ConfigError("--rank " + std::to_string(c.rank) + " is not below --nodes " +
                      std::to_string(c.nodes));
  if (crash_rank >= static_cast<int64_t>(c.nodes))
    throw ConfigError("--crash-node " + std::to_string(crash_rank) + ":" + std::to_string(crash_step) +
                      ": there is no node " + std::to_string(crash_rank) + " among " + std::to_string(c.nodes));
  if (crash_rank == static_cast<int64_t>(c.rank)) c.crash_at_superstep = crash_step;
  if ((c.transport.rx_faults.corrupt > 0 || c.transport.tx_faults.corrupt > 0) && !c.transport.checksum)
    throw ConfigError("corrupt faults need --checksum on: without it a flipped bit is folded into the results");
  if (c.transport.rto_max_us < c.transport.rto_min_us)
    throw ConfigError("--rto-max-us " + std::to_string(c.transport.rto_max_us) + " is below --rto-min-us " +
                      std::to_string(c.transport.rto_min_us));
  // Keepalives must come well within the peer timeout, or live peers look dead.
  c.transport.keepalive_ms = std::min(c.transport.keepalive_ms, c.peer_timeout_s * 1000 / 5);
  if (!have_job) c.job_token = default_job_token(c);
  return c;
}

}  // namespace wg
