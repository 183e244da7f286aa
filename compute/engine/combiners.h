// The ⊕ of a vertex program as a type that carries its identity: the engine
// folds every message sent to a vertex with combine(), starting from
// identity(). A program names one (`using Combine = Min<uint32_t>;`) or
// writes its own struct with the two static members; the Message type is
// identity()'s. Min, Max and Sum also tell what the program is: a program
// that combines with Min or Max and writes no apply() keeps the better of
// its value and its messages (compute/engine/program_model.h), which the
// engine knows to skip for a vertex without messages.
#pragma once

#include <concepts>
#include <limits>
#include <type_traits>

namespace wg {

template <class C>
concept Combiner = requires(decltype(C::identity()) m) {
  { C::combine(m, m) } -> std::same_as<decltype(C::identity())>;
};

template <class C>
using CombinedMessage = decltype(C::identity());

// Identity: the largest value (infinity for a floating-point type).
template <class T>
  requires std::is_arithmetic_v<T>
struct Min {
  static constexpr T identity() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  }
  static constexpr T combine(T a, T b) { return a < b ? a : b; }
};

// Identity: the lowest value (-infinity for a floating-point type).
template <class T>
  requires std::is_arithmetic_v<T>
struct Max {
  static constexpr T identity() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  }
  static constexpr T combine(T a, T b) { return a < b ? b : a; }
};

template <class T>
  requires std::is_arithmetic_v<T>
struct Sum {
  static constexpr T identity() { return T{0}; }
  static constexpr T combine(T a, T b) { return a + b; }
};

// Which standard ⊕ a combiner is (kOther: the program's own).
enum class CombineKind { kOther, kMin, kMax, kSum };

template <class C>
constexpr CombineKind combine_kind = CombineKind::kOther;
template <class T>
constexpr CombineKind combine_kind<Min<T>> = CombineKind::kMin;
template <class T>
constexpr CombineKind combine_kind<Max<T>> = CombineKind::kMax;
template <class T>
constexpr CombineKind combine_kind<Sum<T>> = CombineKind::kSum;

}  // namespace wg
