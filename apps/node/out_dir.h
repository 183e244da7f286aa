// A run owns its --out directory (docs/OUTPUT.md, "The --out directory").
//
// DIR/wiregraph-run.json, the manifest, names the run that owns DIR and lists
// every file it writes there (scripts/wiregraph-plot adds its pictures). The
// next run removes exactly those files, says so in one line and writes its
// own manifest; it refuses a DIR that holds files no run listed (unless
// --out-keep-others: they are left alone) and a DIR whose run is still alive:
// every node of a run holds a shared lock on DIR/.wiregraph-<run>.lock for as
// long as it lives, so two runs at once cannot mix their files. The nodes of
// one run that share DIR (one host, or a shared file system) claim it once:
// the first writes the manifest, the others find their run in it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/options.h"

namespace wg {

inline constexpr const char* kManifestName = "wiregraph-run.json";

// What a manifest says about the run that owns DIR.
struct OutDirRun {
  uint64_t run = 0;            // the run's id (SuperstepRuntime::run_id): the same on all its nodes
  unsigned nodes = 0;
  std::string program, graph;  // for people
  std::string started;         // local time, ISO 8601
  std::vector<std::string> files;  // relative to DIR
};

// The files a run of `nodes` nodes writes into DIR: result-R.txt and
// nodeR.json for each R, summary.json.
std::vector<std::string> run_files(unsigned nodes);

// Refuses (ConfigError naming DIR and why) a DIR that is not a directory,
// holds files no wiregraph run listed (unless `keep_others`) or that a live
// run writes into; changes nothing (a DIR that does not exist yet is fine).
// `wiregraph --check-options` runs it, so the launcher refuses before any node starts.
void check_out_dir(const std::string& dir, bool keep_others);
// Before the node joins its cluster: creates DIR if need be, checks that this
// process can write there, then check_out_dir.
void prepare_out_dir(const std::string& dir, bool keep_others);

// Holds DIR for a run: its shared lock on DIR/.wiregraph-<run>.lock, released
// when the lease goes (or the process ends). The last process of the run to
// let go removes the file, so that a run that has ended leaves no lock
// behind; a node killed (SIGTERM, SIGKILL) cannot, and the launcher
// (scripts/wiregraph-cluster) or the next run into DIR removes what it left.
class OutDirLease {
 public:
  OutDirLease(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  ~OutDirLease();
  OutDirLease(const OutDirLease&) = delete;
  OutDirLease& operator=(const OutDirLease&) = delete;

 private:
  int fd_;
  std::filesystem::path path_;
};

// Claims DIR for `run` (see above): returns the lease and sets *said to the
// one line that says what happened ("" when another node of the same run
// claimed DIR already). Throws ConfigError when DIR is refused.
std::unique_ptr<OutDirLease> claim_out_dir(const std::string& dir, const OutDirRun& run, bool keep_others,
                                           std::string* said);

// The node's claim once its cluster is formed (apps/node/run_program.h):
// prints the line and keeps the lease for the rest of the process.
void claim_out_dir(const Config& cfg, uint64_t run_id);

}  // namespace wg
