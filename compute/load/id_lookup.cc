#include "compute/load/id_lookup.h"

#include <algorithm>
#include <stdexcept>
#include <string>


namespace wg {

using load::LoadRecord;

IdLookup::IdLookup(Dataplane& dp, const LocalGraph& g, unsigned workers, std::vector<uint32_t> wanted)
    : SingleWriterDriver(dp, workers, g.rank, g.partition.nodes), g_(g), wanted_(std::move(wanted)) {
  std::sort(wanted_.begin(), wanted_.end());
  wanted_.erase(std::unique(wanted_.begin(), wanted_.end()), wanted_.end());
  answers_.reserve(wanted_.size());
}

void IdLookup::apply(unsigned w, const StepControl& c, const Stall&) { begin_step(w, c.superstep); }

// Superstep 0: a request (dense id, asking node) to the owner of every
// wanted id; superstep 1: the owners' answers (dense id, original id).
void IdLookup::scatter(unsigned w, const StepControl& c, const Stall& stall) {
  if (w != 0) return;
  open_records(c.epoch);
  if (c.superstep == 0) {
    for (const uint32_t d : wanted_) send(d % nodes_, LoadRecord{d, rank_, 0}, stall);
  } else {
    // This node's slot of a vertex it owns: d div P, or through global_of
    // when the slots were renumbered by NUMA domain.
    std::vector<uint32_t> slot_of;
    if (!g_.global_of.empty()) {
      slot_of.resize(g_.num_local);
      for (uint32_t s = 0; s < g_.num_local; ++s) slot_of[g_.global_of[s] / nodes_] = s;
    }
    for (const LoadRecord& r : requests_) {
      const uint32_t local = r.index / nodes_;
      if (r.index % nodes_ != rank_ || local >= g_.num_local || r.a >= nodes_ || g_.original_id.empty())
        throw std::runtime_error("a malformed id lookup (vertex " + std::to_string(r.index) + ", from node " +
                                 std::to_string(r.a) + ") arrived: corrupted frames (try --checksum on)?");
      const uint32_t slot = slot_of.empty() ? local : slot_of[local];
      const auto id = static_cast<uint64_t>(g_.original_id[slot]);
      send(r.a, LoadRecord{r.index, static_cast<uint32_t>(id), static_cast<uint32_t>(id >> 32)}, stall);
    }
    requests_.clear();
  }
  close_records();
}

bool IdLookup::fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) {
  const auto* r = reinterpret_cast<const LoadRecord*>(records);
  if (t == 0) {
    requests_.insert(requests_.end(), r, r + count);
    return true;
  }
  if (t != 1) return false;
  for (unsigned i = 0; i < count; ++i)
    answers_.push_back(Answer{r[i].index, static_cast<int64_t>(uint64_t{r[i].b} << 32 | r[i].a)});
  return true;
}

int64_t IdLookup::original(uint32_t dense) {
  if (!sorted_) {
    std::sort(answers_.begin(), answers_.end());
    sorted_ = true;
  }
  const auto it = std::lower_bound(answers_.begin(), answers_.end(), Answer{dense, 0});
  if (it == answers_.end() || it->dense != dense)
    throw std::runtime_error("no original id arrived for vertex " + std::to_string(dense));
  return it->original;
}

}  // namespace wg
