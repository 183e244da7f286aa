// Which lcore runs which role (compute/runtime.h):
//   workers     - apply + scatter for a slice of the vertices
//   network     - sender and accumulators (Transport send/receive, folds)
//   coordinator - the superstep loop; always the main lcore, also worker 0
// With one EAL lcore, or --roles shared, every role runs in turn on the main
// lcore; otherwise the last lcore is the network lcore and every other one a
// worker.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compute/partition.h"

namespace wg {

struct LcoreLayout {
  bool split = false;                 // the network role has an lcore of its own
  unsigned network_lcore = 0;         // when split
  std::vector<unsigned> worker_lcores;  // worker i runs on worker_lcores[i]; [0] is the main lcore

  unsigned workers() const { return static_cast<unsigned>(worker_lcores.size()); }
  // "lcore 0: coordinator, worker 0; lcore 1: sender, accumulators of 2 domain(s)"
  std::string describe(unsigned domains) const;
};

// From the EAL's lcores (EAL must be initialised).
LcoreLayout plan_lcores(bool split_roles);

// Workers of domain d scatter domain d's vertices: with no more workers than
// domains each worker takes whole consecutive domains; with more, each
// domain's workers split it, balanced by out-edges so they finish together.
// Returns `workers` slot ranges [lo, hi).
std::vector<std::pair<uint32_t, uint32_t>> worker_slices(const LocalGraph& g, unsigned workers);

}  // namespace wg
