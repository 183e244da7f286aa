// Per-vertex accumulators: where gather-on-receive folds each message.
//
// The vertex-program type picks its accumulator at compile time
// (Program::Accumulator):
//   ScalarAccumulator - one Message per vertex, folded with Program::combine
//                       (sum, min). PageRank, SSSP, BFS, CC. The fold is one
//                       load, one combine, one store per message.
// One accumulator per NUMA domain, over that domain's vertices.
//   SlotAccumulator   - one message slot per incoming edge, filled in arrival
//                       order: the vertex sees the whole multiset of its
//                       neighbours' values (label propagation needs the most
//                       frequent label, which no scalar ⊕ can compute).
// Both expose the same interface to the engine: fold() on the receive side,
// take(i) in apply (which also resets vertex i for the next superstep), and
// a Span type that apply receives.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "compute/partition/partition.h"
#include "dataplane/wire.h"

namespace wg {

// A vector's elements as raw bytes (checkpoints write and read them so).
template <class T>
std::span<uint8_t> raw_bytes(std::vector<T>& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  return {reinterpret_cast<uint8_t*>(v.data()), v.size() * sizeof(T)};
}

template <class Prog>
class ScalarAccumulator {
 public:
  using Message = typename Prog::Message;
  using View = Message;

  // Domain d's vertices of g, indexed within the domain.
  ScalarAccumulator(const LocalGraph& g, unsigned d) : sigma_(g.domain_size(d), Prog::identity()) {}

  using Record = wire::RecordOf<Message>;

  // Returns false if a record does not fit (never, for a scalar).
  bool fold(const Record* r, unsigned n) {
    Message* sigma = sigma_.data();
    for (unsigned i = 0; i < n; ++i) sigma[r[i].index] = Prog::combine(sigma[r[i].index], r[i].value);
    return true;
  }
  // Its state as raw bytes, for a checkpoint (compute/engine/checkpoint_store.h).
  std::vector<std::span<uint8_t>> state() { return {raw_bytes(sigma_)}; }
  View take(uint32_t i) {
    const Message m = sigma_[i];
    sigma_[i] = Prog::identity();
    return m;
  }
  // Calls f(i, message) for every i in [lo, hi) that received a message
  // (Σ[i] is not the identity), in ascending order, resetting it. Runs of
  // vertices without one are skipped kChunk at a time with one test: a
  // superstep with a small frontier reads Σ, it does not apply every vertex.
  template <class F>
  void take_received(uint32_t lo, uint32_t hi, F&& f) {
    Message* sigma = sigma_.data();
    const Message id = Prog::identity();
    uint32_t i = lo;
    for (; i + kChunk <= hi; i += kChunk) {
      bool any = false;
      for (unsigned k = 0; k < kChunk; ++k) any |= !same(sigma[i + k], id);
      if (!any) continue;
      for (unsigned k = 0; k < kChunk; ++k) take_one(sigma, i + k, id, f);
    }
    for (; i < hi; ++i) take_one(sigma, i, id, f);
  }

 private:
  static constexpr unsigned kChunk = 16;
  static bool same(const Message& a, const Message& b) {
    if constexpr (sizeof(Message) == 4)
      return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
    else if constexpr (sizeof(Message) == 8)
      return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
    else
      return std::memcmp(&a, &b, sizeof a) == 0;
  }
  template <class F>
  static void take_one(Message* sigma, uint32_t i, const Message& id, F& f) {
    if (same(sigma[i], id)) return;
    const Message m = sigma[i];
    sigma[i] = id;
    f(i, m);
  }

  std::vector<Message> sigma_;
};

template <class Message>
class SlotAccumulator {
 public:
  using View = std::span<Message>;
  using Record = wire::RecordOf<Message>;

  // Domain d's vertices of g, indexed within the domain.
  SlotAccumulator(const LocalGraph& g, unsigned d) : offset_(g.domain_size(d) + 1, 0), fill_(g.domain_size(d), 0) {
    const uint32_t* in_degree = g.in_degree.data() + g.domain_offset[d];
    for (uint32_t i = 0; i < g.domain_size(d); ++i) offset_[i + 1] = offset_[i] + in_degree[i];
    slots_.resize(offset_.back());
  }

  // A vertex receives at most one message per in-edge per superstep; a record
  // beyond that is a protocol error and makes the bucket fail (counted).
  bool fold(const Record* r, unsigned n) {
    bool ok = true;
    for (unsigned i = 0; i < n; ++i) {
      const uint32_t v = r[i].index;
      const uint64_t at = offset_[v] + fill_[v];
      if (at >= offset_[v + 1]) {
        ok = false;
        continue;
      }
      slots_[at] = r[i].value;
      ++fill_[v];
    }
    return ok;
  }
  // Its state as raw bytes, for a checkpoint (the offsets follow from the graph).
  std::vector<std::span<uint8_t>> state() {
    return {raw_bytes(fill_), raw_bytes(slots_)};
  }
  View take(uint32_t i) {
    const View v(slots_.data() + offset_[i], fill_[i]);
    fill_[i] = 0;
    return v;
  }

 private:
  std::vector<uint64_t> offset_;  // in-edge slots of vertex i: [offset_[i], offset_[i+1])
  std::vector<uint32_t> fill_;    // slots filled this superstep
  std::vector<Message> slots_;
};

// Program::Accumulator if the program names one, else the scalar ⊕.
template <class Prog>
struct AccumulatorFor {
  using type = ScalarAccumulator<Prog>;
};
template <class Prog>
  requires requires { typename Prog::Accumulator; }
struct AccumulatorFor<Prog> {
  using type = typename Prog::Accumulator;
};

}  // namespace wg
