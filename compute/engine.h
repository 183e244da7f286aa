// The superstep driver: Engine<Program> runs one node of a wiregraph job.
//
// Roles, each with one owner:
//   workers     - Worker<Program>: apply + scatter for a slice of the vertices
//   network     - Transport::send_step (sender) and receive_step (accumulator:
//                 validate, fold into Σ, end-of-superstep ledger, membership),
//                 plus the same-node queue
//   coordinator - this class's run(): supersteps, END/FIN, cluster figures
// Layout (EngineOptions::split_roles): with one lcore everything runs in turn
// on it; with several, the last lcore runs the network roles, the main lcore
// is the coordinator and worker 0, and every other lcore is a worker.
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
//   5. cluster-wide active count and aggregate = own + peers' END(s), summed
//      in rank order so every node gets bit-identical results; stop when no
//      vertex was active anywhere.
// A peer cannot send s+2 data before it has our END(s+1), so two Σ arrays and
// two ledger slots (by parity) suffice, with no barrier frames.
#pragma once

#include <rte_branch_prediction.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/accumulator.h"
#include "compute/data_bucket_check.h"
#include "compute/partition.h"
#include "compute/role_clock.h"
#include "compute/run_report.h"
#include "compute/telemetry.h"
#include "compute/vertex_program.h"
#include "compute/worker.h"
#include "dataplane/dataplane.h"
#include "dataplane/idle.h"
#include "numa/placement.h"
#include "reliability/membership.h"
#include "reliability/superstep_ledger.h"
#include "reliability/transport.h"

namespace wg {

struct EngineOptions {
  double peer_timeout_s = 30.0;
  double hello_timeout_s = 60.0;
  uint64_t params_digest = 0;
  uint64_t graph_fingerprint = 0;
  uint32_t app_id = 0;
  bool quiet = false;
  unsigned top = 10;
  bool split_roles = true;          // use every EAL lcore (else all roles on the main lcore)
  double line_rate_gbps = 10.0;     // for the "% of line rate" in the superstep report
  int64_t crash_at_superstep = -1;  // test hook (--crash-node)
  ScatterMode scatter = ScatterMode::kAuto;  // --scatter
  size_t segment_bytes = 0;                  // --segment-kib (0: default_segment_bytes())
};

class EngineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <VertexProgram Prog>
class Engine {
 public:
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Accumulator = typename AccumulatorFor<Prog>::type;

  Engine(const EngineOptions& opt, Dataplane& dp, Transport& transport, const LocalGraph& g, Prog prog)
      : opt_(opt),
        dp_(dp),
        transport_(transport),
        g_(g),
        prog_(prog),
        rank_(g.rank),
        nodes_(g.partition.nodes),
        ledger_(nodes_, rank_),
        membership_(dp, MembershipInfo{nodes_, opt.app_id, g.num_vertices, g.num_edges,
                                       opt.graph_fingerprint, opt.params_digest}),
        values_(g.num_local),
        active_(g.num_local, 0) {
    // Domain d's accumulators, vertex values and active flags live on NUMA
    // node d when the machine has it (workers of domain d use them).
    for (unsigned d = 0; d < g.domains; ++d) {
      const PreferredDomain on(d);
      for (auto& parity : sigma_) parity.emplace_back(g, d);
      place_on_domain(values_.data() + g.domain_offset[d], g.domain_size(d) * sizeof(Value), d);
      place_on_domain(active_.data() + g.domain_offset[d], g.domain_size(d), d);
    }
    plan_roles();
    for (const auto& [lo, hi] : worker_slices(g, static_cast<unsigned>(worker_lcores_.size())))
      workers_.push_back(std::make_unique<Worker<Prog>>(
          dp, g, prog_, lo, hi, opt.scatter, opt.segment_bytes ? opt.segment_bytes : default_segment_bytes()));
    // One lcore owns both the only worker and the accumulators: same-node
    // records need no bucket (see worker.h).
    if (!split_) workers_[0]->fold_locally(&sigma_[0], &sigma_[1]);
  }

  ~Engine() { stop_roles(); }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  std::string role_summary() const {
    std::string s = "lcore " + std::to_string(rte_get_main_lcore()) + ": coordinator, worker 0";
    if (!split_) return s + ", sender, accumulators of " + std::to_string(g_.domains) + " domain(s)";
    for (size_t i = 1; i < worker_lcores_.size(); ++i)
      s += "; lcore " + std::to_string(worker_lcores_[i]) + ": worker " + std::to_string(i);
    return s + "; lcore " + std::to_string(network_lcore_) + ": sender, accumulators of " +
           std::to_string(g_.domains) + " domain(s)";
  }

  RunReport run() {
    RunReport report;
    report.rank = rank_;
    report.nodes = nodes_;
    report.line_rate_gbps = opt_.line_rate_gbps;
    const TelemetrySource telemetry{rank_, &dp_, &transport_, &superstep_now_};
    publish_telemetry(&telemetry);
    struct Unpublish {
      ~Unpublish() { publish_telemetry(nullptr); }
    } unpublish;
    const auto t0 = Clock::now();
    ledger_.open(0);
    start_roles();
    if (split_)
      wait_for([this] { return discovered_.load(std::memory_order_acquire); });
    else
      membership_.discover(opt_.hello_timeout_s, pump_fn_);
    report.discovery_seconds = seconds_since(t0);

    double aggregate = 0.0;
    clock().charge(clock().current());  // start-up and discovery: before the first superstep's mark
    RoleCycles roles_mark = role_cycles();
    for (uint32_t s = 0;; ++s) {
      if (static_cast<int64_t>(s) == opt_.crash_at_superstep) raise(SIGKILL);
      superstep_now_.store(s, std::memory_order_relaxed);
      const auto ts = Clock::now();
      ledger_.open(s + 1);
      accumulated_[(s + 1) & 1] = 0;
      local_folded_[(s + 1) & 1] = 0;
      StepStats st = run_workers(s, aggregate);
      send_end(s, st);
      local_expected_[s & 1].store(st.messages_local, std::memory_order_relaxed);
      await_target_.store(s, std::memory_order_release);
      wait_for([this, s] { return completed_.load(std::memory_order_acquire) >= static_cast<int64_t>(s); });
      st.messages_accumulated = accumulated_[s & 1];
      st.links = links_snapshot_[s & 1];
      combine_cluster_figures(s, st);
      aggregate = st.cluster_aggregate;
      st.seconds = seconds_since(ts);
      const RoleCycles roles_now = role_cycles();
      for (unsigned i = 0; i < kRoles; ++i)
        st.role_seconds[i] = static_cast<double>(roles_now[i] - roles_mark[i]) / static_cast<double>(rte_get_tsc_hz());
      roles_mark = roles_now;
      if (!opt_.quiet) print_step(st, opt_.line_rate_gbps);
      report.steps.push_back(st);
      if (st.cluster_active == 0) break;
    }
    report.compute_seconds = seconds_since(t0) - report.discovery_seconds;
    finish(report);
    stop_roles();
    report.rx = dp_.rx;
    report.tx = dp_.tx;
    report.rx_faults = transport_.rx_fault_counts();
    report.tx_faults = transport_.tx_fault_counts();
    return report;
  }

  // Per-vertex results for the output file.
  const std::vector<Value>& values() const { return values_; }

  // After a fatal error: stop the other lcores, then tell the peers, so they
  // stop now rather than time out.
  void abort(const std::string& reason) {
    stop_roles();
    membership_.broadcast_abort(reason);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  static constexpr uint32_t kQuit = UINT32_MAX;

  // ---- role layout ----------------------------------------------------------
  // Workers of domain d scatter domain d's vertices: with no more workers than
  // domains each worker takes whole consecutive domains; with more, each
  // domain's workers split it, balanced by out-edges so they finish together.
  static std::vector<std::pair<uint32_t, uint32_t>> worker_slices(const LocalGraph& g, unsigned w) {
    const unsigned k = g.domains;
    std::vector<std::pair<uint32_t, uint32_t>> slices;
    if (w <= k) {
      for (unsigned i = 0; i < w; ++i) slices.emplace_back(g.domain_offset[i * k / w], g.domain_offset[(i + 1) * k / w]);
      return slices;
    }
    for (unsigned d = 0; d < k; ++d) {
      unsigned n = 0;
      for (unsigned i = 0; i < w; ++i) n += i * k / w == d;
      const uint32_t begin = g.domain_offset[d], end = g.domain_offset[d + 1];
      uint64_t total = 0;
      for (uint32_t v = begin; v < end; ++v) total += g.out_degree[v] + 1;
      uint32_t lo = begin;
      uint64_t seen = 0;
      for (unsigned j = 0; j < n; ++j) {
        uint32_t hi = lo;
        const uint64_t goal = total * (j + 1) / n;
        while (hi < end && (j + 1 == n || seen + g.out_degree[hi] + 1 <= goal)) seen += g.out_degree[hi++] + 1;
        slices.emplace_back(lo, hi);
        lo = hi;
      }
    }
    return slices;
  }

  void plan_roles() {
    worker_lcores_.push_back(rte_get_main_lcore());
    std::vector<unsigned> others;
    unsigned lcore;
    RTE_LCORE_FOREACH_WORKER(lcore) others.push_back(lcore);
    split_ = opt_.split_roles && !others.empty();
    if (!split_) return;
    network_lcore_ = others.back();
    others.pop_back();
    worker_lcores_.insert(worker_lcores_.end(), others.begin(), others.end());
  }

  void start_roles() {
    if (!split_ || launched_) return;
    launched_ = true;
    if (rte_eal_remote_launch(&Engine::network_main, this, network_lcore_) != 0)
      throw EngineError("cannot launch the network role on lcore " + std::to_string(network_lcore_));
    worker_args_.reserve(worker_lcores_.size());  // launched workers keep pointers into it
    for (size_t i = 1; i < worker_lcores_.size(); ++i) {
      worker_args_.push_back(WorkerArg{this, i});
      if (rte_eal_remote_launch(&Engine::worker_main, &worker_args_.back(), worker_lcores_[i]) != 0)
        throw EngineError("cannot launch worker " + std::to_string(i) + " on lcore " +
                          std::to_string(worker_lcores_[i]));
    }
  }

  void stop_roles() {
    if (!launched_) return;
    launched_ = false;
    go_.store(kQuit, std::memory_order_release);
    stop_network_.store(true, std::memory_order_release);
    for (size_t i = 1; i < worker_lcores_.size(); ++i) rte_eal_wait_lcore(worker_lcores_[i]);
    rte_eal_wait_lcore(network_lcore_);
  }

  void fail(const std::string& what) {
    if (failed_.exchange(true)) return;
    error_ = what;
    error_set_.store(true, std::memory_order_release);
  }
  void throw_if_failed() const {
    if (error_set_.load(std::memory_order_acquire)) throw EngineError(error_);
  }

  // The coordinator (and a worker whose pool ran dry) waits here. On a shared
  // lcore waiting means running the network roles; otherwise it is a backoff.
  template <class Pred>
  void wait_for(Pred&& done) {
    RoleClock& clk = clock();
    const Role was = clk.switch_to(Role::kWait);
    IdleBackoff idle;
    while (!done()) {
      if (split_) {
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

  // ---- time by role (compute/role_clock.h) -------------------------------------
  // This lcore's clock (the last slot serves a thread outside the EAL's lcores).
  RoleClock& clock() {
    const unsigned id = rte_lcore_id();
    return clocks_[id < RTE_MAX_LCORE ? id : RTE_MAX_LCORE];
  }
  RoleCycles role_cycles() const {
    RoleCycles sum{};
    for (const RoleClock& c : clocks_) c.add_to(sum);
    return sum;
  }
  // A network pass charged to the network role if it moved anything; an
  // empty poll is waiting.
  bool timed_network_step() {
    RoleClock& clk = clock();
    clk.charge(clk.current());
    const bool moved = network_step();
    clk.charge(moved ? Role::kNetwork : Role::kWait);
    return moved;
  }

  // ---- workers ----------------------------------------------------------------
  struct WorkerArg {
    Engine* engine;
    size_t index;
  };

  static int worker_main(void* arg) {
    auto* a = static_cast<WorkerArg*>(arg);
    Engine* e = a->engine;
    uint32_t last = kQuit;
    IdleBackoff idle;
    try {
      for (;;) {
        const uint32_t s = e->go_.load(std::memory_order_acquire);
        if (s == kQuit && e->launched_quit()) return 0;
        if (s == last || s == kQuit) {
          idle.wait();
          e->clock().charge(Role::kWait);  // keeps what a superstep's figures miss short
          continue;
        }
        idle.reset();
        last = s;
        e->work(a->index, s);
        e->workers_done_.fetch_add(1, std::memory_order_acq_rel);
      }
    } catch (const std::exception& ex) {
      e->fail(ex.what());
    }
    return 0;
  }
  bool launched_quit() const { return stop_network_.load(std::memory_order_acquire); }

  void work(size_t w, uint32_t s) {
    Worker<Prog>& wk = *workers_[w];
    RoleClock& clk = clock();
    clk.switch_to(Role::kApply);
    wk.apply(s, step_aggregate_, values_, active_, sigma_[s & 1], stall_fn_);
    clk.switch_to(Role::kScatter);
    wk.scatter(s, active_, stall_fn_);
    clk.switch_to(Role::kWait);
  }

  StepStats run_workers(uint32_t s, double aggregate) {
    step_aggregate_ = aggregate;
    workers_done_.store(0, std::memory_order_relaxed);
    go_.store(s, std::memory_order_release);
    work(0, s);
    const unsigned others = static_cast<unsigned>(workers_.size() - 1);
    wait_for([this, others] { return workers_done_.load(std::memory_order_acquire) == others; });
    StepStats st;
    st.superstep = s;
    for (const auto& wk : workers_) {  // worker order: identical sums every run
      const StepStats& ws = wk->stats();
      st.active += ws.active;
      st.aggregate += ws.aggregate;
      st.messages_sent += ws.messages_sent;
      st.messages_local += ws.messages_local;
      st.buckets_sent += ws.buckets_sent;
      st.dense = st.dense || ws.dense;
      // Folded by the worker itself: only with shared roles, where this
      // lcore is also the network role and owns these counters (with split
      // roles even a += 0 here would race with the network lcore's updates).
      if (!split_) {
        accumulated_[s & 1] += wk->folded_directly();
        local_folded_[s & 1] += wk->folded_directly();
        for (uint64_t i = 0; i < wk->direct_overflows(); ++i) dp_.rx.drop(DropReason::kSlotOverflow);
      }
    }
    return st;
  }

  // A worker between buckets: on a shared lcore, run the network roles; on
  // its own lcore, only wait when the pool is empty.
  void stall(bool starved) {
    if (!split_) {
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

  // ---- end of superstep: END frames ------------------------------------------
  void send_end(uint32_t s, const StepStats& st) {
    for (unsigned p = 0; p < nodes_; ++p) {
      if (p == rank_) continue;
      wire::EndPayload e{};
      for (const auto& wk : workers_) {
        e.buckets_to_dst += wk->buckets_to(p);
        e.messages_to_dst += wk->records_to(p);
      }
      e.active_vertices = st.active;
      e.messages_sent = st.messages_sent;
      e.buckets_sent = st.buckets_sent;
      e.bytes_sent = data_frame_bytes(st);
      e.aggregate = st.aggregate;
      membership_.send_control(p, wire::Kind::kEnd, s, &e, sizeof e, pump_fn_);
    }
  }

  // L2 bytes of the data buckets this node sent to other nodes: each frame is
  // its headers plus 8 bytes per record.
  static uint64_t data_frame_bytes(const StepStats& st) {
    return st.buckets_sent * wire::kPayloadOffset + (st.messages_sent - st.messages_local) * sizeof(wire::Record);
  }

  void combine_cluster_figures(uint32_t s, StepStats& st) {
    for (unsigned p = 0; p < nodes_; ++p) {  // rank order: identical sums on every node
      if (p == rank_) {
        st.cluster_active += st.active;
        st.cluster_aggregate += st.aggregate;
        st.cluster_messages += st.messages_sent;
        st.cluster_buckets += st.buckets_sent;
        st.cluster_bytes += data_frame_bytes(st);
      } else {
        const wire::EndPayload& e = ledger_.end(p, s);
        st.cluster_active += e.active_vertices;
        st.cluster_aggregate += e.aggregate;
        st.cluster_messages += e.messages_sent;
        st.cluster_buckets += e.buckets_sent;
        st.cluster_bytes += e.bytes_sent;
      }
    }
    const TxCounters& tx = tx_snapshot_[s & 1];
    st.bytes_sent = tx.bytes - tx_bytes_mark_;
    st.frames_sent = tx.frames - tx_frames_mark_;
    tx_bytes_mark_ = tx.bytes;
    tx_frames_mark_ = tx.frames;
  }

  // ---- the job's end: FIN carries each node's top vertices to all ------------
  void finish(RunReport& report) {
    wire::FinPayload fin = local_summary();
    report.local_top.assign(fin.top, fin.top + fin.entries);
    for (unsigned p = 0; p < nodes_; ++p)
      if (p != rank_) membership_.send_control(p, wire::Kind::kFin, 0, &fin, sizeof fin, pump_fn_);
    // Done when every peer's FIN is in and every frame we sent is acked (so
    // no peer still waits for a retransmission from us).
    finish_requested_.store(true, std::memory_order_release);
    wait_for([this] { return finished_.load(std::memory_order_acquire); });
    std::vector<wire::TopEntry> all(fin.top, fin.top + fin.entries);
    for (unsigned p = 0; p < nodes_; ++p) {
      if (p == rank_) continue;
      const wire::FinPayload& f = membership_.fin(p);
      all.insert(all.end(), f.top, f.top + std::min<uint32_t>(f.entries, wire::kTopK));
    }
    std::sort(all.begin(), all.end(), [](const wire::TopEntry& a, const wire::TopEntry& b) {
      return a.value != b.value ? a.value > b.value : a.vertex < b.vertex;
    });
    if (all.size() > opt_.top) all.resize(opt_.top);
    report.cluster_top = all;
    if (!split_) linger();
    // (split: the network lcore lingers once it has published `finished_`)
  }

  // Keep answering for a moment: a peer whose last ack from us was lost
  // retransmits and must hear from us again. Then stop polling and stay
  // quiet before the ports close: DPDK 22.11's memif PMD can crash a peer
  // still polling while we disconnect, and the peers finish within
  // milliseconds of each other, so by the end of the pause none polls.
  void linger() {
    IdleBackoff idle;
    const auto t = Clock::now();
    while (seconds_since(t) < kLingerSeconds) {
      if (!network_step()) idle.wait();
    }
    if (nodes_ > 1) {
      const timespec quiet{0, static_cast<long>(kQuietSeconds * 1e9)};
      nanosleep(&quiet, nullptr);
    }
  }

  wire::FinPayload local_summary() const {
    wire::FinPayload fin{};
    std::vector<uint32_t> order(g_.num_local);
    for (uint32_t i = 0; i < g_.num_local; ++i) order[i] = i;
    const unsigned k = std::min<unsigned>(opt_.top, g_.num_local);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [this](uint32_t a, uint32_t b) {
      const double ka = Prog::sort_key(values_[a]), kb = Prog::sort_key(values_[b]);
      return ka != kb ? ka > kb : a < b;
    });
    fin.entries = k;
    for (unsigned j = 0; j < k; ++j)
      fin.top[j] = wire::TopEntry{g_.global_id(order[j]), 0, Prog::sort_key(values_[order[j]])};
    return fin;
  }

  // ---- network role: sender + accumulator -------------------------------------
  static int network_main(void* arg) {
    Engine* e = static_cast<Engine*>(arg);
    try {
      e->membership_.discover(e->opt_.hello_timeout_s, e->pump_fn_);
      e->clock().charge(Role::kWait);  // discovery: charged before the coordinator's first mark
      e->discovered_.store(true, std::memory_order_release);
      IdleBackoff idle;
      while (!e->stop_network_.load(std::memory_order_acquire)) {
        if (e->timed_network_step()) {
          idle.reset();
        } else {
          idle.wait();
          e->check_peers_alive();
        }
        if (e->finished_.load(std::memory_order_relaxed)) {
          e->linger();
          // Stay (quietly) until the coordinator stops us.
          while (!e->stop_network_.load(std::memory_order_acquire)) idle.wait();
        }
      }
    } catch (const std::exception& ex) {
      e->fail(ex.what());
    }
    return 0;
  }

  // One pass over every queue, then publish progress. True if anything moved.
  bool network_step() {
    bool work = transport_.send_step() > 0;
    work |= transport_.receive_step([this](rte_mbuf*, unsigned port, const uint8_t* frame,
                                           const wire::BucketHeader* h) {
      const DropReason why = h->kind == static_cast<uint8_t>(wire::Kind::kData)
                                 ? receive_data(frame, h)
                                 : membership_.on_control(frame, h, port, ledger_);
      if (why == DropReason::kNone) membership_.heard_from(h->src_rank);
      return why;
    }) > 0;
    // Same-node buckets, from each domain's own queue to its accumulator.
    unsigned local = 0;
    for (unsigned d = 0; d < g_.domains; ++d) {
      rte_mbuf* burst[Dataplane::kBurst];
      const unsigned n = dp_.dequeue_local(d, burst, Dataplane::kBurst);
      for (unsigned i = 0; i < n; ++i) {
        const uint8_t* frame = rte_pktmbuf_mtod(burst[i], const uint8_t*);
        const wire::BucketHeader* h = bucket_header(frame);
        if (!fold(records(frame), h->count, h->superstep, d)) dp_.rx.drop(DropReason::kSlotOverflow);
        local_folded_[h->superstep & 1] += h->count;
        rte_pktmbuf_free(burst[i]);
      }
      local += n;
    }
    publish_progress();
    return work || local > 0;
  }

  void publish_progress() {
    const int64_t target = await_target_.load(std::memory_order_acquire);
    if (target > completed_.load(std::memory_order_relaxed)) {
      const auto s = static_cast<uint32_t>(target);
      const int bad = ledger_.first_overfull_peer(s);
      if (bad >= 0)
        throw EngineError("node " + std::to_string(bad) + " sent more buckets in superstep " +
                          std::to_string(s) + " than its END announced");
      if (ledger_.complete(s) &&
          local_folded_[s & 1] == local_expected_[s & 1].load(std::memory_order_relaxed)) {
        links_snapshot_[s & 1] = transport_.report();
        tx_snapshot_[s & 1] = dp_.tx;
        completed_.store(target, std::memory_order_release);
      }
    }
    if (finish_requested_.load(std::memory_order_acquire) && !finishing_keepalives_) {
      // From our FIN on, peers may take our silence for our exit (all_peers_done):
      // keep it from happening by chance, even at 30% loss (0.3^50 per grace).
      transport_.set_keepalive_ms(kFinishKeepaliveMs);
      finishing_keepalives_ = true;
    }
    if (finish_requested_.load(std::memory_order_acquire) && !finished_.load(std::memory_order_relaxed) &&
        membership_.all_fins() && all_peers_done())
      finished_.store(true, std::memory_order_release);
  }

  // Every peer has acked all we sent, or has sent its FIN and gone quiet: it
  // only exits once it holds our FIN, our last frame, so it has everything
  // (our ack of its FIN was lost, and it stopped retransmitting).
  bool all_peers_done() const {
    for (unsigned p = 0; p < nodes_; ++p)
      if (p != rank_ && !transport_.acked_by(p) && membership_.silent_for(p) < kFinGraceSeconds) return false;
    return true;
  }

  // Any peer silent past the timeout is dead, whatever we are waiting for:
  // live peers send keepalives.
  void check_peers_alive() const {
    for (unsigned p = 0; p < nodes_; ++p) {
      if (p == rank_ || membership_.silent_for(p) <= opt_.peer_timeout_s) continue;
      const int64_t waiting = await_target_.load(std::memory_order_relaxed);
      std::string what = "node " + std::to_string(p) + " silent for " +
                         std::to_string(static_cast<int>(membership_.silent_for(p))) + " s";
      if (waiting > completed_.load(std::memory_order_relaxed))
        what += " while this node waits for the end of superstep " + std::to_string(waiting);
      throw EngineError(what + ": it stopped answering (crashed, killed or cut off)");
    }
  }

  DropReason receive_data(const uint8_t* frame, const wire::BucketHeader* h) {
    const uint32_t t = h->superstep;
    const wire::Record* r = records(frame);
    const unsigned d = h->domain;  // < domains: validate_frame checked it
    const DropReason why = check_data_bucket(*h, r, g_.domain_size(d), ledger_);
    if (why != DropReason::kNone) return why;
    ++dp_.rx.data_buckets;
    dp_.rx.records += h->count;
    return fold_verdict(fold(r, h->count, t, d));
  }

  // Gather on receive: Σ[(t+1)&1] of domain d, [i] ⊕= value, for records of
  // superstep t (i is the index within the domain).
  bool fold(const wire::Record* r, unsigned n, uint32_t t, unsigned d) {
    accumulated_[t & 1] += n;
    return sigma_[(t + 1) & 1][d].fold(r, n);
  }

  static constexpr double kLingerSeconds = 0.1;
  static constexpr double kFinGraceSeconds = 0.5;
  static constexpr double kFinishKeepaliveMs = 10;  // 50 keepalives per grace period
  static constexpr double kQuietSeconds = 0.3;

  const EngineOptions opt_;
  Dataplane& dp_;
  Transport& transport_;
  const LocalGraph& g_;
  const Prog prog_;
  const unsigned rank_;
  const unsigned nodes_;
  SuperstepLedger ledger_;       // network role
  Membership membership_;        // network role (receives); coordinator sends END/FIN
  std::vector<Value> values_;    // workers, each its slice
  std::vector<uint8_t> active_;  // workers, each its slice
  // Per superstep parity, one accumulator per NUMA domain: the network role
  // folds into [(t+1)&1][d]; workers take from [s&1][d].
  std::vector<Accumulator> sigma_[2];
  std::vector<std::unique_ptr<Worker<Prog>>> workers_;
  std::array<RoleClock, RTE_MAX_LCORE + 1> clocks_;  // by lcore id, each written by its lcore only

  // role layout
  bool split_ = false;
  bool launched_ = false;
  unsigned network_lcore_ = 0;
  std::vector<unsigned> worker_lcores_;
  std::vector<WorkerArg> worker_args_;

  // network role -> coordinator (published with release, read with acquire)
  uint64_t accumulated_[2] = {0, 0};
  uint64_t local_folded_[2] = {0, 0};
  bool finishing_keepalives_ = false;  // set_keepalive_ms(kFinishKeepaliveMs) done
  std::vector<ConnectionReport> links_snapshot_[2];
  TxCounters tx_snapshot_[2];
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
  double step_aggregate_ = 0.0;
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
  const Membership::Pump pump_fn_ = [this] {
    if (split_ && rte_lcore_id() != network_lcore_) {
      throw_if_failed();
      return false;
    }
    return network_step();
  };
  const typename Worker<Prog>::Stall stall_fn_ = [this](bool starved) { stall(starved); };
};

}  // namespace wg
