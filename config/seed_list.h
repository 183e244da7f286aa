// --seeds LIST|FILE (apps/ppr.h): vertex ids as the input names them, a
// comma list ("3,17,42") or a file of one id per line (blank lines and
// '#' comments skipped), at most kMaxSeeds, none twice.
#pragma once

#include <cstdint>
#include <vector>

#include "config/option_values.h"

namespace wg {

// The widest wide message holds 16 floats (compute/engine/capabilities/wide_message.h).
inline constexpr unsigned kMaxSeeds = 16;

std::vector<int64_t> parse_seed_list(const OptionArg& a);

}  // namespace wg
