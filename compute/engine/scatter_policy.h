// How a worker scatters in a superstep (compute/engine/worker.h): decided by the
// worker alone, right after its apply, from its own frontier. No figure of
// another node is needed, so there is no lag and no exchange: a superstep may
// be dense on one worker and sparse on another, and the results are the same
// (a combined record is a record).
//
//   DensePays    - programs with a scalar ⊕ (PageRank, CC, BC, minlabel):
//                  dense when the frontier holds more than 4/10 of the
//                  slice's out-edges (in a settling stretch, of those not
//                  explored yet: worker/settled_destinations.h), for every
//                  program alike.
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

// A dense pass reads every in-edge that may still be used and sends one
// combined record per destination; a sparse one reads only the frontier's
// edges but sends a record for each, which costs more than reading it. So
// dense pays before nearly every edge is active: BC's two big levels on
// GAP's kron20 (P=2, from vertex 1), along ~80% of the edges, took 0.080 s
// sparse and 0.037 s dense. 4/10 was BC's own threshold; every program
// has it now. Measured with bench/ab.py at P=2 (median of 3-5 alternating
// pairs; identical binaries differ by up to 7% here): BC (4 sources,
// kron:20:16) at 6/10 took 1.50x the time of 4/10, at 2/10 1.09x; at
// kron:22:16, against the 9/10 they had, 4/10 took minlabel 0.94x the time
// (0.86x the CPU) and CC 0.82x (1.04x the CPU).
// Gemini switches at 1/20, but its dense mode can stop a pull early. SSSP
// (delta-stepping) stays sparse and BFS has BeamerSwitch: at 1/20 or 1/2 on
// kron:20:16 they ran 0.72-0.90x as fast.
struct DensePays {
  static constexpr uint64_t kDenseTenths = 4;
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
