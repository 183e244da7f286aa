// A run owns its --out directory (apps/node/out_dir.h): real files and
// locks in a temporary directory, runs simulated by their claims and the
// files they write. No EAL.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/node/out_dir.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

OutDirRun run_of(uint64_t id, unsigned nodes) {
  OutDirRun r;
  r.run = id;
  r.nodes = nodes;
  r.program = "cc";
  r.graph = "g.el";
  r.started = "2026-11-27T19:30:00";
  r.files = run_files(nodes);
  return r;
}

// What the nodes of `run` write once they have claimed DIR.
void write_files(const std::string& dir, const OutDirRun& run) {
  for (const std::string& f : run.files) std::ofstream(fs::path(dir) / f) << "x\n";
}

// The names a person sees in DIR (ls without -a).
std::set<std::string> visible(const std::string& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (n[0] != '.') names.insert(n);
  }
  return names;
}

std::set<std::string> with_manifest(std::vector<std::string> files) {
  std::set<std::string> s(files.begin(), files.end());
  s.insert(kManifestName);
  return s;
}

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(OutDirOwnership, AThreeNodeRunThenATwoNodeRunLeaveTheTwoNodeFilesOnly) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  std::string said;
  prepare_out_dir(dir, false);
  {
    auto lease = claim_out_dir(dir, run_of(1, 3), false, &said);
    EXPECT_EQ(said, "out: " + dir + " is this run's (it was empty)");
    write_files(dir, run_of(1, 3));
  }
  prepare_out_dir(dir, false);  // the earlier run's files are no stranger's
  auto lease = claim_out_dir(dir, run_of(2, 2), false, &said);
  EXPECT_NE(said.find("removed the 7 files of the run before (cc, 3 nodes, started 2026-11-27T19:30:00): "
                      "result-0.txt, result-1.txt, result-2.txt, node0.json"),
            std::string::npos)
      << said;
  EXPECT_EQ(visible(dir), with_manifest({})) << "nothing of the first run is left";
  write_files(dir, run_of(2, 2));
  EXPECT_EQ(visible(dir), with_manifest(run_files(2)));
  std::ifstream in(fs::path(dir) / kManifestName);
  const nlohmann::json m = nlohmann::json::parse(in);
  EXPECT_EQ(m["nodes"], 2);
  EXPECT_EQ(m["files"].get<std::vector<std::string>>(), run_files(2));
}

TEST(OutDirOwnership, FilesOfNoRunAreRefusedOrKeptWhenAsked) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  fs::create_directories(dir);
  std::ofstream(fs::path(dir) / "thesis.tex") << "mine\n";
  std::string why = refusal([&] { prepare_out_dir(dir, false); });
  EXPECT_NE(why.find("--out " + dir + ": holds 1 file of no wiregraph run (thesis.tex)"), std::string::npos) << why;
  EXPECT_NE(why.find("--out-keep-others"), std::string::npos) << why;
  std::string said;
  why = refusal([&] { claim_out_dir(dir, run_of(1, 2), false, &said); });
  EXPECT_NE(why.find("thesis.tex"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(fs::path(dir) / kManifestName));

  // Asked to keep them: they stay, and the next run removes only its predecessor's files.
  EXPECT_EQ(refusal([&] { prepare_out_dir(dir, true); }), "");
  {
    auto lease = claim_out_dir(dir, run_of(1, 2), true, &said);
    EXPECT_NE(said.find("1 other file left alone (--out-keep-others)"), std::string::npos) << said;
    write_files(dir, run_of(1, 2));
  }
  // A stranger's file beside a run's files is still a stranger's.
  why = refusal([&] { prepare_out_dir(dir, false); });
  EXPECT_NE(why.find("its last run's manifest does not list (thesis.tex)"), std::string::npos) << why;
  auto lease = claim_out_dir(dir, run_of(2, 1), true, &said);
  std::set<std::string> want = with_manifest(run_files(1));
  want.insert("thesis.tex");
  write_files(dir, run_of(2, 1));
  EXPECT_EQ(visible(dir), want);
}

TEST(OutDirOwnership, ALiveRunKeepsItsDirectory) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  prepare_out_dir(dir, false);
  std::string said;
  auto first = claim_out_dir(dir, run_of(1, 2), false, &said);
  write_files(dir, run_of(1, 2));
  std::string why = refusal([&] { prepare_out_dir(dir, false); });
  EXPECT_NE(why.find("another run (cc on g.el, 2 nodes, started 2026-11-27T19:30:00) is writing into it"),
            std::string::npos)
      << why;
  why = refusal([&] { claim_out_dir(dir, run_of(2, 2), false, &said); });
  EXPECT_NE(why.find("another run"), std::string::npos) << why;
  EXPECT_EQ(visible(dir), with_manifest(run_files(2))) << "the live run's files are untouched";
  first.reset();  // its nodes have ended
  EXPECT_EQ(refusal([&] { claim_out_dir(dir, run_of(2, 2), false, &said); }), "");
}

// Every node of a run that shares DIR claims it: the first writes the
// manifest, the others find their run there and remove nothing.
TEST(OutDirOwnership, TheNodesOfOneRunClaimItOnce) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  prepare_out_dir(dir, false);
  std::string said;
  auto node0 = claim_out_dir(dir, run_of(5, 2), false, &said);
  EXPECT_FALSE(said.empty());
  std::ofstream(fs::path(dir) / "result-0.txt") << "0 1\n";
  auto node1 = claim_out_dir(dir, run_of(5, 2), false, &said);
  EXPECT_EQ(said, "") << "one line per run";
  EXPECT_TRUE(fs::exists(fs::path(dir) / "result-0.txt")) << "a node's file removed by its own run";
}

// Every name in DIR, dot files too.
std::set<std::string> all_names(const std::string& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// A run that has ended leaves no lock: the claim's goes with the claim, the
// run's with the last of its processes to let it go (and not before: while
// one holds it the run is alive).
TEST(OutDirOwnership, ARunThatHasEndedLeavesNoLockFile) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  prepare_out_dir(dir, false);
  std::string said;
  auto node0 = claim_out_dir(dir, run_of(7, 2), false, &said);
  auto node1 = claim_out_dir(dir, run_of(7, 2), false, &said);
  EXPECT_EQ(all_names(dir), (std::set<std::string>{kManifestName, ".wiregraph-0000000000000007.lock"}))
      << "the claim's lock is gone with the claim";
  node0.reset();
  EXPECT_TRUE(fs::exists(fs::path(dir) / ".wiregraph-0000000000000007.lock")) << "node 1 still holds it";
  EXPECT_NE(refusal([&] { check_out_dir(dir, false); }).find("is writing into it"), std::string::npos)
      << "the run is still alive";
  node1.reset();
  EXPECT_EQ(all_names(dir), (std::set<std::string>{kManifestName}));
  EXPECT_EQ(refusal([&] { check_out_dir(dir, false); }), "");
  // The next run finds its lock where it looks for it.
  auto next = claim_out_dir(dir, run_of(8, 1), false, &said);
  EXPECT_NE(refusal([&] { check_out_dir(dir, false); }).find("is writing into it"), std::string::npos);
}

// Whether a flock request of this process waits in the kernel (/proc/locks
// shows a waiter as "N: -> FLOCK ... PID ...").
bool this_process_waits_for_a_flock() {
  std::ifstream locks("/proc/locks");
  const std::string pid = " " + std::to_string(::getpid()) + " ";
  for (std::string line; std::getline(locks, line);)
    if (line.find(" -> FLOCK") != std::string::npos && line.find(pid) != std::string::npos) return true;
  return false;
}

// The nodes of a job on one host check DIR at once, before they have met (a
// restarted job: the attempt before left its manifest, and the lock file of
// a node that was killed). A node's look at that lock takes it for a moment;
// another node looking then must not take the look for a live run. Here one
// node is caught mid-look, and the other checks.
TEST(OutDirOwnership, NodesCheckingAtOnceDoNotTakeEachOtherForALiveRun) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  prepare_out_dir(dir, false);
  std::string said;
  claim_out_dir(dir, run_of(9, 2), false, &said).reset();
  write_files(dir, run_of(9, 2));
  const fs::path killed_nodes_lock = fs::path(dir) / ".wiregraph-0000000000000009.lock";
  std::ofstream(killed_nodes_lock).close();
  const int claim = ::open((fs::path(dir) / ".wiregraph-run.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  const int look = ::open(killed_nodes_lock.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(claim, 0);
  ASSERT_GE(look, 0);
  ASSERT_EQ(::flock(claim, LOCK_EX), 0);
  ASSERT_EQ(::flock(look, LOCK_EX | LOCK_NB), 0);
  std::future<std::string> other = std::async(std::launch::async, [&] { return refusal([&] { check_out_dir(dir, false); }); });
  // Until the other node has answered, or waits for the first to finish its look.
  while (other.wait_for(std::chrono::seconds(0)) != std::future_status::ready && !this_process_waits_for_a_flock())
    std::this_thread::yield();
  ::close(look);
  ::close(claim);
  EXPECT_EQ(other.get(), "") << "the other node took a look for a live run";
}

// scripts/wiregraph-plot lists its pictures in the manifest: the next run
// removes them and their directory.
TEST(OutDirOwnership, ListedSubdirectoriesGoWithTheirFiles) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  prepare_out_dir(dir, false);
  std::string said;
  OutDirRun first = run_of(1, 1);
  first.files.push_back("plots/throughput.png");
  {
    auto lease = claim_out_dir(dir, first, false, &said);
    fs::create_directories(fs::path(dir) / "plots");
    write_files(dir, first);
  }
  prepare_out_dir(dir, false);
  auto lease = claim_out_dir(dir, run_of(2, 1), false, &said);
  EXPECT_FALSE(fs::exists(fs::path(dir) / "plots"));
  EXPECT_NE(said.find("removed the 4 files"), std::string::npos) << said;
}

TEST(OutDirOwnership, AManifestThatIsNotOneIsRefused) {
  test::TempDir tmp;
  const std::string dir = tmp.file("out");
  fs::create_directories(dir);
  std::ofstream(fs::path(dir) / kManifestName) << "{\"files\": [\"../../etc/passwd\"], \"run\": \"1\", \"nodes\": 1}";
  const std::string why = refusal([&] { prepare_out_dir(dir, false); });
  EXPECT_NE(why.find("a name outside the directory"), std::string::npos) << why;
  std::ofstream(fs::path(dir) / kManifestName) << "not json";
  EXPECT_NE(refusal([&] { prepare_out_dir(dir, false); }).find("is not a wiregraph run's manifest"), std::string::npos);
}

}  // namespace
}  // namespace wg
