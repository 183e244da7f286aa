#include "reliability/superstep_ledger.h"

namespace wg {

void SuperstepLedger::open(uint32_t s) {
  for (PeerSlots& p : peers_) {
    p.slot[s & 1] = Slot{};
    p.slot[s & 1].superstep = s;
  }
}

bool SuperstepLedger::on_data(unsigned peer, uint32_t s, uint32_t n) {
  Slot& sl = slot(peer, s);
  if (sl.superstep != s) return false;
  ++sl.buckets;
  sl.records += n;
  return true;
}

bool SuperstepLedger::on_end(unsigned peer, uint32_t s, const wire::EndPayload& end) {
  Slot& sl = slot(peer, s);
  if (sl.superstep != s || sl.end_seen) return false;
  sl.end_seen = true;
  sl.end = end;
  return true;
}

bool SuperstepLedger::complete(uint32_t s) const { return first_incomplete_peer(s) < 0; }

int SuperstepLedger::first_incomplete_peer(uint32_t s) const {
  for (unsigned p = 0; p < peers_.size(); ++p) {
    if (p == my_rank_) continue;
    const Slot& sl = slot(p, s);
    if (sl.superstep != s || !sl.end_seen || sl.buckets != sl.end.buckets_to_dst ||
        sl.records != sl.end.messages_to_dst)
      return static_cast<int>(p);
  }
  return -1;
}

int SuperstepLedger::first_overfull_peer(uint32_t s) const {
  for (unsigned p = 0; p < peers_.size(); ++p) {
    const Slot& sl = slot(p, s);
    if (p != my_rank_ && sl.superstep == s && sl.end_seen &&
        (sl.buckets > sl.end.buckets_to_dst || sl.records > sl.end.messages_to_dst))
      return static_cast<int>(p);
  }
  return -1;
}

}  // namespace wg
