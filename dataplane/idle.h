// Back-off for polling loops with nothing to do. Several node processes (and
// lcores) share each CPU in a local cluster: a poller that spins starves its
// peers (MACHINE-NOTES: 0.126 M frames/s busy-polling vs 3.2 M yielding), so
// an idle loop pauses briefly, then yields, then sleeps.
#pragma once

#include <rte_pause.h>
#include <sched.h>
#include <time.h>

namespace wg {

class IdleBackoff {
 public:
  // `sleep_ns`: the pause once yielding has not helped. Loops that wait for
  // something rare (the hellos of nodes still starting) sleep longer: dozens
  // of starting nodes share the CPUs and every wake-up is taken from them.
  explicit IdleBackoff(long sleep_ns = kSleepNs) : sleep_ns_(sleep_ns) {}
  void reset() { idle_ = 0; }
  void wait() {
    ++idle_;
    if (idle_ < kSpin) {
      rte_pause();
    } else if (idle_ < kYield) {
      sched_yield();
    } else {
      const timespec ts{0, sleep_ns_};
      nanosleep(&ts, nullptr);
    }
  }

 private:
  static constexpr unsigned kSpin = 16;
  static constexpr unsigned kYield = 2048;
  static constexpr long kSleepNs = 50'000;
  long sleep_ns_;
  unsigned idle_ = 0;
};

}  // namespace wg
