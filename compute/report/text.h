// Text for people: printf into a std::string, shares as percentages.
#pragma once

#include <cstdint>
#include <string>

namespace wg {

// Up to 511 characters, as printf would write them.
std::string text_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// 100 x part / whole; 0 when whole is 0.
inline double percent_of(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace wg
