// Each node holds only its share of the graph. The loader reads (or
// generates) this node's share of the input, sends every edge to the node
// that owns its source over the wiregraph transport itself, and builds the
// node's LocalGraph from what arrives. It runs as the runtime's first phase
// (compute/engine/superstep_runtime.h), so the edge shuffle has the frames, reliability, fault
// injection and peer-failure handling of supersteps.
//
// The loading phase's supersteps:
//   count    METIS files and Graphalytics graphs only: each worker counts the
//            vertex lines of its slice (of the .v file for Graphalytics; a
//            line's vertex is the number of vertex lines before it; the
//            rank-order merge of END aggregates gives each node its prefix)
//   Graphalytics graphs only, their sparse 64-bit ids mapped to dense ones
//   (a vertex's dense id is its line's rank in the .v file; graph_loader_ids.cc):
//   vertices  each worker parses its slice of the .v file and sends (id,
//             dense) to the id's directory node (a hash of the id mod P); the
//             vertex lines must ascend (checked across nodes in END)
//   owners    the directory sends each vertex's original id to the owner of
//             its dense id (dense mod P), which writes results under it
//   requests  each worker parses its slice of the .e file and asks the
//             directory nodes for the dense ids of the distinct ids it uses
//   responses the directory nodes answer; the edges superstep then reads the
//             slice again and translates every id (one not in .v is an error
//             naming the file, the line and the id)
//   edge lists and binary files under --ids sparse, the same mapping with the
//   vertices taken from the edges (a vertex's dense id is its id's rank among
//   the distinct ids the edges name; compute/load/id_directory.h):
//   sample    each worker parses its slice, collects its distinct ids and
//             sends every node a sample of them; every node then cuts the
//             id space at the same splitters into P ranges, one per directory
//   requests  each worker sends its ids to the directory of their range
//   numbering each directory sorts its distinct ids; the rank-order merge of
//             the counts in END gives V and the ids before each range
//   owners, responses as for Graphalytics graphs; the edges superstep does not
//             parse the slice again: the sample superstep kept its edges as
//             the worker's numbers for their ids, translated now in memory
//   edges    each worker parses its slice of the file (compute/graph/graph_formats.h;
//            node r reads bytes [r/P, (r+1)/P) of the data and the header),
//            or generates its blocks of the generator, or takes its part of
//            edges in memory; applies the program's per-edge rules
//            (symmetrise, drop self-loops) and sends each edge to the owner of
//            its source. END carries the figures every node needs (largest id,
//            entries, edges, the graph fingerprint, boundary hashes), merged
//            in rank order: V, |E|, and the header's counts checked
//            (and, for a program that reads in-edges, each edge reversed to
//            the owner of its target)
//   degrees  worker 0 builds the out-edge blocks (dropping duplicates where
//            the program asks), and the in-edge blocks where it reads them,
//            and sends in-degree counts to the targets' owners
//   slots    k > 1 domains only: worker 0 splits its own vertices over the
//            domains (METIS on its own subgraph) and sends every node its slot
//            table: O(V/P) records to each peer
// Then, after the phase: in-degrees, and for k > 1 the blocks renumbered
// into (node, domain) groups.
#pragma once

#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <vector>

#include "compute/partition/domain_partition.h"
#include "compute/graph/graph_input.h"
#include "compute/engine/lcore_layout.h"
#include "compute/partition/partition.h"
#include "compute/engine/program_traits.h"
#include "compute/engine/superstep_runtime.h"
#include "compute/report/run_report.h"

namespace wg {

// What a node holds once its edges have arrived.
struct HeldShape {
  uint64_t vertices = 0;     // V
  uint64_t edges = 0;        // |E| of the cluster, after the per-edge rules
  uint64_t held_edges = 0;   // this node's (its out-edges, duplicates not yet dropped)
  uint64_t held_bytes = 0;   // what holding them takes now
  DegreeCounts out_degrees;  // this node's local sources by out-degree in the held edges (empty for a generator)
  bool degrees_alike = false;  // every vertex has as many in-edges as out-edges (load_aggregate.h)
  std::string what;          // "g.el: 4294967295 vertices and 1 edges"
};

// How loading shows its progress while the edges move: "loading: 45% of
// this node's 13.7 MB, ETA 3 s" (of its byte range of a file; of its edges
// when they are generated or in memory).
struct LoadProgress {
  bool lines = false;       // print progress lines at all
  bool details = false;     // --verbose: edges read, sent, received and a rate on each line, and a last line
  bool in_place = false;    // stdout is a terminal: one line rewritten, erased at the end
  double interval_s = 1.0;  // at most one line this often
};

struct LoadOptions {
  bool symmetrize = false;       // --undirected, or the program's rule (or an undirected Graphalytics graph)
  bool drop_self_loops = false;
  bool drop_duplicates = false;
  bool keep_weights = false;
  bool real_weights = false;     // keep them as doubles (the program's GraphRules::real_weights)
  // Also send every edge u->v, reversed, to v's owner and keep it in
  // LocalGraph::in_blocks (the program's GraphRules::in_edges). Unweighted
  // programs only: the reversed edges are marked in the weight word on the wire.
  bool in_edges = false;
  unsigned domains = 1;          // k
  bool metis = true;             // refine the even domain split with METIS
  bool degree_order = false;     // slots within a domain by out-degree, highest first (--vertex-order degree)
  LoadProgress progress;
  bool crash_in_shuffle = false; // test hook (--crash-node R:load): SIGKILL mid-shuffle
  std::optional<int64_t> source;  // mapped ids (Graphalytics, --ids sparse): the original id of the program's source
  // Mapped ids: more original ids to look up, as the source is (ppr's --seeds);
  // one that is no vertex is refused as the source is, naming `lookups_named`.
  std::vector<int64_t> lookups;
  std::string lookups_named = "--seeds";
  // Called once the edges have arrived and V and |E| are known, before the
  // node builds anything: throws to refuse a graph that will not fit
  // (apps/node/node.h check_memory_for).
  std::function<void(const HeldShape&)> check_memory;
};
LoadOptions load_options(const GraphRules& program, bool undirected, unsigned domains, bool metis,
                         bool degree_order = false);

// The load figures of compute/report/run_report.h, and this node's NUMA-domain split.
struct LoadReport : LoadFigures {
  DomainPartition partition;
  bool degrees_alike = false;      // as read, every vertex had as many in-edges as out-edges (load_aggregate.h)
  std::optional<VertexId> source;  // the dense id of LoadOptions::source
  std::vector<VertexId> lookups;   // the dense ids of LoadOptions::lookups, in their order
};

// Runs the loader as a phase of `runtime` (which it starts if need be) and
// returns this node's part of the graph. Throws GraphError for bad input
// (every node refuses a bad file the same way), EngineError for a failure in
// the runtime; either way the peers are told (ABORT).
LocalGraph load_graph_share(SuperstepRuntime& runtime, Dataplane& dp, const GraphInput& input, const LoadOptions& options,
                            const LcoreLayout& layout, LoadReport* report);

}  // namespace wg
