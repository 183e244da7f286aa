// What the program-independent runtime (compute/engine/superstep_runtime.h) asks of the
// program's engine (compute/engine/engine.h, Engine<Prog>): one virtual call per
// worker and superstep, per received bucket, or per run, never per message.
// Aggregates cross this boundary as bytes of the program's own Aggregate
// type, so that END frames and the rank-order merge need no template.
//
// A program that is not one ⊕ per vertex runs on a driver of its own
// instead of Engine<Prog> (DriverProgram, below; the neighbourhood service:
// compute/engine/capabilities/neighbourhood.h). RunnableProgram is either
// kind: what the registry lists and apps/node/run_program.h runs.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/engine/lcore_layout.h"
#include "compute/engine/vertex_program.h"
#include "dataplane/queue_routes.h"
#include "dataplane/wire.h"
#include "compute/report/run_report.h"

namespace wg {

using AggregateBytes = std::array<uint8_t, wire::kMaxAggregateBytes>;

// Called by a worker every few buckets (starved = false: a chance to run the
// network roles on a shared lcore) and when the pool is empty (starved =
// true: make an mbuf come back, by running the network roles or waiting).
using Stall = std::function<void(bool starved)>;

struct StepControl {
  uint32_t superstep = 0;      // the driver's own, from 0
  uint32_t phase = 0;
  AggregateBytes aggregate{};  // cluster-wide merge after the previous superstep
  uint32_t epoch = 0;          // the runtime's superstep count: what buckets carry (compute/engine/superstep_runtime.h, "Phases")
};

class ProgramDriver {
 public:
  virtual ~ProgramDriver() = default;

  virtual unsigned workers() const = 0;
  // Worker w's apply (init at superstep 0), then its scatter, on the calling lcore.
  virtual void apply(unsigned w, const StepControl& step, const Stall& stall) = 0;
  virtual void scatter(unsigned w, const StepControl& step, const Stall& stall) = 0;
  // Worker w's figures for the superstep it last ran.
  virtual const StepStats& worker_stats(unsigned w) const = 0;
  virtual AggregateBytes worker_aggregate(unsigned w) const = 0;
  // Buckets and records worker w sent to the ranges of `node` that receive
  // queue `queue` owns (routes()), this superstep: what END of flow (node,
  // queue) announces; for this node, what accumulator `queue` must fold.
  virtual uint64_t buckets_to(unsigned w, unsigned node, unsigned queue) const = 0;
  virtual uint64_t records_to(unsigned w, unsigned node, unsigned queue) const = 0;
  // Same-node records worker w folded itself (shared lcore only), and how
  // many of its folds did not fit (slot accumulators).
  virtual uint64_t folded_directly(unsigned w) const = 0;
  virtual uint64_t direct_overflows(unsigned w) const = 0;

  // Accumulator role routes().queue(d), per bucket of `count` records of the
  // driver's superstep t for range d: the largest record index (checked
  // against the range before folding), then the fold into Σ[(t+1)&1]. fold
  // is false if a record did not fit (a slot accumulator's vertex got more
  // messages than in-edges). Accumulators of different queues fold at once,
  // into different ranges.
  virtual unsigned record_bytes() const = 0;
  // Which receive queue owns each range (a bucket's domain): the phase's
  // routes, the same on every node (dataplane/queue_routes.h).
  virtual const QueueRoutes& routes() const = 0;
  virtual unsigned domains() const = 0;                 // a bucket's domain (its range) is below this
  virtual uint32_t domain_size(unsigned d) const = 0;   // its records' indices are below this
  virtual uint32_t max_index(const uint8_t* records, unsigned count) const = 0;
  virtual bool fold(const uint8_t* records, unsigned count, uint32_t t, unsigned d) = 0;

  // Rank-order merge of aggregates, and the program's decision after a
  // superstep, taken on identical cluster-wide figures on every node (the
  // program may keep some of them for its later supersteps).
  virtual void merge(AggregateBytes& into, const AggregateBytes& from) const = 0;
  virtual Decision decide(uint32_t superstep, uint32_t phase, uint64_t active, const AggregateBytes& aggregate) = 0;

  // This node's k best vertices by the program's sort key (the end-of-run top).
  virtual std::vector<wire::TopEntry> top(unsigned k) const = 0;

  // Checkpoints (compute/engine/checkpoint_store.h): what the driver needs to
  // go on after superstep s, as raw sections it writes from and reads back
  // into; none: it cannot be checkpointed. Between supersteps only (no
  // worker runs; the accumulators fold superstep s+1's records elsewhere).
  virtual std::vector<std::span<uint8_t>> checkpoint_sections(uint32_t /*s*/) { return {}; }
  // Once the sections of superstep s were read back, before superstep s+1.
  virtual void resumed(uint32_t /*s*/) {}
};

// A node's k vertices of the largest key(slot) (double), largest first, ties
// to the lower slot, named as the input names them (the original ids, when
// the loader mapped them): what a driver's top(k) returns for --top.
template <class Key>
std::vector<wire::TopEntry> top_entries(const LocalGraph& g, unsigned k, Key key) {
  std::vector<uint32_t> order(g.num_local);
  for (uint32_t i = 0; i < g.num_local; ++i) order[i] = i;
  k = std::min<unsigned>(k, g.num_local);
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](uint32_t a, uint32_t b) {
    const double ka = key(a), kb = key(b);
    return ka != kb ? ka > kb : a < b;
  });
  std::vector<wire::TopEntry> out;
  for (unsigned j = 0; j < k; ++j) {
    const uint32_t s = order[j];
    out.push_back({g.original_id.empty() ? int64_t{g.global_id(s)} : g.original_id[s], key(s)});
  }
  return out;
}

// What a program's own driver holds at its peak, instead of the engine's
// values, accumulators and dense copy: the memory check counts these
// (compute/engine/memory_budget.h).
struct DriverFootprint {
  unsigned bytes_per_neighbour = 0;     // per in- or out-edge of this node's vertices
  unsigned bytes_per_local_vertex = 0;  // per vertex this node owns
  unsigned bytes_per_vertex = 0;        // per vertex of the whole graph
};

class Dataplane;

// A program that runs on its own driver: apps/node/run_program.h builds
// P::Driver from what it would build Engine<P> from, runs it on the same
// runtime, and reads its values() (by slot) after the run; the program says
// how its results print and rank. DriverProgramModel<P>
// (compute/engine/program_model.h) completes one written in the minimal form
// (kTraits, Value, kNeighbourhood and its hooks: tc, lcc, jaccard).
template <class P>
concept DriverProgram =
    requires(const typename P::Value& y, std::FILE* out, const typename P::Driver& driver) {
      { P::kTraits } -> std::convertible_to<ProgramTraits>;
      requires std::derived_from<typename P::Driver, ProgramDriver>;
      requires std::constructible_from<typename P::Driver, const EngineOptions&, Dataplane&, const LocalGraph&,
                                       const LcoreLayout&>;
      { P::Driver::kFootprint } -> std::convertible_to<DriverFootprint>;
      { driver.values() } -> std::convertible_to<const std::vector<typename P::Value>&>;
      { P::make(std::declval<const ProgramParams&>(), VertexId{}) } -> std::same_as<P>;
      { P::print_value(out, y) };
      { P::sort_key(y) } -> std::convertible_to<double>;
    };

// What the registry lists and a node runs: a vertex program on Engine<P>,
// or a program on its own driver.
template <class P>
concept RunnableProgram = VertexProgram<P> || DriverProgram<P>;

}  // namespace wg
