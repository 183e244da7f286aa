// Engine<Prog>: the part of a node that depends on the vertex program, and
// nothing else. It owns the vertex values, the two Σ arrays per NUMA domain
// (by superstep parity) and the workers (each with its slice's frontier), and answers
// the program-independent runtime (compute/engine/superstep_runtime.h) through ProgramDriver:
// one virtual call per worker and superstep or per received bucket, while
// apply, scatter and ⊕ inline into the loops of Worker<Prog> and the
// accumulators.
//
// Ownership: worker w writes its slice of values_ (and its own frontier) and
// reads (and resets) its slice of Σ[s&1]; accumulator role q folds into the
// ranges of Σ[(t+1)&1] that queue q owns (see the superstep protocol in
// compute/engine/superstep_runtime.h).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "compute/engine/accumulator.h"
#include "compute/engine/engine_options.h"
#include "compute/engine/lcore_layout.h"
#include "compute/partition/partition.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/vertex_info.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker.h"
#include "dataplane/dataplane.h"
#include "numa/placement.h"

namespace wg {

template <VertexProgram Prog>
class Engine final : public ProgramDriver {
 public:
  using Value = typename Prog::Value;
  using Message = typename Prog::Message;
  using Aggregate = typename Prog::Aggregate;
  using Accumulator = typename AccumulatorFor<Prog>::type;
  using Record = wire::RecordOf<Message>;

  // g's domains are its accumulation ranges (compute/engine/range_plan.h: each
  // within one NUMA domain, owned by receive queue g.range_queue[d]), or its
  // NUMA domains if it was not split (then all on queue 0).
  // A program that only pulls (Worker::pulls_only) releases g's
  // source-major blocks once its dense copies are built.
  Engine(const EngineOptions& opt, Dataplane& dp, LocalGraph& g, const LcoreLayout& layout, Prog prog)
      : g_(g), prog_(prog), values_(g.num_local),
        routes_(g.range_queue.empty() ? QueueRoutes(dp.queue_count(), std::vector<uint8_t>(g.domains, 0))
                                      : QueueRoutes(dp.queue_count(), g.range_queue)) {
    // A range's accumulators and vertex values live on the NUMA node of its
    // domain when the machine has it (workers of domain d and the
    // accumulators of its queues use them).
    for (unsigned d = 0; d < g.domains; ++d) {
      const unsigned numa = g.numa_of(d);
      const PreferredDomain on(numa);
      for (auto& parity : sigma_) parity.emplace_back(g, d);
      place_on_domain(values_.data() + g.domain_offset[d], g.domain_size(d) * sizeof(Value), numa);
    }
    if constexpr (prepares<Prog>()) prog_.prepare(node_figures(g));
    if constexpr (kReadsOutWeights<Prog>) g.out_weight = out_weight_sums(g);  // before any block is released
    const size_t segment = opt.segment_bytes ? opt.segment_bytes : default_segment_bytes();
    const bool pulls_only = Worker<Prog>::pulls_only(opt.scatter);
    for (const auto& [lo, hi] : worker_slices(g, layout.workers()))
      workers_.push_back(
          std::make_unique<Worker<Prog>>(dp, g, prog_, lo, hi, opt.scatter, segment, opt.local_rounds, pulls_only));
    // A program that only pulls never reads the source-major blocks again:
    // each worker's copy consumes its share of a group's targets as it is
    // built (dense_block.h), and the group's block goes as soon as every
    // worker holds its copy, so that the node holds the edges twice for a
    // quarter of one group's at most (kron:22:16 --undirected at P=2: 130 MB
    // above the run's RSS at the copy's build, 32 MB now). PageRank on GAP's
    // kron24 at P=2 from a file: 2.20 GB a node through the run with the
    // targets alone released (the sources and offsets of 34 M (source,
    // group) pairs, 408 MB, kept; the workers' lists of each source's groups,
    // 339 MB, built for nothing), 1.56 GB with the whole blocks released.
    if (pulls_only) {
      for (unsigned group = 0; group < g.blocks.size(); ++group) {
        for (auto& w : workers_) w->build_dense(group, &g.blocks[group]);
        g.blocks[group].release_source_major();
      }
    }
    // One lcore owns both the only worker and every accumulator: same-node
    // records need no bucket (worker/bucket_output.h).
    if (!layout.split()) workers_[0]->fold_locally(&sigma_[0], &sigma_[1]);
  }

  // Per-vertex results, by slot (LocalGraph::global_id gives the vertex).
  const std::vector<Value>& values() const { return values_; }
  // The program as next() left it (between supersteps, or after the run).
  const Prog& program() const { return prog_; }

  // ---- ProgramDriver --------------------------------------------------------
  unsigned workers() const override { return static_cast<unsigned>(workers_.size()); }

  void apply(unsigned w, const StepControl& c, const Stall& stall) override {
    StepInfo<Aggregate> info{c.superstep, c.phase, g_.num_vertices, {}};
    std::memcpy(&info.aggregate, c.aggregate.data(), sizeof(Aggregate));
    workers_[w]->apply(info, values_, sigma_[c.superstep & 1], stall);
  }
  void scatter(unsigned w, const StepControl& c, const Stall& stall) override {
    workers_[w]->scatter(c.superstep, c.epoch, stall);
  }
  const StepStats& worker_stats(unsigned w) const override { return workers_[w]->stats(); }
  AggregateBytes worker_aggregate(unsigned w) const override { return to_bytes(workers_[w]->aggregate()); }
  uint64_t buckets_to(unsigned w, unsigned node, unsigned queue) const override {
    return workers_[w]->ring().buckets_to(node, queue);
  }
  uint64_t records_to(unsigned w, unsigned node, unsigned queue) const override {
    return workers_[w]->ring().records_to(node, queue);
  }
  uint64_t folded_directly(unsigned w) const override { return workers_[w]->folded_directly(); }
  uint64_t direct_overflows(unsigned w) const override { return workers_[w]->direct_overflows(); }

  unsigned record_bytes() const override { return sizeof(Record); }
  const QueueRoutes& routes() const override { return routes_; }
  unsigned domains() const override { return g_.domains; }
  uint32_t domain_size(unsigned d) const override { return g_.domain_size(d); }
  // A separate pass vectorises and keeps the fold loop free of branches.
  uint32_t max_index(const uint8_t* records, unsigned count) const override {
    const Record* r = reinterpret_cast<const Record*>(records);
    uint32_t m = 0;
    for (unsigned i = 0; i < count; ++i) m = r[i].index > m ? r[i].index : m;
    return m;
  }
  // Gather on receive: Σ[(t+1)&1] of domain d, [i] ⊕= value, for records of
  // superstep t (i is the index within the domain).
  bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned d) override {
    return sigma_[(t + 1) & 1][d].fold(reinterpret_cast<const Record*>(records), count);
  }

  void merge(AggregateBytes& into, const AggregateBytes& from) const override {
    Aggregate a = from_bytes(into);
    Prog::merge(a, from_bytes(from));
    into = to_bytes(a);
  }
  // Between supersteps (no worker runs): workers copy prog_ at their next
  // apply, and read it in scatter (takes_messages).
  Decision decide(uint32_t s, uint32_t phase, uint64_t active, const AggregateBytes& aggregate) override {
    return prog_.next(StepOutcome<Aggregate>{s, phase, active, from_bytes(aggregate)});
  }

  std::vector<wire::TopEntry> top(unsigned k) const override {
    return top_entries(g_, k, [this](uint32_t s) { return Prog::sort_key(values_[s]); });
  }

  // Values, the program (next() may keep figures in it) and Σ of superstep
  // s+1, i.e. every message of s. The workers' own state is rebuilt
  // (Worker::resumed).
  std::vector<std::span<uint8_t>> checkpoint_sections(uint32_t s) override {
    std::vector<std::span<uint8_t>> out{raw_bytes(values_),
                                        {reinterpret_cast<uint8_t*>(&prog_), sizeof prog_}};
    for (Accumulator& a : sigma_[(s + 1) & 1])
      for (std::span<uint8_t> part : a.state()) out.push_back(part);
    return out;
  }
  void resumed(uint32_t) override {
    for (auto& w : workers_) w->resumed(values_.data());
  }

 private:
  static_assert(std::is_trivially_copyable_v<Aggregate> && sizeof(Aggregate) <= sizeof(AggregateBytes));
  static NodeGraphFigures node_figures(const LocalGraph& g) {
    NodeGraphFigures f;
    for (const EdgeBlock& b : g.blocks) {
      f.out_edges += b.num_edges();
      if (b.weights.empty())
        f.weight_sum += b.num_edges();
      else
        for (uint32_t w : b.weights) f.weight_sum += w;
    }
    return f;
  }
  static AggregateBytes to_bytes(const Aggregate& a) {
    AggregateBytes b{};
    std::memcpy(b.data(), &a, sizeof a);
    return b;
  }
  static Aggregate from_bytes(const AggregateBytes& b) {
    Aggregate a;
    std::memcpy(&a, b.data(), sizeof a);
    return a;
  }

  const LocalGraph& g_;
  Prog prog_;  // next() may update it between supersteps; workers read it in apply and scatter
  std::vector<Value> values_;    // workers, each its slice
  // Per superstep parity, one accumulator per NUMA domain: the network role
  // folds into [(t+1)&1][d]; workers take from [s&1][d].
  std::vector<Accumulator> sigma_[2];
  const QueueRoutes routes_;
  std::vector<std::unique_ptr<Worker<Prog>>> workers_;
};

}  // namespace wg
