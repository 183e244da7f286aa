// The defaults a full vertex program derives from (compute/engine/vertex_program.h):
// ProgramBase for the step members (no aggregate, one phase, stop when no
// vertex is active). A program in the minimal form does not derive from it:
// the engine's view of it (compute/engine/program_model.h) supplies the same
// defaults.
#pragma once

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

}  // namespace wg
