#include "apps/registry.h"

#include <array>
#include <string>

#include "apps/programs.h"
#include "runtime/run_program.h"

namespace wg {

namespace {

template <VertexProgram... P>
constexpr auto entries_of(ProgramList<P...>) {
  return std::array<ProgramEntry, sizeof...(P)>{
      ProgramEntry{P::kTraits, &run_program<P>}...};
}
template <VertexProgram... P>
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
