#include "reliability/progress_watch.h"

#include <cstdio>

namespace wg {

bool ProgressWatch::stalled(int64_t superstep, uint64_t mark, double now) {
  if (superstep != superstep_ || mark != mark_) {
    superstep_ = superstep;
    mark_ = mark;
    since_ = now;
    return false;
  }
  return superstep >= 0 && now - since_ > limit_;
}

std::string describe_stall(const SuperstepLedger& ledger, uint32_t superstep, const std::string& label,
                           uint64_t local_folded, uint64_t local_expected, double seconds) {
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", seconds);
  std::string what = ledger.missing(superstep);
  if (local_folded != local_expected)
    what += (what.empty() ? "" : "; ") + std::string("this node's own records: ") + std::to_string(local_folded) +
            " of " + std::to_string(local_expected) + " folded";
  return label + " made no progress for " + limit +
         " s (--progress-timeout) while every peer is alive: " + (what.empty() ? "nothing missing" : what) +
         " (a frame lost for good, counts that can never be met, another job's frames on the segment, or a peer "
         "stuck in turn waiting for another)";
}

}  // namespace wg
