// Every application option of the node, declared once (option_table.cc):
// its name, argument, default, topic and help, how its value is parsed and
// checked, whether every node of a job must agree on it (the hello's
// parameter digest) and how the start-up banner shows it. The parser
// (config/options.cc), --help and docs/OPTIONS.md (config/usage.cc), the
// banner and the digest (Config::describe, Config::params_digest) are all
// made from it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compute/engine/program_traits.h"
#include "config/option_values.h"

namespace wg {

struct Config;

// Where --help groups an option; `--help TOPIC` shows one group, the short
// --help page the common one.
enum class Topic : uint8_t { kCommon, kInput, kOutput, kSecurity, kTuning, kTransport, kTesting };
inline constexpr Topic kTopics[] = {Topic::kCommon, Topic::kInput,     Topic::kOutput, Topic::kSecurity,
                                    Topic::kTuning, Topic::kTransport, Topic::kTesting};
std::string_view topic_name(Topic t);   // "common", "input", ... (--help TOPIC)
std::string_view topic_title(Topic t);  // "Common options", ...

// What the parser keeps while it reads the options (config/options.cc).
struct ParseState {
  Config& c;
  std::span<const ProgramTraits> programs;  // --app's choices
  std::vector<bool> given;                  // by option index: given on the command line
  // Parsed once the graph is known (its range depends on whether ids are mapped).
  std::optional<OptionArg> source;
  std::string key_file;  // --key-file, read once the other options are known
  bool no_auth = false;
  int64_t crash_rank = -1, crash_step = -1;  // --crash-node R:S (S = kCrashInLoad: R:load)
};
inline constexpr int64_t kCrashInLoad = -2;
inline constexpr int64_t kCrashInCheckpoint = -3;  // R:checkpoint

struct OptionSpec {
  std::string_view name;     // without the leading "--"
  std::string_view arg;      // the value's placeholder; empty for a flag
  std::string_view default_text;  // for --help and the docs; empty: nothing to say
  Topic topic;
  std::string_view help;     // one line
  std::string_view details;  // the rest, for --help-all and docs/OPTIONS.md
  void (*parse)(ParseState& s, const OptionArg& value);
  // A shared program parameter: the trait that says a program reads it (a
  // program that does not has it refused on its command line, and neither
  // banner nor digest show it) and its key among the program's Graphalytics
  // parameters (a Graphalytics graph's properties give its default).
  bool ProgramTraits::*read_by = nullptr;
  std::string_view GraphalyticsNames::*graphalytics_key = nullptr;
  // Non-null: every node of a job must agree on this value (params_digest).
  uint64_t (*digest)(const Config& c) = nullptr;
  // Its part of the banner (Config::describe), "" when it shows nothing.
  std::string (*banner)(const Config& c) = nullptr;
};

// The options in banner order (within a topic, --help's order too).
std::span<const OptionSpec> option_table();
// The option named `name` (without "--"); null when there is none.
const OptionSpec* find_option(std::string_view name);
// The option whose name is within a typo of `name` (without "--": "sorce"
// gives source), for the "did you mean" of an unknown option; null when none is.
const OptionSpec* closest_option(std::string_view name);
// Its index in option_table(); throws std::logic_error for a name that is
// not one (a typo in the code, not the user's).
size_t option_index(std::string_view name);

// "pagerank, sssp, bfs, cc, cd, kcore or lcc"
std::string program_list(std::span<const ProgramTraits> programs);
// "'bfs'" for program_id("bfs") among `programs`; else the id, said unknown.
std::string program_name(uint32_t id, std::span<const ProgramTraits> programs);
// "bfs and sssp": the programs that read `spec` (a program parameter).
std::string programs_reading(const OptionSpec& spec, std::span<const ProgramTraits> programs);

}  // namespace wg
