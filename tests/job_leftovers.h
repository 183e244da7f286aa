// What a launcher's job leaves on this machine, found by the job's names
// (python/wiregraph/launcher: run dir, bridge wgb<J>, taps wg<J>t<R>,
// namespaces wg<J>n<R>, veths wg<J>v<R>/wg<J>x<R>, file prefixes wg<J>r<R>):
// for tests that check a run, however it ended, left nothing behind.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cluster_harness.h"

namespace wg::test {

// Where the EAL of a process of this user keeps its runtime directories.
std::string dpdk_runtime_root();

// A hugetlbfs mount with room for a 64 MiB node, or "".
std::string usable_hugetlbfs();

// Paths of the names in `dir` that match the regex `pattern` (none when
// `dir` cannot be read).
std::vector<std::string> matching(const std::string& dir, const std::string& pattern);

// Whether processes started with --file-prefix wg<J>r... (job J's nodes) run.
bool job_has_processes(const std::string& job);

// The job id J from the launcher's "[cluster] job J: ..." line, or "".
std::string job_of(const std::string& launcher_output);

// Everything job J could have left: run dir, bridge, taps, namespaces,
// veths, EAL runtime directories, hugepage files. Empty when nothing is left.
std::vector<std::string> leftovers(const std::string& job);

// A launcher (started by the test with --verbose) killed with SIGKILL mid-run:
// once nodes 0 and 1 have printed their roles (both compute), SIGKILL, then
// until its nodes have ended (their parent-death SIGTERM). *job: its id.
::testing::AssertionResult kill_launcher_mid_run(ChildProcess& launcher, std::string* job);

}  // namespace wg::test
