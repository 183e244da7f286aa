// Bounded progress: a superstep that receives nothing for a while although
// every peer answers (keepalives keep coming, so no peer is declared dead)
// would otherwise wait forever: an END announcing more than was ever sent, a
// frame acked but unusable, a stranger's frame. The runtime feeds the watch
// from its idle waits and ends the run with describe_stall()'s error.
//
// The clock is the caller's (seconds, any origin), so the logic is tested
// without waiting. Owner: the network role (it also owns the ledger).
#pragma once

#include <cstdint>
#include <string>

#include "reliability/superstep_ledger.h"

namespace wg {

class ProgressWatch {
 public:
  explicit ProgressWatch(double limit_seconds) : limit_(limit_seconds) {}

  // `superstep` is the one being waited for (-1: none), `mark` anything that
  // grows whenever something for it arrives (SuperstepLedger::progress plus
  // same-node records folded), `now` the time in seconds. True once the mark
  // has not moved for more than the limit while the same superstep is awaited.
  bool stalled(int64_t superstep, uint64_t mark, double now);

  double limit() const { return limit_; }

 private:
  double limit_;
  int64_t superstep_ = -1;
  uint64_t mark_ = 0;
  double since_ = 0;  // when the mark last moved (or the superstep began to be awaited)
};

// The error: which superstep (`label` names it as people know it: its phase
// and the phase's superstep), for how long, and what is missing from whom
// (SuperstepLedger::missing, by the superstep's epoch) and of this node's
// own records.
std::string describe_stall(const SuperstepLedger& ledger, uint32_t superstep, const std::string& label,
                           uint64_t local_folded, uint64_t local_expected, double seconds);

}  // namespace wg
