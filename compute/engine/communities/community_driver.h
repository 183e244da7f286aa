// The community service (community_service.h) for one program
// (compute/engine/capabilities/communities.h): each vertex's choice with the
// program's gain inlined. It is the driver of every program that declares
// kCommunities (DriverProgramModel, compute/engine/program_model.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/capabilities/communities.h"
#include "compute/engine/communities/community_service.h"
#include "compute/engine/engine_options.h"
#include "compute/engine/lcore_layout.h"

namespace wg {

template <class Prog>
class CommunityDriver final : public CommunityService {
 public:
  using Value = typename Prog::Value;
  static constexpr DriverFootprint kFootprint = CommunityService::kFootprint;

  CommunityDriver(const EngineOptions&, Dataplane& dp, const LocalGraph& g, const LcoreLayout& layout)
      : CommunityService(Prog::kCommunities, dp, g, layout.workers()) {}

  // Per slot: the smallest global id of the vertex's community.
  const std::vector<Value>& values() const { return labels(); }

 private:
  // The community of the largest gain among the vertex's own and its
  // neighbours' (the smallest global id among equals; the vertex's own wins a tie),
  // from the partition the round started from.
  uint32_t choose(uint32_t i) override {
    const uint32_t key = live_[i];
    const uint32_t own = community_[key];
    const double degree = degree_[i];
    if (++choice_ == 0) std::fill(seen_in_.begin(), seen_in_.end(), 0), choice_ = 1;  // the marks wrapped
    std::vector<uint32_t>& seen = candidates_;
    seen.clear();
    for (uint64_t e = first_edge(i); e < end_edge(i); ++e) {
      const uint32_t u = neighbour_[e];
      if (u == key) continue;  // a self-loop moves with the vertex
      const uint32_t c = community_[u];
      if (seen_in_[c] != choice_) seen_in_[c] = choice_, weight_to_[c] = 0, seen.push_back(c);
      weight_to_[c] += weight_[e];
    }
    const double into_own = seen_in_[own] == choice_ ? weight_to_[own] : 0.0;
    double best_gain = Prog::gain(into_own, total_[own] - degree, degree, two_m_);
    uint32_t best = own;
    const bool alone = members_[own] == 1;
    for (const uint32_t c : seen) {
      if (c == own) continue;
      if (alone && members_[c] == 1 && id_of_key_[c] > id_of_key_[own]) continue;  // two lone vertices do not swap
      const double g = Prog::gain(weight_to_[c], total_[c], degree, two_m_);
      if (g > best_gain || (g == best_gain && best != own && id_of_key_[c] < id_of_key_[best])) best_gain = g, best = c;
    }
    return best;
  }
  double quality(double inside, double squares, double two_m) const override {
    return Prog::quality(inside, squares, two_m);
  }

  std::vector<uint32_t> candidates_;
};

}  // namespace wg
