#include "tests/reference.h"

#include <stdexcept>
#include <string>

#include "tests/minimal_oracles.h"

namespace wg::ref {
namespace {

template <RunnableProgram P>
bool run_if_named(std::string_view program, const EdgeList& g, const ProgramParams& params, Expected* out) {
  if (P::kTraits.name != program) return false;
  OracleValues v;
  if constexpr (HasOracle<P>)
    v = P::reference(g, params);
  else
    v = minimal_program_oracle(program, g);
  if constexpr (PerEdgeResults<P>) {
    *out = {Expected::Kind::kEdges, {}, {}, std::move(v.edges)};
    return true;
  }
  switch (P::kTraits.comparison) {
    case Comparison::kReal: *out = {Expected::Kind::kReal, std::move(v.reals), {}}; break;
    case Comparison::kDistance: *out = {Expected::Kind::kDistance, {}, std::move(v.integers)}; break;
    case Comparison::kExact:
    case Comparison::kUndeclared: *out = {Expected::Kind::kExact, {}, std::move(v.integers)}; break;
  }
  return true;
}

template <RunnableProgram... P>
bool run_named(ProgramList<P...>, std::string_view program, const EdgeList& g, const ProgramParams& params,
               Expected* out) {
  return (run_if_named<P>(program, g, params, out) || ...);
}

}  // namespace

Expected oracle(std::string_view program, const EdgeList& g, VertexId source, unsigned iterations) {
  const ProgramParams params{source, iterations, kDamping};
  Expected out{};
  if (!run_named(AllPrograms{}, program, g, params, &out))
    throw std::invalid_argument("no program named '" + std::string(program) + "' in apps/programs.h");
  return out;
}

}  // namespace wg::ref
