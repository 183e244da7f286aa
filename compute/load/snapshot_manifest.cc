#include "compute/load/snapshot_manifest.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "compute/report/build_info.h"

namespace wg {

namespace {

using Json = nlohmann::ordered_json;

Json rules_json(const SnapshotRules& r) {
  return {{"symmetrize", r.symmetrize},           {"drop_self_loops", r.drop_self_loops},
          {"drop_duplicates", r.drop_duplicates}, {"weights", snapshot_weights_name(r.weights)},
          {"domains", r.domains},                 {"vertex_order", r.degree_order ? "degree" : "id"}};
}

SnapshotWeights weights_named(const std::string& path, const std::string& name) {
  for (SnapshotWeights w : {SnapshotWeights::kNone, SnapshotWeights::kInteger, SnapshotWeights::kReal})
    if (name == snapshot_weights_name(w)) return w;
  throw SnapshotError(path, 0, "field rules.weights: '" + name + "' is not none, integer or real");
}

}  // namespace

void write_snapshot_manifest(const std::string& dir, const SnapshotManifest& m) {
  Json j = {{"format", "wiregraph snapshot"},
            {"format_version", m.version},
            {"build", m.build},
            {"nodes", m.nodes},
            {"vertices", m.vertices},
            {"edges", m.edges},
            {"input_edges", m.input_edges},
            {"fingerprint", m.fingerprint},
            {"weighted", m.weighted},
            {"degrees_alike", m.degrees_alike},
            {"rules", rules_json(m.rules)},
            {"graph", m.graph},
            {"first_id", m.first_id},
            {"mapped_ids", m.mapped_ids},
            {"ids", m.ids_chosen}};
  j["default_source"] = m.default_source ? Json(*m.default_source) : Json(nullptr);
  j["mapped_source"] = m.mapped_source_id ? Json{{"id", *m.mapped_source_id}, {"dense", m.mapped_source_dense}}
                                          : Json(nullptr);
  const std::string path = snapshot_manifest_path(dir), tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    f << j.dump(2) << '\n';
    if (!f.flush()) throw SnapshotError(tmp, 0, std::string("cannot write: ") + std::strerror(errno));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw SnapshotError(path, 0, std::string("cannot rename the temporary manifest over it: ") + std::strerror(errno));
}

SnapshotManifest read_snapshot_manifest(const std::string& dir) {
  const std::string path = snapshot_manifest_path(dir);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw SnapshotError(path, 0, "cannot open: not a snapshot directory (--save-snapshot DIR writes one)");
  const Json j = Json::parse(std::istreambuf_iterator<char>(f), {}, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw SnapshotError(path, 0, "is not JSON: the manifest is damaged");
  const char* field = "";
  try {
    SnapshotManifest m;
    auto get = [&](const char* name) -> const Json& {
      field = name;
      return j.at(name);
    };
    m.version = get("format_version").get<uint32_t>();
    m.build = get("build").get<std::string>();
    m.nodes = get("nodes").get<uint32_t>();
    m.vertices = get("vertices").get<uint64_t>();
    m.edges = get("edges").get<uint64_t>();
    m.input_edges = get("input_edges").get<uint64_t>();
    m.fingerprint = get("fingerprint").get<uint64_t>();
    m.weighted = get("weighted").get<bool>();
    if (j.contains("degrees_alike"))  // (an older build's manifest has none: check_snapshot_serves refuses it)
      m.degrees_alike = get("degrees_alike").get<bool>();
    const Json& r = get("rules");
    field = "rules";
    m.rules.symmetrize = r.at("symmetrize").get<bool>();
    m.rules.drop_self_loops = r.at("drop_self_loops").get<bool>();
    m.rules.drop_duplicates = r.at("drop_duplicates").get<bool>();
    m.rules.weights = weights_named(path, r.at("weights").get<std::string>());
    m.rules.domains = r.at("domains").get<uint32_t>();
    m.rules.degree_order = r.at("vertex_order").get<std::string>() == "degree";
    m.graph = get("graph").get<std::string>();
    m.first_id = get("first_id").get<uint32_t>();
    m.mapped_ids = get("mapped_ids").get<bool>();
    m.ids_chosen = get("ids").get<std::string>();
    if (const Json& s = get("default_source"); !s.is_null()) m.default_source = s.get<int64_t>();
    if (const Json& s = get("mapped_source"); !s.is_null()) {
      m.mapped_source_id = s.at("id").get<int64_t>();
      m.mapped_source_dense = s.at("dense").get<uint32_t>();
    }
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw SnapshotError(path, 0, std::string("field ") + field + ": missing or of the wrong type (" + e.what() + ")");
  }
}

DeclaredSize declared_size_of(const GraphInput& in) {
  if (in.kind != GraphInput::Kind::kSnapshot) return declared_input_size(in);
  const SnapshotManifest m = read_snapshot_manifest(in.snapshot_dir);
  DeclaredSize d;
  d.vertices = m.vertices;
  d.edges = m.edges;
  d.what = "its manifest says " + std::to_string(m.vertices) + " vertices and " + std::to_string(m.edges) +
           " edges, as loaded";
  d.as_built = true;
  return d;
}

void check_snapshot_serves(const std::string& dir, const SnapshotManifest& m, unsigned nodes, const SnapshotRules& wanted) {
  const std::string path = snapshot_manifest_path(dir);
  if (m.version != kSnapshotVersion)
    throw SnapshotError(path, 0, "format_version " + std::to_string(m.version) + ": this build reads version " +
                                     std::to_string(kSnapshotVersion) + " (save the snapshot again with this build)");
  const std::string build = build::version_line("wiregraph");
  if (m.build != build)
    throw SnapshotError(path, 0, "build: saved by '" + m.build + "', this is '" + build +
                                     "' (a snapshot is the memory of one build: save it again with this one)");
  if (m.nodes != nodes)
    throw SnapshotError(path, 0, "snapshot " + dir + " was saved by " + std::to_string(m.nodes) + " node" +
                                     (m.nodes == 1 ? "" : "s") + "; this job has " + std::to_string(nodes) +
                                     " (each node's share depends on P: load the input with " + std::to_string(nodes) +
                                     " nodes and save it again)");
  if (m.rules != wanted)
    throw SnapshotError(path, 0, "snapshot " + dir + " holds the graph under other rules than this job's program: " +
                                     describe_rule_differences(m.rules, wanted) +
                                     " (save a snapshot from a run of a program with this job's rules)");
}

}  // namespace wg
