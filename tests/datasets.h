// The shared datasets (../shared/datasets) for unit tests: meson test sets
// WG_DATASETS (tests/meson.build). Header-only.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace wg::test {

// The path of `rel` under the datasets directory.
inline std::string dataset(const std::string& rel) {
  const char* dir = std::getenv("WG_DATASETS");
  if (dir == nullptr) throw std::runtime_error("WG_DATASETS is not set; run the tests with `meson test`");
  return std::string(dir) + "/" + rel;
}

}  // namespace wg::test
