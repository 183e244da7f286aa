// The error every graph reader throws: what is wrong, where in which file.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace wg {

// Every error names the file, the line (0 when not line-based, e.g. binary
// files, where the byte offset is in the message) and what is wrong.
class GraphError : public std::runtime_error {
 public:
  GraphError(const std::string& file, uint64_t line, const std::string& what);
  const std::string& file() const { return file_; }
  uint64_t line() const { return line_; }
  const std::string& detail() const { return detail_; }  // the message without "file:line: "

 private:
  std::string file_;
  uint64_t line_;
  std::string detail_;
};

}  // namespace wg
