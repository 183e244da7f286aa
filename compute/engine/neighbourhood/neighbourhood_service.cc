#include "compute/engine/neighbourhood/neighbourhood_service.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "compute/engine/range_plan.h"

namespace wg {

namespace {

// Superstep 0's two kinds of record, told apart by field d: the tag and how
// many of the record's entries are used.
constexpr uint32_t kDegreeTag = 0x80000000u;
constexpr uint32_t kPairTag = 0x40000000u;
constexpr uint32_t kIdTag = 0x20000000u;
// Superstep 2's: field d is 0 for a vertex's credit, kEdgeCredit for an edge's.
constexpr uint32_t kEdgeCredit = 1;
constexpr uint32_t kCountMask = 0xffu;

[[noreturn]] void malformed(const char* what, uint64_t v) { malformed_record("neighbourhood service", what, v); }

}  // namespace

NeighbourhoodService::NeighbourhoodService(Neighbourhood kind, Dataplane& dp, const LocalGraph& g, unsigned workers)
    : SingleWriterDriver(dp, workers, g.rank, g.partition.nodes), g_(g), kind_(kind), neighbours_(g.num_local, 0),
      counts_(g.num_local, 0) {
  const uint64_t keys = std::max<uint64_t>(g.num_local, largest_node_slots(g.node_domain_offset)) * nodes_;
  if (keys >= kBoth)
    throw std::runtime_error("neighbourhood service: " + std::to_string(keys) +
                             " vertex keys (P times the largest node's vertices) do not fit 31 bits; at most 2^31 - 1");
  keys_ = static_cast<uint32_t>(keys);
  degree_.assign(keys_, 0);
  if (edge_credits()) input_id_.assign(keys_, 0);
}

uint32_t NeighbourhoodService::degree_of(uint32_t slot) const {
  // Directed lists rank by in- plus out-degree: |N(v)| is known only after
  // superstep 0, and any total order finds every triangle once; the degree
  // order only keeps the lists short. On the undirected simple graph the
  // out-degree is |N(v)|, what edge credits report.
  return directed() ? g_.out_degree[slot] + g_.in_degree[slot] : g_.out_degree[slot];
}

void NeighbourhoodService::send_degrees(const Stall& stall) {
  for (uint32_t s = 0; s < g_.num_local; s += 3) {
    const uint32_t n = std::min<uint32_t>(3, g_.num_local - s);
    NeighbourhoodRecord r{key_of_slot(s), degree_of(s), n > 1 ? degree_of(s + 1) : 0, n > 2 ? degree_of(s + 2) : 0,
                     kDegreeTag | n};
    for (unsigned p = 0; p < nodes_; ++p) send(p, r, stall);
  }
}

void NeighbourhoodService::send_in_neighbours(const Stall& stall) {
  for (unsigned p = 0; p < nodes_; ++p) {
    NeighbourhoodRecord r{kNone, kNone, kNone, kNone, kPairTag};
    for (unsigned d = 0; d < g_.domains; ++d) {
      const EdgeBlock& b = g_.blocks[g_.group(p, d)];
      for (size_t i = 0; i < b.sources.size(); ++i) {
        const uint32_t u = key_of_slot(b.sources[i]);
        for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
          const uint32_t x = g_.target_slot(p, d, b.targets[e]);
          if ((r.d & kCountMask) == 0) {
            r = {x, u, kNone, kNone, kPairTag | 1};
          } else {
            r.b = x, r.c = u, r.d = kPairTag | 2;
            send(p, r, stall);
            r.d = kPairTag;
          }
        }
      }
    }
    if ((r.d & kCountMask) != 0) send(p, r, stall);
  }
}

void NeighbourhoodService::send_input_ids(const Stall& stall) {
  for (uint32_t s = 0; s < g_.num_local; ++s) {
    const auto id = static_cast<uint64_t>(g_.input_id(s, 0));
    const NeighbourhoodRecord r{key_of_slot(s), static_cast<uint32_t>(id), static_cast<uint32_t>(id >> 32), 0,
                                kIdTag | 1};
    for (unsigned p = 0; p < nodes_; ++p) send(p, r, stall);
  }
}

// Ranks by (degree, key), the same on every node: a counting sort of the keys.
void NeighbourhoodService::rank_vertices() {
  uint32_t most = 0;
  for (uint32_t d : degree_) most = std::max(most, d);
  std::vector<uint32_t> start(uint64_t{most} + 2, 0);
  for (uint32_t d : degree_) ++start[d + 1];
  for (uint64_t d = 0; d + 1 < start.size(); ++d) start[d + 1] += start[d];
  key_of_rank_.assign(keys_, 0);
  rank_of_key_.assign(keys_, 0);
  for (uint32_t k = 0; k < keys_; ++k) {
    const uint32_t r = start[degree_[k]]++;
    key_of_rank_[r] = k;
    rank_of_key_[k] = r;
  }
  if (!edge_credits()) std::vector<uint32_t>().swap(degree_);
  credit_.assign(keys_, 0);
}

// N(v) of every owned vertex (each neighbour once), then N+(v) in place.
void NeighbourhoodService::build_lists(const Stall& stall) {
  const bool directed = this->directed();
  // Gathered entries: rank << 1 | (came from an in-edge), by slot.
  std::vector<uint64_t> offset(uint64_t{g_.num_local} + 1, 0);
  for (uint32_t s = 0; s < g_.num_local; ++s) offset[s + 1] = offset[s] + g_.out_degree[s];
  if (directed) {
    std::vector<uint32_t> in_count(g_.num_local, 0);
    for (const uint64_t pair : in_pairs_) {
      const auto s = static_cast<uint32_t>(pair >> 32);
      if (s >= g_.num_local || static_cast<uint32_t>(pair) >= keys_) malformed("in-neighbour", pair);
      ++in_count[s];
    }
    for (uint32_t s = 0; s < g_.num_local; ++s) {
      if (in_count[s] != g_.in_degree[s]) malformed("in-neighbour count", s);
    }
    uint64_t shift = 0;
    for (uint32_t s = 0; s < g_.num_local; ++s) shift += in_count[s], offset[s + 1] += shift;
  }
  std::vector<uint64_t> cursor(offset.begin(), offset.end() - 1);
  std::vector<uint32_t> entries(offset.back());
  for (unsigned p = 0; p < nodes_; ++p)
    for (unsigned d = 0; d < g_.domains; ++d) {
      const EdgeBlock& b = g_.blocks[g_.group(p, d)];
      for (size_t i = 0; i < b.sources.size(); ++i) {
        uint64_t& at = cursor[b.sources[i]];
        for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e)
          entries[at++] = rank_of_key_[g_.target_slot(p, d, b.targets[e]) * nodes_ + p] << 1;
      }
    }
  for (const uint64_t pair : in_pairs_)
    entries[cursor[pair >> 32]++] = rank_of_key_[static_cast<uint32_t>(pair)] << 1 | 1u;
  std::vector<uint64_t>().swap(in_pairs_);

  // Per slot: sort, fold the two directions of a neighbour into one entry,
  // keep those ranked above the vertex (written over the gathered entries).
  plus_offset_.assign(uint64_t{g_.num_local} + 1, 0);
  own_rank_.assign(g_.num_local, 0);
  uint64_t kept = 0;
  for (uint32_t s = 0; s < g_.num_local; ++s) {
    uint32_t* first = entries.data() + offset[s];
    uint32_t* last = entries.data() + offset[s + 1];
    std::sort(first, last);
    work_ += static_cast<uint64_t>(last - first) * 4;
    pass_when_due(stall);
    const uint32_t own = rank_of_key_[key_of_slot(s)];
    // The kept entries are written over the gathered ones (kept <= e): the
    // entry before e is read from `previous`, never from the array.
    uint32_t distinct = 0;
    uint32_t previous = UINT32_MAX;
    for (uint32_t* e = first; e != last; ++e) {
      const uint32_t entry = *e, r = entry >> 1;
      if (previous != UINT32_MAX && (previous >> 1) == r) {
        if ((previous & 1u) != (entry & 1u) && r > own) entries[kept - 1] |= kBoth;  // out and in: m = 2
        continue;
      }
      previous = entry;
      ++distinct;
      if (r > own) entries[kept++] = r;
    }
    neighbours_[s] = distinct;
    own_rank_[s] = own;
    plus_offset_[s + 1] = kept;
  }
  entries.resize(kept);
  entries.shrink_to_fit();
  plus_ = std::move(entries);
  std::vector<uint32_t>().swap(rank_of_key_);
  if (edge_credits()) edge_credit_.assign(plus_.size(), 0);
}

// Each list to the other nodes that own one of its members but the last (the
// last has nothing above it in the list), 4 entries per record; then the
// node's own lists are counted while the others' arrive.
void NeighbourhoodService::ship_lists(const Stall& stall) {
  std::vector<uint8_t> wanted(nodes_, 0);
  for (uint32_t s = 0; s < g_.num_local; ++s) {
    const uint32_t* list = plus_.data() + plus_offset_[s];
    const auto n = static_cast<uint32_t>(plus_offset_[s + 1] - plus_offset_[s]);
    if (n < 2) continue;
    std::fill(wanted.begin(), wanted.end(), 0);
    for (uint32_t i = 0; i + 1 < n; ++i) wanted[key_of_rank_[list[i] & ~kBoth] % nodes_] = 1;
    work_ += n;
    for (unsigned p = 0; p < nodes_; ++p) {
      if (p == rank_ || !wanted[p]) continue;
      for (uint32_t i = 0; i < n; i += 4) {
        const uint32_t left = n - i;
        send(p,
             NeighbourhoodRecord{own_rank_[s], list[i], left > 1 ? list[i + 1] : kNone, left > 2 ? list[i + 2] : kNone,
                            left > 3 ? list[i + 3] : kNone},
             stall);
      }
    }
    pass_when_due(stall);
  }
}

// The lists other nodes sent, grouped by vertex (their records come in any
// order), each counted like the node's own.
void NeighbourhoodService::count_received(const Stall& stall) {
  std::sort(received_.begin(), received_.end(),
            [](const NeighbourhoodRecord& x, const NeighbourhoodRecord& y) { return x.index < y.index; });
  std::vector<uint32_t> list, list_credit;
  for (size_t i = 0; i < received_.size();) {
    const uint32_t u = received_[i].index;
    if (u >= keys_) malformed("neighbour list", u);
    list.clear();
    for (; i < received_.size() && received_[i].index == u; ++i)
      for (const uint32_t e : {received_[i].a, received_[i].b, received_[i].c, received_[i].d}) {
        if (e == kNone) continue;
        if ((e & ~kBoth) >= keys_ || (e & ~kBoth) <= u) malformed("neighbour list", u);
        list.push_back(e);
      }
    std::sort(list.begin(), list.end(), [](uint32_t x, uint32_t y) { return (x & ~kBoth) < (y & ~kBoth); });
    const auto n = static_cast<uint32_t>(list.size());
    if (edge_credits()) {
      list_credit.assign(n, 0);
      count(u, list.data(), n, list_credit.data());
      for (uint32_t j = 0; j < n; ++j)
        if (list_credit[j] != 0) to_return_.push_back({u, j, list_credit[j], 0, kEdgeCredit});
    } else {
      count(u, list.data(), n, nullptr);
    }
    pass_when_due(stall);
  }
  std::vector<NeighbourhoodRecord>().swap(received_);
}

void NeighbourhoodService::send_credits(const Stall& stall) {
  for (uint32_t r = 0; r < keys_; ++r) {
    const uint64_t c = credit_[r];
    if (c == 0) continue;
    const uint32_t key = key_of_rank_[r];
    send(key % nodes_, NeighbourhoodRecord{key / nodes_, static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0, 0},
         stall);
  }
  std::vector<uint64_t>().swap(credit_);
}

// The credits of entries of other nodes' lists, to the lists' owners: the
// entry's place in N+(u) is its place in the copy (both sorted by rank).
void NeighbourhoodService::send_edge_credits(const Stall& stall) {
  for (NeighbourhoodRecord r : to_return_) {
    const uint32_t key = key_of_rank_[r.index];
    r.index = key / nodes_;
    send(key % nodes_, r, stall);
  }
  std::vector<NeighbourhoodRecord>().swap(to_return_);
}

void NeighbourhoodService::count_own(const Stall& stall) {
  for (uint32_t s = 0; s < g_.num_local; ++s) {
    count(own_rank_[s], plus_of(s), plus_size(s), edge_credits() ? edge_credit_of(s) : nullptr);
    pass_when_due(stall);
  }
}

void NeighbourhoodService::apply(unsigned w, const StepControl& c, const Stall& stall) {
  begin_step(w, c.superstep);
  if (w != 0) return;
  if (c.superstep == 1) {
    rank_vertices();
    build_lists(stall);
  }
  if (c.superstep == 2) count_received(stall);
}

void NeighbourhoodService::scatter(unsigned w, const StepControl& c, const Stall& stall) {
  if (w != 0) return;
  open_records(c.epoch);
  switch (c.superstep) {
    case 0:
      send_degrees(stall);
      if (directed()) send_in_neighbours(stall);
      if (edge_credits()) send_input_ids(stall);
      break;
    case 1:
      ship_lists(stall);
      close_records();  // the lists leave before the node's own are counted
      count_own(stall);
      return;
    case 2:
      send_credits(stall);
      send_edge_credits(stall);
      break;
    default: break;
  }
  close_records();
}

bool NeighbourhoodService::fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) {
  const auto* r = reinterpret_cast<const NeighbourhoodRecord*>(records);
  switch (t) {
    case 0:
      for (unsigned i = 0; i < count; ++i) {
        const uint32_t n = r[i].d & kCountMask;
        if ((r[i].d & kDegreeTag) != 0 && n >= 1 && n <= 3) {
          const uint32_t degrees[] = {r[i].a, r[i].b, r[i].c};
          for (uint32_t j = 0; j < n; ++j) {
            const uint64_t key = r[i].index + uint64_t{j} * nodes_;
            if (key >= keys_) malformed("degree", key);
            degree_[key] = degrees[j];
          }
        } else if ((r[i].d & kPairTag) != 0 && n >= 1 && n <= 2) {
          in_pairs_.push_back(uint64_t{r[i].index} << 32 | r[i].a);
          if (n == 2) in_pairs_.push_back(uint64_t{r[i].b} << 32 | r[i].c);
        } else if ((r[i].d & kIdTag) != 0 && n == 1 && edge_credits()) {
          if (r[i].index >= keys_) malformed("input id", r[i].index);
          input_id_[r[i].index] = static_cast<int64_t>(uint64_t{r[i].b} << 32 | r[i].a);
        } else {
          malformed("superstep 0", r[i].d);
        }
      }
      return true;
    case 1:
      received_.insert(received_.end(), r, r + count);
      return true;
    case 2:
      for (unsigned i = 0; i < count; ++i) {
        if (r[i].index >= g_.num_local) malformed("credit", r[i].index);
        if (r[i].d == kEdgeCredit) {  // (slot, entry of its N+, credit)
          if (!edge_credits() || r[i].a >= plus_size(r[i].index)) malformed("edge credit", r[i].a);
          returned_.push_back(r[i]);
        } else {
          counts_[r[i].index] += uint64_t{r[i].b} << 32 | r[i].a;
        }
      }
      return true;
    default: return false;
  }
}

}  // namespace wg
