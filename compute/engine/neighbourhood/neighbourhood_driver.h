// The neighbourhood service (neighbourhood_service.h) for one program
// (compute/engine/capabilities/neighbourhood.h): its lists counted with the
// program's hooks inlined, and its results formed from the credits. It is
// the driver of every program that declares kNeighbourhood
// (DriverProgramModel, compute/engine/program_model.h): apps/node/run_program.h
// runs it instead of Engine<Prog>.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/engine/engine_options.h"
#include "compute/engine/lcore_layout.h"
#include "compute/engine/neighbourhood/intersect.h"
#include "compute/engine/neighbourhood/neighbourhood_service.h"

namespace wg {

template <class Prog>
class NeighbourhoodDriver final : public NeighbourhoodService {
  static constexpr Neighbourhood kKind = Prog::kNeighbourhood;
  static constexpr bool kDirected = kKind.lists == Neighbourhood::Lists::kDirected;
  static constexpr bool kEdges = kKind.credits == Neighbourhood::Credits::kEdges;

 public:
  using Value = typename Prog::Value;
  static constexpr DriverFootprint kFootprint = footprint(kKind);

  NeighbourhoodDriver(const EngineOptions&, Dataplane& dp, const LocalGraph& g, const LcoreLayout& layout)
      : NeighbourhoodService(kKind, dp, g, layout.workers()) {}

  // Per slot: the vertex's result from its credits and |N(v)| (corner
  // credits); Value{} for a program whose results are per edge.
  const std::vector<Value>& values() const {
    values_.assign(g_.num_local, Value{});
    if constexpr (!kEdges)
      for (uint32_t s = 0; s < g_.num_local; ++s) values_[s] = Prog::vertex_value(counts()[s], neighbours(s));
    return values_;
  }

  // The node's top vertices by value (--top), for a program that ranks them
  // (tc: by triangles): its own sort_key, else the value's.
  std::vector<wire::TopEntry> top(unsigned k) const override {
    if constexpr (kEdges) {
      return {};
    } else {
      const std::vector<Value>& v = values();
      return top_entries(g_, k, [&v](uint32_t s) {
        if constexpr (requires { Prog::sort_key(v[s]); })
          return static_cast<double>(Prog::sort_key(v[s]));
        else
          return static_cast<double>(v[s]);
      });
    }
  }

  // Edge credits: every edge of which this node holds the lower-ranked
  // endpoint, its ids as the input names them (first_id added to dense ids),
  // src < dst, sorted.
  std::vector<EdgeResult<Value>> edge_results(int64_t first_id) const
    requires kEdges
  {
    std::vector<EdgeResult<Value>> out;
    const int64_t shift = g_.original_id.empty() ? first_id : 0;
    for_each_edge([&](uint32_t u, int64_t v_id, uint64_t common, uint32_t du, uint32_t dv) {
      const int64_t u_id = g_.input_id(u, static_cast<VertexId>(first_id));
      v_id += shift;
      out.push_back({std::min(u_id, v_id), std::max(u_id, v_id), Prog::edge_value(common, du, dv)});
    });
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  static uint32_t multiplicity(uint32_t entry) {
    if constexpr (kDirected) return 1 + (entry >> 31);
    return 1;
  }

  void count(uint32_t u, const uint32_t* list, uint32_t n, uint32_t* list_credit) override {
    constexpr uint32_t kMask = kDirected ? ~kBoth : 0xffffffffu;
    for (uint32_t i = 0; i + 1 < n; ++i) {
      const uint32_t a = list[i] & kMask;
      uint32_t slot;
      if (!owns_rank(a, &slot)) continue;
      const uint32_t* other = plus_of(slot);
      const uint32_t m = plus_size(slot);
      const uint32_t* rest = list + i + 1;
      work_ += n - i + m;
      if constexpr (kEdges) {
        // Triangle u, a, w: one common neighbour more for each of its edges.
        uint32_t* rest_credit = list_credit + i + 1;
        uint32_t* other_credit = edge_credit_of(slot);
        uint32_t found = 0;
        intersect<kDirected>(rest, n - i - 1, other, m, [&](uint32_t x, uint32_t y) {
          ++found;
          ++rest_credit[x];   // u-w
          ++other_credit[y];  // a-w
        });
        list_credit[i] += found;  // u-a
      } else {
        // Each corner is credited for the edge opposite it.
        const uint64_t to_w = Prog::corner_credit(multiplicity(list[i]));  // opposite u-a
        uint64_t to_u = 0, to_a = 0;
        intersect<kDirected>(rest, n - i - 1, other, m, [&](uint32_t x, uint32_t y) {
          to_u += Prog::corner_credit(multiplicity(other[y]));  // opposite a-w
          to_a += Prog::corner_credit(multiplicity(rest[x]));   // opposite u-w
          credit_[rest[x] & kMask] += to_w;
        });
        credit_[u] += to_u;
        credit_[a] += to_a;
      }
    }
  }

  mutable std::vector<Value> values_;
};

}  // namespace wg
