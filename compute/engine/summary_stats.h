// What a program says about its answer in the end-of-run summary
// (compute/report/run_summary.h), and the pieces programs build it from.
//
// The hook, optional, in the program's class (apps/bfs.h is an example):
//   struct Summary;  // trivially copyable, at most wire::kMaxSummaryStatsBytes
//   static Summary summarize(std::span<const Value> values, const LocalGraph& g);
//       this node's statistics, by one read of its values (values[i] is slot i's);
//       or a const member, called on the program as the run left it (figures
//       its next() kept: PageRank's iterations and convergence)
//   static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c);
//       rank 0: every node's statistics in rank order, into the summary's
//       answer line, its figures for summary.json and its warnings
// Each node's Summary travels to the others in its FIN (wire::FinPayload),
// like the top vertices: no extra exchange.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "compute/partition/partition.h"
#include "compute/report/run_summary.h"
#include "dataplane/wire.h"

namespace wg {

template <class Prog>
concept SummarizesAnswer = requires { typename Prog::Summary; } &&
                           std::is_trivially_copyable_v<typename Prog::Summary> &&
                           sizeof(typename Prog::Summary) <= wire::kMaxSummaryStatsBytes &&
                           requires(const Prog& p, std::span<const typename Prog::Value> values, const LocalGraph& g,
                                    std::span<const typename Prog::Summary> nodes, const SummaryContext& c) {
                             { p.summarize(values, g) } -> std::same_as<typename Prog::Summary>;
                             { Prog::describe(nodes, c) } -> std::same_as<ProgramOutcome>;
                           };

// "a graph whose edges point the other way (--undirected)?": the hints shared
// by the warnings below.
std::string degenerate_hints(const SummaryContext& c, bool source);

// ---- vertices reached from a source (BFS, SSSP) -------------------------------

struct ReachSummary {
  uint64_t reached = 0;  // vertices with a finite value
  double farthest = 0;   // the largest finite value
};

// `finite(y)` says whether y is reached, `amount(y)` what it is worth.
template <class Value, class Finite, class Amount>
ReachSummary reach_of(std::span<const Value> values, Finite&& finite, Amount&& amount) {
  ReachSummary s;
  for (const Value& y : values)
    if (finite(y)) {
      ++s.reached;
      s.farthest = std::max(s.farthest, static_cast<double>(amount(y)));
    }
  return s;
}
ReachSummary total_reach(std::span<const ReachSummary> nodes);

// "3353 of 3353 vertices reached (100%), depth 52" (`farthest_name` "depth",
// printed as an integer when `integral`), and a warning when the answer is
// degenerate: the source reaches only itself in a graph of more vertices, or
// at most kHandful vertices while at least 90% of the graph stays unreached.
inline constexpr uint64_t kHandful = 10;
ProgramOutcome describe_reach(const ReachSummary& total, const SummaryContext& c, const char* farthest_name,
                              bool integral);

// ---- vertices a program marks (BC's sources) ----------------------------------

// One node's marked vertices: the marks (a vertex marked twice counts twice)
// and its kListedMarks smallest ids, as the input names them (a dense id
// until total_marked adds SummaryContext::first_id).
inline constexpr unsigned kListedMarks = 8;
struct MarkedVertices {
  uint64_t marks = 0;
  uint32_t listed = 0;
  uint32_t dense_ids = 0;  // `smallest` holds dense ids (the loader kept no input ids)
  int64_t smallest[kListedMarks] = {};  // sorted
};
// `times(y)`: how many times the vertex holding y is marked.
template <class Value, class Times>
MarkedVertices marked_of(std::span<const Value> values, const LocalGraph& g, Times&& times) {
  MarkedVertices m;
  m.dense_ids = g.original_id.empty();
  for (uint32_t i = 0; i < values.size(); ++i) {
    const uint64_t n = times(values[i]);
    m.marks += n;
    if (n == 0) continue;
    const int64_t id = g.input_id(i, 0);
    if (m.listed == kListedMarks && id >= m.smallest[kListedMarks - 1]) continue;
    uint32_t at = m.listed < kListedMarks ? m.listed++ : kListedMarks - 1;  // the largest listed makes room
    for (; at > 0 && m.smallest[at - 1] > id; --at) m.smallest[at] = m.smallest[at - 1];
    m.smallest[at] = id;
  }
  return m;
}
// The cluster's marks and its kListedMarks smallest marked ids as the input
// names them; `listed`: "5" or "1, 5, 9", with ", ..." when some are left out.
struct MarkedTotal {
  uint64_t marks = 0;
  std::vector<int64_t> ids;
  std::string listed;
};
MarkedTotal total_marked(std::span<const MarkedVertices> nodes, const SummaryContext& c);

// ---- the top vertices (programs that rank them: PageRank, BC) ------------------

// "vertex 3 (0.25), vertex 7 (0.125), vertex 1 (0.1)": the first three of
// c.top; *json gets every one as {"vertex": id, value_name: value}.
std::string top_three(const SummaryContext& c, const char* value_name, nlohmann::ordered_json* json);

// ---- labels: components and communities (CC, CD) ------------------------------

// One node's census of its vertices' labels: how many there are, the most
// frequent (every one when `listed` == `distinct`), a HyperLogLog sketch of
// them for the count when the lists leave some out, and what each program
// reads besides.
inline constexpr unsigned kCensusEntries = 32;
inline constexpr unsigned kSketchBits = 9;  // 512 registers: a 4.6% standard error
struct __attribute__((packed)) LabelCount {
  uint32_t label;
  uint64_t count;
};
struct __attribute__((packed)) LabelCensus {
  uint64_t vertices = 0;
  uint64_t distinct = 0;    // labels among this node's vertices
  uint64_t own_label = 0;   // vertices whose label is their own id
  uint64_t isolated = 0;    // vertices without out-edges (without any edge, in an undirected graph)
  uint32_t listed = 0;      // entries of `top`, the largest count first (the smaller label among equals)
  uint32_t pad = 0;
  LabelCount top[kCensusEntries] = {};
  uint8_t sketch[1u << kSketchBits] = {};
};
static_assert(sizeof(LabelCensus) <= wire::kMaxSummaryStatsBytes);

// Labels by slot (values[i] is slot i's label, a dense vertex id).
LabelCensus census_of(std::span<const uint32_t> labels, const LocalGraph& g);

struct CensusTotals {
  uint64_t vertices = 0, own_label = 0, isolated = 0;
  uint64_t labels = 0;   // distinct labels in the cluster
  bool labels_exact = false;  // else the sketch's estimate
  uint64_t largest = 0;  // vertices of the most frequent label
  bool largest_exact = false;  // else a lower bound: the nodes' lists left too much out to be sure
};
// Exact where the nodes' lists hold every label; otherwise the largest is
// bounded as in Fagin's threshold algorithm (a label missing from a node's
// full list has at most that list's smallest count there).
CensusTotals total_census(std::span<const LabelCensus> nodes);

// "N of V vertices (x%) have no edges ..." when most vertices are isolated
// (ids with gaps, a numbering from 1); nothing otherwise.
void warn_if_mostly_isolated(uint64_t isolated, const SummaryContext& c, ProgramOutcome& out);

// The answer of a program whose labels are each group's smallest vertex id
// (cc's components, louvain's communities): the groups, counted exactly by
// the vertices that hold their own id, and the largest ("N components, the
// largest of M vertices (x%)"; figures `groups`, largest_`group`[_exact],
// vertices_without_edges), with the warning of warn_if_mostly_isolated.
ProgramOutcome describe_groups(std::span<const LabelCensus> nodes, const SummaryContext& c, const char* groups,
                               const char* group);

// The HyperLogLog pieces (Flajolet et al. 2007, with linear counting for small
// counts), exposed for the unit test.
uint64_t sketch_hash(uint32_t label);
void sketch_add(uint8_t* sketch, uint32_t label);
double sketch_estimate(const uint8_t* sketch);

}  // namespace wg
