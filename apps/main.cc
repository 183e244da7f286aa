// wiregraph: one node of a distributed graph computation over DPDK.
//
//   wiregraph [EAL options] -- --app APP --graph SPEC [options]
//
// EAL options first (ports, lcores, memory), application options after `--`,
// as in DPDK's l2fwd. See --help and README.md.
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>

#include "apps/app_runner.h"
#include "compute/graph_reader.h"
#include "config/options.h"
#include "dataplane/dataplane.h"
#include "numa/topology.h"
#include "reliability/membership.h"

namespace {

int fail(const char* what) {
  std::fprintf(stderr, "wiregraph: error: %s\n", what);
  return 1;
}

// A node that dies on a fault says where before it goes, so that a crash in a
// cluster run (where no core file is kept) can be diagnosed from the log.
void report_fault(int sig, siginfo_t* info, void*) {
  char line[160];
  const int n = std::snprintf(line, sizeof line, "wiregraph: fatal: %s at address %p; backtrace:\n",
                              sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "SIGILL", info->si_addr);
  if (n > 0) (void)!write(STDERR_FILENO, line, static_cast<size_t>(n));
  void* frames[48];
  backtrace_symbols_fd(frames, backtrace(frames, 48), STDERR_FILENO);
  raise(sig);  // SA_RESETHAND restored the default action: die as before, with a core if enabled
}

void install_fault_report() {
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc now: the first call may allocate, not safe in a handler
  struct sigaction sa {};
  sa.sa_sigaction = report_fault;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGILL}) sigaction(sig, &sa, nullptr);
}

wg::LoadedGraph load(const wg::Config& cfg) {
  const auto t0 = std::chrono::steady_clock::now();
  wg::LoadedGraph g;
  g.edges = wg::load_graph(cfg.graph, cfg.format);
  if (cfg.undirected || cfg.app == wg::App::kCc || cfg.app == wg::App::kCd) wg::add_reverse_edges(g.edges);
  if (cfg.app == wg::App::kCd) wg::remove_self_loops(g.edges);
  if ((cfg.app == wg::App::kSssp || cfg.app == wg::App::kBfs) && cfg.source >= g.edges.num_vertices)
    throw wg::ConfigError("--source " + std::to_string(cfg.source) + " is not a vertex of " + cfg.graph +
                          " (it has " + std::to_string(g.edges.num_vertices) + " vertices)");
  g.fingerprint = wg::fingerprint(g.edges);
  g.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  if (wg::wants_help(argc, argv)) {
    wg::print_usage(argv[0]);
    return 0;
  }
  install_fault_report();
  const int eal_args = rte_eal_init(argc, argv);
  if (eal_args < 0) {
    std::fprintf(stderr, "wiregraph: error: EAL initialisation failed: %s\n", rte_strerror(rte_errno));
    return 1;
  }
  argc -= eal_args;
  argv += eal_args;  // argv[0] is the program name again (EAL puts it back)

  int rc = 0;
  bool memif = false;
  try {
    const wg::Config cfg = wg::parse_app_args(argc, argv);
    std::printf("wiregraph node %u/%u: %s\n", cfg.rank, cfg.nodes, cfg.describe().c_str());
    wg::Config resolved = cfg;
    if (resolved.domains == 0) resolved.domains = static_cast<unsigned>(wg::read_topology().numa_domains);
    // Ports first, graph second: links (memif pairs, tap on a bridge) come up
    // while every node loads, instead of one node's port waiting for a peer
    // that is still reading its graph.
    wg::DataplaneOptions dpo;
    dpo.job_token = cfg.job_token;
    dpo.rank = cfg.rank;
    dpo.nodes = cfg.nodes;
    dpo.udp_port = cfg.udp_port;
    dpo.mbufs = cfg.mbufs;
    // RX descriptors of every port plus each peer's reorder window, with room to spare.
    dpo.rx_mbufs = 4095 + (cfg.nodes - 1) * (2048 + 2 * cfg.transport.window);
    dpo.checksum = cfg.transport.checksum;
    dpo.domains = resolved.domains;
    wg::Dataplane dp(dpo);
    memif = dp.has_memif();
    std::printf("dataplane: %s, lcore %u on socket %u\n", dp.port_summary().c_str(), rte_lcore_id(),
                rte_socket_id());
    std::fflush(stdout);
    try {
      wg::LoadedGraph graph = load(cfg);
      std::printf("graph: %u vertices, %lu edges%s, loaded in %.3f s\n", graph.edges.num_vertices,
                  static_cast<unsigned long>(graph.edges.num_edges()),
                  graph.edges.weighted ? " (weighted)" : "", graph.load_seconds);
      rc = wg::run_app(resolved, dp, graph);
    } catch (const std::exception& e) {
      // Tell the other nodes now (they may still be discovering us), so they
      // stop with this reason instead of timing out.
      wg::Membership::abort_cluster(dp, "node " + std::to_string(cfg.rank) + ": " + e.what());
      throw;
    }
  } catch (const wg::ConfigError& e) {
    std::fprintf(stderr, "wiregraph: error: %s\n", e.what());
    rc = 2;
  } catch (const std::exception& e) {
    rc = fail(e.what());
  }
  if (memif) {
    // DPDK 22.11's memif PMD handles a peer's disconnect on the EAL interrupt
    // thread; tearing the EAL down under it crashes that thread (seen in
    // rte_intr_fd_get). Leave without cleanup: the kernel reclaims everything
    // and the launcher removes the run's files.
    std::fflush(nullptr);
    _exit(rc);
  }
  rte_eal_cleanup();
  return rc;
}
