// Snapshots across nodes (compute/load/snapshot_format.h): pagerank, bfs and
// cc on kron:10:8 at P = 2 (memif), once from the generator with
// --save-snapshot and once from --graph snapshot:DIR; the second run's
// results are the first's, line for line, and both match the oracles
// (tests/reference.h) on the generator's edges. bfs takes its default source
// (the first edge's) from the manifest. A P = 2 snapshot is refused at P = 3,
// and a program with other graph rules (cc symmetrizes; pagerank does not)
// is refused, both before anything is computed. The input's own ids come
// back with the snapshot: a 1-based DIMACS file's (sssp, weights kept) and a
// mapped edge list's (bfs, whose source is the one dense id it knows).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "compute/graph/graph_reader.h"
#include "tests/cluster_harness.h"
#include "tests/reference.h"

namespace wg::test {
namespace {

constexpr int kNodes = 2;
const std::string kGraph = "kron:10:8";

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

LaunchResult run(const TempDir& tmp, const std::string& log, std::vector<std::string> args) {
  LaunchOptions opts;
  opts.nodes = kNodes;
  opts.timeout_sec = 120;
  opts.app_args = std::move(args);
  return run_launcher(opts, tmp.file(log));
}

// A job that must stop: exit status 2 for what the command line can mend
// (another job's snapshot), 1 for a damaged file.
LaunchResult refused(int nodes, std::vector<std::string> args, int status) {
  TempDir log;
  LaunchOptions opts;
  opts.nodes = nodes;
  opts.timeout_sec = 60;
  opts.app_args = std::move(args);
  const LaunchResult r = run_launcher(opts, log.file("cluster.log"));
  EXPECT_EQ(r.exit_code, status) << describe(r);
  return r;
}

TEST(ClusterSnapshotTest, ResultsFromTheSnapshotAreTheLoadedGraphs) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", kNodes, &skip));
  const EdgeList g = load_graph(kGraph);
  ASSERT_FALSE(g.edges.empty());
  const VertexId first_source = g.edges.front().src;  // the default --source
  for (const std::string app : {"pagerank", "bfs", "cc"}) {
    SCOPED_TRACE(app);
    TempDir tmp;
    const std::string snap = tmp.file("snap"), loaded = tmp.file("loaded"), again = tmp.file("again");
    const LaunchResult first =
        run(tmp, "first.log", {"--app", app, "--graph", kGraph, "--save-snapshot", snap, "--out", loaded, "--quiet"});
    ASSERT_EQ(first.exit_code, 0) << describe(first);
    ASSERT_TRUE(std::filesystem::exists(snap + "/manifest.json"));
    for (int r = 0; r < kNodes; ++r) ASSERT_TRUE(std::filesystem::exists(snap + "/node" + std::to_string(r) + ".snap"));
    const LaunchResult second = run(tmp, "second.log", {"--app", app, "--graph", "snapshot:" + snap, "--out", again});
    ASSERT_EQ(second.exit_code, 0) << describe(second);
    EXPECT_NE(second.output.find("ids: as saved in the snapshot (from " + kGraph + ")"), std::string::npos);
    for (int r = 0; r < kNodes; ++r) {
      const std::string name = "/result-" + std::to_string(r) + ".txt";
      EXPECT_EQ(slurp(loaded + name), slurp(again + name)) << name << " differs from the loaded run's";
    }
    std::vector<std::string> values;
    ASSERT_TRUE(read_results(again, g.num_vertices, &values));
    EXPECT_TRUE(check_expected(values, ref::oracle(app, g, first_source, ref::kDefaultIterations)));
  }
}

// Runs `args` from `graph` with --save-snapshot, then from the snapshot;
// the two runs' results must be the same bytes. Returns the snapshot's DIR.
std::string save_and_reload(const TempDir& tmp, const std::string& graph, const std::vector<std::string>& args) {
  const std::string snap = tmp.file("snap"), loaded = tmp.file("loaded"), again = tmp.file("again");
  std::vector<std::string> first = args, second = args;
  first.insert(first.end(), {"--graph", graph, "--save-snapshot", snap, "--out", loaded, "--quiet"});
  second.insert(second.end(), {"--graph", "snapshot:" + snap, "--out", again, "--quiet"});
  const LaunchResult a = run(tmp, "first.log", first);
  EXPECT_EQ(a.exit_code, 0) << describe(a);
  const LaunchResult b = run(tmp, "second.log", second);
  EXPECT_EQ(b.exit_code, 0) << describe(b);
  for (int r = 0; r < kNodes; ++r) {
    const std::string name = "/result-" + std::to_string(r) + ".txt";
    EXPECT_FALSE(slurp(loaded + name).empty());
    EXPECT_EQ(slurp(loaded + name), slurp(again + name)) << name << " differs from the loaded run's";
  }
  return snap;
}

TEST(ClusterSnapshotTest, TheInputsOwnIdsComeBack) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", kNodes, &skip));
  {
    SCOPED_TRACE("rome99.gr, 1-based, sssp");
    TempDir tmp;
    const std::string path = datasets_dir() + "/rome99.gr";
    save_and_reload(tmp, path, {"--app", "sssp", "--source", "7"});
    const EdgeList g = read_graph_file(path);
    std::vector<std::string> values;
    ASSERT_TRUE(read_results(tmp.file("again"), g.num_vertices, &values, 1));
    EXPECT_TRUE(check_expected(values, ref::oracle("sssp", g, 6, ref::kDefaultIterations)));
  }
  {
    SCOPED_TRACE("ca-GrQc.csv, mapped ids, bfs");
    TempDir tmp;
    const std::string snap = save_and_reload(tmp, datasets_dir() + "/ca-GrQc.csv", {"--app", "bfs"});
    const LaunchResult r = refused(kNodes, {"--app", "bfs", "--graph", "snapshot:" + snap, "--source", "5"}, 2);
    EXPECT_NE(r.output.find("knows the dense id of vertex 3466 only (the source it was saved with)"),
              std::string::npos) << describe(r);
  }
}

TEST(ClusterSnapshotTest, AnotherJobIsRefusedBeforeAnythingIsComputed) {
  std::string skip;
  ASSERT_TRUE(prerequisites("memif", kNodes, &skip));
  TempDir tmp;
  const std::string snap = tmp.file("snap");
  const LaunchResult saved = run(tmp, "save.log", {"--app", "pagerank", "--graph", kGraph, "--save-snapshot", snap, "--quiet"});
  ASSERT_EQ(saved.exit_code, 0) << describe(saved);
  {
    const LaunchResult r = refused(3, {"--app", "pagerank", "--graph", "snapshot:" + snap}, 2);
    EXPECT_NE(r.output.find("snapshot " + snap + " was saved by 2 nodes; this job has 3"), std::string::npos)
        << describe(r);
    EXPECT_EQ(r.output.find("loaded in"), std::string::npos) << describe(r);
  }
  {
    const LaunchResult r = refused(kNodes, {"--app", "cc", "--graph", "snapshot:" + snap}, 2);
    EXPECT_NE(r.output.find("symmetrized (undirected): saved no, this job needs yes"), std::string::npos)
        << describe(r);
    EXPECT_EQ(r.output.find("loaded in"), std::string::npos) << describe(r);
  }
  {  // a damaged share: its node refuses it, and the job stops
    std::fstream f(snap + "/node1.snap", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4000);
    const char x = 0x5a;
    f.write(&x, 1);
    f.close();
    const LaunchResult r = refused(kNodes, {"--app", "pagerank", "--graph", "snapshot:" + snap}, 1);
    EXPECT_NE(r.output.find("node1.snap: the data's CRC does not match"), std::string::npos) << describe(r);
  }
}

}  // namespace
}  // namespace wg::test
