// The superstep driver: Engine<Program> runs one node of a wiregraph job.
//
// Roles (one owner each; here all run in turn on the calling lcore, which is
// what a 2-core machine hosting several nodes needs; see docs/DESIGN-NOTES.md):
//   worker      - apply, then scatter into the BucketRingGroup
//   sender      - Dataplane::flush_tx: descriptor queues to the NICs
//   accumulator - Accumulator<Program>: RX queues + local queue, validate, fold
//
// Superstep s on this node:
//   1. open the ledger for s+1 (a fast peer may send s+1 data from now on)
//   2. apply (s > 0) or init (s = 0) every local vertex; Σ[s&1] is read and
//      reset to the identity, ready to receive superstep s+1 messages
//   3. scatter: active vertices write records for superstep s, which fold into
//      Σ[(s+1)&1] wherever they land
//   4. send END(s) to every peer: buckets and records sent to it, and this
//      node's active count and aggregate
//   5. pump until every peer's END(s) is in and its counts match (ledger)
//   6. cluster-wide active count and aggregate = own + peers' END(s), summed in
//      rank order so every node gets bit-identical results; stop when no
//      vertex was active anywhere.
// A peer cannot send s+2 data before it has our END(s+1), so two Σ arrays and
// two ledger slots (by parity) are enough, with no barrier frames.
#pragma once

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_prefetch.h>

#include <algorithm>
#include <bit>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/partition.h"
#include "compute/run_report.h"
#include "compute/vertex_program.h"
#include "dataplane/bucket_ring.h"
#include "dataplane/dataplane.h"
#include "dataplane/idle.h"
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
  int64_t crash_at_superstep = -1;  // test hook (--crash-at-superstep)
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

  Engine(const EngineOptions& opt, Dataplane& dp, Transport& transport, const LocalGraph& g, Prog prog)
      : opt_(opt),
        dp_(dp),
        transport_(transport),
        g_(g),
        prog_(prog),
        rank_(g.rank),
        nodes_(g.partition.nodes),
        ring_(dp, nodes_, rank_),
        ledger_(nodes_, rank_),
        membership_(dp, MembershipInfo{nodes_, opt.app_id, g.num_vertices, g.num_edges,
                                       opt.graph_fingerprint, opt.params_digest}),
        values_(g.num_local),
        active_(g.num_local, 0) {
    for (auto& s : sigma_) s.assign(g.num_local, Prog::identity());
  }

  RunReport run() {
    RunReport report;
    report.rank = rank_;
    report.nodes = nodes_;
    const auto t0 = Clock::now();
    ledger_.open(0);
    membership_.discover(opt_.hello_timeout_s, pump_fn_);
    report.discovery_seconds = seconds_since(t0);

    double aggregate = 0.0;
    for (uint32_t s = 0;; ++s) {
      if (static_cast<int64_t>(s) == opt_.crash_at_superstep) raise(SIGKILL);
      const auto ts = Clock::now();
      StepStats st;
      st.superstep = s;
      ledger_.open(s + 1);
      accumulated_[(s + 1) & 1] = 0;
      local_folded_[(s + 1) & 1] = 0;
      apply_phase(s, aggregate, st);
      scatter_phase(s, st);
      send_end(s, st);
      await_superstep(s);
      st.messages_accumulated = accumulated_[s & 1];
      combine_cluster_figures(s, st);
      aggregate = st.cluster_aggregate;
      st.seconds = seconds_since(ts);
      st.links = transport_.report();
      if (!opt_.quiet) print_step(st);
      report.steps.push_back(st);
      if (st.cluster_active == 0) break;
    }
    report.compute_seconds = seconds_since(t0) - report.discovery_seconds;
    finish(report);
    report.rx = dp_.rx;
    report.tx = dp_.tx;
    report.rx_faults = transport_.rx_fault_counts();
    report.tx_faults = transport_.tx_fault_counts();
    return report;
  }

  // Per-vertex results for the output file.
  const std::vector<Value>& values() const { return values_; }

  // After a fatal error: tell the peers, so they stop now rather than time out.
  void abort(const std::string& reason) { membership_.broadcast_abort(reason); }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }

  // ---- worker: apply ------------------------------------------------------
  void apply_phase(uint32_t s, double aggregate, StepStats& st) {
    const StepInfo info{s, aggregate, g_.num_vertices};
    std::vector<Message>& in = sigma_[s & 1];
    uint64_t active = 0;
    double local_aggregate = 0.0;
    for (uint32_t i = 0; i < g_.num_local; ++i) {
      bool a;
      if (s == 0)
        a = prog_.init(g_.global_id(i), values_[i]);
      else
        a = prog_.apply(values_[i], in[i], info);
      in[i] = Prog::identity();  // ready for superstep s+1's messages
      active_[i] = a;
      active += a;
      local_aggregate += prog_.aggregate(values_[i], g_.out_degree[i]);
    }
    st.active = active;
    st.aggregate = local_aggregate;
  }

  // ---- worker: scatter ----------------------------------------------------
  void scatter_phase(uint32_t s, StepStats& st) {
    ring_.start_superstep(s);
    // Staggered destination order: node r starts with r+1, so the cluster
    // does not send to node 0 first all at once.
    for (unsigned k = 1; k <= nodes_; ++k) {
      const unsigned dst = (rank_ + k) % nodes_;
      scatter_block(g_.blocks[dst], dst);
      ring_.close(dst);
    }
    for (unsigned d = 0; d < nodes_; ++d) {
      st.messages_sent += ring_.records_to(d);
      if (d == rank_) {
        st.messages_local += ring_.records_to(d);
      } else {
        st.buckets_sent += ring_.buckets_to(d);
      }
    }
    pump();
  }

  void scatter_block(const EdgeBlock& b, unsigned dst) {
    BucketRingGroup::Open& o = ring_.open(dst);
    const uint32_t* targets = b.targets.data();
    const uint32_t* weights = b.weights.data();
    for (size_t i = 0; i < b.sources.size(); ++i) {
      const uint32_t u = b.sources[i];
      if (!active_[u]) continue;
      const Message sv = prog_.scatter_value(values_[u], g_.out_degree[u]);
      for (uint64_t e = b.offsets[i], end = b.offsets[i + 1]; e < end; ++e) {
        if (unlikely(o.cursor == o.end)) roll(dst);
        Message m;
        if constexpr (Prog::kNeedsWeights)
          m = Prog::edge_message(sv, weights[e]);
        else
          m = Prog::edge_message(sv, 1);
        *o.cursor++ = wire::Record{targets[e], std::bit_cast<uint32_t>(m)};
      }
    }
  }

  // The open bucket for dst is full (or none is open): hand it on, let the
  // sender and accumulator run, and open a new one.
  void roll(unsigned dst) {
    ring_.close(dst);
    if (++buckets_since_pump_ >= kBucketsPerPump) {
      buckets_since_pump_ = 0;
      pump();
    }
    if (likely(ring_.reopen(dst))) return;
    // Pool empty: every mbuf is queued for a NIC or waiting in a peer. Keep
    // sending and receiving until one comes back.
    const auto t = Clock::now();
    IdleBackoff idle;
    while (!ring_.reopen(dst)) {
      if (pump()) idle.reset();
      else idle.wait();
      check_peers_alive();
      if (seconds_since(t) > opt_.peer_timeout_s)
        throw EngineError("no free mbuf for " + std::to_string(opt_.peer_timeout_s) +
                          " s: the links are not draining (is a peer stuck?)");
    }
  }

  // ---- end of superstep ---------------------------------------------------
  void send_end(uint32_t s, const StepStats& st) {
    for (unsigned p = 0; p < nodes_; ++p) {
      if (p == rank_) continue;
      wire::EndPayload e{};
      e.buckets_to_dst = ring_.buckets_to(p);
      e.messages_to_dst = ring_.records_to(p);
      e.active_vertices = st.active;
      e.messages_sent = st.messages_sent;
      e.buckets_sent = st.buckets_sent;
      e.bytes_sent = 0;  // filled by the cluster figures from tx counters below
      e.aggregate = st.aggregate;
      membership_.send_control(p, wire::Kind::kEnd, s, &e, sizeof e, pump_fn_);
    }
  }

  void await_superstep(uint32_t s) {
    IdleBackoff idle;
    while (!(ledger_.complete(s) && local_folded_[s & 1] == ring_.records_to(rank_))) {
      if (pump()) {
        idle.reset();
        continue;
      }
      idle.wait();
      const int bad = ledger_.first_overfull_peer(s);
      if (bad >= 0)
        throw EngineError("node " + std::to_string(bad) + " sent more buckets in superstep " +
                          std::to_string(s) + " than its END announced");
      const int p = ledger_.first_incomplete_peer(s);
      if (p >= 0 && membership_.silent_for(p) > opt_.peer_timeout_s)
        throw EngineError(waiting_error(s, p));
      check_peers_alive();
    }
  }

  std::string waiting_error(uint32_t s, int p) const {
    const wire::EndPayload& e = ledger_.end(p, s);
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "node %d silent for %.1f s while this node waits for the end of superstep %u "
                  "(received %lu of %lu buckets)",
                  p, membership_.silent_for(p), s, static_cast<unsigned long>(ledger_.buckets(p, s)),
                  static_cast<unsigned long>(e.buckets_to_dst));
    return buf;
  }

  void combine_cluster_figures(uint32_t s, StepStats& st) {
    st.cluster_active = 0;
    st.cluster_aggregate = 0.0;
    st.cluster_messages = 0;
    st.cluster_buckets = 0;
    for (unsigned p = 0; p < nodes_; ++p) {  // rank order: identical sums on every node
      if (p == rank_) {
        st.cluster_active += st.active;
        st.cluster_aggregate += st.aggregate;
        st.cluster_messages += st.messages_sent;
        st.cluster_buckets += st.buckets_sent;
      } else {
        const wire::EndPayload& e = ledger_.end(p, s);
        st.cluster_active += e.active_vertices;
        st.cluster_aggregate += e.aggregate;
        st.cluster_messages += e.messages_sent;
        st.cluster_buckets += e.buckets_sent;
      }
    }
    st.bytes_sent = dp_.tx.bytes - tx_bytes_mark_;
    st.frames_sent = dp_.tx.frames - tx_frames_mark_;
    tx_bytes_mark_ = dp_.tx.bytes;
    tx_frames_mark_ = dp_.tx.frames;
  }

  void print_step(const StepStats& st) const {
    std::printf(
        "superstep %3u: active %9lu (cluster %9lu)  sent %10lu msgs (%lu local) in %7lu buckets  "
        "accumulated %10lu  %8.4f s  %7.3f Gbps\n",
        st.superstep, static_cast<unsigned long>(st.active),
        static_cast<unsigned long>(st.cluster_active), static_cast<unsigned long>(st.messages_sent),
        static_cast<unsigned long>(st.messages_local), static_cast<unsigned long>(st.buckets_sent),
        static_cast<unsigned long>(st.messages_accumulated), st.seconds,
        st.seconds > 0 ? (st.bytes_sent + st.frames_sent * wire::kWireOverheadBytes) * 8e-9 / st.seconds
                       : 0.0);
    for (const ConnectionReport& c : st.links)
      std::printf("               to node %u: N %u  AST %.3f us  RTO %.0f us  sent %lu  retransmitted %lu  "
                  "timeouts %lu  stale acks %lu  dup rx %lu\n",
                  c.peer, c.n, c.ast_us, c.rto_us, static_cast<unsigned long>(c.send.frames),
                  static_cast<unsigned long>(c.send.retransmissions), static_cast<unsigned long>(c.send.timeouts),
                  static_cast<unsigned long>(c.send.stale_acks), static_cast<unsigned long>(c.receive.duplicates));
    std::fflush(stdout);
  }

  // ---- the job's end: FIN carries each node's top vertices to all --------
  void finish(RunReport& report) {
    wire::FinPayload fin = local_summary();
    report.local_top.assign(fin.top, fin.top + fin.entries);
    for (unsigned p = 0; p < nodes_; ++p)
      if (p != rank_) membership_.send_control(p, wire::Kind::kFin, 0, &fin, sizeof fin, pump_fn_);
    // Done when every peer's FIN is in and every frame we sent is acked
    // (so no peer still waits for a retransmission from us).
    IdleBackoff idle;
    while (!membership_.all_fins() || !transport_.all_acked()) {
      if (pump()) {
        idle.reset();
        continue;
      }
      idle.wait();
      const int p = membership_.first_without_fin();
      if (p >= 0 && membership_.silent_for(p) > opt_.peer_timeout_s)
        throw EngineError("node " + std::to_string(p) + " silent for " +
                          std::to_string(membership_.silent_for(p)) + " s at the end of the job");
      check_peers_alive();
    }
    // Merge every node's top list (same on all nodes; rank 0 prints it).
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
    // Keep answering for a moment: a peer whose last ack from us was lost
    // retransmits and must hear from us again.
    const auto linger = Clock::now();
    while (seconds_since(linger) < kLingerSeconds) {
      if (!pump()) idle.wait();
    }
    // Then stop polling and stay quiet before the ports close: DPDK 22.11's
    // memif PMD can crash a peer still polling while we disconnect, and the
    // peers finish within milliseconds of each other, so by the end of this
    // pause none of them polls any more.
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

  // ---- sender + accumulator: one pass over every queue ---------------------
  // Returns true if anything moved.
  bool pump() {
    bool work = transport_.send_step() > 0;
    work |= transport_.receive_step([this](rte_mbuf*, unsigned port, const uint8_t* frame,
                                           const wire::BucketHeader* h) {
      const DropReason why = h->kind == static_cast<uint8_t>(wire::Kind::kData)
                                 ? receive_data(frame, h)
                                 : membership_.on_control(frame, h, port, ledger_);
      if (why == DropReason::kNone) membership_.heard_from(h->src_rank);
      return why;
    }) > 0;
    rte_mbuf* burst[Dataplane::kBurst];
    const unsigned n = dp_.dequeue_local(burst, Dataplane::kBurst);
    for (unsigned i = 0; i < n; ++i) {
      const uint8_t* frame = rte_pktmbuf_mtod(burst[i], const uint8_t*);
      const wire::BucketHeader* h = bucket_header(frame);
      fold(records(frame), h->count, h->superstep);
      local_folded_[h->superstep & 1] += h->count;
      rte_pktmbuf_free(burst[i]);
    }
    return work || n > 0;
  }

  // Any peer silent past the timeout is dead, whatever we are waiting for:
  // live peers send keepalives.
  void check_peers_alive() const {
    for (unsigned p = 0; p < nodes_; ++p)
      if (p != rank_ && membership_.silent_for(p) > opt_.peer_timeout_s)
        throw EngineError("node " + std::to_string(p) + " silent for " +
                          std::to_string(static_cast<int>(membership_.silent_for(p))) +
                          " s: it stopped answering (crashed, killed or cut off)");
  }

  DropReason receive_data(const uint8_t* frame, const wire::BucketHeader* h) {
    const uint32_t t = h->superstep;
    const wire::Record* r = records(frame);
    if (unlikely(max_record_index(r, h->count) >= g_.num_local)) return DropReason::kIndexOutOfRange;
    if (unlikely(!ledger_.on_data(h->src_rank, t, h->count))) return DropReason::kBadSuperstep;
    ++dp_.rx.data_buckets;
    dp_.rx.records += h->count;
    fold(r, h->count, t);
    return DropReason::kNone;
  }

  // Gather on receive: Σ[(t+1)&1][i] ⊕= value, for records of superstep t.
  void fold(const wire::Record* r, unsigned n, uint32_t t) {
    Message* sigma = sigma_[(t + 1) & 1].data();
    for (unsigned i = 0; i < n; ++i) {
      const Message v = std::bit_cast<Message>(r[i].value);
      sigma[r[i].index] = Prog::combine(sigma[r[i].index], v);
    }
    accumulated_[t & 1] += n;
  }

  static constexpr unsigned kBucketsPerPump = 8;
  static constexpr double kLingerSeconds = 0.1;
  static constexpr double kQuietSeconds = 0.3;

  const EngineOptions opt_;
  Dataplane& dp_;
  Transport& transport_;
  const LocalGraph& g_;
  const Prog prog_;
  const unsigned rank_;
  const unsigned nodes_;
  BucketRingGroup ring_;
  SuperstepLedger ledger_;
  Membership membership_;
  std::vector<Value> values_;
  std::vector<uint8_t> active_;
  std::vector<Message> sigma_[2];
  uint64_t accumulated_[2] = {0, 0};
  uint64_t local_folded_[2] = {0, 0};  // same-node records folded, per superstep parity
  unsigned buckets_since_pump_ = 0;
  uint64_t tx_bytes_mark_ = 0;
  uint64_t tx_frames_mark_ = 0;
  const Membership::Pump pump_fn_ = [this] { return pump(); };
};

}  // namespace wg
