// wiregraph: one node of a distributed graph computation over DPDK.
//
//   wiregraph [EAL options] -- --app APP --graph SPEC [options]
//   wiregraph --check-options -- APP-OPTIONS
//
// EAL options first (ports, lcores, memory), application options after `--`,
// as in DPDK's l2fwd. --help, --version, --check-options and application
// options misplaced before `--` are answered, and the application options
// checked, before the EAL starts. See
// --help and docs/OPTIONS.md.
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/doctor/checks.h"
#include "apps/doctor/doctor.h"
#include "apps/registry.h"
#include "compute/engine/lcore_layout.h"
#include "compute/graph/graph_input.h"
#include "compute/graph/inflated_files.h"
#include "compute/report/build_info.h"
#include "dataplane/memif_quirks.h"
#include "config/options.h"
#include "config/usage.h"
#include "apps/node/eal_args.h"
#include "apps/node/node.h"
#include "apps/node/node_files.h"
#include "apps/node/out_dir.h"
#include "apps/node/outputs.h"
#include "apps/node/parent_death.h"

namespace {

int fail(const char* what) {
  std::fprintf(stderr, "wiregraph: error: %s\n", what);
  return 1;
}

int usage_error(const std::string& what) {
  std::fprintf(stderr, "wiregraph: error: %s\n", what.c_str());
  return 2;
}

// --version, anywhere on the line (the EAL's own is -v).
bool wants_version(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--version") == 0) return true;
  return false;
}

// `wiregraph --check-options -- APP-OPTIONS`: the node's own parse of the
// application options, without the EAL, and of --out DIR as it is now (a
// directory of another run's or of nobody's files), so that a launcher can
// refuse bad options before it starts any node (scripts/wiregraph-cluster).
bool wants_option_check(int argc, char** argv) {
  for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i)
    if (std::strcmp(argv[i], "--check-options") == 0) return true;
  return false;
}

// Whether --graph says its size without being read whole: not a gzip or
// zstd file, which declares it only once decompressed (the node does that
// once, as it runs; a check of the options would pay it on its own).
bool declares_size_unread(const wg::Config& cfg) {
  const wg::GraphInput in = wg::GraphInput::from_spec(cfg.graph_spec, cfg.undirected);
  if (in.kind != wg::GraphInput::Kind::kFile) return true;
  const int fd = ::open(in.spec.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;  // the doctor's line names what is wrong with it
  bool plain = true;
  try {
    plain = wg::file_compression(in.spec, fd) == wg::Compression::kNone;
  } catch (const std::exception&) {
  }
  ::close(fd);
  return plain;
}

int check_options(int argc, char** argv) {
  std::vector<char*> app = {argv[0]};
  unsigned lcores = 1;  // --lcore-count N: the lcores a node will have, which set its receive queues
  int i = 1;
  for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i)
    if (std::strcmp(argv[i], "--lcore-count") == 0 && i + 1 < argc) {
      char* end = nullptr;
      const unsigned long n = std::strtoul(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || n == 0 || n > RTE_MAX_LCORE)
        return usage_error(std::string("--lcore-count: ") + argv[i] + " is not a number of lcores in [1, " +
                           std::to_string(RTE_MAX_LCORE) + "]");
      lcores = static_cast<unsigned>(n);
    }
  for (++i; i < argc; ++i) app.push_back(argv[i]);
  app.push_back(nullptr);
  try {
    const wg::Config cfg = wg::parse_app_args(static_cast<int>(app.size()) - 1, app.data(), wg::program_traits());
    if (!cfg.out_dir.empty()) wg::check_out_dir(cfg.out_dir, cfg.out_keep_others);
    std::printf("wiregraph: options ok: %s\n", cfg.describe().c_str());
    // What -m must hold (Dataplane::eal_memory_bytes), for launchers: one
    // lcore socket, the receive queues of the node's lcore layout.
    std::vector<unsigned> ids(lcores);
    for (unsigned l = 0; l < lcores; ++l) ids[l] = l;
    wg::DataplaneOptions o;
    wg::LcoreLayout layout;
    try {
      layout = wg::plan_lcores(cfg.engine.roles, cfg.rx_queues, ids);
      o = wg::sized_dataplane_options(cfg, layout.queues);
    } catch (const std::invalid_argument& e) {
      return usage_error(e.what());
    }
    std::printf("wiregraph: EAL memory per node: %llu MiB (%u receive mbufs)\n",
                static_cast<unsigned long long>((wg::Dataplane::eal_memory_bytes(o, 1) + (1u << 20) - 1) >> 20),
                o.rx_mbufs);
    // What the graph will take per node, when its size is known before it
    // loads (a generator, a header, a binary file's length): the doctor's line.
    std::vector<wg::doctor::Finding> memory;
    if (declares_size_unread(cfg)) wg::doctor::check_memory(cfg, layout.workers(), true, &memory);
    for (const wg::doctor::Finding& f : memory)
      std::printf("wiregraph: memory per node: %s\n", f.finding.c_str());
    return 0;
  } catch (const wg::ConfigError& e) {
    return usage_error(e.what());
  }
}

// A node that dies on a fault says where before it goes, so that a crash in a
// cluster run (where no core file is kept) can be diagnosed from the log, and
// removes its files (apps/node/node_files.h).
void report_fault(int sig, siginfo_t* info, void*) {
  char line[160];
  const char* name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGABRT ? "SIGABRT" : "SIGILL";
  const int n = std::snprintf(line, sizeof line, "wiregraph: fatal: %s at address %p; backtrace:\n", name,
                              info->si_addr);
  if (n > 0) (void)!write(STDERR_FILENO, line, static_cast<size_t>(n));
  void* frames[48];
  backtrace_symbols_fd(frames, backtrace(frames, 48), STDERR_FILENO);
  wg::node_files::remove_now();
  raise(sig);  // SA_RESETHAND restored the default action: die as before, with a core if enabled
}

// The application options (those after `--`), parsed before the EAL starts:
// a bad one is one error line and exit 2, not the EAL's start-up lines
// first. The EAL hands the same arguments back (with argv[0]).
std::optional<wg::Config> app_config(int argc, char** argv) {
  std::vector<char*> app = {argv[0]};
  int i = 1;
  while (i < argc && std::strcmp(argv[i], "--") != 0) ++i;
  for (++i; i < argc; ++i) app.push_back(argv[i]);
  app.push_back(nullptr);
  try {
    return wg::parse_app_args(static_cast<int>(app.size()) - 1, app.data(), wg::program_traits());
  } catch (const wg::ConfigError& e) {
    usage_error(e.what());
    return std::nullopt;
  }
}

void install_fault_report() {
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc now: the first call may allocate, not safe in a handler
  struct sigaction sa {};
  sa.sa_sigaction = report_fault;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  if (wants_version(argc, argv)) {
    std::printf("%s\n", wg::build::version_line("wiregraph").c_str());
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "doctor") == 0 && !wg::help_request(argc, argv)) {
    wg::end_with_parent();
    argv[1] = argv[0];  // the doctor reads the job's own command line (apps/doctor/doctor.h)
    return wg::doctor::run(argc - 1, argv + 1);
  }
  if (const std::optional<wg::HelpRequest> help = wg::help_request(argc, argv)) {
    try {
      std::fputs(wg::help_text(*help, wg::program_traits()).c_str(), stdout);
      return 0;
    } catch (const wg::ConfigError& e) {
      return usage_error(e.what());
    }
  }
  // The EAL would answer an application option before `--` with its whole
  // usage and "EAL initialisation failed".
  if (const std::optional<std::string> misplaced = wg::misplaced_app_option(argc, argv))
    return usage_error(wg::misplaced_app_option_error(*misplaced));
  if (wants_option_check(argc, argv)) return check_options(argc, argv);
  const std::optional<wg::Config> parsed = app_config(argc, argv);
  if (!parsed) return 2;
  wg::end_with_parent();  // srun, mpirun or the launcher killed: the node ends too (apps/node/parent_death.h)
  install_fault_report();
  // Files left by an earlier run that was killed must not stop this one, and
  // this one leaves none (apps/node/node_files.h): stale memif sockets go,
  // hugepages are mapped without files unless the EAL options say otherwise.
  // DPDK's warnings that every healthy run gives stay off the screen unless
  // the user's own --log-level asks for them (apps/node/eal_args.h).
  const wg::EalArgs eal = wg::parse_eal_args(argc, argv);
  try {
    wg::node_files::clear_stale_sockets(eal.memif_sockets);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  std::vector<char*> args = wg::with_quiet_log_types(wg::with_default_memory_mode(argc, argv, eal), eal);
  argc = static_cast<int>(args.size()) - 1;
  argv = args.data();
  const int eal_args = rte_eal_init(argc, argv);
  if (eal_args < 0) {
    // EACCES is how the EAL reports "Cannot get hugepage information".
    std::fprintf(stderr, "wiregraph: error: EAL initialisation failed: %s%s\n", rte_strerror(rte_errno),
                 rte_errno == EACCES ? " (no usable hugepages: none free in /proc/meminfo, or no hugetlbfs "
                                       "mounted; --no-huge -m MB runs without them)"
                                     : "");
    return 1;
  }
  wg::node_files::remove_at_exit(eal.memif_sockets);

  int rc = 0;
  bool memif = false;
  try {
    if (const std::vector<std::string> missing = wg::missing_vdev_ports(eal); !missing.empty())
      throw std::runtime_error("the EAL could not create port " + missing[0] +
                               " (its reason is in the EAL's messages above)");
    const wg::Config& cfg = *parsed;
    const wg::ProgramEntry& program = wg::program_entry(cfg.app);
    if (!cfg.out_dir.empty()) wg::prepare_out_dir(cfg.out_dir, cfg.out_keep_others);  // not computed in vain
    std::printf("wiregraph node %u/%u: %s\n", cfg.rank, cfg.nodes, cfg.describe().c_str());
    // Ports first: links (memif pairs, tap on a bridge) come up while the
    // nodes start; the hello exchange comes next, then every node loads its
    // share of the graph (apps/node/run_program.h).
    wg::Node node(cfg);
    memif = node.dataplane().has_memif();
    std::printf("dataplane: %s, lcore %u on socket %u\n", node.dataplane().port_summary().c_str(), rte_lcore_id(),
                rte_socket_id());
    for (const std::string& w : node.dataplane().ports().warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (!node.config().ids_chosen.empty()) std::printf("ids: %s\n", node.config().ids_chosen.c_str());
    if (!node.config().source_given && node.config().one_source())
      std::printf("source: %lld (the first edge's source; --source chooses another)\n",
                  static_cast<long long>(node.config().source_id));
    if (!node.config().precision_chosen.empty())
      std::printf("weights: %s\n", node.config().precision_chosen.c_str());
    if (!eal.memory_mode_given)
      std::printf("memory: --in-memory added to the EAL options: hugepages without files, none left behind "
                  "(any EAL memory option, e.g. --huge-unlink=never, chooses otherwise)\n");
    std::fflush(stdout);
    // The verdict of --verify is in the outcome too (apps/node/verify_verdict.h);
    // run_program has printed it.
    rc = program.run(node).exit_code;
  } catch (const wg::ConfigError& e) {
    std::fprintf(stderr, "wiregraph: error: %s\n", e.what());
    rc = 2;
  } catch (const std::exception& e) {
    rc = fail(e.what());
  }
  // With memif ports: no rte_eal_cleanup (workaround 3 of dataplane/memif_quirks.h).
  wg::memif_quirks::exit_process(rc, memif, wg::node_files::remove_now);
}
