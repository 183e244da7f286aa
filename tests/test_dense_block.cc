// The destination-major copy of a block (compute/engine/dense_block.h)
// against a plain grouping of the block's edges by (segment, destination),
// and the copy made from a block it consumes (a program that only pulls:
// compute/engine/engine.h) against the copy made from one it leaves whole.
#include "compute/engine/dense_block.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/kronecker.h"
#include "compute/partition/partition.h"

namespace wg {
namespace {

// The slices of `workers` workers over a block's sources: [first, last)
// indices into b.sources, contiguous, by equal runs of local vertices.
std::vector<std::pair<size_t, size_t>> slices_of(const EdgeBlock& b, uint32_t num_local, unsigned workers,
                                                 std::vector<uint32_t>* lo) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t first = 0;
  for (unsigned w = 0; w < workers; ++w) {
    const uint32_t from = static_cast<uint32_t>(uint64_t{num_local} * w / workers);
    const uint32_t to = static_cast<uint32_t>(uint64_t{num_local} * (w + 1) / workers);
    size_t last = first;
    while (last < b.sources.size() && b.sources[last] < to) ++last;
    out.push_back({first, last});
    lo->push_back(from);
    first = last;
  }
  return out;
}

// The copy a reference builds: for each (segment, destination) in that
// order, the sources with an edge to it, ascending, and their weights.
struct Flat {
  std::vector<uint32_t> targets, sources, weights;
  std::vector<uint64_t> sizes;
};
Flat reference(const EdgeBlock& b, size_t first, size_t last, uint32_t lo, uint32_t per) {
  std::map<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> lists;
  for (size_t i = first; i < last; ++i)
    for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e)
      lists[{(b.sources[i] - lo) / per, b.targets[e]}].push_back({b.sources[i], b.weights.empty() ? 0 : b.weights[e]});
  Flat f;
  for (const auto& [key, list] : lists) {
    f.targets.push_back(key.second);
    f.sizes.push_back(list.size());
    for (const auto& [s, w] : list) {
      f.sources.push_back(s);
      f.weights.push_back(w);
    }
  }
  return f;
}
Flat flatten(const DenseBlock& d, bool weights) {
  Flat f;
  f.targets = d.targets;
  for (size_t j = 0; j < d.targets.size(); ++j) f.sizes.push_back(d.offsets[j + 1] - d.offsets[j]);
  f.sources.assign(d.sources.begin(), d.sources.end());
  if (weights)
    f.weights.assign(d.weights.begin(), d.weights.end());
  else
    f.weights.assign(d.sources.size(), 0);
  return f;
}

// Every worker's copy, segments of 1, 7 and 64 sources and one for the
// slice, with and without weights, on a Kronecker graph and its nodes at
// P = 1..3: the copy equals the reference's grouping, and the copy built
// while consuming the block (worker after worker, as the engine builds
// them) equals it too.
TEST(DenseBlock, CopiesMatchAPlainGroupingAndConsumingChangesNothing) {
  const EdgeList g = generate_kronecker(parse_kronecker_spec("kron:10:8"));
  for (const bool weights : {false, true})
    for (unsigned P : {1u, 2u, 3u})
      for (unsigned workers : {1u, 3u})
        for (uint32_t per : {1u, 7u, 64u, UINT32_MAX}) {
          const LocalGraph lg = build_local_graph(g, P, 0, weights);
          for (size_t group = 0; group < lg.blocks.size(); ++group) {
            SCOPED_TRACE("weights " + std::to_string(weights) + ", P = " + std::to_string(P) + ", " +
                         std::to_string(workers) + " workers, " + std::to_string(per) + " sources a segment, group " +
                         std::to_string(group));
            const EdgeBlock& whole = lg.blocks[group];
            EdgeBlock spent = whole;
            std::vector<uint32_t> lo;
            const auto slices = slices_of(whole, lg.num_local, workers, &lo);
            uint64_t copied = 0;
            for (unsigned w = 0; w < workers; ++w) {
              const auto [first, last] = slices[w];
              const DenseBlock kept = build_dense_block(whole, first, last, weights, lo[w], per);
              const DenseBlock consumed = build_dense_block(spent, first, last, weights, lo[w], per, &spent);
              const Flat want = reference(whole, first, last, lo[w], per);
              const Flat got = flatten(kept, weights), got_consumed = flatten(consumed, weights);
              EXPECT_EQ(got.targets, want.targets) << "worker " << w;
              EXPECT_EQ(got.sizes, want.sizes) << "worker " << w;
              EXPECT_EQ(got.sources, want.sources) << "worker " << w;
              EXPECT_EQ(got.weights, want.weights) << "worker " << w;
              EXPECT_EQ(got_consumed.targets, want.targets) << "worker " << w << ", consumed";
              EXPECT_EQ(got_consumed.sizes, want.sizes) << "worker " << w << ", consumed";
              EXPECT_EQ(got_consumed.sources, want.sources) << "worker " << w << ", consumed";
              EXPECT_EQ(got_consumed.weights, want.weights) << "worker " << w << ", consumed";
              // The next worker starts where this one ended, whatever the copy did to the range.
              EXPECT_EQ(spent.offsets[last], whole.offsets[last]) << "worker " << w;
              copied += consumed.num_edges();
            }
            EXPECT_EQ(copied, whole.num_edges());
          }
        }
}

}  // namespace
}  // namespace wg
