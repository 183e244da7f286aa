#include "compute/engine/communities/community_service.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "compute/engine/range_plan.h"

namespace wg {

namespace {

[[noreturn]] void malformed(const char* what, uint64_t v) { malformed_record("community service", what, v); }

bool by_key_then_to(const CommunityRecord& a, const CommunityRecord& b) {
  return a.key != b.key ? a.key < b.key : a.to < b.to;
}

}  // namespace

CommunityService::CommunityService(const Communities& rules, Dataplane& dp, const LocalGraph& g, unsigned workers)
    : SingleWriterDriver(dp, workers, g.rank, g.partition.nodes), rules_(rules), g_(g) {
  const uint64_t keys = std::max<uint64_t>(g.num_local, largest_node_slots(g.node_domain_offset)) * nodes_;
  if (keys + nodes_ >= UINT32_MAX)
    throw std::runtime_error("community service: " + std::to_string(keys) +
                             " vertex keys (P times the largest node's vertices) do not fit 32 bits");
  keys_ = static_cast<uint32_t>(keys);
  community_.resize(keys_);
  for (uint32_t k = 0; k < keys_; ++k) community_[k] = k;
  members_.assign(keys_, 0);
  total_.assign(keys_, 0.0);
  id_of_key_.assign(keys_, UINT32_MAX);  // a key no vertex holds: last in any order
  weight_to_.assign(keys_, 0.0);
  seen_in_.assign(keys_, 0);
  label_.resize(g.num_local);
  for (uint32_t s = 0; s < g.num_local; ++s) label_[s] = key_of_slot(s);
}

// Level 0: the node's vertices with their out-edges (the graph is symmetric,
// so these are all their edges), weights as the program's rules read them.
void CommunityService::build_first_level() {
  const uint32_t n = g_.num_local;
  live_.resize(n);
  offset_.assign(uint64_t{n} + 1, 0);
  for (uint32_t s = 0; s < n; ++s) {
    live_[s] = key_of_slot(s);
    offset_[s + 1] = offset_[s] + g_.out_degree[s];
  }
  neighbour_.resize(offset_[n]);
  weight_.resize(offset_[n]);
  std::vector<uint64_t> cursor(offset_.begin(), offset_.end() - 1);
  for (unsigned p = 0; p < nodes_; ++p)
    for (unsigned d = 0; d < g_.domains; ++d) {
      const EdgeBlock& b = g_.blocks[g_.group(p, d)];
      for (size_t i = 0; i < b.sources.size(); ++i) {
        const uint32_t s = b.sources[i];
        for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
          const uint64_t at = cursor[s]++;
          neighbour_[at] = g_.target_slot(p, d, b.targets[e]) * nodes_ + p;
          weight_[at] = !b.real_weights.empty() ? b.real_weights[e] : !b.weights.empty() ? b.weights[e] : 1.0;
        }
      }
    }
  degree_.assign(n, 0.0);
  for (uint32_t s = 0; s < n; ++s)
    for (uint64_t e = offset_[s]; e < offset_[s + 1]; ++e) degree_[s] += weight_[e];
}

// A new level from the contraction records this node received: each
// (community, other community, weight) summed, the first one owned here.
void CommunityService::build_level(std::vector<CommunityRecord>& edges) {
  std::sort(edges.begin(), edges.end(), by_key_then_to);
  live_.clear();
  offset_.assign(1, 0);
  neighbour_.clear();
  weight_.clear();
  degree_.clear();
  for (size_t i = 0; i < edges.size();) {
    const CommunityRecord& r = edges[i];
    if (r.key >= keys_ || r.key % nodes_ != rank_ || r.to >= keys_) malformed("contraction", r.key);
    if (live_.empty() || live_.back() != r.key) {
      if (!live_.empty()) offset_.push_back(neighbour_.size());
      live_.push_back(r.key);
      degree_.push_back(0.0);
    }
    double w = 0;
    size_t j = i;
    for (; j < edges.size() && edges[j].key == r.key && edges[j].to == r.to; ++j) w += edges[j].weight;
    neighbour_.push_back(r.to);
    weight_.push_back(w);
    degree_.back() += w;
    i = j;
  }
  if (!live_.empty()) offset_.push_back(neighbour_.size());
  std::vector<CommunityRecord>().swap(edges);
  // Every key its own community; a community of the level before is one
  // vertex now (its total carries over: the sum of its members' degrees).
  for (uint32_t k = 0; k < keys_; ++k) {
    community_[k] = k;
    members_[k] = members_[k] > 0 ? 1 : 0;
    if (members_[k] == 0) total_[k] = 0;
  }
}

void CommunityService::apply_moves(std::vector<CommunityRecord>& moves) {
  for (const CommunityRecord& m : moves)
    if (m.key >= keys_ || m.to >= keys_) malformed("move", m.key);
  // The same sums in the same order on every node, and at every P.
  std::sort(moves.begin(), moves.end(), [this](const CommunityRecord& a, const CommunityRecord& b) {
    return id_of_key_[a.key] < id_of_key_[b.key];
  });
  for (const CommunityRecord& m : moves) {
    const uint32_t from = community_[m.key];
    total_[from] -= m.weight;
    total_[m.to] += m.weight;
    --members_[from];
    ++members_[m.to];
    community_[m.key] = m.to;
  }
  std::vector<CommunityRecord>().swap(moves);  // up to V records a round, on every node
}

// The partition's figures: the weight inside communities from this node's
// edges; on rank 0, the squares of every community's total (every node holds
// them all), summed in global-id order so that the sum is the same at every P.
void CommunityService::measure() {
  figures_ = Figures{};
  for (uint32_t i = 0; i < live_.size(); ++i) {
    const uint32_t c = community_[live_[i]];
    for (uint64_t e = offset_[i]; e < offset_[i + 1]; ++e)
      if (community_[neighbour_[e]] == c) figures_.inside += weight_[e];
  }
  if (rank_ != 0) return;
  for (const uint32_t k : key_by_id_) {
    figures_.squares += total_[k] * total_[k];
    figures_.communities += members_[k] > 0;
  }
}

void CommunityService::choose_moves(const Stall& stall) {
  previous_moves_.swap(moves_);
  moves_.clear();
  uint64_t work = 0;
  for (uint32_t i = 0; i < live_.size(); ++i) {
    if (!moves_in_round(id_of_key_[live_[i]], level_, round_, rules_.movers_in_16)) continue;
    const uint32_t to = choose(i);
    const uint32_t from = community_[live_[i]];
    if (to != from) moves_.push_back({live_[i], from, to, degree_[i]});
    pass_when_due(work, stall);
  }
  figures_.moves = moves_.size();
}

void CommunityService::send_moves(const std::vector<Move>& moves, bool back, const Stall& stall) {
  for (const Move& m : moves) {
    const CommunityRecord r{m.key, back ? m.from : m.to, m.degree};
    for (unsigned p = 0; p < nodes_; ++p) send(p, r, stall);
  }
}

// Every edge of the level as (its community, the other end's community,
// weight), summed here first, to the owner of the first.
void CommunityService::send_contraction(const Stall& stall) {
  std::vector<CommunityRecord> edges;
  edges.reserve(neighbour_.size());
  for (uint32_t i = 0; i < live_.size(); ++i) {
    const uint32_t c = community_[live_[i]];
    for (uint64_t e = offset_[i]; e < offset_[i + 1]; ++e) edges.push_back({c, community_[neighbour_[e]], weight_[e]});
  }
  std::sort(edges.begin(), edges.end(), by_key_then_to);
  uint64_t work = 0;
  for (size_t i = 0; i < edges.size();) {
    CommunityRecord r = edges[i];
    size_t j = i + 1;
    for (; j < edges.size() && edges[j].key == r.key && edges[j].to == r.to; ++j) r.weight += edges[j].weight;
    send(r.key % nodes_, r, stall);
    pass_when_due(work, stall);
    i = j;
  }
}

// Each final community's smallest global id among this node's vertices, to every node.
void CommunityService::send_names(const Stall& stall) {
  std::vector<std::pair<uint32_t, uint32_t>> named(g_.num_local);
  for (uint32_t s = 0; s < g_.num_local; ++s) named[s] = {label_[s], static_cast<uint32_t>(g_.global_id(s))};
  std::sort(named.begin(), named.end());
  for (size_t i = 0; i < named.size(); ++i) {
    if (i > 0 && named[i].first == named[i - 1].first) continue;
    const CommunityRecord r{named[i].first, named[i].second, 0.0};
    for (unsigned p = 0; p < nodes_; ++p) send(p, r, stall);
  }
}

// Every key that holds a vertex, in the order of the vertices' global ids.
void CommunityService::order_keys() {
  key_by_id_.clear();
  for (uint32_t k = 0; k < keys_; ++k)
    if (id_of_key_[k] != UINT32_MAX) key_by_id_.push_back(k);
  std::sort(key_by_id_.begin(), key_by_id_.end(),
            [this](uint32_t a, uint32_t b) { return id_of_key_[a] < id_of_key_[b]; });
}

// The level that ended improved the partition: every vertex's key one level on.
void CommunityService::keep_level() {
  if (!keep_level_) return;
  for (uint32_t& key : label_) key = community_[key];
  keep_level_ = false;
}

void CommunityService::apply(unsigned w, const StepControl& c, const Stall& stall) {
  begin_step(w, c.superstep);
  if (w != 0) return;
  std::vector<CommunityRecord>& arrived = received_[(c.superstep + 1) & 1];  // superstep s - 1's
  figures_ = Figures{};
  switch (c.phase) {
    case kSetup:
      build_first_level();
      for (const double d : degree_) figures_.inside += d;  // decide() reads 2m from here
      break;
    case kMove:
      if (c.superstep == 1 && rank_ == 0) order_keys();  // the global ids came with the degrees
      if (new_level_) {
        keep_level();
        build_level(arrived);
      } else {
        apply_moves(arrived);  // the degrees, the first time: folded already
      }
      measure();
      choose_moves(stall);
      break;
    case kRevert: std::vector<CommunityRecord>().swap(arrived); break;  // the round's moves: dropped
    case kContract:
      if (revert_arrived_) apply_moves(arrived);  // the round before, undone
      else std::vector<CommunityRecord>().swap(arrived);  // the last round's moves: dropped, the level ended before them
      revert_arrived_ = false;
      break;
    case kName:
      keep_level();
      std::vector<CommunityRecord>().swap(arrived);  // the last level's contraction: no level follows
      break;
    case kDone:
      name_.assign(keys_, UINT32_MAX);
      for (const CommunityRecord& r : arrived) {
        if (r.key >= keys_) malformed("name", r.key);
        name_[r.key] = std::min(name_[r.key], r.to);
      }
      arrived.clear();
      values_.resize(g_.num_local);
      for (uint32_t s = 0; s < g_.num_local; ++s) values_[s] = name_[label_[s]];
      break;
    default: break;
  }
}

void CommunityService::scatter(unsigned w, const StepControl& c, const Stall& stall) {
  if (w != 0) return;
  open_records(c.epoch);
  switch (c.phase) {
    case kSetup:
      for (uint32_t s = 0; s < live_.size(); ++s) {
        const CommunityRecord r{live_[s], static_cast<uint32_t>(g_.global_id(s)), degree_[s]};
        for (unsigned p = 0; p < nodes_; ++p) send(p, r, stall);
      }
      break;
    case kMove: send_moves(moves_, false, stall); break;
    case kRevert: send_moves(previous_moves_, true, stall); break;
    case kContract: send_contraction(stall); break;
    case kName: send_names(stall); break;
    default: break;
  }
  close_records();
}

bool CommunityService::fold(const uint8_t* records, unsigned count, uint32_t t, unsigned) {
  const auto* r = reinterpret_cast<const CommunityRecord*>(records);
  if (t == 0) {  // degrees: read from superstep 1 on
    for (unsigned i = 0; i < count; ++i) {
      if (r[i].key >= keys_) malformed("degree", r[i].key);
      total_[r[i].key] = r[i].weight;
      members_[r[i].key] = 1;
      id_of_key_[r[i].key] = r[i].to;
    }
    return true;
  }
  received_[t & 1].insert(received_[t & 1].end(), r, r + count);
  return true;
}

AggregateBytes CommunityService::worker_aggregate(unsigned w) const {
  AggregateBytes bytes{};
  if (w == 0) std::memcpy(bytes.data(), &figures_, sizeof figures_);
  return bytes;
}

void CommunityService::merge(AggregateBytes& into, const AggregateBytes& from) const {
  Figures a, b;
  std::memcpy(&a, into.data(), sizeof a);
  std::memcpy(&b, from.data(), sizeof b);
  a.inside += b.inside, a.squares += b.squares, a.moves += b.moves, a.communities += b.communities;
  std::memcpy(into.data(), &a, sizeof a);
}

Decision CommunityService::decide(uint32_t, uint32_t phase, uint64_t, const AggregateBytes& aggregate) {
  Figures f;
  std::memcpy(&f, aggregate.data(), sizeof f);
  switch (phase) {
    case kSetup:
      two_m_ = f.inside;
      // No edge (or no level allowed): every vertex is its own community.
      return {false, two_m_ > 0 && rules_.max_levels > 0 ? kMove : kName};
    case kMove: {
      const double q = quality(f.inside, f.squares, two_m_);
      if (round_ == 0) {
        new_level_ = false;
        level_start_quality_ = q;
      }
      const bool worse = round_ > 0 && q < previous_quality_;  // the last round's moves made it worse
      const bool settled = f.moves == 0 || (round_ > 0 && q - previous_quality_ < rules_.round_threshold) ||
                           round_ + 1 >= rules_.max_rounds;
      if (!worse && !settled) {
        previous_quality_ = q;
        previous_communities_ = f.communities;
        ++round_;
        return {false, kMove};
      }
      // The level ends with the partition measured now, or, when the last
      // round made it worse, with the one before; this round's moves are dropped.
      const double level_quality = worse ? previous_quality_ : q;
      const uint64_t communities = worse ? previous_communities_ : f.communities;
      const bool improved = level_quality - level_start_quality_ > rules_.threshold;
      const uint32_t rounds = worse ? round_ - 1 : round_;  // whose moves the level keeps
      if (rank_ == 0) {
        if (improved)
          std::printf("level %u: %llu communities, %s %.6f after %u round%s of moves\n", level_ + 1,
                      static_cast<unsigned long long>(communities), rules_.quality_name, level_quality, rounds,
                      rounds == 1 ? "" : "s");
        else if (level_ == 0)
          std::printf("level 1 raised %s by no more than %g: every vertex stays a community of its own\n",
                      rules_.quality_name, rules_.threshold);
        else
          std::printf("level %u raised %s by no more than %g: the communities are level %u's\n", level_ + 1,
                      rules_.quality_name, rules_.threshold, level_);
        std::fflush(stdout);
      }
      keep_level_ = improved;  // else the level's moves are dropped, as networkx drops its last level
      ++level_;
      round_ = 0;
      if (!improved || level_ >= rules_.max_levels) return {false, kName};
      revert_arrived_ = worse;
      return {false, worse ? kRevert : kContract};
    }
    case kRevert: return {false, kContract};
    case kContract:
      new_level_ = true;
      return {false, kMove};
    case kName: return {false, kDone};
    default: return {true, kDone};
  }
}

}  // namespace wg
