// The node runtime: everything about running a wiregraph node that does not
// depend on the vertex program, driving a program's engine (compute/engine/engine.h)
// or the graph loader (compute/load/graph_loader.h) through ProgramDriver.
//
// Roles, each with one owner (compute/engine/lcore_layout.h says which lcore):
//   workers           - ProgramDriver::apply/scatter for their slice
//   sender q          - Transport::send_step(q): the flows (*, q) to every
//                       peer and tx queue q (superstep_network.cc)
//   accumulator q     - Transport::receive_step(q): rx queue q, validate,
//                       fold into the ranges queue q owns, queue q's
//                       end-of-superstep ledger; same-node ring q
//                       (superstep_network.cc). Accumulator 0 also owns
//                       membership (hellos, liveness) and FIN.
//   coordinator       - run_phase(): supersteps, END/FIN, cluster figures, the
//                       program's decision to go on (superstep_loop.cc)
// with K = --rx-queues sender and accumulator roles. Every piece of state
// below names its writer. Flows are (peer, queue): END(s) goes on every flow
// with that flow's counts, so each accumulator's ledger proves on its own
// that its queue got everything; FIN goes on flow (peer, 0).
//
// Superstep s on this node:
//   1. open the ledger for s+1 (a fast peer may send s+1 data from now on)
//   2. workers apply (s > 0) or init (s = 0); Σ[s&1] is read and reset to
//      the identity, ready for superstep s+1's messages; then scatter records
//      of superstep s, which fold into Σ[(s+1)&1] wherever they land
//   3. send END(s) to every peer: buckets and records sent to it, this node's
//      active count and aggregate
//   4. each accumulator folds until every peer's END(s) on its queue is in
//      with matching counts and every same-node record of its queue is
//      folded (its ledger), then publishes "s complete" for its queue
//   5. cluster-wide active count and aggregate = own + peers' END(s), merged
//      in rank order so every node gets bit-identical figures; the program
//      decides on them whether to stop and in which phase to go on.
// A peer cannot send s+2 data before it has our END(s+1), so two Σ arrays and
// two ledger slots (by parity) suffice, with no barrier frames.
//
// Phases: a job runs several drivers one after the other on one runtime, one
// discovery and one transport: the loader (its supersteps shuffle the edges,
// compute/load/graph_loader.h), then the program. Frames carry an epoch, the
// runtime's superstep count since the start; a driver sees its own supersteps
// from 0 (epoch - base_), or from where a checkpoint left off (first_). Every phase begins with an empty superstep, a
// barrier: a peer sends the phase's records only once it has every node's END
// of that empty superstep, and a node sends it only after it has switched to
// the phase's driver (built its engine), so records never reach a node that
// is not ready for them, not even one still finishing discovery. With every
// role on one lcore a phase also ends only once everything the node sent is
// acked: the caller then computes without polling (the loader's finish, the
// engine's build), and a peer must not wait that long for our last frames.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/engine/lcore_layout.h"
#include "compute/engine/program_driver.h"
#include "dataplane/dataplane.h"
#include "dataplane/idle.h"
#include "reliability/membership.h"
#include "reliability/progress_watch.h"
#include "reliability/superstep_ledger.h"
#include "reliability/transport.h"
#include "compute/report/role_clock.h"
#include "compute/report/run_report.h"
#include "compute/report/telemetry.h"

namespace wg {

// CPU time of the whole process so far (every lcore).
double process_cpu_seconds();

class EngineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PhaseOptions {
  const char* name = "the run";   // for messages: "loading", "the computation" (a string literal)
  bool print_steps = false;       // one line per superstep (the program's, with --verbose)
  int64_t crash_at = -1;          // test hook: SIGKILL at this superstep of the phase
  // Where the phase starts: superstep 0 in phase 0, or where a checkpoint
  // left off (--resume: the superstep after it, its phase and aggregate).
  StepControl first{};
  // The coordinator calls it after each superstep the program goes on from,
  // with the next one's control, before that one starts on this node (no
  // worker runs): checkpoints (compute/engine/checkpointer.h).
  std::function<void(const StepControl& next)> between_supersteps;
  // The coordinator calls it once superstep s's workers are done, right
  // before this node sends its END of s (the checkpoints' commit rule).
  std::function<void(uint32_t s)> before_end;
};

class SuperstepRuntime {
 public:
  // opt.line_rate_gbps must be resolved (> 0). `job` is what the hello
  // compares. The layout's queues must be the dataplane's.
  SuperstepRuntime(const EngineOptions& opt, const JobIdentity& job, Dataplane& dp, Transport& transport,
          const LcoreLayout& layout, unsigned rank, unsigned nodes);
  ~SuperstepRuntime();
  SuperstepRuntime(const SuperstepRuntime&) = delete;
  SuperstepRuntime& operator=(const SuperstepRuntime&) = delete;

  // Launches the roles and finds every peer (hello exchange). Once, first.
  void start();
  double discovery_seconds() const { return discovery_seconds_; }
  // Once started: the run's id, the same on every node of this run and
  // another in every run (the first 8 bytes of rank 0's salt, drawn afresh
  // at each start), e.g. to tell whose files a directory holds.
  uint64_t run_id() const;
  // Runs `program` until it decides to stop; returns its supersteps. The
  // driver must outlive the runtime's use of it (the next phase or finish).
  std::vector<StepStats> run_phase(ProgramDriver& program, const PhaseOptions& options);
  // What this node's FIN carries besides its top vertices: its run figures
  // and its program's summary statistics, as bytes (compute/engine/summary_stats.h).
  struct FinContents {
    wire::FinFigures figures{};
    std::vector<uint8_t> stats;  // at most wire::kMaxSummaryStatsBytes
  };
  // The end of the job: FIN, with `program`'s top vertices (none when the
  // options ask for none) and `mine`, to every peer; waits for theirs and for
  // every frame to be acked. Fills the report's cluster top, every node's FIN
  // contents (cluster_nodes, cluster_stats) and the counters.
  void finish(ProgramDriver& program, const FinContents& mine, RunReport& report);
  // start, one phase of `program` (printed with opt.verbose), finish.
  RunReport run(ProgramDriver& program);

  // After a fatal error: stop the other lcores, then tell the peers, so they
  // stop now rather than time out.
  void abort(const std::string& reason);

 private:
  using Clock = std::chrono::steady_clock;
  using NetworkRoles = LcoreLayout::NetworkRoles;
  static constexpr uint32_t kQuit = UINT32_MAX;
  static constexpr double kLingerSeconds = 0.1;
  static constexpr double kFinGraceSeconds = 0.5;
  static constexpr double kFinishKeepaliveMs = 10;  // 50 keepalives per grace period
  struct WorkerArg {
    SuperstepRuntime* runtime;
    unsigned index;
  };
  struct NetworkArg {
    SuperstepRuntime* runtime;
    unsigned index;  // into network_roles_
  };
  // Accumulator role q's state: written by it, unless a field says otherwise.
  struct alignas(64) Accumulator {
    Accumulator(unsigned nodes, unsigned rank, double progress_timeout_s)
        : ledger(nodes, rank), progress(progress_timeout_s) {}
    SuperstepLedger ledger;   // the coordinator opens superstep e+1's slots before any frame of it can come
    ProgressWatch progress;
    // By parity; the coordinator zeroes the slot of superstep e+1 before any of its frames can come.
    uint64_t accumulated[2] = {0, 0};   // records folded (received and same-node)
    uint64_t local_folded[2] = {0, 0};  // of which same-node
    std::vector<ConnectionReport> receive_snapshot[2];  // its flows' receive side when s completed
    std::atomic<int64_t> completed{-1};                 // published with release
    std::atomic<uint64_t> local_expected[2] = {0, 0};   // coordinator: same-node records of this queue
  };
  // Sender role q's snapshot of its flows when the coordinator asks (after
  // every accumulator completed superstep e): written by it.
  struct alignas(64) SenderSnapshot {
    std::vector<ConnectionReport> links[2];
    TxCounters tx[2];
    std::atomic<int64_t> taken{-1};
  };

  // ---- lcores, waiting, time by role (superstep_loop.cc) ----
  void start_roles();
  void stop_roles();
  static int worker_main(void* arg);
  static int network_main(void* arg);
  void fail(const std::string& what);
  void throw_if_failed() const;
  template <class Pred>
  void wait_for(Pred&& done);
  RoleClock& clock();
  RoleCycles role_cycles() const;
  // This lcore's network roles (nullptr: none: a worker, or the coordinator with split roles).
  const NetworkRoles* roles_here() const;
  bool timed_network_step();
  void stall(bool starved);

  // ---- the coordinator's superstep (superstep_loop.cc) ----
  void barrier();
  void release_driver();
  ProgramDriver& program() const { return *program_.load(std::memory_order_acquire); }
  void work(unsigned w, const StepControl& step);
  void open_superstep(uint32_t epoch);
  StepStats run_workers(uint32_t epoch, const StepControl& step, AggregateBytes* aggregate);
  void send_end(uint32_t epoch, const StepStats& st, const AggregateBytes& aggregate);
  // Publishes superstep e as awaited and waits until every accumulator has
  // completed it and every sender has taken its snapshot.
  void await_superstep(uint32_t epoch);
  uint64_t data_frame_bytes(const StepStats& st) const;
  void combine_cluster_figures(uint32_t epoch, StepStats& st, AggregateBytes* aggregate);
  void linger(const NetworkRoles& roles);

  // ---- the network roles (superstep_network.cc) ----
  bool network_step(const NetworkRoles& roles);
  DropReason receive(const uint8_t* frame, const wire::BucketHeader* h, unsigned port, unsigned q);
  DropReason receive_data(const uint8_t* frame, const wire::BucketHeader* h, unsigned q);
  DropReason receive_end_or_fin(const uint8_t* frame, const wire::BucketHeader* h, unsigned q);
  unsigned fold_local(unsigned q);
  void publish_progress(unsigned q);
  void take_send_snapshot(unsigned q);
  void publish_finish();
  bool acked_by(unsigned peer) const;
  bool all_peers_done() const;
  std::string describe_epoch(int64_t epoch) const;  // "superstep 3 of loading"
  std::string likely_mtu_cause() const;  // "; likely cause: frames of N bytes may exceed ..." or ""
  // The driver's superstep of a frame's epoch (past the phase's barrier).
  uint32_t driver_superstep(uint32_t epoch) const {
    return epoch - base_.load(std::memory_order_relaxed) + first_.load(std::memory_order_relaxed);
  }
  void check_peers_alive(const NetworkRoles& roles);

  const EngineOptions opt_;
  Dataplane& dp_;
  Transport& transport_;
  const LcoreLayout layout_;
  const std::vector<NetworkRoles> network_roles_;  // per lcore that runs any
  const unsigned queues_;
  const unsigned rank_;
  const unsigned nodes_;
  // coordinator -> every role: the phase's driver and its first epoch, both
  // written before the phase's first frame can arrive (see "Phases")
  std::atomic<ProgramDriver*> program_{nullptr};
  std::atomic<uint32_t> base_{0};
  std::atomic<uint32_t> first_{0};  // the driver's superstep at base_ (PhaseOptions::first: 0 unless resumed)
  std::atomic<const char*> phase_name_{nullptr};  // PhaseOptions::name, for messages from any role
  // network lcore i -> coordinator: passes of its loop, so that a phase's
  // end can wait until no pass still holds the phase's driver
  struct alignas(64) Passes {
    std::atomic<uint64_t> n{0};
  };
  std::unique_ptr<Passes[]> passes_;  // per entry of network_roles_
  // coordinator only
  bool started_ = false;
  bool aborted_ = false;
  unsigned phases_ = 0;
  uint32_t next_epoch_ = 0;         // the next superstep's epoch

  double discovery_seconds_ = 0.0;
  TelemetrySource telemetry_;
  std::vector<std::unique_ptr<Accumulator>> accumulators_;     // per queue
  std::vector<std::unique_ptr<SenderSnapshot>> senders_;       // per queue
  Membership membership_;        // accumulator 0 (heard_from: each accumulator its own row)
  std::array<RoleClock, RTE_MAX_LCORE + 1> clocks_;  // by lcore id, each written by its lcore only
  bool launched_ = false;
  std::vector<WorkerArg> worker_args_;
  std::vector<NetworkArg> network_args_;

  // accumulator 0 -> coordinator (published with release, read with acquire)
  bool finishing_keepalives_ = false;  // set_keepalive_ms(kFinishKeepaliveMs) done
  std::vector<uint64_t> finish_marks_;  // each sender's steps when the finish was first seen
  uint64_t fins_seen_ = 0;                 // bit per peer
  std::vector<wire::FinPayload> fins_;     // read by the coordinator once finished_
  std::atomic<bool> discovered_{false};
  std::atomic<bool> finished_{false};
  // coordinator -> network roles
  alignas(64) std::atomic<int64_t> await_target_{-1};
  std::atomic<int64_t> snapshot_request_{-1};  // senders snapshot their flows for this superstep
  std::atomic<bool> finish_requested_{false};
  std::atomic<bool> stop_network_{false};
  // coordinator -> workers
  alignas(64) std::atomic<uint32_t> go_{kQuit};
  StepControl step_;  // written before go_ is released
  alignas(64) std::atomic<unsigned> workers_done_{0};
  // any role -> coordinator
  std::atomic<int64_t> superstep_now_{-1};  // for telemetry
  std::atomic<bool> failed_{false};
  std::atomic<bool> error_set_{false};
  std::string error_;

  uint64_t tx_bytes_mark_ = 0;
  uint64_t tx_frames_mark_ = 0;
  // Membership waits on this when it needs the network to move (mbuf pool
  // empty, discovery): the calling lcore's own network roles, if it has any.
  const Membership::Pump pump_fn_;
  const Stall stall_fn_;
  // worker w -> coordinator (read after workers_done_): the CPU time its
  // thread got in this superstep's apply and scatter
  struct alignas(64) WorkerCpu {
    double seconds = 0;
  };
  std::unique_ptr<WorkerCpu[]> worker_cpu_;
};

// The coordinator (and a worker whose pool ran dry) waits here. On a shared
// lcore waiting means running the network roles; otherwise it is a backoff.
template <class Pred>
void SuperstepRuntime::wait_for(Pred&& done) {
  RoleClock& clk = clock();
  const Role was = clk.switch_to(Role::kWait);
  IdleBackoff idle;
  while (!done()) {
    if (layout_.split()) {
      throw_if_failed();
      idle.wait();
    } else if (timed_network_step()) {
      idle.reset();
    } else {
      idle.wait();
      check_peers_alive(network_roles_[0]);
    }
  }
  clk.switch_to(was);
  throw_if_failed();
}

}  // namespace wg
