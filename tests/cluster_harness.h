// Runs scripts/wiregraph-cluster as a child process and checks what the node
// processes leave in their --out directory against the oracles:
//   DIR/result*.txt   lines "<vertex id> <value>", every vertex exactly once
//   DIR/node<R>.json  the node's report (compute/report/run_report.h), read with
//                     nlohmann-json; the launcher itself checks that their
//                     messages sent and accumulated balance (python/wiregraph/wglib.py)
// Every check returns a ::testing::AssertionResult whose message says what
// is wrong in terms a person debugging the engine can act on.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "compute/graph/edge_list.h"
#include "tests/reference.h"
#include "tests/temp_dir.h"

namespace wg::test {

// ------------------------------------------------------------ environment

// WG_SOURCE_DIR, WG_BUILD_DIR, WG_DATASETS (set by tests/meson.build); empty
// when unset.
std::string source_dir();
std::string build_dir();
std::string datasets_dir();
std::string launcher_path();  // <source>/scripts/wiregraph-cluster
std::string binary_path();    // <build>/apps/wiregraph

// Tap links need root (to create taps and a bridge) and the `ip` command;
// so do af_xdp links (veths on a bridge).
// Returns an empty string when they can run, else the reason they cannot.
std::string tap_unavailable_reason();

// ----------------------------------------------------------------- launch

struct LaunchOptions {
  int nodes = 1;
  std::string link = "memif";          // "memif", "tap" or "af_xdp"
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

// A fresh job key in `dir` (64 hex digits, mode 0600), as the launcher
// makes one per run: for tests that start node binaries themselves (a node
// of a job with P > 1 refuses to run without one). Returns its path.
std::string write_key_file(const TempDir& dir);

// Runs `python3 <launcher> --nodes .. --link .. --timeout .. --binary <bin>
// -- <app_args>` in its own process group with stdout and stderr sent to
// log_path. Kills the group if it outlives timeout_sec + a grace period, so a
// hung cluster fails the test instead of the suite's timeout.
LaunchResult run_launcher(const LaunchOptions& opts, const std::string& log_path);

// A process a test starts and signals while it runs (a node, a launcher):
// its own process group, stdin from /dev/null, stdout and stderr to a log
// file. The destructor kills its group if it still runs.
class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& argv, const std::string& log_path);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  int pid() const { return pid_; }
  std::string output() const;  // the log so far
  void signal(int sig) const;  // the process only, not its group
  // Reaps it; false if it has not ended within `seconds`. *status as waitpid's.
  bool wait(double seconds, int* status);

 private:
  int pid_ = -1;
  bool reaped_ = false;
  std::string log_;
};

// Polls `done` every 20 ms until it holds or `seconds` pass (false then): for
// a state another process reaches, such as a file it creates; never a fixed sleep.
bool eventually(const std::function<bool()>& done, double seconds);

// "command\nexit code\n--- output ---\n<last part of the output>": what a
// failing test prints.
std::string describe(const LaunchResult& r);

// A run that must fail: P nodes over memif (log in `dir`), the launcher's
// exit status 1 expected (a non-fatal failure otherwise); the node's message
// is in the result's output.
LaunchResult run_refused(const TempDir& dir, int nodes, std::vector<std::string> app_args);

// The launcher and the node binary exist (failure), and for tap and af_xdp
// links with P > 1 whether they can run here (*skip says why not).
::testing::AssertionResult prerequisites(const std::string& link, int nodes, std::string* skip);

// The lines of `output` that start with `prefix` ("[node 1] ").
std::vector<std::string> lines_starting(const std::string& output, const std::string& prefix);
// The launcher's verdict on node R: "exit code 1, 3.01 s" or "killed by
// SIGKILL, 0.67 s" from "[cluster] node R: ...".
std::optional<std::string> node_status(const std::string& output, int rank);
// Seconds the launcher says node R ran, from its status line's ", 3.01 s".
double node_seconds(const std::string& status);

// ---------------------------------------------------------------- results

// Reads every DIR/result*.txt into values[v] (the value token as written).
// Fails on unreadable files, no files, malformed lines, ids outside
// first_id..first_id+n-1, duplicate and missing vertices. A file that numbers
// its vertices from 1 (Matrix Market, DIMACS, METIS) has its results so:
// first_id 1, and values[v] is the line of the file's vertex v + 1.
::testing::AssertionResult read_results(const std::string& dir, VertexId n, std::vector<std::string>* values,
                                        VertexId first_id = 0);
// Labels (cc, cd) are vertex ids as the file names them: back to 0-based
// ones for the oracles of a file whose ids start at first_id.
void labels_from(VertexId first_id, std::vector<std::string>* values);

// Compare parsed values with an oracle's. PageRank: |got - want| <=
// 1e-4 * |want| + 1e-9 (the engine sums float messages). Distances: exact,
// "inf" for ref::kInfinity. Labels: exact.
::testing::AssertionResult check_pagerank(const std::vector<std::string>& got,
                                          const std::vector<double>& want);
::testing::AssertionResult check_distances(const std::vector<std::string>& got,
                                           const std::vector<uint64_t>& want);
::testing::AssertionResult check_labels(const std::vector<std::string>& got,
                                        const std::vector<VertexId>& want);
// Any program's values against its oracle (tests/reference.h), by the
// comparison the oracle names.
// Per-edge results as read_results gives them (values[src]: "dst:value ...",
// dense ids) against the oracle's edges.
::testing::AssertionResult check_edges(const std::vector<std::string>& got, const std::vector<EdgeResult<double>>& want);
::testing::AssertionResult check_expected(const std::vector<std::string>& got, const ref::Expected& want);

// ------------------------------------------------------- node statistics

// Parses a JSON document (a node<R>.json) with nlohmann-json. Returns false
// and sets *error (the parser's message, with the byte offset) on malformed
// input.
bool parse_json(const std::string& text, nlohmann::json* out, std::string* error);

// Reads and parses a file; false with *error saying why (cannot read, or the
// parser's message prefixed by the path).
bool read_json_file(const std::string& path, nlohmann::json* out, std::string* error);

// The non-negative integer at a path of object keys, e.g. {"faults", "rx",
// "dropped"}; 0 when it is missing or not a non-negative integer (1.5, -1,
// "7", true), and then *error says which, if it was empty.
uint64_t json_counter(const nlohmann::json& root, std::initializer_list<std::string_view> path,
                      std::string* error);

// The cluster check that, in every superstep, the messages sent by all nodes
// equal the messages accumulated by all nodes (nothing lost, nothing folded
// twice) exists once, in python/wiregraph/wglib.py: the launcher runs it after a clean
// run with --out, prints its verdict and exits 1 when it fails.

// The launcher's verdict in its output: success only when it printed
// "cluster check: every message sent was accumulated".
::testing::AssertionResult launcher_found_balance(const LaunchResult& r);

// Runs the same check on DIR/node0.json .. node<nodes-1>.json
// (`python3 -m wiregraph.wglib check-balance DIR NODES`): for tests of the
// check itself on crafted files. The failure message is the check's output.
::testing::AssertionResult check_message_balance(const std::string& dir, int nodes);

}  // namespace wg::test
