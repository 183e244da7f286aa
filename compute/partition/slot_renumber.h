// Renumbers a node's part of the graph, built with slot = id / P (k = 1), to
// new slots given per node (--vertex-order degree, compute/partition/slot_map.h), in
// place: targets through the destination node's table, each block's sources
// re-sorted by their new slot (their edges moving with them, in their
// order), and the per-slot vectors permuted. The loader first rebuilt the
// whole CSR from global ids (build_out_edges, as K > 1 needs): on GAP's
// kron20 at P=2 that doubled the build, 0.5 to 1.0 s per node; this costs
// one pass over the targets and one copy of each block, made half at a time
// (detail::move_runs).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compute/partition/partition.h"

namespace wg {

// Passes of a block's renumbering (detail::move_runs). Two hold half a block
// twice, which stays under the build's peak (the held edges beside the
// counting sort: compute/engine/memory_budget.h); four cost PageRank's load on
// kron:22:16 --undirected at P=2 0.07 s more for nothing (3 runs each).
inline constexpr unsigned kRenumberPasses = 2;

namespace detail {

// Fills r's edge arrays (its sources and offsets set) with b's runs:
// r's run j is b's run from_index[j], and to_index the inverse. The runs are
// gathered in kPasses passes, each taking the new sources of about an equal
// share of the edges; after each, the runs left in b move to its front and
// the pages behind them go back to the kernel (discard_pages), while r's
// pages become resident as they are written (its arrays are not zeroed
// first): b and r hold a pass's edges twice, not the block's. PageRank on
// kron:22:16 --undirected at P=2 (slots by degree): a node's RSS rose by a
// block, 130 MB, above what it held after. b's offsets are left meaningless.
inline void move_runs(EdgeBlock& b, EdgeBlock& r, const std::vector<uint32_t>& from_index,
                      const std::vector<uint32_t>& to_index) {
  constexpr unsigned kPasses = kRenumberPasses;
  const uint64_t edges = r.offsets.back();
  const bool weighted = !b.weights.empty(), real = !b.real_weights.empty();
  r.targets.resize(edges);
  r.weights.resize(b.weights.size());
  r.real_weights.resize(b.real_weights.size());
  auto run_length = [&](size_t i) { return r.offsets[to_index[i] + 1] - r.offsets[to_index[i]]; };
  size_t j = 0;
  for (unsigned k = 0; k < kPasses; ++k) {
    const size_t end = k + 1 == kPasses ? from_index.size()
                                        : std::lower_bound(r.offsets.begin() + j, r.offsets.end() - 1,
                                                           (k + 1) * edges / kPasses) - r.offsets.begin();
    for (; j < end; ++j) {
      const uint64_t from = b.offsets[from_index[j]], to = r.offsets[j], len = r.offsets[j + 1] - to;
      std::copy_n(b.targets.data() + from, len, r.targets.data() + to);
      if (weighted) std::copy_n(b.weights.data() + from, len, r.weights.data() + to);
      if (real) std::copy_n(b.real_weights.data() + from, len, r.real_weights.data() + to);
    }
    if (k + 1 == kPasses) break;
    uint64_t kept = 0;
    for (size_t i = 0; i < b.sources.size(); ++i) {  // runs stay in b's order: each moves down, if at all
      const uint64_t from = b.offsets[i];
      b.offsets[i] = kept;
      if (to_index[i] < j) continue;  // gathered
      const uint64_t len = run_length(i);
      if (kept == from) {
        kept += len;
        continue;
      }
      std::copy(b.targets.data() + from, b.targets.data() + from + len, b.targets.data() + kept);
      if (weighted) std::copy(b.weights.data() + from, b.weights.data() + from + len, b.weights.data() + kept);
      if (real)
        std::copy(b.real_weights.data() + from, b.real_weights.data() + from + len, b.real_weights.data() + kept);
      kept += len;
    }
    discard_pages(b.targets, kept, b.targets.size());
    discard_pages(b.weights, kept, b.weights.size());
    discard_pages(b.real_weights, kept, b.real_weights.size());
  }
}

}  // namespace detail

// new_slot[p][i]: the new slot of node p's vertex with local index i (id
// i * P + p); each node's table must be a permutation of its local indices.
// g must be node g.rank's part with one domain and slots = local indices.
inline void renumber_slots(LocalGraph& g, const std::vector<std::vector<uint32_t>>& new_slot) {
  const unsigned nodes = g.partition.nodes;
  if (g.domains != 1 || g.blocks.size() != nodes || new_slot.size() != nodes || !g.global_of.empty())
    throw std::logic_error("renumber_slots: a graph numbered by id, one domain, and a table per node");
  for (unsigned p = 0; p < nodes; ++p) {
    const uint32_t n = g.partition.local_count(p, g.num_vertices);
    if (new_slot[p].size() != n)
      throw std::runtime_error("node " + std::to_string(p) + "'s slot table has " +
                               std::to_string(new_slot[p].size()) + " entries, not " + std::to_string(n));
    std::vector<bool> seen(n, false);
    for (uint32_t s : new_slot[p]) {
      if (s >= n || seen[s])
        throw std::runtime_error("node " + std::to_string(p) + "'s slot table gives slot " + std::to_string(s) +
                                 (s >= n ? " (it has " + std::to_string(n) + " vertices)" : " twice"));
      seen[s] = true;
    }
  }
  const std::vector<uint32_t>& own = new_slot[g.rank];
  const uint32_t n = g.num_local;
  std::vector<uint32_t> old_of(n);  // new slot -> local index
  for (uint32_t i = 0; i < n; ++i) old_of[own[i]] = i;
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> position(n, kNone);  // local index -> its index in the block's sources
  // The out-edge blocks, and the in-edge blocks of a program that reads them
  // (their sources are this node's vertices and their targets other nodes', alike).
  for (std::vector<EdgeBlock>* blocks : {&g.blocks, &g.in_blocks}) {
    if (blocks->empty()) continue;
    for (unsigned p = 0; p < nodes; ++p) {
      EdgeBlock& b = (*blocks)[p];
      const std::vector<uint32_t>& to = new_slot[p];
      for (uint32_t& t : b.targets) t = to[t];
      for (size_t i = 0; i < b.sources.size(); ++i) position[b.sources[i]] = static_cast<uint32_t>(i);
      // The new block's sources in their new order, and for each the index
      // of its run in b (from_index) and back (to_index).
      EdgeBlock r;
      r.sources.reserve(b.sources.size());
      r.offsets.reserve(b.offsets.size());
      r.offsets.push_back(0);
      std::vector<uint32_t> from_index, to_index(b.sources.size());
      from_index.reserve(b.sources.size());
      for (uint32_t s = 0; s < n; ++s) {
        const uint32_t i = position[old_of[s]];
        if (i == kNone) continue;
        to_index[i] = static_cast<uint32_t>(r.sources.size());
        from_index.push_back(i);
        r.sources.push_back(s);
        r.offsets.push_back(r.offsets.back() + (b.offsets[i + 1] - b.offsets[i]));
      }
      for (uint32_t u : b.sources) position[u] = kNone;
      detail::move_runs(b, r, from_index, to_index);
      b = std::move(r);
    }
  }
  auto permute = [&](auto& v) {
    if (v.empty()) return;
    auto out = v;
    for (uint32_t i = 0; i < n; ++i) out[own[i]] = v[i];
    v = std::move(out);
  };
  permute(g.out_degree);
  permute(g.in_degree);
  permute(g.original_id);
  g.global_of.resize(n);
  for (uint32_t i = 0; i < n; ++i) g.global_of[own[i]] = g.partition.global_id(g.rank, i);
}

}  // namespace wg
