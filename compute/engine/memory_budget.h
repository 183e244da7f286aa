// What a node will need in memory for a graph, estimated from V and E
// (declared by a file's header, or observed after loading) before it is
// spent, and the check that refuses a run that cannot fit with an error
// naming both numbers (compute/graph/memory_limit.h says what the machine allows).
//
// The estimate follows the structures a node builds, byte for byte per vertex
// and per edge (allocator overheads and DPDK's own memory, reserved at EAL
// start, are not counted), in three phases of which the largest is the peak:
//   load   - the edges this node holds once they have arrived (its share of
//            the graph after the shuffle, compute/load/graph_loader.h): 6 B each,
//            10 when the program keeps weights, 14 when they are real (doubles);
//            from a snapshot (NodeShape::as_built), the CSR as read
//   build  - those edges + this node's CSR (compute/partition/partition.h) + the
//            counting sort's cursors (4 B per (destination group, local
//            vertex)) or, with K > 1 domains, the slot map and one node's
//            METIS graph; with K > 1 the CSR built again by slot beside the
//            first one; with --vertex-order degree, renumbered a share of
//            each block at a time (compute/partition/slot_renumber.h); then,
//            the edges gone, the CSR regrouped by
//            accumulation range (compute/engine/range_plan.h: a block per
//            (destination node, range), split one block at a time); from a
//            snapshot, that split alone
//   run    - the CSR by range + the engine (values, two accumulators per vertex or,
//            for slot programs, two slot buffers of one message per in-edge)
//            + the workers' scatter values, frontiers, their sources' lists
//            of blocks and room to group a small frontier by block, and for
//            programs that apply early (with --local-rounds on), an accumulator per vertex more
//            and, for programs with a scalar ⊕ unless --scatter sparse or
//            real weights, the dense copy of the edges (SSSP: only with
//            --scatter dense; in auto mode at P > 1, per worker, a message and a
//            destination per vertex to combine records at the sender instead);
//            SSSP's light-first copy of the edges, each worker's bitmaps per
//            destination (BFS's and CC's reached, BC's settled and sent) and
//            BFS's bottom-up lists
//            (compute/engine/worker/). A program that only pulls
//            (PageRank) lists no source's blocks and consumes the CSR's
//            blocks group by group as its dense copy is built: its run
//            holds the whole dense copy, the CSR's per-vertex arrays and a
//            share of one group's block at most (compute/engine/dense_block.h).
//            A program on its own driver (apps/lcc.h) holds what its
//            DriverFootprint states instead of the engine's structures.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "compute/engine/accumulator.h"
#include "compute/engine/blocked_frontier.h"
#include "compute/engine/engine_options.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/scatter_mode.h"
#include "compute/engine/vertex_program.h"
#include "compute/engine/worker/modes.h"
#include "compute/graph/declared_size.h"
#include "compute/graph/memory_limit.h"

namespace wg {

// What a program's types and rules cost per vertex and per edge.
struct AppFootprint {
  unsigned value_bytes = 4;    // sizeof(Value): one per local vertex
  unsigned message_bytes = 4;  // sizeof(Message): accumulators, scatter values, slots
  bool slots = false;          // SlotAccumulator: every message kept, one slot per in-edge
  bool weights = false;        // the CSR (and the dense copy) keeps edge weights
  bool real_weights = false;   // ... as 8-byte doubles, sparse supersteps only (no dense copy)
  bool symmetrize = false;     // the loader adds reverse edges (also --undirected)
  bool levels = false;         // level-synchronous (BFS, CC): reached bitmaps, bottom-up lists
  bool light_first = false;    // splits light and heavy edges (SSSP): a light-first copy of the edges
  bool early = false;          // applies early (SSSP): the workers fold their own vertices' messages
  bool pulls_only = false;     // every superstep pulls (PageRank): with a dense copy, the CSR's targets
                               // go once the copy is built (compute/engine/worker/modes.h kPullsOnly)
  bool settles = false;        // settling phases (BC): settled and sent bitmaps (worker/modes.h kSettles)
  bool in_edges = false;       // the node holds its in-edges too, and never pulls (worker/modes.h kInEdges)
  unsigned grouped_bytes = 12;  // an active (source, block) pair grouped by block (compute/engine/blocked_frontier.h)
  bool own_driver = false;     // runs on Prog::Driver: `driver` instead of the engine's terms
  DriverFootprint driver;      // (compute/engine/program_driver.h)
};

template <RunnableProgram P>
constexpr AppFootprint footprint_of() {
  if constexpr (DriverProgram<P>) {
    // No messages: message_bytes stays a 4-byte ⊕'s, by which the CSR is cut
    // into accumulation ranges all the same (apps/node/run_program.h).
    AppFootprint f;
    f.value_bytes = sizeof(typename P::Value);
    f.weights = P::kTraits.graph.weights;
    f.real_weights = P::kTraits.graph.real_weights;
    f.symmetrize = P::kTraits.graph.symmetrize;
    f.in_edges = P::kTraits.graph.in_edges;
    f.own_driver = true;
    f.driver = P::Driver::kFootprint;
    return f;
  } else {
    using Acc = typename AccumulatorFor<P>::type;
    AppFootprint f{sizeof(typename P::Value), sizeof(typename P::Message),
                   !std::is_same_v<Acc, ScalarAccumulator<P>>, P::kTraits.graph.weights,
                   P::kTraits.graph.real_weights, P::kTraits.graph.symmetrize,
                   declares_level_phases<P>(), splits_light_edges<P>(), declares_early_phases<P>()};
    f.grouped_bytes = sizeof(typename BlockedFrontier<typename P::Message>::Item);
    f.pulls_only = WorkerModes<P>::kPullsOnly;
    f.settles = WorkerModes<P>::kSettles;
    f.in_edges = P::kTraits.graph.in_edges;
    return f;
  }
}

// The graph as one node sees it, after the program's rules.
struct NodeShape {
  uint64_t vertices = 0;      // global V
  uint64_t held_edges = 0;    // edges this node holds while loading (its out-edges, before duplicates go)
  uint64_t out_edges = 0;     // out-edges of this node's vertices
  uint64_t in_edges = 0;      // in-edges of this node's vertices
  unsigned nodes = 1;         // P
  unsigned domains = 1;       // K
  ScatterMode scatter = ScatterMode::kAuto;
  uint64_t segment_bytes = 1 << 20;  // scatter values per dense segment (--segment-kib)
  unsigned queues = 1;               // receive queues (--rx-queues): each owns whole ranges
  unsigned workers = 1;              // worker lcores: each holds its own bitmaps per destination and sender combine
  uint64_t range_bytes = 0;  // Σ per accumulation range (--range-kib; 0: range_entries_of's default)
  bool local_rounds = false;         // --local-rounds: a program that applies early holds its own messages
  bool degree_order = false;         // --vertex-order degree: slots renumbered as with K > 1
  // A generated Kronecker graph's scale (0: another input). Its degrees are
  // known before it is made, and the estimate counts the (vertex, block)
  // pairs of its skewed degrees instead of their bound, one per edge.
  unsigned kron_scale = 0;
  // This node's local vertices by out-degree, when known (a node checks
  // with its held edges' degrees; the report with its CSR's): without a
  // kron_scale the pairs are then counted from them instead of their bound.
  DegreeCounts out_degrees;
  // Every vertex has as many in-edges as out-edges (a symmetric graph; the
  // loader finds it: compute/load/load_aggregate.h): the counts above then
  // tell the in-degrees too, and where a vertex's in-edges fall.
  bool degrees_alike = false;
  // The graph is read back as built (a snapshot, compute/load/snapshot_reader.h):
  // no held edges, no counting sort; its load is the CSR as read, then the
  // split into ranges (held_edges is not counted).
  bool as_built = false;
};

// The shape of a balanced node (E/P held, out- and in-edges each), for a
// graph known only by its declared V and E (after the program's rules).
// kron_scale: a generated Kronecker graph's (NodeShape::kron_scale).
NodeShape balanced_shape(uint64_t vertices, uint64_t edges, unsigned nodes, unsigned domains, unsigned kron_scale = 0);
// The balanced shape of what an input declares before it is read: its edges
// doubled when the rules symmetrise them (`symmetrizes`: --undirected or the
// program's own rule), unless it is a snapshot, whose edges are as built.
NodeShape declared_shape(const DeclaredSize& d, unsigned nodes, unsigned domains, bool symmetrizes);

struct MemoryNeed {
  uint64_t load = 0, build = 0, run = 0;  // the phases' totals
  uint64_t local_graph = 0;               // of which this node's CSR by range (run)
  uint64_t ranges = 0;                    // accumulation ranges per node (one edge block per node and range)
  uint64_t dense = 0;                     // and the dense copy of its edges (run)
  uint64_t light_first = 0;               // and the light-first copy of its edges (run)
  uint64_t peak() const;
  std::string describe() const;  // "26.0 GiB (load 1.2 GiB, build 26.0 GiB, run 9.1 GiB)"
};

MemoryNeed estimate_node_memory(const NodeShape& shape, const AppFootprint& app);

// A node's own memory beside the graph's and the EAL's: the binary, its
// libraries, DPDK's and the runtime's structures, the stacks. Measured: 35.2
// MB peak RSS for PageRank on kron:10:4 at P=2 with hugepages (2,165 edges).
inline constexpr uint64_t kProcessBytes = 36ull << 20;

class MemoryBudgetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws MemoryBudgetError naming `what`, the need and the limit, when the
// need's peak, less the `held` bytes of it already allocated (and so no
// longer in the limit), exceeds the limit.
void check_memory(const MemoryNeed& need, uint64_t held, const MemoryLimit& limit, const std::string& what);

// What a node runs under `limit`, `held` bytes of its need already allocated:
// the shape's --scatter, unless that is auto and the estimate does not fit
// while pushing only does (no dense copy: compute/engine/worker/dense_pull.h).
// Then the node pushes only (as --scatter sparse): slower on supersteps whose
// frontier is large, but it computes a graph it would otherwise refuse.
struct MemoryFit {
  MemoryNeed need;                           // under `scatter`
  ScatterMode scatter = ScatterMode::kAuto;  // what the node runs
  uint64_t dense_left_out = 0;               // the dense copy's bytes, when it pushes only to fit
  bool pushes_only_to_fit() const { return dense_left_out > 0; }
};
MemoryFit fit_to_memory(const NodeShape& shape, const AppFootprint& app, uint64_t held, const MemoryLimit& limit);

}  // namespace wg
