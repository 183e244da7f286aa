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
  void reset() { idle_ = 0; }
  void wait() {
    ++idle_;
    if (idle_ < kSpin) {
      rte_pause();
    } else if (idle_ < kYield) {
      sched_yield();
    } else {
      const timespec ts{0, kSleepNs};
      nanosleep(&ts, nullptr);
    }
  }

 private:
  static constexpr unsigned kSpin = 16;
  static constexpr unsigned kYield = 2048;
  static constexpr long kSleepNs = 50'000;
  unsigned idle_ = 0;
};

}  // namespace wg
