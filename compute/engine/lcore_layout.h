// Which lcore runs which role (compute/engine/superstep_runtime.h):
//   workers      - apply + scatter for a slice of the vertices
//   senders      - sender role q (q = 0..K-1): the send windows of flows
//                  (*, q) and tx queue q of every port
//   accumulators - accumulator role q: rx queue q of every port, the receive
//                  windows of flows (*, q), the folds into the ranges queue q
//                  owns (compute/engine/range_plan.h)
//   coordinator  - the superstep loop; always the main lcore, also worker 0
// K = --rx-queues. Accumulator role q runs on accumulator lcore q mod A;
// sender role q on sender lcore q mod S, or with no sender lcores (S = 0)
// beside accumulator role q. Accumulator role 0 also owns membership
// (hellos, liveness) and the end of the job (FINs).
//
// --roles:
//   shared  every role in turn on the main lcore (one EAL lcore: always)
//   split   (default) with n EAL lcores: n = 2: a worker and an lcore for
//           sender and accumulator; n = 3: two workers and that lcore; n >= 4:
//           one sender lcore, (n - 2) / 2 accumulator lcores, the rest workers
//   workers=W,senders=S,accumulators=A (or w=,s=,a=): the EAL's lcores in
//           order, W + S + A of them (W >= 1, A >= 1)
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/partition/partition.h"

namespace wg {

struct LcoreLayout {
  std::vector<unsigned> worker_lcores;       // worker i runs on worker_lcores[i]; [0] is the main lcore
  std::vector<unsigned> sender_lcores;       // dedicated sender lcores (may be none)
  std::vector<unsigned> accumulator_lcores;  // none: every network role on the main lcore
  unsigned queues = 1;                       // K

  // Some role runs off the main lcore's workers: network roles have lcores of their own.
  bool split() const { return !accumulator_lcores.empty(); }
  unsigned workers() const { return static_cast<unsigned>(worker_lcores.size()); }
  unsigned accumulator_lcore(unsigned q) const {
    return split() ? accumulator_lcores[q % accumulator_lcores.size()] : worker_lcores[0];
  }
  unsigned sender_lcore(unsigned q) const {
    return sender_lcores.empty() ? accumulator_lcore(q) : sender_lcores[q % sender_lcores.size()];
  }
  // What one lcore runs of the network roles (the main lcore's are the
  // coordinator's to pump when not split).
  struct NetworkRoles {
    unsigned lcore = 0;
    std::vector<unsigned> senders, accumulators;  // queues
    bool primary = false;                         // accumulator role 0: membership, liveness, FIN
  };
  std::vector<NetworkRoles> network() const;
  // "lcore 0: coordinator, worker 0; lcore 1: senders of queues 0-1; lcore 2: accumulator of queue 0 (ranges ...)"
  std::string describe() const;
};

// From the EAL's lcores (EAL must be initialised) and --rx-queues (0: one
// per accumulator lcore). Throws std::invalid_argument naming what does not fit.
LcoreLayout plan_lcores(const RolesSpec& roles, unsigned queues);
// The same from a list of lcore ids (the main lcore first): testable without an EAL.
LcoreLayout plan_lcores(const RolesSpec& roles, unsigned queues, const std::vector<unsigned>& lcores);

// "workers=2,senders=1,accumulators=2", "split", "shared": parses --roles.
// Throws std::invalid_argument naming the bad part.
RolesSpec parse_roles(const std::string& text);
std::string describe(const RolesSpec& r);

// Workers of NUMA domain d scatter domain d's vertices: with no more workers
// than domains each worker takes whole consecutive domains; with more, each
// domain's workers split it, balanced by out-edges so they finish together.
// Returns `workers` slot ranges [lo, hi).
std::vector<std::pair<uint32_t, uint32_t>> worker_slices(const LocalGraph& g, unsigned workers);

}  // namespace wg
