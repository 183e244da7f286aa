// Graph500/GAP-style Kronecker (R-MAT) generator.
#pragma once

#include <cstdint>

#include "compute/edge_list.h"

namespace wg {

struct KroneckerSpec {
  unsigned scale = 16;     // 2^scale vertices
  unsigned degree = 16;    // edges per vertex: |E| = degree * 2^scale
  uint64_t seed = 27491095;  // GAP's kRandSeed
};

// Parses "kron:SCALE:DEGREE[:SEED]"; throws GraphError (file "<spec>") on a bad spec.
KroneckerSpec parse_kronecker_spec(const std::string& spec);

// Deterministic for a given spec (independent of thread count): quadrant
// probabilities A, B, C = 0.57, 0.19, 0.19 (D = 0.05), vertex ids permuted by a
// seeded shuffle so that degree does not follow id, integer weights in
// [1, 255]. Directed edges as generated (duplicates and self-loops kept, as in
// Graph500/GAP before symmetrising).
EdgeList generate_kronecker(const KroneckerSpec& spec);

}  // namespace wg
