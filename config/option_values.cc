#include "config/option_values.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace wg {

std::optional<uint64_t> parse_integer(std::string_view text) {
  uint64_t v = 0;
  int base = 10;
  std::string_view digits = text;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    base = 16;
    digits.remove_prefix(2);
  }
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, v, base);
  if (ec != std::errc() || ptr != end || digits.empty()) return std::nullopt;
  return v;
}

std::string range_text(uint64_t min, uint64_t max) {
  std::string s = "[";  // appended, not "[" + ...: GCC 12 sees a false -Wrestrict in that
  s += std::to_string(min);
  s += ", ";
  s += std::to_string(max);
  s += "]";
  return s;
}

void OptionArg::fail(const std::string& why) const { throw ConfigError(what + ": '" + text + "' " + why); }

uint64_t OptionArg::unsigned_in(uint64_t min, uint64_t max) const {
  const std::optional<uint64_t> v = parse_integer(text);
  if (!v) fail("is not a non-negative integer");
  if (*v < min || *v > max) throw ConfigError(what + ": " + text + " is out of range " + range_text(min, max));
  return *v;
}

double OptionArg::positive_up_to(double max) const {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || v <= 0) fail("is not a positive number");
  if (v > max) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%g", max);
    throw ConfigError(what + ": " + text + " is out of range (0, " + bound + "]");
  }
  return v;
}

double OptionArg::number_in(double min, double max) const {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(v >= min && v <= max)) {
    char range[64];
    std::snprintf(range, sizeof range, "[%g, %g]", min, max);
    fail(std::string("is not a number in ") + range);
  }
  return v;
}

int64_t OptionArg::signed_integer(const std::string& of) const {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || text.empty()) fail("is not " + of);
  return v;
}

bool OptionArg::either(const char* first, const char* second) const { return one_of({first, second}) == 0; }

size_t OptionArg::one_of(std::initializer_list<const char*> words) const {
  size_t i = 0;
  std::string list;
  for (const char* w : words) {
    if (text == w) return i;
    list += i == 0 ? "" : i + 1 == words.size() ? " or " : ", ";
    list += w;
    ++i;
  }
  fail("is not " + list);
}

const std::string& OptionArg::not_empty(const char* noun) const {
  if (text.empty()) throw ConfigError(what + ": the " + noun + " is empty");
  return text;
}

}  // namespace wg
