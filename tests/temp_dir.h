// A fresh directory from mkdtemp under $TMPDIR (else /tmp), removed with
// everything in it on scope exit; WG_KEEP_TEST_DIRS=1 keeps it for a
// post-mortem. Header-only, for unit and cluster tests alike.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace wg::test {

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/wg-test-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    if (const char* keep = std::getenv("WG_KEEP_TEST_DIRS"); keep != nullptr && *keep != '\0') {
      std::fprintf(stderr, "keeping %s\n", path_.c_str());
      return;
    }
    std::error_code ec;  // a destructor must not throw; a leftover dir is harmless
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

}  // namespace wg::test
