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

uint64_t SuperstepLedger::progress(uint32_t s) const {
  uint64_t sum = 0;
  for (const PeerSlots& p : peers_) {
    const Slot& sl = p.slot[s & 1];
    if (sl.superstep == s) sum += sl.buckets + sl.records + sl.end_seen;
  }
  return sum;
}

std::string SuperstepLedger::missing(uint32_t s) const {
  std::string out;
  const std::string step = std::to_string(s);
  for (unsigned p = 0; p < peers_.size(); ++p) {
    if (p == my_rank_) continue;
    const Slot& sl = slot(p, s);
    const uint64_t buckets = sl.superstep == s ? sl.buckets : 0, records = sl.superstep == s ? sl.records : 0;
    const std::string arrived = std::to_string(buckets) + " buckets and " + std::to_string(records) + " records";
    std::string what;
    if (sl.superstep != s || !sl.end_seen)
      what = "no END(" + step + ") yet, " + arrived + " so far";
    else if (buckets != sl.end.buckets_to_dst || records != sl.end.messages_to_dst)
      what = "its END(" + step + ") announced " + std::to_string(sl.end.buckets_to_dst) + " buckets and " +
             std::to_string(sl.end.messages_to_dst) + " records, " + arrived + " arrived";
    else
      continue;
    out += (out.empty() ? "node " : "; node ") + std::to_string(p) + ": " + what;
  }
  return out;
}

}  // namespace wg
