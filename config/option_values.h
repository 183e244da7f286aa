// One option's value as the parser meets it, and the checks the options use
// on it. Every error names where the value came from (the option, or the
// line of a file that gave its default) and the value itself:
//   --nodes: '2x' is not a non-negative integer
//   g.properties:7: graph.g.pr.num-iterations: 5000000 is out of range [0, 1000000]
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace wg {

// A command-line error: the node exits 2 with its text.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// TEXT as an integer (decimal, or hex after 0x); nullopt if it is not one.
std::optional<uint64_t> parse_integer(std::string_view text);
// "[1, 64]"
std::string range_text(uint64_t min, uint64_t max);

struct OptionArg {
  std::string what;  // "--nodes", or "g.properties:7: graph.g.pr.num-iterations"
  std::string text;  // the value as given

  // Throws ConfigError "WHAT: 'TEXT' WHY".
  [[noreturn]] void fail(const std::string& why) const;
  // An integer in [min, max] (decimal, or hex after 0x).
  uint64_t unsigned_in(uint64_t min, uint64_t max) const;
  // A finite number in (0, max]: every timer and rate has a ceiling, so that
  // no value overflows when it is turned into TSC ticks.
  double positive_up_to(double max) const;
  // A number in [min, max].
  double number_in(double min, double max) const;
  // A signed 64-bit integer; `of` says whose ("the graph's own ids").
  int64_t signed_integer(const std::string& of) const;
  // One of two words: true for the first, false for the second.
  bool either(const char* first, const char* second) const;
  // The index of the word TEXT is among `words`.
  size_t one_of(std::initializer_list<const char*> words) const;
  // TEXT, refused when empty ("--out: the directory name is empty").
  const std::string& not_empty(const char* noun) const;
};

}  // namespace wg
