// --help and docs/OPTIONS.md, made from the option table
// (config/option_table.h) and the programs' traits: a short page of the
// common options, one topic's options (--help TOPIC), or all of them
// (--help-all; with --markdown, docs/OPTIONS.md). Text lines fit 80 columns.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "compute/engine/program_traits.h"

namespace wg {

inline constexpr size_t kHelpColumns = 80;

struct HelpRequest {
  std::string topic;      // "": the short page; "all"; a topic's name (topic_name) or "programs"
  bool markdown = false;  // --markdown (with --help-all): docs/OPTIONS.md
};

// What the arguments ask for, wherever they stand (the node answers before
// the EAL starts): -h, --help, --help TOPIC, --help=TOPIC, --help-all
// [--markdown]. nullopt when they ask for no help.
std::optional<HelpRequest> help_request(int argc, char** argv);
// True if the arguments ask for help.
bool wants_help(int argc, char** argv);

// The text asked for; throws ConfigError for an unknown topic, naming the known ones.
std::string help_text(const HelpRequest& request, std::span<const ProgramTraits> programs);

}  // namespace wg
