// Which node keeps an original id's entry while the loader maps sparse ids
// to dense ones (compute/load/graph_loader_ids.cc), and how the sparse-id inputs
// choose it:
//   - Graphalytics graphs: hash(id) mod P. A vertex's dense id comes from its
//     line in NAME.v, so any spread of the ids over the nodes does.
//   - edge lists under --ids sparse: the vertices are the distinct ids the
//     edges name and a vertex's dense id is its id's rank among them, so the
//     numbering is the ids' order, the same for every P (a CDLP tie, a WCC
//     label, a top-k tie resolve alike at every P). Each directory node keeps
//     one range of the id space; the P - 1 splitters come from a uniform
//     sample of the distinct ids: every worker sends every node the kSample
//     ids of its own with the smallest sample_key (a bijection, so no ties),
//     and the kSample smallest of their union are the kSample smallest of
//     all distinct ids: a sample without replacement, whatever the number of
//     workers or how often an id repeats across them. Every node computes the
//     same splitters from the same records.
// Pure logic: unit-tested without DPDK (tests/test_id_directory.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/id_table.h"

namespace wg::ids {

// Samples per worker. Directory r then holds V/P ids give or take about
// sqrt(P/kSample) of that (3% at P = 4, 12% at P = 64), and each node
// receives kSample records of 12 bytes per worker of the cluster.
inline constexpr size_t kSample = 4096;

// Graphalytics' directory node of `id`. A multiplicative hash: ids of a
// Graphalytics graph often share residues mod P (datagen steps by powers of two).
inline unsigned hash_directory(int64_t id, unsigned nodes) {
  const uint64_t h = static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ULL;
  return static_cast<unsigned>((h >> 32) % nodes);
}

// The sampling order: a bijection of 64-bit words that spreads ids in
// arithmetic progressions (id * 1000003 + 7) evenly.
inline uint64_t sample_key(int64_t id) { return splitmix64(static_cast<uint64_t>(id)); }

// The (at most) k ids of `ids` with the smallest sample_key, in no order.
std::vector<int64_t> bottom_k(const IdTable& ids, size_t k);

// The P - 1 splitters (ascending) from every worker's bottom_k, repeats
// allowed: the k smallest keys of their union, sorted by id, cut in P equal
// parts. Empty for P = 1 or no samples.
std::vector<int64_t> choose_splitters(std::vector<int64_t> samples, size_t k, unsigned nodes);

// The directory node of `id`: how many splitters are <= id.
inline unsigned range_directory(std::span<const int64_t> splitters, int64_t id) {
  size_t lo = 0, hi = splitters.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (splitters[mid] <= id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return static_cast<unsigned>(lo);
}

}  // namespace wg::ids
