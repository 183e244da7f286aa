// What a program tells the rest of wiregraph about itself, in one constant
// (Program::kTraits): its name on the command line, its one-line summary for
// --help, which of the shared program options it reads, how the graph must be
// loaded for it, and what its output values are. Option parsing, --help,
// dispatch, the hello's program id and the tests all read these
// (apps/programs.h lists the programs).
#pragma once

#include <cstdint>
#include <string_view>

namespace wg {

// The graph a program needs, applied by the loader in this order.
struct GraphRules {
  bool symmetrize = false;       // add v->u for every u->v (also forced by --undirected)
  bool drop_self_loops = false;  // remove u->u
  bool drop_duplicates = false;  // keep one copy of each (u, v) (the smallest weight)
  bool weights = false;          // the program reads edge weights (else every weight is 1)
  bool real_weights = false;     // ... as doubles (Graphalytics' real weights), not 32-bit integers
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

struct ProgramTraits {
  std::string_view name;     // --app NAME
  std::string_view summary;  // one line for --help
  bool uses_source = false;  // reads --source
  bool uses_iterations = false;  // reads --iterations
  uint32_t default_iterations = 0;
  GraphRules graph;
  std::string_view output;   // what a result line's value is, for --help and the README
  bool ranks_top = false;    // the end-of-run report lists the top vertices by value
  // What a value is, for --output-format graphalytics (apps/node/graphalytics_output.h).
  ValueKind value_kind = ValueKind::kOther;
};

// The program id in hellos: FNV-1a of the name, so that it does not depend on
// the order of the program list and never collides with 0.
constexpr uint32_t program_id(std::string_view name) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h | 1u;
}

// Program parameters shared by every program that reads them (the traits say
// which): resolved from the command line and the traits' defaults.
struct ProgramParams {
  uint64_t source = 0;
  uint32_t iterations = 0;
  double damping = 0.85;  // PageRank
};

}  // namespace wg
