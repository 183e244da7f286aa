// How workers turn active vertices into records (compute/worker.h):
//   kSparse - one record per out-edge of every active source
//   kDense  - one record per destination, carrying the ⊕ of the messages of
//             this worker's active sources (programs with a scalar ⊕ only;
//             others always scatter sparse)
//   kAuto   - dense in supersteps where active sources hold more than 9/10
//             of the worker's out-edges, sparse otherwise (compute/worker.h
//             says why not Gemini's 1/20)
#pragma once

namespace wg {

enum class ScatterMode { kAuto, kSparse, kDense };

}  // namespace wg
