// Graph500/GAP-style Kronecker (R-MAT) generator.
#pragma once

#include <cstdint>
#include <functional>

#include "compute/graph/edge_list.h"

namespace wg {

struct KroneckerSpec {
  unsigned scale = 16;     // 2^scale vertices
  unsigned degree = 16;    // edges per vertex: |E| = degree * 2^scale
  uint64_t seed = 27491095;  // GAP's kRandSeed
};

// Parses "kron:SCALE:DEGREE[:SEED]"; throws GraphError (file "<spec>") on a bad spec.
KroneckerSpec parse_kronecker_spec(const std::string& spec);
// --vertices N (0: not given) against the generator's 2^SCALE; throws
// GraphError (file "<spec>") when they differ.
void check_generated_vertices(const std::string& spec, const KroneckerSpec& k, uint64_t vertices);

// Deterministic for a given spec (independent of thread count): quadrant
// probabilities A, B, C = 0.57, 0.19, 0.19 (D = 0.05), vertex ids permuted by a
// seeded shuffle so that degree does not follow id, integer weights in
// [1, 255]. Directed edges as generated (duplicates and self-loops kept, as in
// Graph500/GAP before symmetrising).
EdgeList generate_kronecker(const KroneckerSpec& spec);

// The same graph as independent blocks of edges: edge i is a function of the
// seed and i alone (block i / kBlockEdges, seeded by its index), so any
// split of the blocks over nodes and threads yields the same edges, and a
// node generates only its share (compute/load/graph_loader.h).
class KroneckerGenerator {
 public:
  static constexpr uint64_t kBlockEdges = uint64_t{1} << 16;
  // The R-MAT quadrant probabilities (D = 1 - A - B - C): a source bit is 0
  // with A + B, a target bit with A + C (the memory estimate's degrees).
  static constexpr double kA = 0.57, kB = 0.19, kC = 0.19;

  explicit KroneckerGenerator(const KroneckerSpec& spec);  // throws GraphError on a bad spec
  VertexId num_vertices() const { return static_cast<VertexId>(uint64_t{1} << spec_.scale); }
  uint64_t num_edges() const { return (uint64_t{1} << spec_.scale) * spec_.degree; }
  uint64_t num_blocks() const { return (num_edges() + kBlockEdges - 1) / kBlockEdges; }

  // Blocks [begin, end).
  struct BlockRange {
    uint64_t begin = 0, end = 0;
    // Part i of n: the n parts in order are this range, each block in one
    // part; no part is empty while n <= the blocks.
    BlockRange part(unsigned i, unsigned n) const {
      return {begin + (end - begin) * i / n, begin + (end - begin) * (i + 1) / n};
    }
  };
  // Node `rank` of `nodes` generates these blocks (compute/load/graph_loader.cc),
  // its workers a part each.
  BlockRange share(unsigned rank, unsigned nodes) const { return BlockRange{0, num_blocks()}.part(rank, nodes); }
  // Writes block b's edges to out (room for kBlockEdges) and returns how many.
  uint64_t block(uint64_t b, Edge* out) const;
  // The same edges kChunkEdges at a time into out (room for kChunkEdges),
  // each chunk handed to `sink` before the next is made: a shared lcore's
  // network passes run between chunks (a whole block takes milliseconds,
  // long enough for the peers' timers to take the silence for loss).
  static constexpr uint64_t kChunkEdges = 4096;
  void block_in_chunks(uint64_t b, Edge* out, const std::function<void(const Edge*, uint64_t)>& sink) const;

 private:
  uint64_t edges_in_block(uint64_t b) const;  // kBlockEdges, fewer in the last block, 0 past it

  KroneckerSpec spec_;
};

}  // namespace wg
