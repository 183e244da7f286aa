#include "apps/node/input_choice.h"

#include <optional>
#include <string>
#include <vector>

#include "compute/graph/graph_formats.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/input_sample.h"
#include "compute/graph/kronecker.h"
#include "compute/load/snapshot_manifest.h"

namespace wg {

namespace {

const char* format_noun(GraphFormat f) {
  switch (f) {
    case GraphFormat::kMatrixMarket: return "a Matrix Market file";
    case GraphFormat::kDimacs: return "a DIMACS file";
    case GraphFormat::kMetis: return "a METIS file";
    default: return "the file";
  }
}

// --source within [first, first + count): the ids the input declares.
void check_declared_source(const Config& c, uint64_t first, uint64_t count, const std::string& whose) {
  if (!c.one_source()) return;
  const auto id = c.source_id;
  if (count == 0)
    throw ConfigError("--source " + std::to_string(id) + " is not a vertex of " + c.graph + ": " + whose +
                      " declares no vertex");
  if (id < static_cast<int64_t>(first) || static_cast<uint64_t>(id) - first >= count)
    throw ConfigError("--source " + std::to_string(id) + " is not a vertex of " + c.graph + ": " + whose +
                      " numbers its vertices " + std::to_string(first) + ".." + std::to_string(first + count - 1) +
                      (first == 1 ? ", and --source and the results use those ids" : ""));
}

// sssp's weights, from the sample (--precision auto).
void choose_precision(Config& c, const InputSample& s) {
  if (s.fractional) {
    c.double_precision = true;
    c.precision_chosen = "real, in double precision (auto: the sampled weight '" + s.fractional_token +
                         "' is not an integer)";
  } else if (s.weights == 0) {
    c.precision_chosen = "integers (auto: the sample holds no weight: every weight is 1)";
  } else {
    c.precision_chosen = std::string("integers (auto: every sampled weight is one") +
                         (s.whole ? ")" : "; --precision double reads fractional ones the sample missed)");
  }
}

// "line 1 ('source', 'target', 'weight') read as column names, not an edge".
std::string describe_field_names(const reader::InputHeader& h) {
  std::string names;
  for (const std::string& n : h.field_names) names += (names.empty() ? "'" : ", '") + n + "'";
  return "line " + std::to_string(h.names_line) + " (" + names + ") read as column names, not an edge";
}

// " and --vertices N agrees": said when --vertices repeats the input's own count.
std::string agrees(const Config& c) {
  return c.vertices != 0 ? "; --vertices " + std::to_string(c.vertices) + " agrees" : "";
}

// --source's default: the first edge's source as the input names it.
void default_source(Config& c, int64_t first_source) {
  if (c.source_given || !c.one_source() || first_source < 0) return;
  c.source_id = first_source;
}

// A snapshot: the ids as they were when it was saved (its manifest), and the
// source as that run knew it.
void choose_snapshot_input(Config& c) {
  const SnapshotManifest m = read_snapshot_manifest(c.graph_spec.snapshot_dir);
  c.first_id = m.first_id;
  c.ids_chosen = "as saved in the snapshot (from " + m.graph + "): " + m.ids_chosen;
  if (!c.one_source()) return;
  if (!c.source_given) {
    if (m.default_source) c.source_id = *m.default_source;
    else if (m.mapped_source_id) c.source_id = *m.mapped_source_id;
    else
      throw ConfigError("--source: " + c.graph + " does not record a default source (the run that saved it ran a "
                        "program without one): give --source");
  }
  if (m.mapped_ids) {
    // Only the owners know the dense ids of mapped ones; the snapshot keeps the one its run looked up.
    if (!m.mapped_source_id || *m.mapped_source_id != c.source_id)
      throw ConfigError("--source " + std::to_string(c.source_id) + ": " + c.graph + " maps the ids of " + m.graph +
                        " and knows the dense id of " +
                        (m.mapped_source_id ? "vertex " + std::to_string(*m.mapped_source_id) + " only (the source it was saved with)"
                                            : std::string("no vertex (it was saved by a program without a source)")) +
                        "; save a snapshot with --source " + std::to_string(c.source_id));
    c.source = m.mapped_source_dense;
    return;
  }
  check_declared_source(c, m.first_id, m.vertices, "the snapshot");
  c.source = static_cast<VertexId>(c.source_id - m.first_id);
}

// --seeds names vertices by the input's ids; where the loader maps them it
// looks each up (compute/load/graph_loader_ids.cc), but a snapshot keeps the
// dense id of its source only.
void check_seeds_not_on_a_snapshot(const Config& c) {
  if (c.seed_ids.empty()) return;
  if (c.graph_spec.is_snapshot())
    throw ConfigError("--seeds: a snapshot knows its ids as saved, not the input's: give the one seed as --source, "
                      "or read the input itself");
}

void choose_input_ids(Config& c);

}  // namespace

void choose_input(Config& c) {
  choose_input_ids(c);
  check_seeds_not_on_a_snapshot(c);
}

namespace {

void choose_input_ids(Config& c) {
  if (c.graph.empty()) return;  // edges in memory (tests): nothing to decide
  if (c.graph_spec.is_snapshot()) return choose_snapshot_input(c);
  if (c.graphalytics) {
    c.ids_chosen = "the graph's own (Graphalytics), mapped while loading";
    return;
  }
  if (c.graph_spec.is_generator()) {
    const KroneckerSpec& spec = c.graph_spec.kron;
    const uint64_t v = uint64_t{1} << spec.scale;
    c.ids_chosen = "dense, 0.." + std::to_string(v - 1) + " (generated" + agrees(c) + ")";
    if (!c.source_given && c.one_source()) {
      std::vector<Edge> block(KroneckerGenerator::kBlockEdges);
      if (KroneckerGenerator(spec).block(0, block.data()) > 0) default_source(c, block[0].src);
      c.source = static_cast<VertexId>(c.source_id);
    }
    check_declared_source(c, 0, v, "the generator");
    return;
  }
  FileBytes bytes(c.graph);
  const reader::InputHeader h = reader::read_header(bytes, c.format, c.weight_column, c.vertices);
  const bool weighs_by_data = c.precision == PrecisionOption::kAuto && c.program.graph.weights;
  const bool picks_source = !c.source_given && c.one_source();
  if (c.first_id == 1) {  // the formats that declare their vertices 1..n
    c.ids_chosen = "the file's own, 1.." + std::to_string(h.declared_vertices) + agrees(c);
    std::optional<InputSample> sample;
    if (weighs_by_data || picks_source) sample = sample_input(bytes, h);
    if (picks_source) default_source(c, sample->first_source);
    check_declared_source(c, 1, h.declared_vertices, format_noun(h.format));
    c.source = static_cast<VertexId>(c.source_id - 1);
    if (weighs_by_data) choose_precision(c, *sample);
    return;
  }
  if (c.vertices != 0) {  // the vertex count came with the edges: no sample decides the ids
    std::optional<InputSample> sample;
    if (weighs_by_data || picks_source) sample = sample_input(bytes, h);
    if (picks_source) default_source(c, sample->first_source);
    c.ids_chosen = "dense, 0.." + std::to_string(c.vertices - 1) + " (--vertices " + std::to_string(c.vertices) +
                   "; ids no edge names are isolated vertices)";
    if (!h.field_names.empty()) c.ids_chosen += "; " + describe_field_names(h);
    if (weighs_by_data) choose_precision(c, *sample);
    check_declared_source(c, 0, c.vertices, "--vertices " + std::to_string(c.vertices));
    c.source = static_cast<VertexId>(c.source_id);
    return;
  }
  std::optional<InputSample> sample;
  if (c.ids != IdsOption::kSparse || weighs_by_data || picks_source) sample = sample_input(bytes, h);
  if (picks_source) default_source(c, sample->first_source);
  switch (c.ids) {
    case IdsOption::kSparse: c.ids_chosen = "sparse (--ids sparse)"; break;
    case IdsOption::kDense: {
      // GAP's and Graph500's rule: every id 0..largest a vertex. Say how many
      // the edges do not name (isolated vertices networkx would not count).
      const IdsVerdict v = judge_ids(*sample);
      c.ids_chosen = "dense (--ids dense): V = the largest id + 1";
      if (v.unnamed > 0)
        c.ids_chosen += std::string("; ") + (sample->whole ? "" : "about ") + with_commas(v.unnamed) +
                        " of them named by no edge are isolated vertices";
      break;
    }
    case IdsOption::kAuto: {
      const IdsVerdict v = judge_ids(*sample);
      c.sparse_ids = v.sparse;
      if (sample->largest >= 0) c.sampled_id_span = static_cast<uint64_t>(sample->largest) + 1;
      c.estimated_ids = v.estimated;
      c.ids_chosen = std::string(v.sparse ? "sparse" : "dense") + " (" + v.why + ")";
      break;
    }
  }
  if (!h.field_names.empty()) c.ids_chosen += "; " + describe_field_names(h);
  if (weighs_by_data) choose_precision(c, *sample);
  if (c.sparse_ids || !c.one_source()) return;
  // Dense: --source is the dense id; above the largest id it is found once loaded.
  if (c.source_id < 0 || c.source_id > static_cast<int64_t>(reader::kMaxVertexId))
    throw ConfigError("--source " + std::to_string(c.source_id) + " is not a vertex of " + c.graph +
                      ": its ids are dense, 0.." + std::to_string(reader::kMaxVertexId) +
                      " at most (ids " + c.ids_chosen + ")");
  c.source = static_cast<VertexId>(c.source_id);
}

}  // namespace

}  // namespace wg
