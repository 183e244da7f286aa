// The runtime's lcores and its coordinator: launching roles, the superstep
// loop, END and FIN, cluster figures and the program's decision, waiting and
// time by role. The network role is in superstep_network.cc.
#include <rte_launch.h>
#include <rte_lcore.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <ctime>

#include "compute/engine/superstep_runtime.h"
#include "compute/report/telemetry.h"
#include "dataplane/frame_mac.h"

namespace wg {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double cpu_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

double process_cpu_seconds() { return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID); }

SuperstepRuntime::SuperstepRuntime(const EngineOptions& opt, const JobIdentity& job, Dataplane& dp, Transport& transport,
                 const LcoreLayout& layout, unsigned rank, unsigned nodes)
    : opt_(opt),
      dp_(dp),
      transport_(transport),
      layout_(layout),
      network_roles_(layout.network()),
      queues_(layout.queues),
      rank_(rank),
      nodes_(nodes),
      passes_(std::make_unique<Passes[]>(network_roles_.size())),
      telemetry_{rank, &dp, &transport, &superstep_now_},
      membership_(dp, MembershipInfo{nodes_, job.program_id, job.input_kind, job.input_size, job.input_digest,
                                     job.params_digest, job.describe_input, job.name_program}),
      finish_marks_(layout.queues, 0),
      fins_(nodes_),
      pump_fn_([this] {
        if (roles_here() == nullptr) {
          throw_if_failed();
          return false;
        }
        return timed_network_step();
      }),
      stall_fn_([this](bool starved) { stall(starved); }),
      worker_cpu_(std::make_unique<WorkerCpu[]>(layout.workers())) {
  if (queues_ != dp.queue_count() || queues_ != transport.queues())
    throw EngineError("the lcore layout has " + std::to_string(queues_) + " queues, the ports " +
                      std::to_string(dp.queue_count()));
  for (unsigned q = 0; q < queues_; ++q) {
    accumulators_.push_back(std::make_unique<Accumulator>(nodes_, rank_, opt_.progress_timeout_s));
    senders_.push_back(std::make_unique<SenderSnapshot>());
  }
}

SuperstepRuntime::~SuperstepRuntime() {
  stop_roles();
  if (started_) publish_telemetry(nullptr);
}

void SuperstepRuntime::start() {
  if (started_) return;
  started_ = true;
  publish_telemetry(&telemetry_);
  const auto t0 = Clock::now();
  for (auto& a : accumulators_) a->ledger.open(0);
  start_roles();
  if (layout_.split())
    wait_for([this] { return discovered_.load(std::memory_order_acquire); });
  else
    membership_.discover(opt_.hello_timeout_s, pump_fn_);
  discovery_seconds_ = seconds_since(t0);
  clock().charge(clock().current());  // start-up and discovery: before the first superstep's mark
}

uint64_t SuperstepRuntime::run_id() const {
  if (!started_ || (rank_ != 0 && !dp_.auth().confirmed(0)))
    throw EngineError("the run's id is known once node 0 has been discovered");
  return salt_prefix(rank_ == 0 ? dp_.auth().salt() : dp_.auth().peer_salt(0));
}

std::vector<StepStats> SuperstepRuntime::run_phase(ProgramDriver& program, const PhaseOptions& po) {
  start();
  // The new driver and its first epoch are in place before the barrier's
  // END leaves: no peer sends this phase's records before it has that END.
  ++phases_;
  base_.store(next_epoch_ + 1, std::memory_order_relaxed);
  first_.store(po.first.superstep, std::memory_order_relaxed);
  dp_.set_routes(program.routes());  // the workers are idle between phases
  program_.store(&program, std::memory_order_release);
  phase_name_.store(po.name, std::memory_order_relaxed);
  barrier();
  std::vector<StepStats> steps;
  StepControl step = po.first;  // superstep 0, phase 0, the identity aggregate, unless resumed
  RoleCycles roles_mark = role_cycles();
  for (;;) {
    const uint32_t e = next_epoch_++;
    const uint32_t s = step.superstep;
    if (static_cast<int64_t>(s) == po.crash_at) raise(SIGKILL);
    superstep_now_.store(s, std::memory_order_relaxed);
    const auto ts = Clock::now();
    open_superstep(e);
    AggregateBytes aggregate{};
    StepStats st = run_workers(e, step, &aggregate);
    if (po.before_end) po.before_end(s);
    send_end(e, st, aggregate);
    await_superstep(e);
    for (unsigned q = 0; q < queues_; ++q) {
      st.accumulated_by_queue.push_back(accumulators_[q]->accumulated[e & 1]);
      st.messages_accumulated += accumulators_[q]->accumulated[e & 1];
    }
    combine_cluster_figures(e, st, &aggregate);
    st.seconds = seconds_since(ts);
    const RoleCycles roles_now = role_cycles();
    for (unsigned i = 0; i < kRoles; ++i)
      st.role_seconds[i] = static_cast<double>(roles_now[i] - roles_mark[i]) / static_cast<double>(rte_get_tsc_hz());
    roles_mark = roles_now;
    if (po.print_steps) print_step(st, opt_.line_rate_gbps);
    steps.push_back(st);
    const Decision next = program.decide(s, step.phase, st.cluster_active, aggregate);
    if (next.stop) break;
    step = StepControl{s + 1, next.phase, aggregate};
    if (po.between_supersteps) po.between_supersteps(step);
  }
  // With every role on this lcore nothing leaves or is acked between network
  // passes, and the caller now computes without them (the loader's finish,
  // the engine's build). A frame of the last superstep that a peer still
  // awaits (queued while the port was full, or to be retransmitted) would
  // hold that peer for the whole computation: P = 2 on a binary kron:22:16,
  // one node's load 7-11 s longer, the other's engine build. So the phase
  // ends once everything this node sent is acked. And the peers hear that
  // this node goes quiet: what they send meanwhile (the next phase's
  // barrier END) waits unacked, which their timers must not take for loss
  // (a P = 2 kron:16:16 PageRank resent it 5 times, backing off, through
  // the loader's 26 ms build).
  if (!layout_.split()) {
    wait_for([this] { return transport_.all_acked(); });
    for (unsigned q = 0; q < queues_; ++q) transport_.send_path(q).announce_quiet();
  }
  release_driver();
  return steps;
}

// The phase's driver may go once this returns: the network role (which reads
// program_ afresh on every pass) has begun a pass after it was cleared.
void SuperstepRuntime::release_driver() {
  program_.store(nullptr, std::memory_order_release);
  if (!launched_) return;  // one lcore: nothing else holds it
  std::vector<uint64_t> marks;
  for (size_t i = 0; i < network_roles_.size(); ++i) marks.push_back(passes_[i].n.load(std::memory_order_acquire));
  wait_for([this, &marks] {
    for (size_t i = 0; i < marks.size(); ++i)
      if (passes_[i].n.load(std::memory_order_acquire) < marks[i] + 2) return false;
    return true;
  });
}

// Superstep `epoch` is about to run: its successor's ledger slots and
// counters are reset (no frame of epoch + 1 can arrive before our END(epoch)).
void SuperstepRuntime::open_superstep(uint32_t epoch) {
  for (auto& a : accumulators_) {
    a->ledger.open(epoch + 1);
    a->accumulated[(epoch + 1) & 1] = 0;
    a->local_folded[(epoch + 1) & 1] = 0;
  }
}

void SuperstepRuntime::await_superstep(uint32_t e) {
  await_target_.store(e, std::memory_order_release);
  wait_for([this, e] {
    for (const auto& a : accumulators_)
      if (a->completed.load(std::memory_order_acquire) < static_cast<int64_t>(e)) return false;
    return true;
  });
  snapshot_request_.store(e, std::memory_order_release);
  wait_for([this, e] {
    for (const auto& snap : senders_)
      if (snap->taken.load(std::memory_order_acquire) < static_cast<int64_t>(e)) return false;
    return true;
  });
}

// An empty superstep between phases (see "Phases" in superstep_runtime.h): every peer's
// END of it, no records.
void SuperstepRuntime::barrier() {
  const uint32_t e = next_epoch_++;
  open_superstep(e);
  StepStats none;
  send_end(e, none, AggregateBytes{});
  for (auto& a : accumulators_) a->local_expected[e & 1].store(0, std::memory_order_relaxed);
  await_superstep(e);
  TxCounters tx;
  for (const auto& snap : senders_) tx += snap->tx[e & 1];
  tx_bytes_mark_ = tx.bytes;
  tx_frames_mark_ = tx.frames;
}

RunReport SuperstepRuntime::run(ProgramDriver& program) {
  RunReport report;
  report.rank = rank_;
  report.nodes = nodes_;
  report.line_rate_gbps = opt_.line_rate_gbps;
  start();
  report.discovery_seconds = discovery_seconds_;
  const auto t0 = Clock::now();
  const double cpu0 = process_cpu_seconds();
  report.steps = run_phase(program, PhaseOptions{"the computation", opt_.verbose, opt_.crash_at_superstep});
  report.compute_seconds = seconds_since(t0);
  report.compute_cpu_seconds = process_cpu_seconds() - cpu0;
  finish(program, FinContents{}, report);
  return report;
}

void SuperstepRuntime::abort(const std::string& reason) {
  if (aborted_) return;  // the loader and the node both report one failure
  aborted_ = true;
  stop_roles();
  membership_.broadcast_abort(reason);
}

// ---- lcores ------------------------------------------------------------------

void SuperstepRuntime::start_roles() {
  if (!layout_.split() || launched_) return;
  launched_ = true;
  network_args_.reserve(network_roles_.size());  // launched lcores keep pointers into it
  for (unsigned i = 0; i < network_roles_.size(); ++i) {
    network_args_.push_back(NetworkArg{this, i});
    if (rte_eal_remote_launch(&SuperstepRuntime::network_main, &network_args_.back(), network_roles_[i].lcore) != 0)
      throw EngineError("cannot launch the network roles on lcore " + std::to_string(network_roles_[i].lcore));
  }
  worker_args_.reserve(layout_.workers());  // launched workers keep pointers into it
  for (unsigned i = 1; i < layout_.workers(); ++i) {
    worker_args_.push_back(WorkerArg{this, i});
    if (rte_eal_remote_launch(&SuperstepRuntime::worker_main, &worker_args_.back(), layout_.worker_lcores[i]) != 0)
      throw EngineError("cannot launch worker " + std::to_string(i) + " on lcore " +
                        std::to_string(layout_.worker_lcores[i]));
  }
}

void SuperstepRuntime::stop_roles() {
  if (!launched_) return;
  launched_ = false;
  go_.store(kQuit, std::memory_order_release);
  stop_network_.store(true, std::memory_order_release);
  for (unsigned i = 1; i < layout_.workers(); ++i) rte_eal_wait_lcore(layout_.worker_lcores[i]);
  for (const NetworkRoles& r : network_roles_) rte_eal_wait_lcore(r.lcore);
}

int SuperstepRuntime::worker_main(void* arg) {
  auto* a = static_cast<WorkerArg*>(arg);
  SuperstepRuntime* rt = a->runtime;
  uint32_t last = kQuit;
  IdleBackoff idle;
  try {
    for (;;) {
      const uint32_t s = rt->go_.load(std::memory_order_acquire);
      if (s == kQuit && rt->stop_network_.load(std::memory_order_acquire)) return 0;
      if (s == last || s == kQuit) {
        idle.wait();
        rt->clock().charge(Role::kWait);  // keeps what a superstep's figures miss short
        continue;
      }
      idle.reset();
      last = s;
      rt->work(a->index, rt->step_);
      rt->workers_done_.fetch_add(1, std::memory_order_acq_rel);
    }
  } catch (const std::exception& ex) {
    rt->fail(ex.what());
  }
  return 0;
}

void SuperstepRuntime::fail(const std::string& what) {
  if (failed_.exchange(true)) return;
  error_ = what;
  error_set_.store(true, std::memory_order_release);
}

void SuperstepRuntime::throw_if_failed() const {
  if (error_set_.load(std::memory_order_acquire)) throw EngineError(error_);
}

// ---- time by role (compute/report/role_clock.h) ------------------------------------------

// This lcore's clock (the last slot serves a thread outside the EAL's lcores).
RoleClock& SuperstepRuntime::clock() {
  const unsigned id = rte_lcore_id();
  return clocks_[id < RTE_MAX_LCORE ? id : RTE_MAX_LCORE];
}

RoleCycles SuperstepRuntime::role_cycles() const {
  RoleCycles sum{};
  for (const RoleClock& c : clocks_) c.add_to(sum);
  return sum;
}

const SuperstepRuntime::NetworkRoles* SuperstepRuntime::roles_here() const {
  const unsigned lcore = rte_lcore_id();
  for (const NetworkRoles& r : network_roles_)
    if (r.lcore == lcore) return &r;
  return nullptr;
}

// A pass of this lcore's network roles, charged to the network role if it
// moved anything; an empty poll is waiting.
bool SuperstepRuntime::timed_network_step() {
  const NetworkRoles* roles = roles_here();
  if (roles == nullptr) return false;
  RoleClock& clk = clock();
  clk.charge(clk.current());
  const bool moved = network_step(*roles);
  clk.charge(moved ? Role::kNetwork : Role::kWait);
  return moved;
}

// A worker between buckets: on a shared lcore, run the network roles; on
// its own lcore, only wait when the pool is empty.
void SuperstepRuntime::stall(bool starved) {
  if (!layout_.split()) {
    if (!starved) {
      timed_network_step();
      return;
    }
    wait_for([this] { return rte_mempool_avail_count(dp_.local_pool()) > 0 || timed_network_step(); });
    return;
  }
  throw_if_failed();
  if (starved) {
    RoleClock& clk = clock();
    const Role was = clk.switch_to(Role::kWait);
    const timespec ts{0, 20'000};
    nanosleep(&ts, nullptr);
    clk.switch_to(was);
  }
}

// ---- the coordinator's superstep -----------------------------------------------

void SuperstepRuntime::work(unsigned w, const StepControl& step) {
  ProgramDriver& prog = program();
  RoleClock& clk = clock();
  const double cpu = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
  clk.switch_to(Role::kApply);
  prog.apply(w, step, stall_fn_);
  clk.switch_to(Role::kScatter);
  prog.scatter(w, step, stall_fn_);
  clk.switch_to(Role::kWait);
  worker_cpu_[w].seconds = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
}

StepStats SuperstepRuntime::run_workers(uint32_t epoch, const StepControl& step, AggregateBytes* aggregate) {
  ProgramDriver& prog = program();
  step_ = step;
  step_.epoch = epoch;
  workers_done_.store(0, std::memory_order_relaxed);
  go_.store(epoch, std::memory_order_release);
  work(0, step_);
  const unsigned others = prog.workers() - 1;
  wait_for([this, others] { return workers_done_.load(std::memory_order_acquire) == others; });
  StepStats st;
  st.superstep = step.superstep;
  uint64_t direct = 0;
  for (unsigned w = 0; w < prog.workers(); ++w) {  // worker order: identical merges every run
    const StepStats& ws = prog.worker_stats(w);
    st.active += ws.active;
    prog.merge(*aggregate, prog.worker_aggregate(w));
    st.messages_sent += ws.messages_sent;
    st.messages_local += ws.messages_local;
    st.relaxed_locally += ws.relaxed_locally;
    st.worker_cpu_seconds += worker_cpu_[w].seconds;
    st.local_rounds += ws.local_rounds;
    st.buckets_sent += ws.buckets_sent;
    st.dense = st.dense || ws.dense;
    // Folded by the worker itself: only with shared roles, where this
    // lcore is also every accumulator and owns these counters (with split
    // roles even a += 0 here would race with the accumulators' updates).
    // Counted as queue 0's, expected and folded alike.
    if (!layout_.split()) {
      Accumulator& a0 = *accumulators_[0];
      a0.accumulated[epoch & 1] += prog.folded_directly(w);
      a0.local_folded[epoch & 1] += prog.folded_directly(w);
      direct += prog.folded_directly(w);
      for (uint64_t i = 0; i < prog.direct_overflows(w); ++i) dp_.rx_q[0].drop(DropReason::kSlotOverflow);
    }
  }
  // What each accumulator folds from its same-node ring this superstep.
  for (unsigned q = 0; q < queues_; ++q) {
    uint64_t local = q == 0 ? direct : 0;
    for (unsigned w = 0; w < prog.workers(); ++w) local += prog.records_to(w, rank_, q);
    accumulators_[q]->local_expected[epoch & 1].store(local, std::memory_order_relaxed);
  }
  return st;
}

void SuperstepRuntime::send_end(uint32_t epoch, const StepStats& st, const AggregateBytes& aggregate) {
  ProgramDriver& prog = program();
  // One END per flow (peer, queue), with that flow's counts: each
  // accumulator's ledger checks its own queue.
  for (unsigned p = 0; p < nodes_; ++p) {
    if (p == rank_) continue;
    for (unsigned q = 0; q < queues_; ++q) {
      wire::EndPayload e{};
      for (unsigned w = 0; w < prog.workers(); ++w) {
        e.buckets_to_dst += prog.buckets_to(w, p, q);
        e.messages_to_dst += prog.records_to(w, p, q);
      }
      e.active_vertices = st.active;
      e.messages_sent = st.messages_sent;
      e.buckets_sent = st.buckets_sent;
      e.bytes_sent = data_frame_bytes(st);
      std::memcpy(e.aggregate, aggregate.data(), sizeof e.aggregate);
      membership_.send_control(p, wire::Kind::kEnd, epoch, &e, sizeof e, pump_fn_, q);
    }
  }
}

// L2 bytes of the data buckets this node sent to other nodes: each frame is
// its headers plus one record per remote message.
uint64_t SuperstepRuntime::data_frame_bytes(const StepStats& st) const {
  return st.buckets_sent * wire::kPayloadOffset + (st.messages_sent - st.messages_local) * program().record_bytes();
}

void SuperstepRuntime::combine_cluster_figures(uint32_t epoch, StepStats& st, AggregateBytes* aggregate) {
  ProgramDriver& prog = program();
  AggregateBytes cluster{};
  for (unsigned p = 0; p < nodes_; ++p) {  // rank order: identical merges on every node
    if (p == rank_) {
      st.cluster_active += st.active;
      prog.merge(cluster, *aggregate);
      st.cluster_messages += st.messages_sent;
      st.cluster_buckets += st.buckets_sent;
      st.cluster_bytes += data_frame_bytes(st);
    } else {
      const wire::EndPayload& e = accumulators_[0]->ledger.end(p, epoch);  // every flow's END carries these
      st.cluster_active += e.active_vertices;
      AggregateBytes theirs;
      std::memcpy(theirs.data(), e.aggregate, theirs.size());
      prog.merge(cluster, theirs);
      st.cluster_messages += e.messages_sent;
      st.cluster_buckets += e.buckets_sent;
      st.cluster_bytes += e.bytes_sent;
    }
  }
  *aggregate = cluster;
  TxCounters tx;
  for (unsigned q = 0; q < queues_; ++q) {
    const SenderSnapshot& snap = *senders_[q];
    tx += snap.tx[epoch & 1];
    const std::vector<ConnectionReport>& received = accumulators_[q]->receive_snapshot[epoch & 1];
    for (size_t i = 0; i < snap.links[epoch & 1].size(); ++i) {
      ConnectionReport c = snap.links[epoch & 1][i];
      if (i < received.size()) c.receive = received[i].receive;
      st.links.push_back(c);
    }
  }
  st.bytes_sent = tx.bytes - tx_bytes_mark_;
  st.frames_sent = tx.frames - tx_frames_mark_;
  tx_bytes_mark_ = tx.bytes;
  tx_frames_mark_ = tx.frames;
}

// ---- the job's end: FIN carries each node's top vertices and summary to all --

void SuperstepRuntime::finish(ProgramDriver& program, const FinContents& contents, RunReport& report) {
  if (contents.stats.size() > wire::kMaxSummaryStatsBytes)
    throw EngineError("the program's summary statistics take " + std::to_string(contents.stats.size()) +
                      " bytes, more than a FIN carries");
  wire::FinPayload fin{};
  const std::vector<wire::TopEntry> mine =
      opt_.top == 0 ? std::vector<wire::TopEntry>{} : program.top(std::min<unsigned>(opt_.top, wire::kTopK));
  fin.entries = static_cast<uint32_t>(mine.size());
  std::copy(mine.begin(), mine.end(), fin.top);
  fin.figures = contents.figures;
  fin.stats_bytes = static_cast<uint16_t>(contents.stats.size());
  std::copy(contents.stats.begin(), contents.stats.end(), fin.stats);
  for (unsigned p = 0; p < nodes_; ++p)
    if (p != rank_) membership_.send_control(p, wire::Kind::kFin, 0, &fin, sizeof fin, pump_fn_);
  // Done when every peer's FIN is in and every frame we sent is acked (so
  // no peer still waits for a retransmission from us).
  finish_requested_.store(true, std::memory_order_release);
  wait_for([this] { return finished_.load(std::memory_order_acquire); });
  std::vector<wire::TopEntry> all = mine;
  for (unsigned p = 0; p < nodes_; ++p) {
    if (p == rank_) continue;
    const wire::FinPayload& f = fins_[p];
    all.insert(all.end(), f.top, f.top + std::min<uint32_t>(f.entries, wire::kTopK));
  }
  std::sort(all.begin(), all.end(), [](const wire::TopEntry& a, const wire::TopEntry& b) {
    return a.value != b.value ? a.value > b.value : a.vertex < b.vertex;
  });
  if (all.size() > opt_.top) all.resize(opt_.top);
  report.cluster_top = all;
  report.cluster_nodes.assign(nodes_, NodeFigures{});
  report.cluster_stats.assign(nodes_, {});
  for (unsigned p = 0; p < nodes_; ++p) {
    const wire::FinFigures f = p == rank_ ? contents.figures : fins_[p].figures;
    report.cluster_nodes[p] = NodeFigures{f.peak_rss_bytes, f.frames_sent, f.retransmissions, f.needless};
    if (p == rank_)
      report.cluster_stats[p] = contents.stats;
    else
      report.cluster_stats[p].assign(fins_[p].stats, fins_[p].stats + fins_[p].stats_bytes);
  }
  if (!layout_.split()) linger(network_roles_[0]);
  // (split: every network lcore lingers once it sees `finished_`)
  stop_roles();
  // Let the ports go quiet before they close (dataplane/memif_guard.h says
  // why memif needs it).
  if (nodes_ > 1) dp_.quiet_before_close();
  report.rx = dp_.rx_total();
  report.tx = dp_.tx_total();
  report.rx_queues.assign(dp_.rx_q.begin(), dp_.rx_q.begin() + queues_);
  report.rx_faults = transport_.rx_fault_counts();
  report.tx_faults = transport_.tx_fault_counts();
}

// Keep answering for a moment: a peer whose last ack from us was lost
// retransmits and must hear from us again.
void SuperstepRuntime::linger(const NetworkRoles& roles) {
  IdleBackoff idle;
  const auto t = Clock::now();
  while (seconds_since(t) < kLingerSeconds) {
    if (!network_step(roles)) idle.wait();
  }
}

}  // namespace wg
