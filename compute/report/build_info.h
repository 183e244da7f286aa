// What a build is: the project's version (meson.build) and the git commit
// its sources were at, read by meson's vcs_tag at every build (build_info.cc
// is generated from build_info.cc.in, and rewritten only when the commit
// changes). Every command's --version and every report file carry them.
#pragma once

#include <string>
#include <string_view>

namespace wg::build {

std::string_view version();  // "0.1.0"
// "5cc2a8f"; "5cc2a8f-dirty" when the sources differed from it; "unknown"
// outside a git checkout.
std::string_view commit();
// "wiregraph 0.1.0 (commit 5cc2a8f)": what `program --version` prints.
std::string version_line(std::string_view program);

}  // namespace wg::build
