#include "compute/graph/graph_error.h"

namespace wg {

namespace {

std::string format_error(const std::string& file, uint64_t line, const std::string& what) {
  return line == 0 ? file + ": " + what : file + ":" + std::to_string(line) + ": " + what;
}

}  // namespace

GraphError::GraphError(const std::string& file, uint64_t line, const std::string& what)
    : std::runtime_error(format_error(file, line, what)), file_(file), line_(line), detail_(what) {}

}  // namespace wg
