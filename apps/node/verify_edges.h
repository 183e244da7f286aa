// --verify for a program whose results are per edge
// (compute/engine/capabilities/neighbourhood.h, PerEdgeResults: jaccard):
// each of the node's edges against the program's oracle on the whole input
// (Prog::edge_reference), both named by the ids the result lines write. A
// node checks the edges it holds; that every edge is held somewhere once is
// what scripts/wiregraph-validate checks on the merged files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "apps/node/verify.h"
#include "apps/node/verify_verdict.h"
#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/graph/whole_input.h"
#include "compute/partition/partition.h"

namespace wg {

template <class Prog>
VerifyVerdict verify_edges_against_oracle(const WholeInput& whole, const std::vector<EdgeResult<double>>& got,
                                          VertexId first_id) {
  VerifyVerdict v;
  v.method = VerifyVerdict::Method::kEdgeOracle;
  std::vector<EdgeResult<double>> want;
  try {
    want = Prog::edge_reference(whole.graph);
  } catch (const std::exception& e) {
    v.outcome = VerifyVerdict::Outcome::kSkipped;
    v.note = std::string("the oracle refused the graph: ") + e.what();
    return v;
  }
  const bool mapped = !whole.original_id.empty();
  auto id = [&](VertexId dense) {
    return mapped ? whole.original_id[dense] : static_cast<int64_t>(dense) + static_cast<int64_t>(first_id);
  };
  for (EdgeResult<double>& e : want) {
    const int64_t a = id(static_cast<VertexId>(e.src)), b = id(static_cast<VertexId>(e.dst));
    e.src = std::min(a, b), e.dst = std::max(a, b);
  }
  std::sort(want.begin(), want.end());
  auto text = [&](const EdgeResult<double>& e) {
    return "edge " + std::to_string(e.src) + " " + std::to_string(e.dst) + (mapped ? " (the file's own ids)" : "");
  };
  for (const EdgeResult<double>& e : got) {  // sorted: the first difference is the smallest edge
    ++v.checked;
    const auto at = std::lower_bound(want.begin(), want.end(), e);
    std::string what;
    if (at == want.end() || at->src != e.src || at->dst != e.dst)
      what = text(e) + ": not an edge of the input's undirected simple graph";
    else if (std::fabs(at->value - e.value) > Prog::kTraits.tolerance * std::fabs(at->value) + 1e-12)
      what = text(e) + ": got " + verify_detail::real_text(e.value) + ", expected " +
             verify_detail::real_text(at->value);
    else
      continue;
    if (v.differing++ == 0) v.first = what;
  }
  v.outcome = v.differing ? VerifyVerdict::Outcome::kInvalid : VerifyVerdict::Outcome::kValid;
  return v;
}

// --verify on one node, per edge: the oracle where the graph fits, else nothing
// (no invariant a node could check on its own edges).
template <class Prog>
VerifyVerdict verify_edge_run(const VerifyInput<Prog>& in, const std::vector<EdgeResult<double>>& edges) {
  const uint64_t need = oracle_memory_need(in.load, in.cfg.mapped_ids(), false, in.cfg.undirected);
  MemoryLimit limit = in.limit;
  if (in.cfg.verify_limit != 0 && in.cfg.verify_limit < limit.bytes) limit = {in.cfg.verify_limit, "--verify-limit"};
  if (need > limit.bytes) {
    VerifyVerdict v;
    v.outcome = VerifyVerdict::Outcome::kSkipped;
    v.note = "the whole graph and the oracle need up to " + format_bytes(need) + ", more than the " +
             format_bytes(limit.bytes) + " this node may use (" + limit.source + ")";
    return v;
  }
  const WholeInput whole = read_whole_input(in.input);
  return verify_edges_against_oracle<Prog>(whole, edges, in.cfg.first_id);
}

}  // namespace wg
