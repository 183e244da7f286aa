// The job's secret for authenticated frames (dataplane/frame_mac.h): 32
// bytes, from --key-file PATH or the WIREGRAPH_KEY environment variable
// (which srun and mpirun pass to every task). Errors name where the key came
// from and what is wrong with it.
#pragma once

#include <string>
#include <string_view>

#include "dataplane/frame_mac.h"

namespace wg {

inline constexpr const char* kKeyEnvironmentVariable = "WIREGRAPH_KEY";
// How to make a key, for error messages and --help.
inline constexpr const char* kMakeKeyCommand = "head -c 32 /dev/urandom | xxd -p -c 64 > key; chmod 600 key";

// 64 hex digits, whitespace around them ignored. `what` names the source in
// errors ("environment variable WIREGRAPH_KEY"). Throws std::invalid_argument.
MasterKey parse_hex_key(std::string_view text, const std::string& what);

// A key file: 64 hex digits (a final newline allowed) or exactly 32 raw
// bytes; refused when it is missing or not a regular file, when group or
// others may read or write it (naming the mode), or when it holds anything
// else. Throws std::invalid_argument naming "--key-file PATH".
MasterKey read_key_file(const std::string& path);

}  // namespace wg
