// The node runtime: everything about running a wiregraph node that does not
// depend on the vertex program, driving a program's engine (compute/engine.h)
// or the graph loader (compute/graph_loader.h) through ProgramDriver.
//
// Roles, each with one owner (compute/lcore_layout.h):
//   workers     - ProgramDriver::apply/scatter for their slice
//   network     - Transport::send_step (sender) and receive_step (accumulator:
//                 validate, fold into Σ, end-of-superstep ledger, membership),
//                 plus the same-node queues           (runtime_network.cc)
//   coordinator - run_phase(): supersteps, END/FIN, cluster figures, the
//                 program's decision to go on         (runtime_supersteps.cc)
//
// Superstep s on this node:
//   1. open the ledger for s+1 (a fast peer may send s+1 data from now on)
//   2. workers apply (s > 0) or init (s = 0); Σ[s&1] is read and reset to
//      the identity, ready for superstep s+1's messages; then scatter records
//      of superstep s, which fold into Σ[(s+1)&1] wherever they land
//   3. send END(s) to every peer: buckets and records sent to it, this node's
//      active count and aggregate
//   4. the network role folds until every peer's END(s) is in with matching
//      counts and every same-node record is folded (the ledger), then
//      publishes "s complete"
//   5. cluster-wide active count and aggregate = own + peers' END(s), merged
//      in rank order so every node gets bit-identical figures; the program
//      decides on them whether to stop and in which phase to go on.
// A peer cannot send s+2 data before it has our END(s+1), so two Σ arrays and
// two ledger slots (by parity) suffice, with no barrier frames.
//
// Phases: a job runs several drivers one after the other on one runtime, one
// discovery and one transport: the loader (its supersteps shuffle the edges,
// compute/graph_loader.h), then the program. Frames carry an epoch, the
// runtime's superstep count since the start; a driver sees its own supersteps
// from 0 (epoch - base_). Every phase begins with an empty superstep, a
// barrier: a peer sends the phase's records only once it has every node's END
// of that empty superstep, and a node sends it only after it has switched to
// the phase's driver (built its engine), so records never reach a node that
// is not ready for them, not even one still finishing discovery.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/engine_options.h"
#include "compute/lcore_layout.h"
#include "compute/program_driver.h"
#include "dataplane/dataplane.h"
#include "dataplane/idle.h"
#include "reliability/membership.h"
#include "reliability/progress_watch.h"
#include "reliability/superstep_ledger.h"
#include "reliability/transport.h"
#include "report/role_clock.h"
#include "report/run_report.h"
#include "report/telemetry.h"

namespace wg {

class EngineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PhaseOptions {
  const char* name = "the run";   // for messages: "loading", "the computation" (a string literal)
  bool print_steps = false;       // one line per superstep (the program's, unless --quiet)
  int64_t crash_at = -1;          // test hook: SIGKILL at this superstep of the phase
};

class Runtime {
 public:
  // opt.line_rate_gbps must be resolved (> 0). `job` is what the hello compares.
  Runtime(const EngineOptions& opt, const JobIdentity& job, Dataplane& dp, Transport& transport,
          const LcoreLayout& layout, unsigned rank, unsigned nodes);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Launches the roles and finds every peer (hello exchange). Once, first.
  void start();
  double discovery_seconds() const { return discovery_seconds_; }
  // Runs `program` until it decides to stop; returns its supersteps. The
  // driver must outlive the runtime's use of it (the next phase or finish).
  std::vector<StepStats> run_phase(ProgramDriver& program, const PhaseOptions& options);
  // The end of the job: FIN, with `program`'s top vertices, to every peer;
  // waits for theirs and for every frame to be acked. Fills the report's
  // cluster top and counters.
  void finish(ProgramDriver& program, RunReport& report);
  // start, one phase of `program` (printed unless opt.quiet), finish.
  RunReport run(ProgramDriver& program);

  // After a fatal error: stop the other lcores, then tell the peers, so they
  // stop now rather than time out.
  void abort(const std::string& reason);

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr uint32_t kQuit = UINT32_MAX;
  static constexpr double kLingerSeconds = 0.1;
  static constexpr double kFinGraceSeconds = 0.5;
  static constexpr double kFinishKeepaliveMs = 10;  // 50 keepalives per grace period
  struct WorkerArg {
    Runtime* runtime;
    unsigned index;
  };

  // ---- lcores, waiting, time by role (runtime_supersteps.cc) ----
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
  bool timed_network_step();
  void stall(bool starved);

  // ---- the coordinator's superstep (runtime_supersteps.cc) ----
  void barrier();
  void release_driver();
  ProgramDriver& program() const { return *program_.load(std::memory_order_acquire); }
  void work(unsigned w, const StepControl& step);
  StepStats run_workers(uint32_t epoch, const StepControl& step, AggregateBytes* aggregate);
  void send_end(uint32_t epoch, const StepStats& st, const AggregateBytes& aggregate);
  uint64_t data_frame_bytes(const StepStats& st) const;
  void combine_cluster_figures(uint32_t epoch, StepStats& st, AggregateBytes* aggregate);
  void linger();

  // ---- the network role (runtime_network.cc) ----
  bool network_step();
  DropReason receive(const uint8_t* frame, const wire::BucketHeader* h, unsigned port);
  DropReason receive_data(const uint8_t* frame, const wire::BucketHeader* h);
  DropReason receive_end_or_fin(const uint8_t* frame, const wire::BucketHeader* h);
  unsigned fold_local();
  void publish_progress();
  bool all_peers_done() const;
  std::string describe_epoch(int64_t epoch) const;  // "superstep 3 of loading"
  void check_peers_alive();

  const EngineOptions opt_;
  Dataplane& dp_;
  Transport& transport_;
  const LcoreLayout layout_;
  const unsigned rank_;
  const unsigned nodes_;
  // coordinator -> every role: the phase's driver and its first epoch, both
  // written before the phase's first frame can arrive (see "Phases")
  std::atomic<ProgramDriver*> program_{nullptr};
  std::atomic<uint32_t> base_{0};
  std::atomic<const char*> phase_name_{nullptr};  // PhaseOptions::name, for messages from any role
  // network role -> coordinator: passes of its loop, so that a phase's end
  // can wait until no pass still holds the phase's driver
  alignas(64) std::atomic<uint64_t> network_passes_{0};
  // coordinator only
  bool started_ = false;
  bool aborted_ = false;
  unsigned phases_ = 0;
  uint32_t next_epoch_ = 0;         // the next superstep's epoch

  double discovery_seconds_ = 0.0;
  TelemetrySource telemetry_;
  SuperstepLedger ledger_;       // network role
  Membership membership_;        // network role
  ProgressWatch progress_{opt_.progress_timeout_s};  // network role
  std::array<RoleClock, RTE_MAX_LCORE + 1> clocks_;  // by lcore id, each written by its lcore only
  bool launched_ = false;
  std::vector<WorkerArg> worker_args_;

  // network role -> coordinator (published with release, read with acquire)
  uint64_t accumulated_[2] = {0, 0};
  uint64_t local_folded_[2] = {0, 0};
  bool finishing_keepalives_ = false;  // set_keepalive_ms(kFinishKeepaliveMs) done
  std::vector<ConnectionReport> links_snapshot_[2];
  TxCounters tx_snapshot_[2];
  uint64_t fins_seen_ = 0;                 // network role: bit per peer
  std::vector<wire::FinPayload> fins_;     // network role, read by the coordinator once finished_
  alignas(64) std::atomic<int64_t> completed_{-1};
  std::atomic<bool> discovered_{false};
  std::atomic<bool> finished_{false};
  // coordinator -> network role
  alignas(64) std::atomic<int64_t> await_target_{-1};
  std::atomic<uint64_t> local_expected_[2] = {0, 0};
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
  // empty, discovery). Only the lcore that owns the network role may pump.
  const Membership::Pump pump_fn_;
  const Stall stall_fn_;
};

// The coordinator (and a worker whose pool ran dry) waits here. On a shared
// lcore waiting means running the network roles; otherwise it is a backoff.
template <class Pred>
void Runtime::wait_for(Pred&& done) {
  RoleClock& clk = clock();
  const Role was = clk.switch_to(Role::kWait);
  IdleBackoff idle;
  while (!done()) {
    if (layout_.split) {
      throw_if_failed();
      idle.wait();
    } else if (timed_network_step()) {
      idle.reset();
    } else {
      idle.wait();
      check_peers_alive();
    }
  }
  clk.switch_to(was);
  throw_if_failed();
}

}  // namespace wg
