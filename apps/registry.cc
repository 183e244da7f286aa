#include "apps/registry.h"

#include <array>
#include <string>
#include <string_view>
#include <type_traits>

#include "apps/programs.h"
#include "apps/node/run_program.h"

namespace wg {

namespace {

// A program instantiated for several message widths (apps/program_list.h,
// Widths) runs the narrowest whose message holds the run's K seeds.
template <VertexProgram W, VertexProgram... Wider>
RunOutcome run_narrowest(Node& node, ProgramList<W, Wider...>) {
  if constexpr (sizeof...(Wider) > 0) {
    if (node.config().params().seed_ids.size() > W::Message::kWidth)
      return run_narrowest(node, ProgramList<Wider...>{});
  }
  return run_program<W>(node);
}

// A program with a double-precision twin (apps/program_list.h) runs it with --precision double.
// A program with a weighted twin runs it with --weighted (in double precision).
template <RunnableProgram P>
RunOutcome run_entry(Node& node) {
  using Widened = typename Widths<P>::type;
  if constexpr (!std::is_same_v<Widened, ProgramList<P>>) return run_narrowest(node, Widened{});
  using WeightedTwin = typename Weighted<P>::type;
  if constexpr (!std::is_same_v<WeightedTwin, P>) {
    if (node.config().weighted) return run_program<WeightedTwin>(node);
  }
  using Double = typename DoublePrecision<P>::type;
  if constexpr (!std::is_same_v<Double, P>) {
    if (node.config().double_precision) return run_program<Double>(node);
  }
  return run_program<P>(node);
}

// A program says it reads --precision exactly when it has a twin to run.
template <RunnableProgram P>
constexpr bool precision_is_declared =
    P::kTraits.uses_precision == !std::is_same_v<typename DoublePrecision<P>::type, P>;

// A program says it reads --weighted exactly when it has a weighted twin.
template <RunnableProgram P>
constexpr bool weighted_is_declared = P::kTraits.uses_weighted == !std::is_same_v<typename Weighted<P>::type, P>;

// Every program, and its double-precision twin, says how its results
// compare (a program in the minimal form by its Value: compute/engine/program_model.h).
template <RunnableProgram P>
constexpr bool verifiable = P::kTraits.comparison != Comparison::kUndeclared;

// The oracle --verify compares with; none (nullptr) where the program has no reference().
template <RunnableProgram P>
constexpr OracleFn oracle_of() {
  if constexpr (HasOracle<P>)
    return &P::reference;
  else
    return nullptr;
}

// Every program names its value's column in results.tsv ("vertex" is the first's).
template <RunnableProgram P>
constexpr bool names_its_column = !P::kTraits.value_column.empty() && P::kTraits.value_column != "vertex";

// --app finds a program by its name, and the hello's program id is a hash of
// it: no two programs of the list may share one (a twin, which runs under
// its program's name, is not in the list).
template <RunnableProgram... P>
constexpr bool names_are_distinct(ProgramList<P...>) {
  const std::array<std::string_view, sizeof...(P)> names{P::kTraits.name...};
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = i + 1; j < names.size(); ++j)
      if (names[i] == names[j]) return false;
  return true;
}

template <RunnableProgram... P>
constexpr auto entries_of(ProgramList<P...>) {
  static_assert(names_are_distinct(ProgramList<P...>{}), "two programs share a name, kTraits.name (apps/programs.h)");
  static_assert((precision_is_declared<P> && ...), "kTraits.uses_precision must match DoublePrecision<P>");
  static_assert((weighted_is_declared<P> && ...), "kTraits.uses_weighted must match Weighted<P>");
  static_assert(((verifiable<P> && verifiable<typename DoublePrecision<P>::type> &&
                  verifiable<typename Weighted<P>::type>) && ...),
                "every program declares kTraits.comparison (docs/PROGRAMS.md)");
  static_assert(((names_its_column<P> && names_its_column<typename DoublePrecision<P>::type> &&
                  names_its_column<typename Weighted<P>::type>) && ...),
                "every program names its value's column, kTraits.value_column (docs/OUTPUT.md)");
  return std::array<ProgramEntry, sizeof...(P)>{
      ProgramEntry{P::kTraits, oracle_of<P>(), &run_entry<P>, PerEdgeResults<P>}...};
}
template <RunnableProgram... P>
constexpr auto traits_of(ProgramList<P...>) {
  return std::array<ProgramTraits, sizeof...(P)>{P::kTraits...};
}

const auto kEntries = entries_of(AllPrograms{});
const auto kTraits = traits_of(AllPrograms{});

}  // namespace

std::span<const ProgramEntry> program_entries() { return kEntries; }
std::span<const ProgramTraits> program_traits() { return kTraits; }

const ProgramEntry& program_entry(std::string_view name) {
  for (const ProgramEntry& e : kEntries)
    if (e.traits.name == name) return e;
  std::string names;
  for (const ProgramEntry& e : kEntries) names += (names.empty() ? "" : ", ") + std::string(e.traits.name);
  throw ConfigError("--app: unknown application '" + std::string(name) + "' (expected " + names + ")");
}

}  // namespace wg
