// parse_app_args reads the command line with the option table
// (config/option_table.cc), then finishes what needs several options at
// once, in order: the program's parameters, the graph and its defaults, the
// source, the launcher's rank and size, the key, the transport's rules.
#include "config/options.h"

#include <getopt.h>

#include <algorithm>

#include "compute/graph/graph_error.h"
#include "compute/graph/graph_spec.h"
#include "config/graphalytics_defaults.h"
#include "config/key_file.h"
#include "config/launcher_env.h"
#include "config/option_table.h"
#include "dataplane/wire.h"

namespace wg {

namespace {

constexpr int kFirstLong = 256;  // long-only options start above any short option character

std::vector<option> getopt_options() {
  std::vector<option> v;
  const auto table = option_table();
  for (size_t i = 0; i < table.size(); ++i) {
    const OptionSpec& o = table[i];
    const int has_arg = o.arg.empty() ? no_argument : o.arg.front() == '[' ? optional_argument : required_argument;
    v.push_back(option{o.name.data(), has_arg, nullptr, kFirstLong + static_cast<int>(i)});
  }
  v.push_back(option{nullptr, 0, nullptr, 0});
  return v;
}

// "unknown option '--sorce' (did you mean --source? see --help)".
std::string unknown_option(std::string_view given) {
  std::string_view name = given.substr(0, given.find('='));
  const size_t dashes = name.find_first_not_of('-');
  name.remove_prefix(dashes == std::string_view::npos ? name.size() : dashes);
  const OptionSpec* near = name.size() > 1 ? closest_option(name) : nullptr;
  return "unknown option '" + std::string(given) + "' (" +
         (near != nullptr ? "did you mean --" + std::string(near->name) + "? " : std::string()) + "see --help)";
}

void read_command_line(int argc, char** argv, ParseState& s) {
  static const std::vector<option> kLong = getopt_options();
  const auto table = option_table();
  optind = 0;  // full getopt reset (glibc): the EAL has used getopt before us
  opterr = 0;
  for (int opt; (opt = getopt_long(argc, argv, ":h", kLong.data(), nullptr)) != -1;) {
    if (opt == 'h') continue;  // answered before the EAL starts (apps/main.cc)
    if (opt == ':') throw ConfigError(std::string("option ") + argv[optind - 1] + " needs a value");
    if (opt < kFirstLong) throw ConfigError(unknown_option(argv[optind - 1]));
    const size_t i = static_cast<size_t>(opt - kFirstLong);
    s.given[i] = true;
    table[i].parse(s, OptionArg{"--" + std::string(table[i].name), optarg != nullptr ? optarg : ""});
  }
  if (optind < argc) throw ConfigError(std::string("unexpected argument '") + argv[optind] + "' (see --help)");
}

bool given(const ParseState& s, const char* name) { return s.given[option_index(name)]; }

// A program parameter the program does not read would be ignored while the
// user thinks it applied: refused, naming who reads it. (A Graphalytics
// graph's properties carry every algorithm's parameters: those the program
// does not read are simply not looked up, config/graphalytics_defaults.cc.)
void refuse_parameters_not_read(const ParseState& s) {
  const auto table = option_table();
  for (size_t i = 0; i < table.size(); ++i) {
    const OptionSpec& o = table[i];
    if (!s.given[i] || o.read_by == nullptr || s.c.program.*o.read_by) continue;
    const std::string readers = programs_reading(o, s.programs);
    throw ConfigError("--" + std::string(o.name) + " does not apply to " + s.c.app + ": " +
                      (readers.empty() ? std::string("no program reads it")
                                       : "only " + readers + (readers.find(" and ") == std::string::npos
                                                                  ? " reads it"
                                                                  : " read it")));
  }
}

// --vertices N against the input and --ids (the node checks a file's own
// header, apps/node/input_choice.cc): the ids are dense 0..N-1.
void check_given_vertices(const Config& c, bool generated) {
  if (c.vertices == 0) return;
  const std::string n = "--vertices " + std::to_string(c.vertices);
  if (c.graphalytics)
    throw ConfigError(n + ": " + c.graph + " is a Graphalytics graph, whose vertices NAME.v lists (drop --vertices)");
  if (c.ids == IdsOption::kSparse)
    throw ConfigError(n + " and --ids sparse contradict each other: --vertices numbers the vertices 0..N-1 (dense "
                          "ids), --ids sparse maps the ids the edges name; give one");
  if (generated) {
    try {
      check_generated_vertices(c.graph, c.graph_spec.kron, c.vertices);
    } catch (const GraphError& e) {
      throw ConfigError(std::string("--graph: ") + e.what());
    }
  }
}

// What a snapshot fixed when it was saved (compute/load/snapshot_format.h):
// the options that would read the input otherwise are refused, not ignored.
void check_snapshot_options(const ParseState& s) {
  const Config& c = s.c;
  const std::string why = ": " + c.graph + " holds the graph as it was loaded when it was saved";
  for (const char* option : {"vertices", "ids", "format", "weight-column"})
    if (given(s, option)) throw ConfigError(std::string("--") + option + why + " (drop --" + option + ")");
  if (c.verify)
    throw ConfigError("--verify" + why + ", and the oracle needs the whole input: run --verify with the input it was "
                      "saved from");
  if (!c.save_snapshot_dir.empty())
    throw ConfigError("--save-snapshot" + why + ": it is a snapshot already");
}

void check_graph(ParseState& s) {
  Config& c = s.c;
  if (!given(s, "graph")) throw ConfigError("--graph is required (a file or kron:SCALE:DEGREE[:SEED])");
  try {
    c.graph_spec = parse_graph_spec(c.graph, c.format);  // a bad spec is a command-line error, found before anything starts
  } catch (const GraphError& e) {
    throw ConfigError(std::string("--graph: ") + e.what());
  }
  c.graphalytics = c.graph_spec.is_graphalytics();
  if (c.graph_spec.is_snapshot()) check_snapshot_options(s);
  if (c.graphalytics) apply_graphalytics_defaults(s);
  // --ids and --precision against the kind of input (docs/INPUT.md): what the
  // command line decides. What the input decides (--ids auto on an edge list,
  // --precision auto for sssp, the source's range) the node decides once it
  // has looked at the file (apps/node/input_choice.h).
  const bool generated = c.graph_spec.is_generator();
  const GraphFormat f = c.graph_spec.format;
  if (c.ids == IdsOption::kSparse && !c.graphalytics) {
    // Graphalytics graphs are mapped whatever --ids says; of the others only
    // the files whose edges alone name their vertices.
    if (generated)
      throw ConfigError("--ids sparse: " + c.graph + " is generated with dense ids 0..2^SCALE-1 (sparse ids are for "
                        "edge lists: text, bin or wbin)");
    if (const char* why = why_ids_are_dense(f)) throw ConfigError("--ids sparse: " + c.graph + ": " + why);
  }
  check_given_vertices(c, generated);
  c.sparse_ids = c.ids == IdsOption::kSparse;
  c.first_id = !generated && !c.graphalytics && why_ids_are_dense(f) != nullptr ? 1 : 0;
  if (c.precision != PrecisionOption::kAuto) c.double_precision = c.precision == PrecisionOption::kDouble;
  if (c.weighted) {  // real weights and double messages (apps/programs.h: Weighted<P>)
    if (c.precision == PrecisionOption::kSingle)
      throw ConfigError("--weighted reads real weights and runs in double precision: --precision single contradicts "
                        "it (drop it)");
    c.double_precision = true;
  }
}

// --source (or the properties' source) as the input names it: with ids that
// may be mapped one of the input's own, signed 64-bit; in a 1-based file
// 1..n. The dense id follows, until the node has checked it against the input.
void resolve_source(ParseState& s) {
  Config& c = s.c;
  if (s.source && c.sources > 0)
    throw ConfigError("--source and --sources: give one (--source V sweeps from V, as GAP's bc -r V; --sources K "
                      "from K vertices picked as GAP's bc -i K)");
  if (s.source && !c.seed_ids.empty())
    throw ConfigError("--source and --seeds: give one (--seeds takes a single id too)");
  const bool generated = c.graph_spec.is_generator();
  const bool maybe_mapped =
      c.graphalytics || (!generated && c.first_id == 0 && c.ids != IdsOption::kDense && c.vertices == 0);
  c.source_given = s.source.has_value();
  if (!s.source)
    c.source_id = c.first_id;  // until the node reads the first edge (apps/node/input_choice.h)
  else if (maybe_mapped)
    c.source_id = s.source->signed_integer(std::string("a vertex id (a signed 64-bit integer") +
                                           (c.graphalytics ? ": the graph's own ids)" : ", as an edge list's ids may be)"));
  else
    c.source_id = static_cast<int64_t>(s.source->unsigned_in(0, UINT32_MAX - 1));
  const int64_t dense = c.source_id - c.first_id;
  c.source = dense >= 0 && dense <= int64_t{UINT32_MAX - 1} ? static_cast<VertexId>(dense) : 0;
}

// "--rank 2", "--nodes 1 (the default)", "rank 3 (environment variable PMI_RANK)".
std::string shown(unsigned value, const std::string& from, const char* option, const char* noun) {
  const std::string v = std::to_string(value);
  if (from == "default") return std::string(option) + " " + v + " (the default)";
  if (from == option) return from + " " + v;
  return std::string(noun) + " " + v + " (environment variable " + from + ")";
}

void resolve_rank_and_nodes(ParseState& s) {
  Config& c = s.c;
  if (!given(s, "nodes")) {
    if (const std::optional<LauncherValue> v = nodes_from_environment()) c.nodes = v->value, c.nodes_from = v->variable;
  }
  if (!given(s, "rank")) {
    if (const std::optional<LauncherValue> v = rank_from_environment()) c.rank = v->value, c.rank_from = v->variable;
  }
  if (c.rank >= c.nodes)
    throw ConfigError(shown(c.rank, c.rank_from, "--rank", "rank") + " is not below " +
                      shown(c.nodes, c.nodes_from, "--nodes", "cluster size"));
  if (s.crash_rank >= static_cast<int64_t>(c.nodes))
    throw ConfigError("--crash-node " + std::to_string(s.crash_rank) + ": there is no node " + std::to_string(s.crash_rank) + " among " + std::to_string(c.nodes));
  if (s.crash_rank == static_cast<int64_t>(c.rank)) {
    if (s.crash_step == kCrashInLoad)
      c.engine.crash_in_load = true;
    else if (s.crash_step == kCrashInCheckpoint)
      c.engine.crash_in_checkpoint = true;
    else
      c.engine.crash_at_superstep = s.crash_step;
  }
}

// --checkpoint-every, --checkpoint-dir, --resume: each needs its partner;
// the directory of new checkpoints defaults to the one resumed from.
void resolve_checkpoints(ParseState& s) {
  Config& c = s.c;
  if (c.program.name == "lcc" && (c.checkpoint_every != 0 || !c.checkpoint_dir.empty() || !c.resume_dir.empty()))
    throw ConfigError("lcc runs in two supersteps and has no checkpoints (--checkpoint-every, --checkpoint-dir, "
                      "--resume): run it again instead");
  if (c.checkpoint_dir.empty()) c.checkpoint_dir = c.resume_dir;
  if (c.checkpoint_every != 0 && c.checkpoint_dir.empty())
    throw ConfigError("--checkpoint-every " + std::to_string(c.checkpoint_every) +
                      " needs --checkpoint-dir DIR: where every node writes its checkpoints");
  if (c.checkpoint_every == 0 && given(s, "checkpoint-dir"))
    throw ConfigError("--checkpoint-dir " + c.checkpoint_dir + " needs --checkpoint-every N: how often to write");
  if (s.crash_step == kCrashInCheckpoint && c.checkpoint_every == 0)
    throw ConfigError("--crash-node R:checkpoint needs --checkpoint-every N: the node dies writing a checkpoint");
}

// The job's key: --key-file, else WIREGRAPH_KEY, else none; with P > 1 a
// node refuses to run without one unless --no-auth says so.
void resolve_key(ParseState& s) {
  Config& c = s.c;
  const std::string& key_file = s.key_file;
  if (s.no_auth && !key_file.empty())
    throw ConfigError("--no-auth and --key-file " + key_file + " contradict each other: give one");
  try {
    if (s.no_auth) {
      c.key_from = "--no-auth";
    } else if (!key_file.empty()) {
      c.key = read_key_file(key_file);
      c.authenticated = true;
      c.key_from = "--key-file " + key_file;
    } else if (const char* v = std::getenv(kKeyEnvironmentVariable); v != nullptr && *v != '\0') {
      const std::string what = std::string("environment variable ") + kKeyEnvironmentVariable;
      c.key = parse_hex_key(v, what + " (read because --key-file is not given)");
      c.authenticated = true;
      c.key_from = what;
    }
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  if (c.nodes > 1 && !c.authenticated && !s.no_auth)
    throw ConfigError(std::string("no key: the nodes of a job authenticate every frame with a shared 32-byte key. "
                                  "Make one (") + kMakeKeyCommand + "), give it to every node with --key-file key "
                      "or in the environment variable " + kKeyEnvironmentVariable +
                      " (64 hex digits), or run without authentication with --no-auth (anyone on the link can "
                      "then forge frames)");
  // With a key the MAC catches every corruption the CRC would: frames carry
  // no CRC, and --checksum belongs to runs without one.
  if (c.authenticated) {
    if (given(s, "checksum"))
      throw ConfigError("--checksum: frames are authenticated (key from " + c.key_from +
                        "): the MAC detects any corruption the CRC would; --checksum applies to --no-auth runs only");
    c.transport.checksum = false;
  }
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

void resolve_transport(ParseState& s) {
  Config& c = s.c;
  if ((c.transport.rx_faults.corrupt > 0 || c.transport.tx_faults.corrupt > 0) && !c.authenticated &&
      !c.transport.checksum)
    throw ConfigError("corrupt faults need frames checked: a key, or --checksum on with --no-auth; without either a "
                      "flipped bit is folded into the results");
  if (c.transport.rto_max_us < c.transport.rto_min_us)
    throw ConfigError("--rto-max-us " + std::to_string(c.transport.rto_max_us) + " is below --rto-min-us " +
                      std::to_string(c.transport.rto_min_us));
  // Keepalives must come well within the peer timeout, or live peers look dead.
  c.transport.keepalive_ms = std::min(c.transport.keepalive_ms, c.engine.peer_timeout_s * 1000 / 5);
  if (!given(s, "job-id")) c.job_token = default_job_token(c);
  // Jumbo buckets: the same bytes of buckets as 16383 at MTU 1500 (at least 4095 mbufs).
  if (!given(s, "mbufs") && c.mtu > wire::kMtu)
    c.mbufs = std::max(4095u, static_cast<unsigned>(16384ull * wire::kMtu / c.mtu) - 1);
}

// Options the node answers before the EAL starts, wherever they stand.
bool answered_before_eal(std::string_view name) { return name == "help" || name == "help-all" || name == "version"; }

}  // namespace

Config parse_app_args(int argc, char** argv, std::span<const ProgramTraits> programs) {
  Config c;
  c.programs = programs;
  ParseState s{.c = c, .programs = programs, .given = std::vector<bool>(option_table().size())};
  read_command_line(argc, argv, s);
  if (!given(s, "app")) throw ConfigError("--app is required (" + program_list(programs) + ")");
  refuse_parameters_not_read(s);
  if (!given(s, "iterations")) c.iterations = c.tolerance > 0 ? kToleranceIterations : c.program.default_iterations;
  check_graph(s);
  resolve_source(s);
  resolve_rank_and_nodes(s);
  resolve_key(s);
  resolve_transport(s);
  resolve_checkpoints(s);
  return c;
}

bool Config::reads(std::string_view option) const {
  const OptionSpec& o = option_table()[option_index(option)];
  return o.read_by == nullptr || program.*o.read_by;
}

uint64_t Config::params_digest() const {
  uint64_t h = 0xcbf29ce484222325ULL;
  auto add = [&h](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; };
  add(program_id(program.name));
  for (const OptionSpec& o : option_table())
    if (o.digest != nullptr && reads(o.name)) add(o.digest(*this));
  return h;
}

std::string Config::describe() const {
  std::string out;
  for (const OptionSpec& o : option_table()) {
    if (o.banner == nullptr || !reads(o.name)) continue;
    const std::string part = o.banner(*this);
    if (part.empty()) continue;
    if (!out.empty()) out += ", ";
    out += part;
  }
  return out;
}

std::optional<std::string> misplaced_app_option(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (!a.starts_with("--")) continue;
    const std::string_view name = a.substr(2, a.find('=') == std::string_view::npos ? a.npos : a.find('=') - 2);
    if (find_option(name) != nullptr && !answered_before_eal(name)) return std::string(a);
  }
  return std::nullopt;
}

std::string misplaced_app_option_error(const std::string& option) {
  return "application options go after --: wiregraph [EAL options] -- --app APP --graph SPEC [options] ('" + option +
         "' came before --)";
}

}  // namespace wg
