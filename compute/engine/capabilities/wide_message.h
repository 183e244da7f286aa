// Wide messages: K values of one type travelling in ONE record, for a program
// that runs K computations of the same shape at once (personalized PageRank
// from K seeds, apps/ppr.h). Spark's parallel PPR was 4x faster than K
// separate runs for 10 seeds: the edges are read once, the frames carry K
// values behind one index, and a superstep's fixed costs are paid once.
//
// Nothing in the engine or the dataplane knows the type: a record is
// wire::RecordOf<Message> whatever its size, the accumulators fold with the
// program's combine (inlined: no virtual call, no allocation per message), a
// frame holds records_per_bucket(sizeof(record)) of them and checkpoints copy
// the accumulators' bytes. What makes a message "wire" is only its size
// (compute/engine/vertex_program.h, WireMessage): a multiple of 4 bytes up to
// wire::kMaxMessageBytes. This header gives the fixed array a program uses
// for it, with the element-wise operations its combine is written with.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "dataplane/wire.h"

namespace wg {

template <class T, unsigned K>
struct WideMessage {
  static_assert(std::is_arithmetic_v<T> && K >= 1);
  static constexpr unsigned kWidth = K;
  T v[K];

  T& operator[](unsigned i) { return v[i]; }
  const T& operator[](unsigned i) const { return v[i]; }
  // Every lane x (identity(), "no message").
  static constexpr WideMessage filled(T x) {
    WideMessage m{};
    for (unsigned i = 0; i < K; ++i) m.v[i] = x;
    return m;
  }
  // x[i] * scale in every lane: a vertex's K values shared out over its out-edges.
  template <class X>
  static constexpr WideMessage scaled(const X (&x)[K], double scale) {
    WideMessage m;
    for (unsigned i = 0; i < K; ++i) m.v[i] = static_cast<T>(x[i] * scale);
    return m;
  }
  // Element-wise ⊕ for combine(): sum and min (loops over K that the
  // compiler unrolls and vectorises).
  friend constexpr WideMessage operator+(const WideMessage& a, const WideMessage& b) {
    WideMessage m;
    for (unsigned i = 0; i < K; ++i) m.v[i] = a.v[i] + b.v[i];
    return m;
  }
  friend constexpr WideMessage min(const WideMessage& a, const WideMessage& b) {
    WideMessage m;
    for (unsigned i = 0; i < K; ++i) m.v[i] = std::min(a.v[i], b.v[i]);
    return m;
  }
  // Sender-side combining asks whether a destination holds a message yet.
  friend constexpr bool operator==(const WideMessage&, const WideMessage&) = default;
};

// The widest of T that fits a record: 16 floats (64 bytes, 68-byte records,
// 20 to a 1500-byte frame).
template <class T>
inline constexpr unsigned kMaxWidth = wire::kMaxMessageBytes / sizeof(T);

static_assert(sizeof(WideMessage<float, 16>) == wire::kMaxMessageBytes);
static_assert(sizeof(wire::RecordOf<WideMessage<float, 16>>) == 68);
static_assert(sizeof(wire::RecordOf<WideMessage<double, 8>>) == 68);
static_assert(wire::records_per_bucket(68) == 20);

}  // namespace wg
