// Every program wiregraph runs: the one list that option parsing, --help,
// dispatch, --verify and the tests iterate (apps/registry.h). Adding a
// program: write apps/NAME.h with a WG_PROGRAM(Type) line (its kTraits, and
// its oracle, reference(), if it has one, say everything the rest needs);
// the build collects those lines into registered_programs.h
// (apps/list_programs.py). Nothing else names a program (docs/PROGRAMS.md).
#pragma once

#include "apps/program_list.h"
#include "apps/registered_programs.h"  // generated in the build directory

namespace wg {

// Programs listed by hand (a header without a WG_PROGRAM line: include it
// above); one also registered is kept once.
using HandListedPrograms = ProgramTypes<>;

using AllPrograms = Joined<RegisteredPrograms, HandListedPrograms>;

}  // namespace wg
