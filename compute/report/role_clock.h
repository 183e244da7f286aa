// Where an lcore's time goes, by role, for the per-superstep time breakdown
// in the run report (and bench/report.py's "time by role" plot):
//   apply    - the workers' apply over their slice
//   scatter  - building records: the per-edge loop or the dense pull, and
//              writing (or, on a shared lcore, folding) them
//   network  - transport passes that moved something: send, receive, acks,
//              folding received records into Σ
//   wait     - idle back-off and empty polls: the end of a superstep, an
//              empty mbuf pool, a slower peer
//
// One clock per lcore, written only by that lcore, and only when its role
// changes (one rte_rdtsc each, never per record). Other lcores read the
// totals with relaxed loads: a reading lags by the phase in progress.
#pragma once

#include <rte_cycles.h>

#include <array>
#include <atomic>
#include <cstdint>

namespace wg {

enum class Role : unsigned { kApply, kScatter, kNetwork, kWait };
inline constexpr unsigned kRoles = 4;

inline const char* role_name(Role r) {
  static constexpr const char* kNames[kRoles] = {"apply", "scatter", "network", "wait"};
  return kNames[static_cast<unsigned>(r)];
}

using RoleCycles = std::array<uint64_t, kRoles>;

class alignas(64) RoleClock {
 public:
  // Charges the time since the last switch to the current role, then makes
  // `r` current. Returns the role it replaces.
  Role switch_to(Role r) {
    charge(current_);
    const Role was = current_;
    current_ = r;
    return was;
  }
  // Charges the time since the last switch to `r`; the current role stays.
  void charge(Role r) {
    const uint64_t now = rte_rdtsc();
    std::atomic<uint64_t>& c = cycles_[static_cast<unsigned>(r)];
    c.store(c.load(std::memory_order_relaxed) + (now - since_), std::memory_order_relaxed);
    since_ = now;
  }
  Role current() const { return current_; }
  // Any lcore.
  void add_to(RoleCycles& sum) const {
    for (unsigned i = 0; i < kRoles; ++i) sum[i] += cycles_[i].load(std::memory_order_relaxed);
  }

 private:
  std::array<std::atomic<uint64_t>, kRoles> cycles_{};
  uint64_t since_ = rte_rdtsc();
  Role current_ = Role::kWait;
};

}  // namespace wg
