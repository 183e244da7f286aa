// How a worker scatters in a superstep (compute/engine/worker.h): decided by the
// worker alone, right after its apply, from its own frontier. No figure of
// another node is needed, so there is no lag and no exchange: a superstep may
// be dense on one worker and sparse on another, and the results are the same
// (a combined record is a record).
//
//   DensePays    - programs with a scalar ⊕ (PageRank, SSSP, CC): dense when
//                  the frontier holds more than 9/10 of the slice's out-edges
//                  (a program may say another fraction: kDenseTenths, BC's 4).
//   BeamerSwitch - level-synchronous programs (BFS): Beamer's
//                  direction-optimizing rule with GAP's constants, on the
//                  slice's figures: bottom-up once the frontier's out-edges
//                  exceed 1/alpha of the edges no frontier has scattered yet
//                  (GAP's edges_to_check), top-down again once the frontier
//                  shrinks below 1/beta of the slice's vertices.
#pragma once

#include <algorithm>
#include <cstdint>

namespace wg {

// Gemini switches at 1/20, but its dense mode can stop a pull early; here a
// dense pass reads every edge, and on kron:20:16 (P=2) SSSP and BFS ran
// 0.72-0.90x as fast with the switch at 1/20 or 1/2, while PageRank and CC
// (all or nearly all active) ran 1.7-2.5x faster.
struct DensePays {
  static constexpr uint64_t kDenseTenths = 9;
  static bool dense(uint64_t active_edges, uint64_t slice_edges, uint64_t tenths = kDenseTenths) {
    return active_edges * 10 > slice_edges * tenths;
  }
};

class BeamerSwitch {
 public:
  static constexpr uint64_t kAlpha = 15;  // GAP's bfs.cc defaults
  static constexpr uint64_t kBeta = 18;

  explicit BeamerSwitch(uint64_t slice_edges = 0) : unexplored_(slice_edges) {}

  // After apply: true when this superstep should go bottom-up.
  bool bottom_up(uint64_t active, uint64_t active_edges, uint64_t slice_vertices) {
    if (bottom_up_) {
      // Leaving: this superstep is top-down whatever its edges (GAP's scout_count = 1).
      if (active < last_active_ && active <= slice_vertices / kBeta) bottom_up_ = false;
    } else if (active_edges > unexplored_ / kAlpha) {
      bottom_up_ = true;
    }
    if (!bottom_up_) unexplored_ -= std::min(unexplored_, active_edges);
    last_active_ = active;
    return bottom_up_;
  }

 private:
  uint64_t unexplored_;
  uint64_t last_active_ = 0;
  bool bottom_up_ = false;
};

}  // namespace wg
