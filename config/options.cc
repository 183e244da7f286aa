#include "config/options.h"

#include "compute/engine/lcore_layout.h"

#include <getopt.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <optional>
#include <sstream>

#include "compute/graph/graphalytics_input.h"
#include "compute/graph/kronecker.h"
#include "compute/engine/lcore_layout.h"
#include "config/key_file.h"
#include "dataplane/wire.h"

namespace wg {

namespace {
constexpr int64_t kCrashInLoad = -2;  // --crash-node R:load
}  // namespace

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
  kOptProgressTimeout,
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
  kOptLocalRounds,
  kOptDomains,
  kOptDomainSplit,
  kOptVertexOrder,
  kOptLineRate,
  kOptRxQueues,
  kOptRangeKib,
  kOptMtu,
  kOptDamping,
  kOptPrecision,
  kOptOutputFormat,
  kOptKeyFile,
  kOptNoAuth,
  kOptIds,
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
    {"progress-timeout", required_argument, nullptr, kOptProgressTimeout},
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
    {"local-rounds", required_argument, nullptr, kOptLocalRounds},
    {"domains", required_argument, nullptr, kOptDomains},
    {"line-rate", required_argument, nullptr, kOptLineRate},
    {"domain-split", required_argument, nullptr, kOptDomainSplit},
    {"vertex-order", required_argument, nullptr, kOptVertexOrder},
    {"rx-queues", required_argument, nullptr, kOptRxQueues},
    {"range-kib", required_argument, nullptr, kOptRangeKib},
    {"mtu", required_argument, nullptr, kOptMtu},
    {"damping", required_argument, nullptr, kOptDamping},
    {"precision", required_argument, nullptr, kOptPrecision},
    {"output-format", required_argument, nullptr, kOptOutputFormat},
    {"key-file", required_argument, nullptr, kOptKeyFile},
    {"no-auth", no_argument, nullptr, kOptNoAuth},
    {"ids", required_argument, nullptr, kOptIds},
    {"help", no_argument, nullptr, kOptHelp},
    {nullptr, 0, nullptr, 0},
};

// TEXT as an integer (decimal, or hex after 0x); nullopt if it is not one.
std::optional<uint64_t> parse_integer(const char* text) {
  uint64_t v = 0;
  int base = 10;
  const char* p = text;
  if (std::strncmp(p, "0x", 2) == 0 || std::strncmp(p, "0X", 2) == 0) {
    base = 16;
    p += 2;
  }
  const char* end = text + std::strlen(text);
  auto [ptr, ec] = std::from_chars(p, end, v, base);
  if (ec != std::errc() || ptr != end || p == end) return std::nullopt;
  return v;
}

std::string range_text(uint64_t min, uint64_t max) {
  return "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

uint64_t parse_unsigned(const char* opt, const char* text, uint64_t min, uint64_t max) {
  const std::optional<uint64_t> v = parse_integer(text);
  if (!v) throw ConfigError(std::string("--") + opt + ": '" + text + "' is not a non-negative integer");
  if (*v < min || *v > max)
    throw ConfigError(std::string("--") + opt + ": " + text + " is out of range " + range_text(min, max));
  return *v;
}

// A value a launcher put in the environment (srun, mpirun): errors name the
// variable and the option it stands in for, not an option the user never gave.
uint64_t parse_env_unsigned(const char* var, const char* text, const char* instead_of, uint64_t min,
                            uint64_t max) {
  const std::string what = std::string("environment variable ") + var + "='" + text + "' (read because " +
                           instead_of + " is not given) ";
  const std::optional<uint64_t> v = parse_integer(text);
  if (!v) throw ConfigError(what + "is not a non-negative integer");
  if (*v < min || *v > max) throw ConfigError(what + "is out of range " + range_text(min, max));
  return *v;
}

FaultSpec parse_faults(const char* opt, const char* text) {
  try {
    return parse_fault_spec(text);
  } catch (const std::exception& e) {
    throw ConfigError(std::string("--") + opt + ": " + e.what());
  }
}

// One of two words: true for the first, false for the second.
bool parse_either(const char* opt, const char* text, const char* first, const char* second) {
  if (std::strcmp(text, first) == 0) return true;
  if (std::strcmp(text, second) == 0) return false;
  throw ConfigError(std::string("--") + opt + ": '" + text + "' is not " + first + " or " + second);
}

// One of `words`: its index.
unsigned parse_one_of(const char* opt, const char* text, std::initializer_list<const char*> words) {
  unsigned i = 0;
  std::string list;
  for (const char* w : words) {
    if (std::strcmp(text, w) == 0) return i;
    list += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + std::string(w);
    ++i;
  }
  throw ConfigError(std::string("--") + opt + ": '" + text + "' is not " + list);
}

// --ids, --precision and --source against the kind of input (docs/INPUT.md):
// what the command line decides. What the input decides (--ids auto on an
// edge list, --precision auto for sssp, the source's range) the node
// decides once it has looked at the file (apps/node/input_choice.h).
void check_input_options(Config& c, const char* source_text, std::optional<int64_t> properties_source) {
  const bool generated = c.graph.rfind("kron:", 0) == 0;
  const GraphFormat f = c.format == GraphFormat::kAuto ? format_from_extension(c.graph) : c.format;
  if (c.ids == IdsOption::kSparse && !c.graphalytics) {
    // Graphalytics graphs are mapped whatever --ids says; of the others only
    // the files whose edges alone name their vertices.
    if (generated)
      throw ConfigError("--ids sparse: " + c.graph + " is generated with dense ids 0..2^SCALE-1 (sparse ids are for "
                        "edge lists: text, bin or wbin)");
    if (const char* why = why_ids_are_dense(f)) throw ConfigError("--ids sparse: " + c.graph + ": " + why);
  }
  c.sparse_ids = c.ids == IdsOption::kSparse;
  c.first_id = !generated && !c.graphalytics && why_ids_are_dense(f) != nullptr ? 1 : 0;
  // Ids that may be mapped are signed 64-bit; dense ones are below 2^32 - 1.
  const bool maybe_mapped = c.graphalytics || (!generated && c.first_id == 0 && c.ids != IdsOption::kDense);
  if (source_text != nullptr && maybe_mapped) {
    int64_t v = 0;
    const char* end = source_text + std::strlen(source_text);
    const auto [ptr, ec] = std::from_chars(source_text, end, v);
    if (ec != std::errc() || ptr != end || *source_text == '\0')
      throw ConfigError(std::string("--source: '") + source_text + "' is not a vertex id (a signed 64-bit integer" +
                        (c.graphalytics ? ": the graph's own ids)" : ", as an edge list's ids may be)"));
    c.source_id = v;
  } else if (source_text != nullptr) {
    c.source_id = static_cast<int64_t>(parse_unsigned("source", source_text, 0, UINT32_MAX - 1));
  } else {
    c.source_id = properties_source.value_or(c.first_id);
  }
  // The dense source, until the node has checked it against the input.
  const int64_t dense = c.source_id - c.first_id;
  c.source = dense >= 0 && dense <= int64_t{UINT32_MAX - 1} ? static_cast<VertexId>(dense) : 0;
  if (c.precision != PrecisionOption::kAuto)
    c.double_precision = c.precision == PrecisionOption::kDouble;
  else
    c.double_precision = c.graphalytics;  // Graphalytics' rules forbid single precision
}

// A positive number no larger than `max`: every timer and rate has a ceiling,
// so that no value overflows when it is turned into TSC ticks.
double parse_positive(const char* opt, const char* text, double max) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v <= 0)
    throw ConfigError(std::string("--") + opt + ": '" + text + "' is not a positive number");
  if (v > max) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%g", max);
    throw ConfigError(std::string("--") + opt + ": " + text + " is out of range (0, " + bound + "]");
  }
  return v;
}

constexpr double kMaxSeconds = 86400;       // timeouts: a day
constexpr double kMaxMicros = 60e6;         // transport timers: a minute
constexpr double kMaxLineRateGbps = 10000;  // 10 Tb/s

// "pagerank, sssp, bfs, cc, cd or kcore"
std::string program_list(std::span<const ProgramTraits> programs) {
  std::string s;
  for (size_t i = 0; i < programs.size(); ++i) {
    if (i > 0) s += i + 1 == programs.size() ? " or " : ", ";
    s += programs[i].name;
  }
  return s;
}

const ProgramTraits& find_program(const char* text, std::span<const ProgramTraits> programs) {
  for (const ProgramTraits& p : programs)
    if (p.name == text) return p;
  throw ConfigError(std::string("--app: unknown application '") + text + "' (expected " + program_list(programs) +
                    ")");
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

// "--rank 2", "--nodes 1 (the default)", "rank 3 (environment variable PMI_RANK)".
std::string shown(unsigned value, const std::string& from, const char* option, const char* noun) {
  const std::string v = std::to_string(value);
  if (from == "default") return std::string(option) + " " + v + " (the default)";
  if (from.rfind("--", 0) == 0) return from + " " + v;
  return std::string(noun) + " " + v + " (environment variable " + from + ")";
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

// The job's key: --key-file, else WIREGRAPH_KEY, else none; with P > 1 a
// node refuses to run without one unless --no-auth says so.
void resolve_key(Config& c, const char* key_file, bool no_auth) {
  if (no_auth && key_file != nullptr)
    throw ConfigError(std::string("--no-auth and --key-file ") + key_file + " contradict each other: give one");
  try {
    if (no_auth) {
      c.key_from = "--no-auth";
    } else if (key_file != nullptr) {
      c.key = read_key_file(key_file);
      c.authenticated = true;
      c.key_from = std::string("--key-file ") + key_file;
    } else if (const char* v = std::getenv(kKeyEnvironmentVariable); v != nullptr && *v != '\0') {
      const std::string what = std::string("environment variable ") + kKeyEnvironmentVariable;
      c.key = parse_hex_key(v, what + " (read because --key-file is not given)");
      c.authenticated = true;
      c.key_from = what;
    }
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  if (c.nodes > 1 && !c.authenticated && !no_auth)
    throw ConfigError(std::string("no key: the nodes of a job authenticate every frame with a shared 32-byte key. "
                                  "Make one (") + kMakeKeyCommand + "), give it to every node with --key-file key "
                      "or in the environment variable " + kKeyEnvironmentVariable +
                      " (64 hex digits), or run without authentication with --no-auth (anyone on the link can "
                      "then forge frames)");
}

}  // namespace

uint64_t Config::params_digest() const {
  uint64_t h = 0xcbf29ce484222325ULL;
  auto add = [&h](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; };
  add(program_id(program.name));
  add(undirected);
  add(program.uses_source ? source : 0);
  add(program.uses_iterations ? iterations : 0);
  add(program.uses_source ? static_cast<uint64_t>(source_id) : 0);
  add(sparse_ids);  // the loading phase's supersteps and the vertices themselves differ (--ids auto: the node's choice)
  add(first_id);
  uint64_t damping_bits = 0;
  static_assert(sizeof damping_bits == sizeof damping);
  std::memcpy(&damping_bits, &damping, sizeof damping);
  add(damping_bits);
  add(double_precision);  // the record size follows the messages' width (--precision auto: the node's choice)
  add(transport.checksum);  // a node that checks CRCs drops every frame of one that does not send them
  add(authenticated);       // (never compared: hellos of nodes that differ here do not verify)
  add(domains);             // senders address vertices by their slot in the destination's domains
  add(domain_metis);
  add(degree_order);        // slot tables are sent, and slots numbered, only with it
  add(rx_queues);           // every node plans every node's ranges and queues alike (compute/engine/range_plan.h)
  add(engine.range_bytes);
  add(mtu);                 // a node must take the largest frame its peers send
  return h;
}

std::string Config::describe() const {
  std::ostringstream o;
  o << "app " << app << ", graph " << graph;
  if (format != GraphFormat::kAuto) o << " (" << graph_format_name(format) << ")";
  if (undirected) o << ", undirected";
  o << ", node " << rank << " of " << nodes;
  if (rank_from != "--rank" && rank_from != "default") o << " (rank from " << rank_from << ")";
  if (nodes_from != "--nodes" && nodes_from != "default") o << " (cluster size from " << nodes_from << ")";
  if (program.uses_iterations) o << ", " << iterations << " iterations";
  if (ids != IdsOption::kAuto) o << ", " << (ids == IdsOption::kSparse ? "sparse" : "dense") << " ids";
  if (program.uses_source) o << ", source " << source_id;
  if (damping != 0.85) o << ", damping " << damping;
  if (double_precision) o << ", double precision";
  if (graphalytics_output) o << ", Graphalytics output";
  if (domains > 1) o << ", " << domains << " domains (" << (domain_metis ? "metis" : "even") << ")";
  if (!degree_order) o << ", vertices in id order";
  if (engine.scatter != ScatterMode::kAuto)
    o << ", scatter " << (engine.scatter == ScatterMode::kDense ? "dense" : "sparse");
  if (engine.segment_bytes != 0) o << ", dense segments of " << engine.segment_bytes / 1024 << " KiB";
  if (engine.local_rounds) o << ", local rounds";
  if (rx_queues != 0) o << ", " << rx_queues << " receive queue" << (rx_queues > 1 ? "s" : "");
  if (engine.range_bytes != 0) o << ", ranges of " << engine.range_bytes / 1024 << " KiB";
  if (mtu != wire::kMtu) o << ", MTU " << mtu;
  char job[16];
  std::snprintf(job, sizeof job, "0x%08x", job_token);
  o << ", job " << job << ", udp port " << udp_port;
  if (!out_dir.empty()) o << ", out " << out_dir;
  if (nodes > 1) {
    if (authenticated)
      o << ", frames authenticated (AES-128-GMAC, key from " << key_from << ")";
    else
      o << ", frames NOT authenticated (--no-auth: anyone on the link can forge them), checksum "
        << (transport.checksum ? "on" : "off");
    o << ", window " << transport.window;
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

Config parse_app_args(int argc, char** argv, std::span<const ProgramTraits> programs) {
  Config c;
  bool have_app = false, have_graph = false, have_rank = false, have_nodes = false,
       have_job = false, have_iterations = false, have_mbufs = false, have_undirected = false,
       have_damping = false, have_output_format = false, have_checksum = false,
       no_auth = false;
  const char* source_text = nullptr;
  const char* key_file = nullptr;
  int64_t crash_rank = -1, crash_step = -1;
  optind = 0;  // full getopt reset (glibc): the EAL has used getopt before us
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, ":h", kLongOptions, nullptr)) != -1) {
    switch (opt) {
      case kOptApp:
        c.program = find_program(optarg, programs);
        c.app = c.program.name;
        have_app = true;
        break;
      case kOptGraph: c.graph = optarg; have_graph = true; break;
      case kOptFormat:
        try {
          c.format = parse_graph_format(optarg);
        } catch (const std::exception& e) {
          throw ConfigError(e.what());  // GraphError already says "--format: ..."
        }
        break;
      case kOptUndirected: c.undirected = true; have_undirected = true; break;
      case kOptNodes: c.nodes = parse_unsigned("nodes", optarg, 1, wire::kMaxNodes); have_nodes = true; break;
      case kOptRank: c.rank = parse_unsigned("rank", optarg, 0, wire::kMaxNodes - 1); have_rank = true; break;
      case kOptSource: source_text = optarg; break;  // its range depends on the graph: parsed below
      case kOptDamping: {
        char* end = nullptr;
        c.damping = std::strtod(optarg, &end);
        if (end == optarg || *end != '\0' || !(c.damping >= 0 && c.damping <= 1))
          throw ConfigError(std::string("--damping: '") + optarg + "' is not a number in [0, 1]");
        have_damping = true;
        break;
      }
      case kOptPrecision:
        c.precision = static_cast<PrecisionOption>(parse_one_of("precision", optarg, {"auto", "single", "double"}));
        break;
      case kOptOutputFormat:
        c.graphalytics_output = !parse_either("output-format", optarg, "plain", "graphalytics");
        have_output_format = true;
        break;
      case kOptIds: c.ids = static_cast<IdsOption>(parse_one_of("ids", optarg, {"auto", "dense", "sparse"})); break;
      case kOptIterations:
        c.iterations = parse_unsigned("iterations", optarg, 0, 1000000);
        have_iterations = true;
        break;
      case kOptOut:
        if (*optarg == '\0') throw ConfigError("--out: the directory name is empty");
        c.out_dir = optarg;
        break;
      case kOptJobId: c.job_token = parse_unsigned("job-id", optarg, 1, UINT32_MAX); have_job = true; break;
      case kOptUdpPort: c.udp_port = parse_unsigned("udp-port", optarg, 1, 65535); break;
      case kOptPeerTimeout: c.engine.peer_timeout_s = parse_positive("peer-timeout", optarg, kMaxSeconds); break;
      case kOptHelloTimeout: c.engine.hello_timeout_s = parse_positive("hello-timeout", optarg, kMaxSeconds); break;
      case kOptProgressTimeout:
        c.engine.progress_timeout_s = parse_positive("progress-timeout", optarg, kMaxSeconds);
        break;
      case kOptMbufs:
        c.mbufs = parse_unsigned("mbufs", optarg, 1023, 1u << 24);
        have_mbufs = true;
        break;
      case kOptTop: c.engine.top = parse_unsigned("top", optarg, 0, wire::kTopK); break;
      case kOptQuiet: c.engine.quiet = true; break;
      case kOptDomains: c.domains = parse_unsigned("domains", optarg, 1, 64); break;
      case kOptLineRate: c.engine.line_rate_gbps = parse_positive("line-rate", optarg, kMaxLineRateGbps); break;
      case kOptDomainSplit: c.domain_metis = parse_either("domain-split", optarg, "metis", "even"); break;
      case kOptVertexOrder: c.degree_order = parse_either("vertex-order", optarg, "degree", "input"); break;
      case kOptScatter:
        if (std::strcmp(optarg, "auto") == 0) c.engine.scatter = ScatterMode::kAuto;
        else if (std::strcmp(optarg, "sparse") == 0) c.engine.scatter = ScatterMode::kSparse;
        else if (std::strcmp(optarg, "dense") == 0) c.engine.scatter = ScatterMode::kDense;
        else throw ConfigError(std::string("--scatter: '") + optarg + "' is not auto, sparse or dense");
        break;
      case kOptSegmentKib: c.engine.segment_bytes = parse_unsigned("segment-kib", optarg, 1, 1u << 20) * 1024; break;
      case kOptLocalRounds: c.engine.local_rounds = parse_either("local-rounds", optarg, "on", "off"); break;
      case kOptRoles:
        try {
          c.engine.roles = parse_roles(optarg);
        } catch (const std::invalid_argument& e) {
          throw ConfigError(std::string("--roles: ") + e.what() +
                            " (split, shared or workers=W,senders=S,accumulators=A)");
        }
        break;
      case kOptRxQueues: c.rx_queues = parse_unsigned("rx-queues", optarg, 1, wire::kMaxQueues); break;
      case kOptRangeKib: c.engine.range_bytes = parse_unsigned("range-kib", optarg, 1, 1u << 21) * 1024; break;
      case kOptMtu: c.mtu = parse_unsigned("mtu", optarg, wire::kMtu, wire::kMaxMtu); break;
      case kOptWindow: c.transport.window = parse_unsigned("window", optarg, 1, 1u << 16); break;
      case kOptRtoMin: c.transport.rto_min_us = parse_positive("rto-min-us", optarg, kMaxMicros); break;
      case kOptRtoMax: c.transport.rto_max_us = parse_positive("rto-max-us", optarg, kMaxMicros); break;
      case kOptAst: c.transport.ast_us = parse_positive("ast-us", optarg, kMaxMicros); break;
      case kOptAckDelay: c.transport.ack_delay_us = parse_positive("ack-delay-us", optarg, kMaxMicros); break;
      case kOptKeepalive: c.transport.keepalive_ms = parse_positive("keepalive-ms", optarg, kMaxMicros / 1000); break;
      case kOptChecksum:
        c.transport.checksum = parse_either("checksum", optarg, "on", "off");
        have_checksum = true;
        break;
      case kOptKeyFile:
        if (*optarg == '\0') throw ConfigError("--key-file: the file name is empty");
        key_file = optarg;
        break;
      case kOptNoAuth: no_auth = true; break;
      case kOptFaultRx: c.transport.rx_faults = parse_faults("fault-rx", optarg); break;
      case kOptFaultTx: c.transport.tx_faults = parse_faults("fault-tx", optarg); break;
      case kOptFaultSeed: c.transport.fault_seed = parse_unsigned("fault-seed", optarg, 0, UINT64_MAX); break;
      case kOptFaultDelay: c.transport.fault_delay_us = parse_positive("fault-delay-us", optarg, kMaxMicros); break;
      case kOptCrashAt: {
        // R:S - node R kills itself at superstep S, or (S = load) in the middle
        // of the edge shuffle (the same options go to every node).
        const char* colon = std::strchr(optarg, ':');
        if (colon == nullptr)
          throw ConfigError(std::string("--crash-node: '") + optarg + "' is not RANK:SUPERSTEP or RANK:load");
        const std::string rank_text(optarg, static_cast<size_t>(colon - optarg));
        crash_rank = static_cast<int64_t>(parse_unsigned("crash-node", rank_text.c_str(), 0, wire::kMaxNodes - 1));
        crash_step = std::strcmp(colon + 1, "load") == 0
                         ? kCrashInLoad
                         : static_cast<int64_t>(parse_unsigned("crash-node", colon + 1, 0, UINT32_MAX));
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
  if (!have_app) throw ConfigError("--app is required (" + program_list(programs) + ")");
  if (!have_iterations) c.iterations = c.program.default_iterations;
  if (!have_graph) throw ConfigError("--graph is required (a file or kron:SCALE:DEGREE[:SEED])");
  if (c.graph.rfind("kron:", 0) == 0) {
    try {
      parse_kronecker_spec(c.graph);  // a bad spec is a command-line error, found before anything starts
    } catch (const GraphError& e) {
      throw ConfigError(std::string("--graph: ") + e.what());
    }
  }
  c.graphalytics = c.format == GraphFormat::kAuto && is_graphalytics_path(c.graph);
  std::optional<int64_t> properties_source;
  if (c.graphalytics) {
    // Graphalytics: the parameters of NAME.properties unless given here,
    // double precision and Graphalytics' output format unless asked otherwise.
    GraphalyticsSpec spec;
    try {
      spec = graphalytics_spec(c.graph, c.undirected);
    } catch (const GraphError& e) {
      throw ConfigError(std::string("--graph: ") + e.what());
    }
    if (!have_undirected) c.undirected = !spec.directed;
    const std::string_view app = c.program.name;
    if (app == "bfs") properties_source = spec.bfs_source;
    if (app == "sssp") properties_source = spec.sssp_source;
    if (!have_iterations && app == "pagerank" && spec.pr_iterations) c.iterations = *spec.pr_iterations, have_iterations = true;
    if (!have_iterations && app == "cd" && spec.cdlp_iterations) c.iterations = *spec.cdlp_iterations, have_iterations = true;
    if (!have_damping && spec.pr_damping) c.damping = *spec.pr_damping;
    if (!have_output_format) c.graphalytics_output = true;
  }
  check_input_options(c, source_text, properties_source);

  const char* which = nullptr;
  if (have_nodes) {
    c.nodes_from = "--nodes";
  } else if (const char* v = env_first({"SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, &which)) {
    c.nodes = parse_env_unsigned(which, v, "--nodes", 1, wire::kMaxNodes);
    c.nodes_from = which;
  }
  if (have_rank) {
    c.rank_from = "--rank";
  } else if (const char* v = env_first({"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"}, &which)) {
    c.rank = parse_env_unsigned(which, v, "--rank", 0, wire::kMaxNodes - 1);
    c.rank_from = which;
  }
  if (c.rank >= c.nodes)
    throw ConfigError(shown(c.rank, c.rank_from, "--rank", "rank") + " is not below " +
                      shown(c.nodes, c.nodes_from, "--nodes", "cluster size"));
  if (crash_rank >= static_cast<int64_t>(c.nodes))
    throw ConfigError("--crash-node " + std::to_string(crash_rank) + ":" + std::to_string(crash_step) +
                      ": there is no node " + std::to_string(crash_rank) + " among " + std::to_string(c.nodes));
  if (crash_rank == static_cast<int64_t>(c.rank)) {
    if (crash_step == kCrashInLoad)
      c.engine.crash_in_load = true;
    else
      c.engine.crash_at_superstep = crash_step;
  }
  resolve_key(c, key_file, no_auth);
  // With a key the MAC catches every corruption the CRC would: frames carry
  // no CRC, and --checksum belongs to runs without one.
  if (c.authenticated) {
    if (have_checksum)
      throw ConfigError("--checksum: frames are authenticated (key from " + c.key_from +
                        "): the MAC detects any corruption the CRC would; --checksum applies to --no-auth runs only");
    c.transport.checksum = false;
  }
  if ((c.transport.rx_faults.corrupt > 0 || c.transport.tx_faults.corrupt > 0) && !c.authenticated &&
      !c.transport.checksum)
    throw ConfigError("corrupt faults need frames checked: a key, or --checksum on with --no-auth; without either a "
                      "flipped bit is folded into the results");
  if (c.transport.rto_max_us < c.transport.rto_min_us)
    throw ConfigError("--rto-max-us " + std::to_string(c.transport.rto_max_us) + " is below --rto-min-us " +
                      std::to_string(c.transport.rto_min_us));
  // Keepalives must come well within the peer timeout, or live peers look dead.
  c.transport.keepalive_ms = std::min(c.transport.keepalive_ms, c.engine.peer_timeout_s * 1000 / 5);
  if (!have_job) c.job_token = default_job_token(c);
  // Jumbo buckets: the same bytes of buckets as 16383 at MTU 1500 (at least 4095 mbufs).
  if (!have_mbufs && c.mtu > wire::kMtu)
    c.mbufs = std::max(4095u, static_cast<unsigned>(16384ull * wire::kMtu / c.mtu) - 1);
  return c;
}

}  // namespace wg
