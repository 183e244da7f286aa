// How workers turn active vertices into records (compute/engine/worker.h):
//   kSparse - one record per out-edge of every active source
//   kDense  - one record per destination, carrying the ⊕ of the messages of
//             this worker's active sources (programs with a scalar ⊕ only;
//             others always scatter sparse); for BFS, bottom-up steps
//   kAuto   - each worker decides after its apply (compute/engine/scatter_policy.h):
//             dense when its active sources hold more than 4/10 of its
//             out-edges; for a level-synchronous program (BFS) bottom-up
//             or top-down by Beamer's rule
#pragma once

namespace wg {

enum class ScatterMode { kAuto, kSparse, kDense };

}  // namespace wg
