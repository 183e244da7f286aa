// Shared pieces of the min-propagation programs (sssp, bfs, cc): the value is
// a 32-bit distance or label, ⊕ is min, "infinity" is UINT32_MAX.
#pragma once

#include <cstdint>
#include <cstdio>

#include "compute/engine/vertex_program.h"

namespace wg {

inline constexpr uint32_t kInfinity = UINT32_MAX;

struct MinLabelBase : ProgramBase {
  using Value = uint32_t;
  using Message = uint32_t;

  // apply(y, identity()) changes nothing (compute/engine/vertex_program.h).
  static constexpr bool applies_only_with_messages(uint32_t) { return true; }

  static Message identity() { return kInfinity; }
  static Message combine(Message a, Message b) { return a < b ? a : b; }
  template <class Agg>  // the program's own aggregate (sssp counts overflowed distances)
  bool apply(Value& y, Message m, const VertexInfo&, const StepInfo<Agg>&) const {
    if (m >= y) return false;
    y = m;
    return true;
  }
  Message scatter_value(const Value& y, const VertexInfo&) const { return y; }
  static void print_value(std::FILE* out, const Value& y) {
    if (y == kInfinity)
      std::fputs("inf", out);
    else
      std::fprintf(out, "%u", y);
  }
  // Smallest distance / label first in the top report: negate.
  static double sort_key(const Value& y) { return -static_cast<double>(y); }
};

}  // namespace wg
