// Runs scripts/wiregraph-cluster as a child process and checks what the node
// processes leave in their --out directory against the oracles:
//   DIR/result*.txt   lines "<vertex id> <value>", every vertex exactly once
//   DIR/node<R>.json  {"supersteps":[{"superstep":S,"messages_sent":N,
//                      "messages_accumulated":M,...},...]} for each rank R
// Every check returns a ::testing::AssertionResult whose message says what
// is wrong in terms a person debugging the engine can act on.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compute/edge_list.h"

namespace wg::test {

// ------------------------------------------------------------ environment

// WG_SOURCE_DIR, WG_BUILD_DIR, WG_DATASETS (set by tests/meson.build); empty
// when unset.
std::string source_dir();
std::string build_dir();
std::string datasets_dir();
std::string launcher_path();  // <source>/scripts/wiregraph-cluster
std::string binary_path();    // <build>/apps/wiregraph

// Tap links need root (to create taps and a bridge) and the `ip` command.
// Returns an empty string when they can run, else the reason they cannot.
std::string tap_unavailable_reason();

// A fresh directory from mkdtemp, removed with everything in it on scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

// ----------------------------------------------------------------- launch

struct LaunchOptions {
  int nodes = 1;
  std::string link = "memif";          // "memif" or "tap"
  int timeout_sec = 120;               // passed to the launcher (--timeout)
  std::vector<std::string> app_args;   // node options, after "--"
  std::vector<std::string> launcher_flags;  // extra launcher options (e.g. --keep-going)
};

struct LaunchResult {
  int exit_code = -1;      // -1 when the launcher did not exit normally
  bool timed_out = false;  // the harness had to kill it
  std::string command;     // as a shell would show it, for messages
  std::string output;      // launcher's stdout and stderr, interleaved
};

// A node program for the launcher's --binary: node `rank` runs the shell
// command `rank_command` ("$@" holds the node's arguments, e.g.
// "exec BIN \"$@\" --window 4", or "exec sleep 30" for a node that never
// starts), every other node runs binary_path() unchanged. The launcher gives
// every node the same options; this is how a test gives one node others.
// Written into `dir`; returns its path (pass it as launcher_flags
// {"--binary", path}: the launcher takes the last --binary).
std::string write_rank_wrapper(const TempDir& dir, int rank, const std::string& rank_command);

// Runs `python3 <launcher> --nodes .. --link .. --timeout .. --binary <bin>
// -- <app_args>` in its own process group with stdout and stderr sent to
// log_path. Kills the group if it outlives timeout_sec + a grace period, so a
// hung cluster fails the test instead of the suite's timeout.
LaunchResult run_launcher(const LaunchOptions& opts, const std::string& log_path);

// "command\nexit code\n--- output ---\n<last part of the output>": what a
// failing test prints.
std::string describe(const LaunchResult& r);

// ---------------------------------------------------------------- results

// Reads every DIR/result*.txt into values[v] (the value token as written).
// Fails on unreadable files, no files, malformed lines, ids >= n, duplicate
// and missing vertices.
::testing::AssertionResult read_results(const std::string& dir, VertexId n,
                                        std::vector<std::string>* values);

// Compare parsed values with an oracle's. PageRank: |got - want| <=
// 1e-4 * |want| + 1e-9 (the engine sums float messages). Distances: exact,
// "inf" for ref::kInfinity. Labels: exact.
::testing::AssertionResult check_pagerank(const std::vector<std::string>& got,
                                          const std::vector<double>& want);
::testing::AssertionResult check_distances(const std::vector<std::string>& got,
                                           const std::vector<uint64_t>& want);
::testing::AssertionResult check_labels(const std::vector<std::string>& got,
                                        const std::vector<VertexId>& want);

// ------------------------------------------------------- node statistics

struct SuperstepCounts {
  uint64_t superstep = 0;
  uint64_t messages_sent = 0;
  uint64_t messages_accumulated = 0;
};

// Parses the "supersteps" array of one node<R>.json. A deliberately small
// JSON reader: it understands the whole JSON syntax well enough to skip any
// member, and reads only the three counters above from each element (other
// members, nested objects and key order do not matter). Returns false and
// sets *error on malformed input or a missing counter.
bool parse_superstep_counts(std::string_view json, std::vector<SuperstepCounts>* out,
                            std::string* error);

// Reads DIR/node0.json .. node<nodes-1>.json and checks that, for every
// superstep, the messages sent by all nodes equal the messages accumulated
// by all nodes: nothing lost, nothing counted twice.
::testing::AssertionResult check_message_balance(const std::string& dir, int nodes);

}  // namespace wg::test
