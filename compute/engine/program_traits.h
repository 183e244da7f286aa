// What a program tells the rest of wiregraph about itself, in one constant
// (Program::kTraits): its name on the command line, its one-line summary for
// --help, which of the shared program parameters it reads (the others are
// refused on its command line), its name and parameters in LDBC
// Graphalytics, how the graph must be loaded for it, what its output values
// are and how they are compared with its oracle's (Program::reference, beside
// it in apps/NAME.h). Option parsing, --help, dispatch, the hello's program
// id, --verify and the tests all read these (apps/programs.h lists the
// programs); nothing else names a program.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "compute/graph/types.h"

namespace wg {

// The graph a program needs, applied by the loader in this order.
struct GraphRules {
  bool symmetrize = false;       // add v->u for every u->v (also forced by --undirected)
  bool drop_self_loops = false;  // remove u->u
  bool drop_duplicates = false;  // keep one copy of each (u, v) (the smallest weight)
  bool weights = false;          // the program reads edge weights (else every weight is 1)
  bool real_weights = false;     // ... as doubles (Graphalytics' real weights), not 32-bit integers
  // The program reads each vertex's out-edge weight sum (VertexInfo::out_weight,
  // computed once before superstep 0: weighted PageRank's W(u)).
  bool out_weights = false;
  // Also keep every vertex's in-edges (LocalGraph::in_blocks), for a program
  // whose phases scatter along them (compute/engine/capabilities/edge_direction.h).
  bool in_edges = false;
};

// How a program's values are written in Graphalytics' output format
// (github.com/ldbc/ldbc_graphalytics_docs, tex/definition.tex, "Output
// Validation"): integers as integers, reals in scientific notation with 15
// digits after the point, each algorithm's infinity as the specification says.
enum class ValueKind : uint8_t {
  kOther,     // written as the plain output writes it
  kHops,      // BFS depth: an integer, 9223372036854775807 when unreachable
  kDistance,  // SSSP: a real, "infinity" when unreachable
  kReal,      // PageRank, LCC: a real
  kLabel,     // WCC, CDLP: a vertex id, written as the vertex's original id
};

// How a value is typed in DIR/results.npy (scripts/wiregraph-results, docs/OUTPUT.md):
// "integer" (int64; a hop count that is unreachable is -1) or "real" (float64;
// an unreachable distance is inf). summary.json's results.value_type.
constexpr std::string_view value_type_name(ValueKind k) {
  return k == ValueKind::kDistance || k == ValueKind::kReal ? "real" : "integer";
}

// The program's algorithm in LDBC Graphalytics and the keys of its
// parameters in a graph's NAME.properties ("graph.NAME.<algorithm>.<key>"),
// each the default of the shared option it stands for
// (config/graphalytics_defaults.h). Empty: none.
struct GraphalyticsNames {
  std::string_view algorithm;   // "pr", "bfs", ...; empty: not a Graphalytics algorithm
  std::string_view source;      // --source's key, e.g. "source-vertex"
  std::string_view iterations;  // --iterations' key, e.g. "num-iterations"
  std::string_view damping;     // --damping's key, e.g. "damping-factor"
};

// How a run's values are compared with the program's oracle (--verify, the
// tests, the `comparison` of nodeR.json that scripts/wiregraph-validate reads).
enum class Comparison : uint8_t {
  kUndeclared,  // refused: every registered program declares one (apps/registry.cc)
  kExact,       // integers, equal (labels, core numbers, degrees)
  kDistance,    // integers, equal, or both unreachable (inf)
  kReal,        // reals within `tolerance` relative to the oracle's; infinity only for infinity
};
constexpr std::string_view comparison_name(Comparison c) {
  switch (c) {
    case Comparison::kExact: return "exact";
    case Comparison::kDistance: return "distance";
    case Comparison::kReal: return "real";
    case Comparison::kUndeclared: break;
  }
  return "undeclared";
}

struct ProgramTraits {
  std::string_view name;     // --app NAME
  std::string_view summary;  // one line for --help
  // The shared program parameters it reads (config/option_table.cc: the
  // options whose read_by names these): a parameter it does not read is
  // refused on its command line and left out of the banner and the digest.
  bool uses_source = false;      // --source
  bool uses_sources = false;     // --sources K: K sources picked as GAP's SourcePicker does (apps/bc.h)
  bool uses_seeds = false;       // --seeds LIST|FILE: K vertices run together (apps/ppr.h)
  bool uses_iterations = false;  // --iterations
  uint32_t default_iterations = 0;
  bool uses_damping = false;     // --damping
  bool uses_tolerance = false;   // --tolerance: iterate until converged, networkx's rule (apps/pagerank.h)
  bool uses_normalize = false;   // --normalize: whose scale the scores take (apps/bc.h)
  bool uses_precision = false;   // --precision: double runs DoublePrecision<P> (apps/programs.h)
  bool uses_weighted = false;    // --weighted: runs Weighted<P> (apps/programs.h), which reads the weights
  GraphalyticsNames graphalytics;
  GraphRules graph;
  // For a program whose definition differs on a directed and an undirected
  // graph (lcc), what runs in each case, said in the banner and the summary
  // (which one ran is not otherwise visible); empty: the program's name says it.
  std::string_view on_directed;
  std::string_view on_undirected;
  std::string_view output;   // what a result line's value is, for --help and docs/PROGRAMS.md
  // The value's column name in DIR/results.tsv and results.npy ("rank",
  // "depth"): summary.json's results.value_column, which
  // scripts/wiregraph-results reads (docs/OUTPUT.md).
  std::string_view value_column;
  bool ranks_top = false;    // the end-of-run report lists the top vertices by value
  std::string_view top_value = "rank";  // ... each with this word before its value ("score")
  // What a value is, for --output-format graphalytics (apps/node/graphalytics_output.h).
  ValueKind value_kind = ValueKind::kOther;
  Comparison comparison = Comparison::kUndeclared;
  double tolerance = 0;  // kReal: |got - expected| <= tolerance |expected| (+ 1e-12 near 0)
  // --verify where the whole graph does not fit one node: what the program's
  // optional holds_along(u, v, weight) checks on every edge whose two ends a
  // node owns ("depth(v) <= depth(u) + 1"); empty: it declares none.
  std::string_view invariant;
};

// The program id in hellos: FNV-1a of the name, so that it does not depend on
// the order of the program list and never collides with 0.
constexpr uint32_t program_id(std::string_view name) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h | 1u;
}

// --sources all: every vertex once, in id order (bc), where K draws GAP's picks.
inline constexpr uint32_t kAllSources = UINT32_MAX;

// --normalize: how bc's summed dependencies become its scores.
enum class BcScale : uint8_t {
  kGap,        // GAP's bc: the source's own dependency included, divided by the largest score
  kNetworkx,   // networkx.betweenness_centrality(G, normalized=True) on an undirected G
  kNone,       // ... normalized=False: halved, each unordered pair once
};

// Program parameters shared by every program that reads them (the traits say
// which): resolved from the command line, a Graphalytics graph's properties
// and the traits' defaults. (--precision chooses the program's type instead:
// apps/registry.cc.)
struct ProgramParams {
  uint64_t source = 0;
  uint32_t iterations = 0;
  double damping = 0.85;  // PageRank
  uint32_t sources = 0;   // --sources K; 0: one sweep from `source` (bc)
  double tolerance = 0;   // --tolerance; 0: exactly `iterations` (PageRank)
  BcScale normalize = BcScale::kGap;  // --normalize (bc)
  // --seeds (ppr): the vertices as the input names them (dense id = id -
  // first_id); without --seeds the one seed is `source` (its dense id, which
  // the loader maps like any source) and seed_ids holds its input id, for the
  // results' column names.
  std::vector<int64_t> seed_ids;
  bool seeds_given = false;
  int64_t first_id = 0;
  // Where the loader maps the input's ids (--ids sparse, Graphalytics): the
  // seeds' dense ids as it looked them up; else empty (id - first_id).
  std::vector<VertexId> seeds_dense;
};

}  // namespace wg
