// A snapshot (--save-snapshot DIR, read back with --graph snapshot:DIR): every
// node's share of a loaded graph as the loader's finish() left it, so that a
// later run reads it back without parsing, shuffling or building anything.
//   DIR/manifest.json   what the whole snapshot is (SnapshotManifest): the
//                       format version and build, P, V, |E|, the fingerprint,
//                       the graph rules, where it came from; the nodes' hello
//                       compares its bytes
//   DIR/node<R>.snap    node R's share: a SnapshotFileHeader, then sections,
//                       each a uint64 element count and the elements (8-byte
//                       aligned), in the order of snapshot_writer.cc
// A snapshot serves only a job with the same P, format version, build and
// graph rules (what the loader did to the edges): anything else is refused,
// naming what differs (snapshot_reader.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "compute/graph/graph_error.h"

namespace wg {

struct LoadOptions;

inline constexpr uint32_t kSnapshotVersion = 1;
inline constexpr char kSnapshotMagic[8] = {'W', 'G', 'S', 'N', 'A', 'P', '\n', '\0'};

// Refusals and damage: the file or manifest, and what is wrong with it.
class SnapshotError : public GraphError {
 public:
  using GraphError::GraphError;
};

enum class SnapshotWeights : uint8_t { kNone = 0, kInteger = 1, kReal = 2 };
const char* snapshot_weights_name(SnapshotWeights w);

// The graph rules a share was built under (the loader's LoadOptions that
// change what a node holds): two programs with other rules hold other graphs.
struct SnapshotRules {
  bool symmetrize = false;
  bool drop_self_loops = false;
  bool drop_duplicates = false;
  SnapshotWeights weights = SnapshotWeights::kNone;
  uint32_t domains = 1;
  bool degree_order = false;

  static SnapshotRules of(const LoadOptions& o);
  bool operator==(const SnapshotRules&) const = default;
};
// "it was saved symmetrized (undirected) and this job's program needs the
// edges as given; ..." for each rule that differs; empty when none does.
std::string describe_rule_differences(const SnapshotRules& saved, const SnapshotRules& wanted);

// What the manifest says: the same for every node's file.
struct SnapshotManifest {
  uint32_t version = kSnapshotVersion;
  std::string build;          // build::version_line("wiregraph") of the build that wrote it
  uint32_t nodes = 0;         // P
  uint64_t vertices = 0, edges = 0, input_edges = 0, fingerprint = 0;
  bool weighted = false;      // the input held weights
  // Every vertex had as many in-edges as out-edges, as loaded (a symmetric
  // graph: compute/load/load_aggregate.h): the memory estimate counts the
  // in-edges' blocks from the out-degrees then.
  bool degrees_alike = false;
  SnapshotRules rules;
  // Where it came from, and what the ids mean.
  std::string graph;          // the --graph it was loaded from
  uint32_t first_id = 0;      // 1: the input numbered its vertices 1..n (results count from 1)
  bool mapped_ids = false;    // the loader mapped the input's ids (results under the original ids)
  std::string ids_chosen;     // the ids: line of the run that saved it
  // The first edge's source as the input names it (the default --source),
  // when the saving run looked it up.
  std::optional<int64_t> default_source;
  // Mapped ids: the one input id whose dense id the saving run learned (its
  // --source), and that dense id.
  std::optional<int64_t> mapped_source_id;
  uint32_t mapped_source_dense = 0;
};

// The fixed head of node<R>.snap. The CRCs (crc32c, dataplane/crc32c.h) cover
// the header up to header_crc, and every byte after the header.
struct SnapshotFileHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;      // sizeof(SnapshotFileHeader)
  char build[64];             // NUL-padded
  uint32_t nodes, rank;
  uint64_t vertices, edges, fingerprint;
  uint32_t num_local, domains;
  uint8_t symmetrize, drop_self_loops, drop_duplicates, weights, degree_order, pad[3];
  uint64_t payload_bytes;     // bytes after the header
  uint32_t payload_crc;
  uint32_t header_crc;
};
static_assert(std::is_trivially_copyable_v<SnapshotFileHeader> && sizeof(SnapshotFileHeader) == 144);

std::string snapshot_file_path(const std::string& dir, unsigned rank);      // DIR/node<R>.snap
std::string snapshot_manifest_path(const std::string& dir);                 // DIR/manifest.json

}  // namespace wg
