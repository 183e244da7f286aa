// The defaults a full vertex program derives from (compute/engine/vertex_program.h):
// ProgramBase for the step members (no aggregate, one phase, stop when no
// vertex is active), OwnDriverProgram for a program that runs on a driver of
// its own. A program in the minimal form derives from neither: the engine's
// view of it (compute/engine/program_model.h) supplies the same defaults.
#pragma once

#include <cstdint>

#include "compute/engine/step_info.h"
#include "compute/graph/types.h"

namespace wg {

// A program derives from it and overrides what it needs (by hiding the
// member: the engine calls them statically).
struct ProgramBase {
  using Aggregate = NoAggregate;
  static void merge(NoAggregate&, const NoAggregate&) {}
  template <class Value>
  void aggregate(const Value&, const VertexInfo&, NoAggregate&) const {}
  template <class Aggregate>
  Decision next(const StepOutcome<Aggregate>& done) const {
    return {done.active == 0, done.phase};
  }
};

// The vertex-program members of a program that runs on its own driver
// (`using Driver = ...`, compute/engine/program_driver.h; tc, lcc): every
// program lists them, its driver never calls them.
template <class V>
struct OwnDriverProgram : ProgramBase {
  using Value = V;
  using Message = uint32_t;
  static Message identity() { return 0; }
  static Message combine(Message a, Message) { return a; }
  bool init(Value& y, const VertexInfo&) const { return y = Value{}, false; }
  bool apply(Value&, Message, const VertexInfo&, const StepInfo<Aggregate>&) const { return false; }
  Message scatter_value(const Value&, const VertexInfo&) const { return 0; }
  static Message edge_message(Message sv, Weight) { return sv; }
};

}  // namespace wg
