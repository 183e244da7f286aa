// A first run on an ordinary graph file (issue #24): one node in this
// process, assembled and run as the binary runs it (parse_app_args, Node,
// the program's run function, the files of --out), on the datasets of
// ../shared/datasets. Each case is checked against the test's own reading of
// the file and a plain single-threaded oracle here (union-find, BFS,
// Dijkstra), never against wiregraph's reader:
//   - ids: --ids auto gives ca-GrQc its 5,242 vertices and 355 components,
//     and keeps dense files dense;
//   - 1-based files (DIMACS, METIS, Matrix Market) keep their own ids in
//     --source, in the result lines and in labels; --source 0 is refused
//     naming the range;
//   - weights: programs that read none ignore the column (negative, real);
//     sssp reads real weights from an edge list and refuses negative ones
//     naming the line and the reason;
//   - sources: one without out-edges is warned about; one beyond the graph
//     is refused naming the ids.
#include <gtest/gtest.h>
#include <rte_eal.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/node/out_dir.h"
#include "apps/node/node.h"
#include "apps/node/outputs.h"
#include "apps/registry.h"
#include "config/options.h"
#include "tests/eal_test_main.h"
#include "tests/graphs_for_tests.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

std::string dataset(const std::string& name) {
  const char* dir = std::getenv("WG_DATASETS");
  return std::string(dir != nullptr ? dir : "../shared/datasets") + "/" + name;
}

// ---- the run: as apps/main.cc runs a node ------------------------------------

struct AppRun {
  int exit_code = -1;
  std::string errors;                       // what the node wrote to stderr
  std::map<int64_t, std::string> results;   // result lines: vertex -> value
  nlohmann::json node_json;                 // DIR/node0.json
};

// Runs `args` (after --app, --graph ...) on one node with --out in `out`;
// stderr is captured. A vertex written twice fails the test.
AppRun run_app(std::vector<std::string> args, const std::string& out) {
  args.insert(args.begin(), "wiregraph");
  args.insert(args.end(), {"--quiet", "--mbufs", "4095", "--out", out});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  AppRun r;
  std::fflush(stderr);
  const int saved = ::dup(2);
  std::FILE* captured = std::tmpfile();
  ::dup2(::fileno(captured), 2);
  try {
    const Config cfg = parse_app_args(static_cast<int>(args.size()), argv.data(), program_traits());
    prepare_out_dir(cfg.out_dir, cfg.out_keep_others);
    Node node(cfg);
    r.exit_code = program_entry(cfg.app).run(node).exit_code;
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "wiregraph: error: %s\n", e.what());
    r.exit_code = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wiregraph: error: %s\n", e.what());
    r.exit_code = 1;
  }
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::rewind(captured);
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, captured)) > 0;) r.errors.append(buf, n);
  std::fclose(captured);
  if (r.exit_code != 0) return r;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("result-", 0) != 0) continue;
    std::ifstream in(entry.path());
    int64_t v;
    std::string value;
    while (in >> v >> value) EXPECT_TRUE(r.results.emplace(v, value).second) << "vertex " << v << " written twice";
  }
  std::ifstream json(out + "/node0.json");
  if (json) r.node_json = nlohmann::json::parse(json, nullptr, false);
  return r;
}

// ---- the test's own reading of the files ----------------------------------------

struct FileEdge {
  int64_t src, dst;
  double weight;
};

std::vector<std::string_view> fields(std::string_view line, bool commas) {
  std::vector<std::string_view> out;
  size_t i = 0;
  auto sep = [&](char c) { return c == ' ' || c == '\t' || c == '\r' || (commas && c == ','); };
  while (i < line.size()) {
    while (i < line.size() && sep(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !sep(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}
int64_t integer(std::string_view s) {
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}
double real(std::string_view s) { return std::stod(std::string(s)); }

// "src dst [weight ...]" lines, '#' and '%' comments, blank or comma separated.
std::vector<FileEdge> read_edge_list(const std::string& path) {
  std::ifstream in(path);
  std::vector<FileEdge> e;
  for (std::string line; std::getline(in, line);) {
    const auto f = fields(line, true);
    if (f.empty() || f[0][0] == '#' || f[0][0] == '%') continue;
    e.push_back({integer(f[0]), integer(f[1]), f.size() > 2 ? real(f[2]) : 1.0});
  }
  return e;
}

// DIMACS "a u v w" lines, in the file's ids.
std::vector<FileEdge> read_dimacs_arcs(const std::string& path) {
  std::ifstream in(path);
  std::vector<FileEdge> e;
  for (std::string line; std::getline(in, line);) {
    const auto f = fields(line, false);
    if (f.size() == 4 && f[0] == "a") e.push_back({integer(f[1]), integer(f[2]), real(f[3])});
  }
  return e;
}

// An unweighted METIS file: line k after the header lists vertex k's neighbours (1-based).
std::vector<FileEdge> read_metis(const std::string& path, int64_t* n) {
  std::ifstream in(path);
  std::vector<FileEdge> e;
  std::string line;
  while (std::getline(in, line) && (line.empty() || line[0] == '%')) {
  }
  *n = integer(fields(line, false)[0]);
  for (int64_t v = 1; v <= *n && std::getline(in, line); ++v)
    for (std::string_view t : fields(line, false)) e.push_back({v, integer(t), 1.0});
  return e;
}

// ---- oracles ----------------------------------------------------------------------

// Each vertex's component, named by its smallest id (how cc labels).
std::map<int64_t, int64_t> components(const std::vector<FileEdge>& edges, const std::set<int64_t>& vertices) {
  std::unordered_map<int64_t, int64_t> parent;
  std::function<int64_t(int64_t)> find = [&](int64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (int64_t v : vertices) parent[v] = v;
  for (const FileEdge& e : edges) {
    const int64_t a = find(e.src), b = find(e.dst);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root stays the smallest id
  }
  std::map<int64_t, int64_t> label;
  for (int64_t v : vertices) label[v] = find(v);
  return label;
}

std::map<int64_t, uint64_t> bfs(const std::vector<FileEdge>& edges, int64_t source) {
  std::unordered_map<int64_t, std::vector<int64_t>> out;
  for (const FileEdge& e : edges) out[e.src].push_back(e.dst);
  std::map<int64_t, uint64_t> hops{{source, 0}};
  std::queue<int64_t> q;
  q.push(source);
  while (!q.empty()) {
    const int64_t u = q.front();
    q.pop();
    for (int64_t v : out[u])
      if (hops.emplace(v, hops[u] + 1).second) q.push(v);
  }
  return hops;
}

std::map<int64_t, double> dijkstra(const std::vector<FileEdge>& edges, int64_t source) {
  std::unordered_map<int64_t, std::vector<std::pair<int64_t, double>>> out;
  for (const FileEdge& e : edges) out[e.src].push_back({e.dst, e.weight});
  std::map<int64_t, double> dist;
  using Item = std::pair<double, int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  q.push({0.0, source});
  while (!q.empty()) {
    const auto [d, u] = q.top();
    q.pop();
    if (dist.count(u)) continue;
    dist[u] = d;
    for (const auto& [v, w] : out[u])
      if (!dist.count(v)) q.push({d + w, v});
  }
  return dist;
}

std::set<int64_t> ids_of(const std::vector<FileEdge>& edges) {
  std::set<int64_t> ids;
  for (const FileEdge& e : edges) ids.insert({e.src, e.dst});
  return ids;
}

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// A run refused with exit status `code`, its message naming each of `needles`.
void expect_refused(const std::vector<std::string>& args, int code, const std::vector<std::string>& needles) {
  test::TempDir out;
  const AppRun r = run_app(args, out.path());
  EXPECT_EQ(r.exit_code, code) << r.errors;
  for (const std::string& n : needles) EXPECT_TRUE(contains(r.errors, n)) << "'" << n << "' not in: " << r.errors;
}

// ---- ids ---------------------------------------------------------------------------

// ca-GrQc names 5,242 ids between 3 and 26,196: --ids auto takes them as
// its vertices (dense ids made 26,197, and 21,310 components of them).
TEST(IdsAuto, CaGrQcHasItsOwnVerticesAndComponents) {
  test::TempDir out;
  const std::string path = dataset("ca-GrQc.csv");
  const AppRun r = run_app({"--app", "cc", "--graph", path}, out.path());
  ASSERT_EQ(r.exit_code, 0) << r.errors;
  const std::vector<FileEdge> edges = read_edge_list(path);
  const std::set<int64_t> ids = ids_of(edges);
  ASSERT_EQ(ids.size(), 5242u) << "SOURCES.md: 5,242 distinct ids";
  const std::map<int64_t, int64_t> want = components(edges, ids);
  EXPECT_EQ(r.results.size(), ids.size()) << "one result line per id the file names";
  std::set<int64_t> labels;
  for (const auto& [v, label] : want) {
    ASSERT_TRUE(r.results.count(v)) << "vertex " << v << " has no result line";
    EXPECT_EQ(r.results.at(v), std::to_string(label)) << "vertex " << v;
    labels.insert(label);
  }
  EXPECT_EQ(labels.size(), 355u) << "the component count union-find gives";
  EXPECT_EQ(r.node_json["config"]["ids"], "sparse");
  EXPECT_TRUE(contains(r.node_json["config"]["ids_chosen"].get<std::string>(), "the edges name 5,242 ids"))
      << r.node_json["config"]["ids_chosen"];
}

// --ids dense keeps GAP's rule (V = largest id + 1): wiki-Vote's 1,183 ids
// that no edge names are isolated vertices, and the ids: line counts them;
// a file that names every id 0..largest is dense under auto too.
TEST(IdsAuto, DenseIdsAddTheUnnamedAndSayHowMany) {
  test::TempDir out;
  const std::string path = dataset("wiki-Vote.txt");
  const AppRun r = run_app({"--app", "bfs", "--graph", path, "--source", "30", "--ids", "dense"}, out.path());
  ASSERT_EQ(r.exit_code, 0) << r.errors;
  EXPECT_EQ(r.results.size(), 8298u);
  EXPECT_EQ(r.node_json["config"]["ids"], "dense");
  EXPECT_TRUE(contains(r.node_json["config"]["ids_chosen"].get<std::string>(),
                       "1,183 of them named by no edge are isolated vertices"))
      << r.node_json["config"]["ids_chosen"];
  const std::map<int64_t, uint64_t> hops = bfs(read_edge_list(path), 30);
  for (int64_t v = 0; v < 8298; ++v) {
    const auto h = hops.find(v);
    EXPECT_EQ(r.results.at(v), h == hops.end() ? "inf" : std::to_string(h->second)) << "vertex " << v;
  }
  test::TempDir every;
  const AppRun e = run_app({"--app", "cc", "--graph", dataset("email-Eu-core.csv")}, every.path());
  ASSERT_EQ(e.exit_code, 0) << e.errors;
  EXPECT_EQ(e.node_json["config"]["ids"], "dense");
  EXPECT_EQ(e.results.size(), 1005u);
}

// --vertices N: the vertices are 0..N-1 whatever the edges name (a graph
// written from memory keeps its isolated vertices, the highest ids too);
// the ids: line and nodeR.json say where the count came from; an id >= N is
// refused naming the line, the field and the id; a 1-based file's own count
// must agree with it.
TEST(GivenVertices, IsolatedHighestIdsAreVerticesOfTheirOwn) {
  test::TempDir dir;
  const std::string path = dir.file("g.txt");
  std::ofstream(path) << "0 1\n1 2\n4 3\n";
  test::TempDir out;
  const AppRun r = run_app({"--app", "cc", "--graph", path, "--vertices", "7"}, out.path());
  ASSERT_EQ(r.exit_code, 0) << r.errors;
  const std::map<int64_t, std::string> want{{0, "0"}, {1, "0"}, {2, "0"}, {3, "3"}, {4, "3"}, {5, "5"}, {6, "6"}};
  EXPECT_EQ(r.results, want);
  EXPECT_EQ(r.node_json["config"]["ids"], "dense");
  EXPECT_EQ(r.node_json["config"]["vertices"], 7);
  EXPECT_TRUE(contains(r.node_json["config"]["ids_chosen"].get<std::string>(), "--vertices 7"))
      << r.node_json["config"]["ids_chosen"];
  expect_refused({"--app", "cc", "--graph", path, "--vertices", "4"}, 1,
                 {"g.txt:3", "field 1 (src)", "vertex id 4", "--vertices 4"});
  expect_refused({"--app", "bfs", "--graph", path, "--vertices", "4", "--source", "5"}, 2,
                 {"--source 5", "--vertices 4", "0..3"});
  expect_refused({"--app", "cc", "--graph", dataset("rome99.gr"), "--vertices", "3000"}, 1,
                 {"--vertices 3000", "declares 3353 vertices"});
}

// What the hellos compare is the decision, not the option: auto that chose
// sparse is sparse, and differs from a node that read the file dense.
TEST(IdsAuto, TheDecisionEntersTheParameterDigest) {
  // The node's configuration once assembled (apps/node/node.h decides).
  auto decided = [](std::vector<std::string> args) {
    args.insert(args.begin(), {"wiregraph", "--app", "cc", "--graph", dataset("ca-GrQc.csv"), "--mbufs", "4095"});
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    const Node node(parse_app_args(static_cast<int>(argv.size()), argv.data(), program_traits()));
    return std::pair{node.config().sparse_ids, node.config().params_digest()};
  };
  const auto [sparse, digest] = decided({});
  EXPECT_TRUE(sparse);
  EXPECT_EQ(digest, decided({"--ids", "sparse"}).second);
  EXPECT_NE(digest, decided({"--ids", "dense"}).second);
}

// ---- 1-based files -----------------------------------------------------------------

// rome99 numbers its nodes 1..3353: --source 3353 is its last one, and the
// result lines are the file's ids with the distances from it.
TEST(OneBased, DimacsSourceAndResultsUseTheFilesIds) {
  const std::string path = dataset("rome99.gr");
  const std::vector<FileEdge> arcs = read_dimacs_arcs(path);
  for (int64_t source : {int64_t{3353}, int64_t{1}}) {
    SCOPED_TRACE("--source " + std::to_string(source));
    test::TempDir out;
    const AppRun r = run_app({"--app", "sssp", "--graph", path, "--source", std::to_string(source)}, out.path());
    ASSERT_EQ(r.exit_code, 0) << r.errors;
    ASSERT_EQ(r.results.size(), 3353u);
    EXPECT_EQ(r.results.begin()->first, 1) << "the file's first node";
    EXPECT_EQ(r.results.rbegin()->first, 3353) << "the file's last node";
    const std::map<int64_t, double> dist = dijkstra(arcs, source);
    for (int64_t v = 1; v <= 3353; ++v) {
      const auto d = dist.find(v);
      EXPECT_EQ(r.results.at(v), d == dist.end() ? "inf" : std::to_string(static_cast<uint64_t>(d->second)))
          << "node " << v;
    }
    EXPECT_EQ(r.node_json["config"]["source"], source);
  }
}

TEST(OneBased, SourceZeroIsRefusedNamingTheRange) {
  expect_refused({"--app", "bfs", "--graph", dataset("rome99.gr"), "--source", "0"}, 2,
                 {"--source 0 is not a vertex", "1..3353"});
  expect_refused({"--app", "bfs", "--graph", dataset("rome99.gr"), "--source", "3354"}, 2, {"1..3353"});
}

// Labels are vertex ids: a METIS file's components are named by their
// smallest file id.
TEST(OneBased, MetisLabelsAreTheFilesIds) {
  const std::string path = dataset("4elt.graph");
  int64_t n = 0;
  const std::vector<FileEdge> edges = read_metis(path, &n);
  std::set<int64_t> vertices;
  for (int64_t v = 1; v <= n; ++v) vertices.insert(v);
  const std::map<int64_t, int64_t> want = components(edges, vertices);
  test::TempDir out;
  const AppRun r = run_app({"--app", "cc", "--graph", path}, out.path());
  ASSERT_EQ(r.exit_code, 0) << r.errors;
  ASSERT_EQ(r.results.size(), static_cast<size_t>(n));
  for (const auto& [v, label] : want) EXPECT_EQ(r.results.at(v), std::to_string(label)) << "vertex " << v;
}

// Matrix Market: karate's members are 1..34; BFS from member 1.
TEST(OneBased, MatrixMarketSourceOneIsTheFilesFirstVertex) {
  const std::string path = dataset("fixtures/cugraph/karate.mtx");
  std::vector<FileEdge> edges;
  {
    std::ifstream in(path);
    bool size_line = true;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '%') continue;
      if (std::exchange(size_line, false)) continue;
      const auto f = fields(line, false);
      edges.push_back({integer(f[0]), integer(f[1]), 1});
      edges.push_back({integer(f[1]), integer(f[0]), 1});  // symmetric
    }
  }
  test::TempDir out;
  const AppRun r = run_app({"--app", "bfs", "--graph", path, "--source", "1"}, out.path());
  ASSERT_EQ(r.exit_code, 0) << r.errors;
  const std::map<int64_t, uint64_t> hops = bfs(edges, 1);
  ASSERT_EQ(r.results.size(), 34u);
  for (int64_t v = 1; v <= 34; ++v) EXPECT_EQ(r.results.at(v), std::to_string(hops.at(v))) << "member " << v;
}

// ---- weights -------------------------------------------------------------------------

// Programs that read no weights ignore the column: bitcoin's negative
// ratings, west0067's negative reals, a 0.5.
TEST(Weights, ProgramsThatReadNoneIgnoreTheColumn) {
  {
    const std::string path = dataset("soc-sign-bitcoinotc.csv");
    test::TempDir out;
    const AppRun r = run_app({"--app", "bfs", "--graph", path, "--source", "1"}, out.path());
    ASSERT_EQ(r.exit_code, 0) << r.errors;
    const std::map<int64_t, uint64_t> hops = bfs(read_edge_list(path), 1);
    for (const auto& [v, h] : hops) EXPECT_EQ(r.results.at(v), std::to_string(h)) << "vertex " << v;
    EXPECT_EQ(std::count_if(r.results.begin(), r.results.end(), [](const auto& x) { return x.second != "inf"; }),
              static_cast<long>(hops.size()));
  }
  {
    test::TempDir out;
    const AppRun r = run_app({"--app", "pagerank", "--graph", dataset("fixtures/lagraph/west0067.mtx")}, out.path());
    ASSERT_EQ(r.exit_code, 0) << r.errors;
    EXPECT_EQ(r.results.size(), 67u);
  }
  {
    test::TempDir out;
    const std::string path = out.file("half.el");
    std::ofstream(path) << "0 1 0.5\n1 2 -0.25\n3 4 7\n";
    const AppRun r = run_app({"--app", "cc", "--graph", path}, out.file("out"));
    ASSERT_EQ(r.exit_code, 0) << r.errors;
    EXPECT_EQ(r.results, (std::map<int64_t, std::string>{{0, "0"}, {1, "0"}, {2, "0"}, {3, "3"}, {4, "3"}}));
  }
}

// The corner-case graph with weights in eighths (exact in binary, so sums
// compare exactly) as an edge list: sssp reads them as reals, --precision
// auto seeing a fraction, --precision double whatever it sees.
TEST(Weights, SsspReadsRealWeightsFromAnEdgeList) {
  const EdgeList g = test::corner_case_graph();
  test::TempDir dir;
  const std::string path = dir.file("eighths.el");
  {
    std::ofstream f(path);
    char w[32];
    for (const Edge& e : g.edges) {
      std::snprintf(w, sizeof w, "%.17g", e.weight / 8.0);
      f << e.src << ' ' << e.dst << ' ' << w << '\n';
    }
  }
  const std::vector<FileEdge> edges = read_edge_list(path);
  const std::map<int64_t, double> dist = dijkstra(edges, 0);
  for (const char* precision : {"auto", "double"}) {
    SCOPED_TRACE(std::string("--precision ") + precision);
    const AppRun r = run_app({"--app", "sssp", "--graph", path, "--precision", precision}, dir.file(precision));
    ASSERT_EQ(r.exit_code, 0) << r.errors;
    EXPECT_EQ(r.node_json["config"]["precision"], "double");
    for (const auto& [v, value] : r.results) {
      const auto d = dist.find(v);
      if (d == dist.end())
        EXPECT_EQ(value, "inf") << "vertex " << v;
      else
        EXPECT_EQ(std::stod(value), d->second) << "vertex " << v;
    }
  }
}

// The first negative rating: line 597, "104,179,-1,1300756036".
TEST(Weights, NegativeWeightsAreRefusedForSsspNamingLineAndReason) {
  expect_refused({"--app", "sssp", "--graph", dataset("soc-sign-bitcoinotc.csv"), "--source", "1"}, 1,
                 {"soc-sign-bitcoinotc.csv:597", "field 3 (weight)", "'-1'", "negative", "Dijkstra"});
}

// ---- sources ---------------------------------------------------------------------------

// wiki-Vote's vertex 61 has no out-edges: BFS from it reaches nothing, and
// says so; from the default source (30, the first edge's) it does not.
TEST(Sources, ASourceWithoutOutEdgesIsWarnedAbout) {
  test::TempDir out;
  const AppRun r = run_app({"--app", "bfs", "--graph", dataset("wiki-Vote.txt"), "--source", "61"}, out.path());
  ASSERT_EQ(r.exit_code, 0) << r.errors;
  EXPECT_TRUE(contains(r.errors, "warning: the source, vertex 61 of")) << r.errors;
  EXPECT_TRUE(contains(r.errors, "has no out-edges")) << r.errors;
  test::TempDir busy_out;  // a run owns its --out (apps/node/out_dir.h), and this process's first run holds out
  const AppRun busy = run_app({"--app", "bfs", "--graph", dataset("wiki-Vote.txt")}, busy_out.path());
  ASSERT_EQ(busy.exit_code, 0) << busy.errors;
  EXPECT_FALSE(contains(busy.errors, "warning")) << busy.errors;
}

TEST(Sources, ASourceBeyondTheGraphIsRefusedNamingItsIds) {
  // An edge list's vertices are known once loaded: the nearest ones are named.
  expect_refused({"--app", "bfs", "--graph", dataset("wiki-Vote.txt"), "--source", "9000"}, 1,
                 {"the source vertex 9000 is not a vertex", "the nearest id that is a vertex is 8297"});
  expect_refused({"--app", "sssp", "--graph", "kron:6:4", "--source", "64"}, 2, {"0..63"});
}

}  // namespace
}  // namespace wg

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (!wg::test::init_test_eal("test_input_rules", "wg_test_input_rules", 512)) return 1;
  const int rc = RUN_ALL_TESTS();
  rte_eal_cleanup();
  return rc;
}
