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

// The order --help, docs/OPTIONS.md and the tests list the programs in: these
// first, then every other registered program in the order of its header's
// name. Listing a program here is optional (a registered one is kept once);
// a header without a WG_PROGRAM line runs when listed here and included above.
using ListedPrograms =
    ProgramTypes<PageRank, Sssp, Bfs, ConnectedComponents, LabelPropagation, KCore, Lcc, TriangleCount, Bc, InDegree>;

using AllPrograms = Joined<ListedPrograms, RegisteredPrograms>;

}  // namespace wg
