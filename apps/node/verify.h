// --verify, GAP's -v for a cluster: after the run every node checks its own
// vertices' results.
//
// Where the whole graph and the oracle fit in what the node may use
// (oracle_memory_need against Node::memory_limit(), or --verify-limit), the
// node reads the input whole with the reader of wiregraph-convert, numbered
// as the loader numbers it (compute/graph/whole_input.h), adds the reverse
// edges under --undirected (the oracle applies the program's own rules), runs
// the program's oracle (Prog::reference, apps/NAME.h) and compares each of
// its vertices as kTraits.comparison says. Every node of a job does so on
// its own: no messages, no agreement needed.
//
// Where it does not fit, a program that declares an invariant along edges
// (holds_along(u, v, weight): BFS depth(v) <= depth(u) + 1, SSSP the same
// with weights, CC equal labels) has it checked on every edge whose two ends
// this node owns, the only values it knows: sound (a correct result never
// fails it) but partial (a wrong value on an edge that crosses nodes goes
// unseen). A program without one (PageRank, CDLP, k-core, LCC, in-degree) is
// not checked, and the verdict says why.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "apps/node/verify_verdict.h"
#include "compute/engine/capabilities/multi_value.h"
#include "compute/engine/oracle.h"
#include "compute/engine/program_driver.h"
#include "compute/graph/graph_input.h"
#include "compute/graph/memory_limit.h"
#include "compute/graph/whole_input.h"
#include "compute/partition/partition.h"
#include "compute/report/run_report.h"
#include "config/options.h"

namespace wg {

// What reading the whole graph and running an oracle on it hold at their
// peak, at most (verify.cc says how it is counted).
uint64_t oracle_memory_need(const LoadFigures& load, bool mapped_ids, bool real_weights, bool undirected);

namespace verify_detail {

// "inf" for an unreachable distance, else the number.
std::string integer_text(uint64_t x, bool unreachable);
std::string real_text(double x);
// "vertex 17" plus " (the file's own id)" when the input's ids were mapped.
std::string vertex_text(int64_t id, bool mapped);

// Whether `got` matches the oracle's value for a program compared by `traits`.
inline bool agrees(const ProgramTraits& traits, double got, double want) {
  if (std::isinf(got) || std::isinf(want)) return got == want;
  return std::fabs(got - want) <= traits.tolerance * std::fabs(want) + 1e-12;
}

// A value as the program writes it in its result lines.
template <class Prog>
std::string printed(const typename Prog::Value& y) {
  char* text = nullptr;
  size_t length = 0;
  std::FILE* f = open_memstream(&text, &length);
  if (f == nullptr) return "?";
  Prog::print_value(f, y);
  std::fclose(f);
  std::string out(text, length);
  std::free(text);
  return out;
}

// A result's value as a comparable integer: kUnreachable for the largest
// value of its type (the min-propagation programs' infinity, UINT32_MAX).
template <class T>
uint64_t as_integer(T v, Comparison c) {
  if (c == Comparison::kDistance && v == std::numeric_limits<T>::max()) return kUnreachable;
  return static_cast<uint64_t>(v);
}

}  // namespace verify_detail

// Each of the node's vertices against the oracle on `whole` (the input's
// whole graph as the oracle takes it); labels (dense ids) are named by the
// ids the result files write.
template <RunnableProgram Prog>
VerifyVerdict verify_against_oracle(const WholeInput& whole, const ProgramParams& params, const LocalGraph& graph,
                                    const std::vector<typename Prog::Value>& values, VertexId first_id) {
  using namespace verify_detail;
  constexpr ProgramTraits traits = Prog::kTraits;
  VerifyVerdict v;
  v.method = VerifyVerdict::Method::kOracle;
  if (whole.graph.num_vertices != graph.num_vertices) {
    v.outcome = VerifyVerdict::Outcome::kInvalid;
    v.first = "the input read again has " + std::to_string(whole.graph.num_vertices) +
              " vertices, the run loaded " + std::to_string(graph.num_vertices);
    v.differing = 1;
    return v;
  }
  OracleValues want;
  try {
    want = Prog::reference(whole.graph, params);
  } catch (const std::exception& e) {
    v.outcome = VerifyVerdict::Outcome::kSkipped;
    v.note = std::string("the oracle refused the graph: ") + e.what();
    return v;
  }
  // A multi-valued program's oracle gives V x K reals, vertex-major
  // (compute/engine/capabilities/multi_value.h); every lane is compared.
  size_t lanes = 1;
  if constexpr (MultiValued<Prog>) lanes = Prog::value_columns(params).size();
  if ((traits.comparison == Comparison::kReal ? want.reals.size() : want.integers.size()) !=
      size_t{graph.num_vertices} * lanes) {
    v.outcome = VerifyVerdict::Outcome::kSkipped;
    v.note = "the oracle gave no value for some vertices";
    return v;
  }
  const bool mapped = !whole.original_id.empty();
  auto label_text = [&](uint64_t label) {
    return std::to_string(mapped && label < whole.original_id.size() ? whole.original_id[label]
                                                                     : static_cast<int64_t>(label + first_id));
  };
  VertexId first = 0;
  for (uint32_t i = 0; i < graph.num_local; ++i) {
    const VertexId id = graph.global_id(i);
    const auto got = result_of<Prog>(values[i]);
    bool same;
    std::string got_text, want_text;
    if constexpr (MultiValued<Prog>) {
      same = true;
      for (size_t j = 0; j < lanes && same; ++j) {
        const double g = Prog::lane(values[i], static_cast<unsigned>(j)), w = want.reals[id * lanes + j];
        same = agrees(traits, g, w);
        if (!same) got_text = real_text(g), want_text = real_text(w) + " (value " + std::to_string(j + 1) + ")";
      }
    } else if constexpr (traits.comparison == Comparison::kReal) {
      same = agrees(traits, static_cast<double>(got), want.reals[id]);
      if (!same) got_text = real_text(static_cast<double>(got)), want_text = real_text(want.reals[id]);
    } else {
      static_assert(std::is_integral_v<decltype(got)>, "exact and distance comparisons need integer results");
      const uint64_t g = as_integer(got, traits.comparison);
      same = g == want.integers[id];
      if (!same) {
        if (traits.value_kind == ValueKind::kLabel) {
          got_text = label_text(g), want_text = label_text(want.integers[id]);
        } else {
          got_text = integer_text(g, g == kUnreachable);
          want_text = integer_text(want.integers[id], want.integers[id] == kUnreachable);
        }
      }
    }
    ++v.checked;
    if (same) continue;
    // The first by id, whatever the node's order of slots.
    if (v.differing++ == 0 || id < first) {
      first = id;
      v.first = vertex_text(graph.input_id(i, first_id), mapped) + ": got " + got_text + ", expected " + want_text;
    }
  }
  v.outcome = v.differing ? VerifyVerdict::Outcome::kInvalid : VerifyVerdict::Outcome::kValid;
  return v;
}

// The program's invariant on every edge whose two ends this node owns.
template <RunnableProgram Prog>
  requires requires { &Prog::holds_along; }
VerifyVerdict verify_invariant(const LocalGraph& g, const std::vector<typename Prog::Value>& values,
                               VertexId first_id) {
  using verify_detail::printed;
  VerifyVerdict v;
  v.method = VerifyVerdict::Method::kInvariant;
  v.invariant = std::string(Prog::kTraits.invariant);
  const bool mapped = !g.original_id.empty();
  std::pair<VertexId, VertexId> first;  // the failing edge with the smallest (source, destination) ids
  for (unsigned d = 0; d < g.domains; ++d) {
    const EdgeBlock& b = g.blocks[g.group(g.rank, d)];
    for (size_t j = 0; j < b.sources.size(); ++j) {
      const uint32_t u = b.sources[j];
      for (uint64_t k = b.offsets[j]; k < b.offsets[j + 1]; ++k) {
        const uint32_t w = g.domain_offset[d] + b.targets[k];
        bool holds;
        if (!b.real_weights.empty())
          holds = Prog::holds_along(values[u], values[w], b.real_weights[k]);
        else
          holds = Prog::holds_along(values[u], values[w], b.weights.empty() ? Weight{1} : b.weights[k]);
        ++v.checked;
        if (holds) continue;
        const std::pair<VertexId, VertexId> edge{g.global_id(u), g.global_id(w)};
        if (v.differing++ == 0 || edge < first) {
          first = edge;
          const std::string from = std::to_string(g.input_id(u, first_id));
          const std::string to = std::to_string(g.input_id(w, first_id));
          v.first = "edge " + from + " -> " + to + (mapped ? " (the file's own ids)" : "") + ": " +
                    printed<Prog>(values[u]) + " at " + from + ", " + printed<Prog>(values[w]) + " at " + to;
        }
      }
    }
  }
  v.outcome = v.differing ? VerifyVerdict::Outcome::kInvalid : VerifyVerdict::Outcome::kValid;
  return v;
}

// What the node verifies: the run's vertices and values, and where they came from.
template <RunnableProgram Prog>
struct VerifyInput {
  const Config& cfg;
  const GraphInput& input;
  const LocalGraph& graph;
  const std::vector<typename Prog::Value>& values;
  VertexId source;          // dense, as the program ran from it
  const std::vector<VertexId>& seeds;  // ppr's seeds as the loader mapped them (ProgramParams::seeds_dense)
  const LoadFigures& load;  // V and E, for the memory need
  MemoryLimit limit;        // what the node may use now (Node::memory_limit())
};

// --verify on one node: the oracle where the graph fits, else the invariant.
template <RunnableProgram Prog>
VerifyVerdict verify_run(const VerifyInput<Prog>& in) {
  VerifyVerdict v;
  const uint64_t need = oracle_memory_need(in.load, in.cfg.mapped_ids(), Prog::kTraits.graph.real_weights,
                                           in.cfg.undirected);
  MemoryLimit limit = in.limit;
  if (in.cfg.verify_limit != 0 && in.cfg.verify_limit < limit.bytes)
    limit = {in.cfg.verify_limit, "--verify-limit"};
  if (need <= limit.bytes) {
    if constexpr (HasOracle<Prog>) {
      WholeInput whole = read_whole_input(in.input, Prog::kTraits.graph.real_weights);
      if (in.cfg.undirected) add_reverse_edges(whole.graph);
      ProgramParams params = in.cfg.params();
      params.source = in.source;
      params.seeds_dense = in.seeds;
      return verify_against_oracle<Prog>(whole, params, in.graph, in.values, in.cfg.first_id);
    } else {
      v.outcome = VerifyVerdict::Outcome::kSkipped;
      v.note = "cannot verify " + std::string(Prog::kTraits.name) +
               ": it declares no oracle (a static reference(), docs/PROGRAMS.md), so there is nothing to compare with";
      return v;
    }
  }
  const std::string why = "the whole graph and the oracle need up to " + format_bytes(need) + ", more than the " +
                          format_bytes(limit.bytes) + " this node may use (" + limit.source + ")";
  if constexpr (requires { &Prog::holds_along; }) {
    v = verify_invariant<Prog>(in.graph, in.values, in.cfg.first_id);
    v.note = "not the oracle: " + why;
  } else {
    v.outcome = VerifyVerdict::Outcome::kSkipped;
    v.note = why + ", and " + std::string(Prog::kTraits.name) +
             " declares no invariant a node can check on its own edges";
  }
  return v;
}

}  // namespace wg
