// LDBC Graphalytics graphs (the "EVLP" format of the Graphalytics
// specification, github.com/ldbc/ldbc_graphalytics_docs, tex/definition.tex,
// "Representation"): NAME.v holds one vertex id per line, NAME.e one edge
// per line ("src dst [properties...]"), ids are signed 64-bit integers, not
// necessarily from 0 nor contiguous; NAME.properties (Java properties, keys
// "graph.NAME.*", as in ldbc_graphalytics' config-template/graphs/) says
// whether the graph is directed, names the edge properties and gives the
// algorithms' parameters (kept as lines here: which of them a run reads is
// the program's business, config/graphalytics_defaults.h).
//
// The loader (compute/load/graph_loader.h) reads the two files in byte ranges with
// the line rule of compute/graph/line_slice.h and maps the ids to dense 32-bit ones
// while loading: a vertex's dense id is its line's rank among the vertex
// lines of NAME.v. The parsers here serve it, one line at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compute/graph/graph_error.h"

namespace wg {

// One line of a Java .properties file (parse_properties).
struct PropertyLine {
  std::string key, value;
  uint64_t line;
};

struct GraphalyticsSpec {
  std::string name;              // NAME of the graph.NAME.* keys
  std::string properties_path;   // empty for a bare .v/.e pair
  std::string vertex_file, edge_file;
  bool directed = true;
  unsigned edge_properties = 0;  // property columns after "src dst"
  int weight_column = -1;        // which of them is the weight (0-based), -1: unweighted
  uint64_t meta_vertices = 0, meta_edges = 0;  // for reporting only (0: absent)
  // Every graph.NAME.* line of NAME.properties, in file order (none for a
  // bare pair): the algorithms' parameters among them, read as the defaults
  // of the options they stand for.
  std::vector<PropertyLine> properties;

  // The line of graph.NAME.<key>, e.g. key "pr.damping-factor"; null when
  // the file has none (the last one wins, as in Java).
  const PropertyLine* property(std::string_view key) const;
};

// True for a --graph that names a Graphalytics graph: NAME.properties, or
// NAME.v / NAME.e (the pair, both required).
bool is_graphalytics_path(const std::string& path);

// Reads NAME.properties (vertex-file and edge-file are relative to its
// directory, default NAME.v and NAME.e). Throws GraphError naming the file,
// the line and the key for a malformed line or value, a missing
// "graph.NAME.directed", or a weight property that is not among the edge
// properties.
GraphalyticsSpec read_graphalytics_properties(const std::string& path);
// A bare pair from NAME.v or NAME.e: directed unless `undirected`, weighted
// when the edge lines have a third column (decided by the loader).
GraphalyticsSpec graphalytics_pair(const std::string& path, bool undirected);
// One of them, by the path's extension.
GraphalyticsSpec graphalytics_spec(const std::string& path, bool undirected);

// A Java .properties file as (key, value, line) in file order: "key = value"
// or "key: value" or "key value", '#' and '!' comments, blank lines, a
// trailing backslash continuing a line. Throws GraphError on a line with no
// key. (The subset Graphalytics' files use; Unicode escapes are not decoded.)
std::vector<PropertyLine> parse_properties(const std::string& path, std::string_view text);

namespace reader {

// A vertex line of NAME.v: every line that is not blank. Its first field is
// the id; anything after it (vertex properties) is ignored.
inline bool is_graphalytics_vertex_line(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return true;
  return false;
}

// One edge line: src, dst and the weight (1 when the spec has none). Throws
// GraphError (line 0) for a missing field, a bad id, a weight that is not a
// finite non-negative number.
struct GraphalyticsEdge {
  int64_t src, dst;
  double weight;
  unsigned fields;  // on the line
};
GraphalyticsEdge parse_graphalytics_edge(const std::string& path, const GraphalyticsSpec& spec, std::string_view line);
// The vertex id of a vertex line.
int64_t parse_graphalytics_vertex(const std::string& path, std::string_view line);

}  // namespace reader
}  // namespace wg
