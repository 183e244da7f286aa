// Renumbers a node's part of the graph, built with slot = id / P (k = 1), to
// new slots given per node (--vertex-order degree, compute/partition/slot_map.h), in
// place: targets through the destination node's table, each block's sources
// re-sorted by their new slot (their edges moving with them, in their
// order), and the per-slot vectors permuted. The loader first rebuilt the
// whole CSR from global ids (build_out_edges, as K > 1 needs): on GAP's
// kron20 at P=2 that doubled the build, 0.5 to 1.0 s per node; this costs
// one pass over the targets and one copy of each block.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compute/partition/partition.h"

namespace wg {

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
      EdgeBlock r;
      r.sources.reserve(b.sources.size());
      r.offsets.reserve(b.offsets.size());
      r.offsets.push_back(0);
      r.targets.resize(b.targets.size());
      r.weights.resize(b.weights.size());
      r.real_weights.resize(b.real_weights.size());
      uint64_t at = 0;
      for (uint32_t s = 0; s < n; ++s) {
        const uint32_t i = position[old_of[s]];
        if (i == kNone) continue;
        const uint64_t e0 = b.offsets[i], e1 = b.offsets[i + 1];
        for (uint64_t e = e0; e < e1; ++e, ++at) {
          r.targets[at] = b.targets[e];
          if (!b.weights.empty()) r.weights[at] = b.weights[e];
          if (!b.real_weights.empty()) r.real_weights[at] = b.real_weights[e];
        }
        r.sources.push_back(s);
        r.offsets.push_back(at);
      }
      for (uint32_t u : b.sources) position[u] = kNone;
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
