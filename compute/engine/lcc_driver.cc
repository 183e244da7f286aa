#include "compute/engine/lcc_driver.h"

#include <algorithm>
#include <stdexcept>
#include <string>


namespace wg {

namespace {

[[noreturn]] void malformed(const char* what, uint32_t v) {
  throw std::runtime_error(std::string("lcc: a malformed ") + what + " record (vertex " + std::to_string(v) +
                           ") arrived: corrupted frames (try --checksum on)?");
}

// Vertex x ranks above vertex v: by degree, then by id.
bool ranks_above(uint32_t dx, uint32_t x, uint32_t dv, uint32_t v) { return dx != dv ? dx > dv : x > v; }

}  // namespace

LccDriver::LccDriver(const EngineOptions&, Dataplane& dp, const LocalGraph& g, const LcoreLayout& layout)
    : SingleWriterDriver(dp, layout.workers(), g.rank, g.partition.nodes), g_(g), numerator_(g.num_local, 0),
      values_(g.num_local, 0.0) {
  if (!g.global_of.empty()) {
    slot_of_local_.resize(g.num_local);
    for (uint32_t s = 0; s < g.num_local; ++s) slot_of_local_[g.global_of[s] / nodes_] = s;
  }
  credit_.resize(nodes_);
}

uint32_t LccDriver::slot_of(uint32_t v) const {
  const uint32_t local = v / nodes_;
  if (v % nodes_ != rank_ || local >= g_.num_local) malformed("vertex", v);
  return slot_of_local_.empty() ? local : slot_of_local_[local];
}

void LccDriver::put(uint32_t vertex, const LccRecord& r, const Stall& stall) { send(vertex % nodes_, r, stall); }

unsigned LccDriver::multiplicity(uint32_t slot, uint32_t y) const {
  const uint32_t* first = neighbour_.data() + offset_[slot];
  const uint32_t* last = neighbour_.data() + offset_[slot + 1];
  const uint32_t* it = std::lower_bound(first, last, y);
  if (it == last || *it != y) return 0;
  const uint8_t f = flags_[it - neighbour_.data()];
  return (f & kOut ? 1u : 0u) + (f & kIn ? 1u : 0u);
}

// Superstep 2's apply: N(v) from the out- and in-neighbour pairs, each
// neighbour once with its direction flags.
void LccDriver::build_neighbours() {
  std::vector<Pair> pairs = std::move(in_pairs_);
  pairs.insert(pairs.end(), out_pairs_.begin(), out_pairs_.end());
  std::vector<Pair>().swap(in_pairs_);
  std::vector<Pair>().swap(out_pairs_);
  std::sort(pairs.begin(), pairs.end(),
            [](const Pair& x, const Pair& y) { return x.slot != y.slot ? x.slot < y.slot : x.other < y.other; });
  offset_.assign(uint64_t{g_.num_local} + 1, 0);
  neighbour_.clear();
  flags_.clear();
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Pair& p = pairs[i];
    if (i > 0 && pairs[i - 1].slot == p.slot && pairs[i - 1].other == p.other) {
      flags_.back() |= p.flag;
      continue;
    }
    neighbour_.push_back(p.other);
    flags_.push_back(p.flag);
    ++offset_[p.slot + 1];
  }
  for (uint32_t s = 0; s < g_.num_local; ++s) offset_[s + 1] += offset_[s];
  neighbour_degree_.assign(neighbour_.size(), 0);
}

// Superstep 3's apply: each neighbour's degree, then N+(v).
void LccDriver::take_degrees() {
  for (const LccRecord& r : degrees_in_) {  // (x, v, degree of v) for v in N(x)
    const uint32_t s = slot_of(r.index);
    const uint32_t* first = neighbour_.data() + offset_[s];
    const uint32_t* last = neighbour_.data() + offset_[s + 1];
    const uint32_t* it = std::lower_bound(first, last, r.a);
    if (it == last || *it != r.a) malformed("degree", r.index);
    neighbour_degree_[it - neighbour_.data()] = r.b;
  }
  std::vector<LccRecord>().swap(degrees_in_);
  plus_offset_.assign(uint64_t{g_.num_local} + 1, 0);
  plus_.clear();
  plus_flags_.clear();
  for (uint32_t s = 0; s < g_.num_local; ++s) {
    const uint32_t v = g_.global_id(s);
    const auto dv = static_cast<uint32_t>(offset_[s + 1] - offset_[s]);
    for (uint64_t e = offset_[s]; e < offset_[s + 1]; ++e) {
      if (!ranks_above(neighbour_degree_[e], neighbour_[e], dv, v)) continue;
      plus_.push_back(neighbour_[e]);
      plus_flags_.push_back(flags_[e]);
    }
    plus_offset_[s + 1] = plus_.size();
  }
  for (unsigned p = 0; p < nodes_; ++p) credit_[p].assign(g_.partition.local_count(p, g_.num_vertices), 0);
}

void LccDriver::finish_values() const {
  for (uint32_t s = 0; s < g_.num_local; ++s) {
    const double d = static_cast<double>(offset_[s + 1] - offset_[s]);
    values_[s] = d < 2 ? 0.0 : static_cast<double>(numerator_[s]) / (d * (d - 1));
  }
}

void LccDriver::apply(unsigned w, const StepControl& c, const Stall&) {
  begin_step(w, c.superstep);
  if (w != 0) return;
  if (c.superstep == 2) build_neighbours();
  if (c.superstep == 3) take_degrees();
}

void LccDriver::scatter(unsigned w, const StepControl& c, const Stall& stall) {
  if (w != 0) return;
  open_records(c.epoch);
  switch (c.superstep) {
    case 0:  // every out-edge to its target's owner: (target's index in its domain, domain, source)
      for (unsigned p = 0; p < nodes_; ++p)
        for (unsigned d = 0; d < g_.domains; ++d) {
          const EdgeBlock& b = g_.blocks[g_.group(p, d)];
          for (size_t i = 0; i < b.sources.size(); ++i) {
            const uint32_t u = g_.global_id(b.sources[i]);
            for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e)
              send(p, LccRecord{b.targets[e], d, u, 0, 0}, stall);
          }
        }
      break;
    case 1:  // every in-neighbour u of x learns that x is its out-neighbour
      for (const Pair& p : in_pairs_) put(p.other, LccRecord{p.other, g_.global_id(p.slot), 0, 0, 0}, stall);
      break;
    case 2:  // the degree d(v) to every neighbour
      for (uint32_t s = 0; s < g_.num_local; ++s) {
        const auto dv = static_cast<uint32_t>(offset_[s + 1] - offset_[s]);
        const uint32_t v = g_.global_id(s);
        for (uint64_t e = offset_[s]; e < offset_[s + 1]; ++e) put(neighbour_[e], LccRecord{neighbour_[e], v, dv, 0, 0}, stall);
      }
      break;
    case 4: {  // the wedges (a, u, w, m(u, w)) for a < w in N+(u), by rank
      struct Higher {
        uint32_t degree, id, m;
      };
      std::vector<Higher> higher;
      for (uint32_t s = 0; s < g_.num_local; ++s) {
        const uint32_t u = g_.global_id(s);
        higher.clear();
        for (uint64_t e = offset_[s]; e < offset_[s + 1]; ++e) {
          const auto dv = static_cast<uint32_t>(offset_[s + 1] - offset_[s]);
          if (ranks_above(neighbour_degree_[e], neighbour_[e], dv, u))
            higher.push_back({neighbour_degree_[e], neighbour_[e], (flags_[e] & kOut ? 1u : 0u) + (flags_[e] & kIn ? 1u : 0u)});
        }
        std::sort(higher.begin(), higher.end(), [](const Higher& x, const Higher& y) {
          return ranks_above(y.degree, y.id, x.degree, x.id);
        });
        for (size_t i = 0; i < higher.size(); ++i)
          for (size_t j = i + 1; j < higher.size(); ++j)
            put(higher[i].id, LccRecord{higher[i].id, u, higher[j].id, higher[j].m, 0}, stall);
        if ((s & 1023) == 0) stall(false);
      }
      break;
    }
    case 5:  // the credits to their vertices' owners
      for (unsigned p = 0; p < nodes_; ++p)
        for (uint32_t l = 0; l < credit_[p].size(); ++l)
          if (credit_[p][l] != 0) {
            const uint64_t x = credit_[p][l];
            send(p, LccRecord{l * nodes_ + p, static_cast<uint32_t>(x), static_cast<uint32_t>(x >> 32), 0, 0}, stall);
          }
      break;
    default: break;
  }
  close_records();
}

bool LccDriver::fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) {
  const auto* r = reinterpret_cast<const LccRecord*>(records);
  switch (t) {
    case 0:  // (index in domain a, domain a, source b): b is an in-neighbour
      for (unsigned i = 0; i < count; ++i) {
        if (r[i].a >= g_.domains || r[i].index >= g_.domain_size(r[i].a)) malformed("in-neighbour", r[i].index);
        in_pairs_.push_back(Pair{g_.domain_offset[r[i].a] + r[i].index, r[i].b, kIn});
      }
      return true;
    case 1:  // (u, x): x is an out-neighbour of u
      for (unsigned i = 0; i < count; ++i) out_pairs_.push_back(Pair{slot_of(r[i].index), r[i].a, kOut});
      return true;
    case 2:
      degrees_in_.insert(degrees_in_.end(), r, r + count);
      return true;
    case 4:  // (a, u, w, m(u, w)): a triangle when w is in N+(a)
      for (unsigned i = 0; i < count; ++i) {
        const uint32_t a = r[i].index, u = r[i].a, w = r[i].b;
        const uint32_t s = slot_of(a);
        const uint32_t* first = plus_.data() + plus_offset_[s];
        const uint32_t* last = plus_.data() + plus_offset_[s + 1];
        const uint32_t* it = std::lower_bound(first, last, w);
        if (it == last || *it != w) continue;
        const uint8_t f = plus_flags_[it - plus_.data()];
        credit_[u % nodes_][u / nodes_] += (f & kOut ? 1u : 0u) + (f & kIn ? 1u : 0u);  // m(a, w)
        credit_[a % nodes_][a / nodes_] += r[i].c;                                     // m(u, w)
        credit_[w % nodes_][w / nodes_] += multiplicity(s, u);                         // m(u, a)
      }
      return true;
    case 5:
      for (unsigned i = 0; i < count; ++i) numerator_[slot_of(r[i].index)] += uint64_t{r[i].b} << 32 | r[i].a;
      return true;
    default: return false;
  }
}

}  // namespace wg
