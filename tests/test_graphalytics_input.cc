// Graphalytics input without a cluster: the .properties reader, the vertex
// and edge line parsers, and --graph NAME.properties as the default of the
// algorithms' parameters (config/options.h).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "apps/registry.h"
#include "compute/graph/graphalytics_input.h"
#include "compute/graph/id_table.h"
#include "config/options.h"

namespace wg {
namespace {

class TempFiles {
 public:
  TempFiles() {
    char tmpl[] = "/tmp/wg-ga-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
  }
  ~TempFiles() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

// The error message of `f`, or "" when it does not throw GraphError.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const GraphError& e) {
    return e.what();
  }
  return "";
}

// As ldbc_graphalytics' config-template/graphs/example-directed.properties.
const char* const kExample =
    "# Properties file describing the example-directed dataset\n"
    "graph.example-directed.vertex-file = example-directed.v\n"
    "graph.example-directed.edge-file = example-directed.e\n"
    "graph.example-directed.meta.vertices = 10\n"
    "graph.example-directed.meta.edges = 17\n"
    "graph.example-directed.directed = true\n"
    "graph.example-directed.edge-properties.names = weight\n"
    "graph.example-directed.edge-properties.types = real\n"
    "graph.example-directed.algorithms = bfs, cdlp, lcc, pr, sssp, wcc\n"
    "graph.example-directed.bfs.source-vertex = 1\n"
    "graph.example-directed.cdlp.max-iterations = 2\n"
    "graph.example-directed.pr.damping-factor = 0.85\n"
    "graph.example-directed.pr.num-iterations = 2\n"
    "graph.example-directed.sssp.weight-property = weight\n"
    "graph.example-directed.sssp.source-vertex = -3\n";

TEST(GraphalyticsProperties, ReadsTheExampleFile) {
  TempFiles tmp;
  const std::string path = tmp.write("example-directed.properties", kExample);
  const GraphalyticsSpec s = read_graphalytics_properties(path);
  EXPECT_EQ(s.name, "example-directed");
  EXPECT_EQ(s.vertex_file, tmp.dir() + "/example-directed.v");  // relative to the .properties file
  EXPECT_EQ(s.edge_file, tmp.dir() + "/example-directed.e");
  EXPECT_TRUE(s.directed);
  EXPECT_EQ(s.edge_properties, 1u);
  EXPECT_EQ(s.weight_column, 0);
  // The algorithms' parameters are kept as lines, for the program that reads them.
  ASSERT_NE(s.property("sssp.source-vertex"), nullptr);
  EXPECT_EQ(s.property("sssp.source-vertex")->value, "-3");
  EXPECT_EQ(s.property("sssp.source-vertex")->line, 15u);
  EXPECT_EQ(s.property("pr.damping-factor")->value, "0.85");
  EXPECT_EQ(s.property("lcc.nothing"), nullptr);
  EXPECT_EQ(s.meta_vertices, 10u);
  EXPECT_EQ(s.meta_edges, 17u);
}

TEST(GraphalyticsProperties, JavaPropertiesSyntax) {
  const std::vector<PropertyLine> p = parse_properties(
      "x", "# comment\n! also a comment\n\n  a = 1\nb: two words\nc three\nd = con\\\n   tinued\ne\n");
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].key, "a");
  EXPECT_EQ(p[0].value, "1");
  EXPECT_EQ(p[0].line, 4u);
  EXPECT_EQ(p[1].value, "two words");
  EXPECT_EQ(p[2].key, "c");
  EXPECT_EQ(p[2].value, "three");
  EXPECT_EQ(p[3].value, "continued");
  EXPECT_EQ(p[4].key, "e");
  EXPECT_EQ(p[4].value, "");
}

TEST(GraphalyticsProperties, WeightColumnAmongSeveralProperties) {
  TempFiles tmp;
  const std::string path = tmp.write("g.properties",
                                     "graph.g.directed = false\n"
                                     "graph.g.edge-properties.names = time, cost\n"
                                     "graph.g.edge-properties.types = integer, real\n"
                                     "graph.g.sssp.weight-property = cost\n"
                                     "graph.g.vertex-file = /abs/g.v\n");
  const GraphalyticsSpec s = read_graphalytics_properties(path);
  EXPECT_FALSE(s.directed);
  EXPECT_EQ(s.edge_properties, 2u);
  EXPECT_EQ(s.weight_column, 1);
  EXPECT_EQ(s.vertex_file, "/abs/g.v");
  EXPECT_EQ(s.edge_file, tmp.dir() + "/g.e");  // the default NAME.e
}

TEST(GraphalyticsProperties, BadFilesNameTheLineAndKey) {
  TempFiles tmp;
  EXPECT_NE(error_of([&] { read_graphalytics_properties(tmp.write("a.properties", "graph.a.vertex-file = a.v\n")); })
                .find("missing graph.a.directed"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_graphalytics_properties(tmp.write("b.properties", "graph.other.directed = true\n")); })
                .find("no key starts with 'graph.b.'"),
            std::string::npos);
  // An algorithm's parameter is checked by the program that reads it (config/graphalytics_defaults.h).
  const std::string c = tmp.write("c.properties", "graph.c.directed = true\ngraph.c.pr.num-iterations = x\n");
  EXPECT_EQ(error_of([&] { read_graphalytics_properties(c); }), "");
  try {
    std::vector<std::string> args = {"wiregraph", "--app", "pagerank", "--graph", c};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    parse_app_args(static_cast<int>(argv.size()), argv.data(), program_traits());
    ADD_FAILURE() << "pr.num-iterations = x accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("c.properties:2: graph.c.pr.num-iterations: 'x' is not a non-negative integer"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NE(error_of([&] {
              read_graphalytics_properties(tmp.write("d.properties", "graph.d.directed = yes\n"));
            }).find("'yes' is not true or false"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              read_graphalytics_properties(tmp.write("e.properties",
                                                     "graph.e.directed = true\ngraph.e.edge-properties.names = w\n"
                                                     "graph.e.sssp.weight-property = cost\n"));
            }).find("names 'cost', which is not among graph.e.edge-properties.names"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_graphalytics_properties(tmp.dir() + "/missing.properties"); }).find("cannot open"),
            std::string::npos);
}

TEST(GraphalyticsLines, VertexAndEdgeLines) {
  GraphalyticsSpec weighted;
  weighted.properties_path = "g.properties";
  weighted.edge_properties = 1;
  weighted.weight_column = 0;
  EXPECT_EQ(reader::parse_graphalytics_vertex("g.v", "-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(reader::parse_graphalytics_vertex("g.v", "9223372036854775807 prop"), INT64_MAX);
  const reader::GraphalyticsEdge e = reader::parse_graphalytics_edge("g.e", weighted, "-7 4294967301 0.125");
  EXPECT_EQ(e.src, -7);
  EXPECT_EQ(e.dst, 4294967301);
  EXPECT_EQ(e.weight, 0.125);
  EXPECT_EQ(e.fields, 3u);
  EXPECT_EQ(reader::parse_graphalytics_edge("g.e", weighted, "1 2 0").weight, 0.0);
  EXPECT_EQ(reader::parse_graphalytics_edge("g.e", weighted, "1 2 1e-3").weight, 1e-3);
  EXPECT_NE(error_of([&] { reader::parse_graphalytics_edge("g.e", weighted, "1 2 -0.5"); })
                .find("field 3 (weight): '-0.5' is not a finite non-negative number"),
            std::string::npos);
  EXPECT_NE(error_of([&] { reader::parse_graphalytics_edge("g.e", weighted, "1 2 nan"); }).find("'nan'"), std::string::npos);
  EXPECT_NE(error_of([&] { reader::parse_graphalytics_edge("g.e", weighted, "1 2"); })
                .find("expected the weight in field 3 but the line has 2 fields"),
            std::string::npos);
  EXPECT_NE(error_of([&] { reader::parse_graphalytics_edge("g.e", weighted, "1 9223372036854775808 1"); })
                .find("field 2 (dst): '9223372036854775808' is out of the signed 64-bit range"),
            std::string::npos);
  EXPECT_NE(error_of([&] { reader::parse_graphalytics_edge("g.e", weighted, "1x 2 1"); }).find("field 1 (src): '1x'"),
            std::string::npos);
  // A bare pair takes a third column as the weight when there is one.
  const GraphalyticsSpec pair = graphalytics_pair("/d/g.e", false);
  EXPECT_EQ(pair.vertex_file, "/d/g.v");
  EXPECT_EQ(reader::parse_graphalytics_edge("g.e", pair, "1 2").weight, 1.0);
  EXPECT_EQ(reader::parse_graphalytics_edge("g.e", pair, "1 2 2.5").weight, 2.5);
  EXPECT_TRUE(reader::is_graphalytics_vertex_line(" 5"));
  EXPECT_FALSE(reader::is_graphalytics_vertex_line(" \t\r"));
}

// The id mapping's table: every key, INT64_MIN and INT64_MAX included,
// found after many growths; a repeated key keeps its first value.
TEST(IdTable, MapsSparseIdsThroughGrowth) {
  IdTable t;
  std::vector<int64_t> ids = {INT64_MIN, INT64_MAX, -1, 0, 1, 4294967296, -4294967296};
  for (int64_t i = 0; i < 5000; ++i) ids.push_back(i * 1000003 - 2500000000LL);
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_TRUE(t.insert(ids[i], static_cast<uint32_t>(i))) << ids[i];
  EXPECT_EQ(t.size(), ids.size());
  EXPECT_FALSE(t.insert(ids[3], 99));
  for (size_t i = 0; i < ids.size(); ++i) {
    const uint32_t* d = t.find(ids[i]);
    ASSERT_NE(d, nullptr) << ids[i];
    EXPECT_EQ(*d, i) << ids[i];
  }
  EXPECT_EQ(t.find(7), nullptr);
  EXPECT_EQ(t.find(INT64_MIN + 1), nullptr);
  size_t seen = 0;
  t.for_each([&](int64_t, uint32_t) { ++seen; });
  EXPECT_EQ(seen, ids.size());
  t.clear();
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.find(INT64_MIN), nullptr);
  EXPECT_EQ(t.find(0), nullptr);
}

Config parse(std::vector<std::string> args) {
  args.insert(args.begin(), "wiregraph");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return parse_app_args(static_cast<int>(argv.size()), argv.data(), program_traits());
}

// The .properties file's parameters are the defaults; the command line wins.
TEST(GraphalyticsOptions, ParametersFromThePropertiesFileUnlessGiven) {
  TempFiles tmp;
  const std::string path = tmp.write("example-directed.properties", kExample);
  const Config bfs = parse({"--app", "bfs", "--graph", path});
  EXPECT_TRUE(bfs.graphalytics);
  EXPECT_EQ(bfs.source_id, 1);
  EXPECT_FALSE(bfs.undirected);
  EXPECT_TRUE(bfs.graphalytics_output);
  EXPECT_EQ(parse({"--app", "sssp", "--graph", path}).source_id, -3);
  EXPECT_EQ(parse({"--app", "sssp", "--graph", path, "--source", "-9000000000"}).source_id, -9000000000);
  const Config pr = parse({"--app", "pagerank", "--graph", path});
  EXPECT_EQ(pr.iterations, 2u);
  EXPECT_EQ(pr.damping, 0.85);
  EXPECT_TRUE(pr.double_precision);
  const Config pr2 = parse({"--app", "pagerank", "--graph", path, "--iterations", "9", "--damping", "0.5",
                            "--precision", "single", "--output-format", "plain"});
  EXPECT_EQ(pr2.iterations, 9u);
  EXPECT_EQ(pr2.damping, 0.5);
  EXPECT_FALSE(pr2.double_precision);
  EXPECT_FALSE(pr2.graphalytics_output);
  EXPECT_EQ(parse({"--app", "cd", "--graph", path}).iterations, 2u);
  // Not a Graphalytics graph: --source is the file's id, single precision
  // (an edge list's ids may be sparse: --ids dense refuses a negative one).
  const Config plain = parse({"--app", "bfs", "--graph", "g.el", "--source", "7"});
  EXPECT_FALSE(plain.graphalytics);
  EXPECT_EQ(plain.source, 7u);
  EXPECT_FALSE(plain.double_precision);
  EXPECT_THROW(parse({"--app", "bfs", "--graph", "g.el", "--ids", "dense", "--source", "-1"}), ConfigError);
  EXPECT_THROW(parse({"--app", "bfs", "--graph", path, "--source", "1.5"}), ConfigError);
  EXPECT_THROW(parse({"--app", "pagerank", "--graph", path, "--damping", "1.5"}), ConfigError);
  EXPECT_THROW(parse({"--app", "pagerank", "--graph", path, "--output-format", "csv"}), ConfigError);
  // An undirected graph's .properties makes the run undirected.
  const std::string undirected = tmp.write("u.properties", "graph.u.directed = false\n");
  EXPECT_TRUE(parse({"--app", "bfs", "--graph", undirected}).undirected);
}

}  // namespace
}  // namespace wg
