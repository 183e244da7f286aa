// The programs of apps/programs.h as a table the rest of the binary reads at
// run time: their traits (option parsing, --help, the tests), their oracle
// (--verify, the tests) and their run function (dispatch: one call per run,
// not per message).
#pragma once

#include <span>
#include <string_view>

#include "compute/engine/memory_budget.h"
#include "compute/engine/oracle.h"
#include "compute/engine/program_traits.h"
#include "apps/node/node.h"
#include "apps/node/verify_verdict.h"

namespace wg {

struct ProgramEntry {
  ProgramTraits traits;
  OracleFn reference;            // the program's oracle (compute/engine/oracle.h); nullptr: it has none
  RunOutcome (*run)(Node& node);  // apps/node/run_program.h
  // Results per edge (`src dst value` lines: jaccard, compute/engine/capabilities/neighbourhood.h)
  // instead of per vertex.
  bool per_edge_results = false;
};

std::span<const ProgramEntry> program_entries();
std::span<const ProgramTraits> program_traits();
// The entry named `name`; throws ConfigError listing the programs.
const ProgramEntry& program_entry(std::string_view name);

}  // namespace wg
