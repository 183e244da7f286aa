// NUMA placement of per-domain data: allocations made inside a
// PreferredDomain scope land on that NUMA node (first touch happens in the
// constructors that run inside it). On a machine with fewer real domains
// than the logical ones asked for (--domains K above the machine's), there
// is nothing to place and the scope does nothing.
#pragma once

#include <numa.h>

namespace wg {

class PreferredDomain {
 public:
  explicit PreferredDomain(unsigned domain) {
    active_ = numa_available() >= 0 && static_cast<int>(domain) < numa_num_configured_nodes() &&
              numa_num_configured_nodes() > 1;
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
