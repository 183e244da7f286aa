// NUMA placement of per-domain data: allocations made inside a
// PreferredDomain scope land on that NUMA node (first touch happens in the
// constructors that run inside it). On a machine with fewer real domains
// than the logical ones asked for (--domains K above the machine's), there
// is nothing to place and the scope does nothing.
#pragma once

#include <numa.h>
#include <numaif.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace wg {

// True when logical domain `domain` is a real NUMA node of this machine (and
// there is more than one: on one node there is nothing to place).
inline bool is_real_domain(unsigned domain) {
  return numa_available() >= 0 && numa_num_configured_nodes() > 1 &&
         static_cast<int>(domain) < numa_num_configured_nodes();
}

// Moves the whole pages of [p, p + bytes) to NUMA node `domain`: for a slice
// of an array shared by all domains (vertex values, active flags), which the
// constructor touched first. The pages at the ends, shared with a neighbouring
// slice, stay where they are.
inline void place_on_domain(const void* p, size_t bytes, unsigned domain) {
  if (!is_real_domain(domain) || bytes == 0) return;
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + bytes) / page * page;
  if (hi <= lo) return;
  bitmask* nodes = numa_allocate_nodemask();
  numa_bitmask_setbit(nodes, domain);
  // Best effort, like first touch: a page that cannot move stays put.
  (void)mbind(reinterpret_cast<void*>(lo), hi - lo, MPOL_PREFERRED, nodes->maskp, nodes->size + 1, MPOL_MF_MOVE);
  numa_free_nodemask(nodes);
}

class PreferredDomain {
 public:
  explicit PreferredDomain(unsigned domain) {
    active_ = is_real_domain(domain);
    if (active_) numa_set_preferred(static_cast<int>(domain));
  }
  ~PreferredDomain() {
    if (active_) numa_set_localalloc();
  }
  PreferredDomain(const PreferredDomain&) = delete;
  PreferredDomain& operator=(const PreferredDomain&) = delete;

 private:
  bool active_ = false;
};

}  // namespace wg
