#include "compute/graph/graphalytics_input.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "compute/graph/reader_support.h"

namespace wg {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\f' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\f' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw GraphError(path, 0, "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string sibling(const std::string& path, const std::string& extension) {
  std::filesystem::path p(path);
  p.replace_extension(extension);
  return p.string();
}

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const size_t comma = s.find(',');
    out.emplace_back(trim(s.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  if (out.size() == 1 && out[0].empty()) out.clear();
  return out;
}

}  // namespace

bool is_graphalytics_path(const std::string& path) {
  const std::string l = reader::lower(path);
  return reader::ends_with(l, ".properties") || reader::ends_with(l, ".v") || reader::ends_with(l, ".e");
}

std::vector<PropertyLine> parse_properties(const std::string& path, std::string_view text) {
  std::vector<PropertyLine> out;
  reader::LineReader lines(text);
  std::string_view raw;
  while (lines.next(raw)) {
    const uint64_t first_line = lines.line_no();
    std::string logical(trim(raw));
    if (logical.empty() || logical[0] == '#' || logical[0] == '!') continue;
    // A line ending in an odd number of backslashes continues on the next.
    auto continues = [](const std::string& s) {
      size_t n = 0;
      while (n < s.size() && s[s.size() - 1 - n] == '\\') ++n;
      return n % 2 == 1;
    };
    while (continues(logical)) {
      logical.pop_back();
      if (!lines.next(raw)) break;
      logical += trim(raw);
    }
    size_t sep = 0;
    while (sep < logical.size() && logical[sep] != '=' && logical[sep] != ':' && logical[sep] != ' ' &&
           logical[sep] != '\t')
      ++sep;
    const std::string key(trim(std::string_view(logical).substr(0, sep)));
    if (key.empty()) reader::fail(path, first_line, "a line with no key: " + reader::quoted(logical));
    std::string_view rest = trim(std::string_view(logical).substr(sep));
    if (!rest.empty() && (rest[0] == '=' || rest[0] == ':')) rest = trim(rest.substr(1));
    out.push_back(PropertyLine{key, std::string(rest), first_line});
  }
  return out;
}

GraphalyticsSpec read_graphalytics_properties(const std::string& path) {
  const std::vector<PropertyLine> lines = parse_properties(path, read_text(path));
  GraphalyticsSpec s;
  s.properties_path = path;
  s.name = std::filesystem::path(path).stem().string();
  const std::string prefix = "graph." + s.name + ".";
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::string vertex_file = s.name + ".v", edge_file = s.name + ".e";
  std::vector<std::string> names;
  std::optional<std::string> weight_property;
  uint64_t names_line = 0;
  bool have_directed = false, any = false;
  for (const PropertyLine& p : lines) {
    if (p.key.rfind(prefix, 0) != 0) continue;
    any = true;
    s.properties.push_back(p);
    const std::string key = p.key.substr(prefix.size());
    auto bad = [&](const std::string& why) {
      reader::fail(path, p.line, p.key + ": " + reader::quoted(p.value) + " " + why);
    };
    auto integer = [&](int64_t lo, int64_t hi) {
      int64_t v = 0;
      const char* end = p.value.data() + p.value.size();
      const auto [ptr, ec] = std::from_chars(p.value.data(), end, v);
      if (ec != std::errc() || ptr != end || p.value.empty()) bad("is not an integer");
      if (v < lo || v > hi) bad("is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
      return v;
    };
    if (key == "vertex-file") vertex_file = p.value;
    else if (key == "edge-file") edge_file = p.value;
    else if (key == "directed") {
      const std::string v = reader::lower(p.value);
      if (v != "true" && v != "false") bad("is not true or false");
      s.directed = v == "true";
      have_directed = true;
    } else if (key == "edge-properties.names") {
      names = split_list(p.value);
      names_line = p.line;
    } else if (key == "sssp.weight-property") weight_property = p.value;
    else if (key == "meta.vertices") s.meta_vertices = static_cast<uint64_t>(integer(0, INT64_MAX));
    else if (key == "meta.edges") s.meta_edges = static_cast<uint64_t>(integer(0, INT64_MAX));
  }
  if (!any) reader::fail(path, 0, "no key starts with '" + prefix + "' (the keys of NAME.properties are graph.NAME.*)");
  if (!have_directed) reader::fail(path, 0, "missing " + prefix + "directed (true or false)");
  s.edge_properties = static_cast<unsigned>(names.size());
  if (weight_property) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == *weight_property) s.weight_column = static_cast<int>(i);
    if (s.weight_column < 0)
      reader::fail(path, names_line, prefix + "sssp.weight-property names '" + *weight_property +
                                         "', which is not among " + prefix + "edge-properties.names");
  } else if (names.size() == 1) {
    s.weight_column = 0;
  }
  auto resolve = [&](const std::string& f) {
    const std::filesystem::path p(f);
    return p.is_absolute() ? f : (dir / p).string();
  };
  s.vertex_file = resolve(vertex_file);
  s.edge_file = resolve(edge_file);
  return s;
}

const PropertyLine* GraphalyticsSpec::property(std::string_view key) const {
  const std::string full = "graph." + name + "." + std::string(key);
  for (auto it = properties.rbegin(); it != properties.rend(); ++it)
    if (it->key == full) return &*it;
  return nullptr;
}

GraphalyticsSpec graphalytics_pair(const std::string& path, bool undirected) {
  GraphalyticsSpec s;
  s.name = std::filesystem::path(path).stem().string();
  s.vertex_file = sibling(path, ".v");
  s.edge_file = sibling(path, ".e");
  s.directed = !undirected;
  // Weighted or not is the edge lines' business: the loader takes a third
  // column as the weight (edge_properties = 1 is the upper bound it checks).
  s.edge_properties = 1;
  s.weight_column = 0;
  return s;
}

GraphalyticsSpec graphalytics_spec(const std::string& path, bool undirected) {
  if (reader::ends_with(reader::lower(path), ".properties")) return read_graphalytics_properties(path);
  return graphalytics_pair(path, undirected);
}

namespace reader {

int64_t parse_graphalytics_vertex(const std::string& path, std::string_view line) {
  std::string_view f[1];
  const char* err = nullptr;
  const size_t n = split_fields(line, false, f, 1, &err);
  if (n == 0 || n == kSplitError) fail(path, 0, "expected a vertex id");
  return parse_signed_id(path, "vertex id", f[0]);
}

GraphalyticsEdge parse_graphalytics_edge(const std::string& path, const GraphalyticsSpec& spec, std::string_view line) {
  constexpr size_t kMax = 18;
  std::string_view f[kMax];
  const char* err = nullptr;
  const size_t n = split_fields(line, false, f, kMax, &err);
  if (n == kSplitError) fail(path, 0, err);
  if (n < 2) fail(path, 0, "expected 'src dst [properties]' but found " + std::to_string(n) + " field" + (n == 1 ? "" : "s"));
  GraphalyticsEdge e{parse_signed_id(path, "field 1 (src)", f[0]), parse_signed_id(path, "field 2 (dst)", f[1]), 1.0,
                     static_cast<unsigned>(n)};
  if (spec.weight_column < 0) return e;
  const size_t at = 2 + static_cast<size_t>(spec.weight_column);
  if (at >= n) {
    if (spec.properties_path.empty() && n == 2) return e;  // a bare pair without weights
    fail(path, 0, "expected the weight in field " + std::to_string(at + 1) + " but the line has " +
                      std::to_string(n) + " fields");
  }
  if (at >= kMax) fail(path, 0, "the weight column " + std::to_string(at + 1) + " is beyond field " + std::to_string(kMax));
  const std::string_view tok = f[at];
  double w = 0;
  const auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), w);
  const std::string field = "field " + std::to_string(at + 1) + " (weight)";
  if (ptr != tok.data() + tok.size() || ec != std::errc() || tok.empty())
    fail(path, 0, field + ": " + quoted(tok) + " is not a number");
  if (!std::isfinite(w) || w < 0)
    fail(path, 0, field + ": " + quoted(tok) + " is not a finite non-negative number");
  e.weight = w;
  return e;
}

}  // namespace reader
}  // namespace wg
