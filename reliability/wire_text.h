// Text that arrived in a frame (an ABORT's reason) on its way to a
// terminal or a log: printable ASCII only. Anything else (escape sequences
// that move the cursor or retitle the terminal, newlines that fake log
// lines, bytes that are not ASCII) is written as \xHH, and a backslash as
// \\, so that the text stays readable and says exactly what was sent.
#pragma once

#include <string>
#include <string_view>

namespace wg {

inline std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace wg
