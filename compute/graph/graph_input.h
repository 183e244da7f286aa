// What a node loads, and what tells the nodes of a job that they load the
// same thing: a graph file (--graph PATH [--format F]), the generator
// (--graph kron:SCALE:DEGREE[:SEED]), a Graphalytics graph, a snapshot a run
// saved (--graph snapshot:DIR), or edges the caller already holds (the
// engine tests and the benchmarks: the same list on every node).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "compute/graph/edge_list.h"
#include "compute/graph/declared_size.h"
#include "compute/graph/graph_spec.h"
#include "compute/graph/graphalytics_input.h"
#include "compute/graph/kronecker.h"

namespace wg {

struct GraphInput {
  enum class Kind : uint8_t { kFile = 1, kGenerator = 2, kMemory = 3, kGraphalytics = 4, kSnapshot = 5 };
  Kind kind = Kind::kFile;
  std::string spec;                         // as given: a path, kron:..., or a name
  GraphFormat format = GraphFormat::kAuto;  // kFile: resolved from the name when kAuto
  KroneckerSpec kron;                       // kGenerator
  const EdgeList* edges = nullptr;          // kMemory
  std::shared_ptr<const GraphalyticsSpec> graphalytics;  // kGraphalytics: NAME.v + NAME.e, sparse ids
  std::string snapshot_dir;                 // kSnapshot: what --save-snapshot DIR wrote
  // kFile, --ids sparse: the vertices are the distinct ids the edges name
  // (signed 64-bit in text), mapped to dense ids while loading; edge lists
  // and binary files only (why_ids_are_dense). Graphalytics graphs
  // are mapped whatever it says.
  bool sparse_ids = false;
  // kFile, sparse ids: what --ids auto's sample saw (0: no sample): ids
  // below `sampled_id_span`, about `estimated_ids` distinct. Where that is
  // dense enough the loader keeps the ids as they are while it collects
  // them (GraphLoader::collect_ids).
  uint64_t sampled_id_span = 0, estimated_ids = 0;
  // kFile, edge lists: --weight-column as given (a number from 1, or a name
  // in the file's header line); empty: the third field.
  std::string weight_column;
  // kFile and kGenerator, --vertices N (0: not given): the vertices are
  // 0..N-1, ids no edge names isolated ones (edge lists and binary files,
  // whose edges alone name their vertices); a header's or the generator's
  // own count must agree. Dense ids only.
  uint64_t vertices = 0;

  // A generated graph's scale, whose degrees the memory estimate counts
  // before it is made (NodeShape::kron_scale); 0 for any other input.
  unsigned kron_scale() const { return kind == Kind::kGenerator ? kron.scale : 0; }

  // A path or kron: spec. Throws GraphError for a bad kron: spec. A gzip
  // or zstd file is read decompressed (compute/graph/input_bytes.h), in the
  // format of its name without .gz or .zst. With format kAuto, NAME.properties, NAME.v and
  // NAME.e are a Graphalytics graph (a bare pair is directed unless
  // `undirected`).
  static GraphInput from_spec(const GraphSpec& spec, bool undirected);
  static GraphInput from_spec(const std::string& spec, GraphFormat format, bool undirected) {
    return from_spec(parse_graph_spec(spec, format), undirected);
  }

  static GraphInput from_spec(const std::string& spec, GraphFormat format) { return from_spec(spec, format, false); }
  static GraphInput from_edges(const EdgeList& g, std::string name = "<memory>");
};

// What the hello compares before anything is loaded (JobIdentity's input
// fields): kind and format, the file's size (or the edge count), and a digest
// of the header (or of the generator's spec, or of the edges in memory).
// Reading a file's header is all it costs. Throws GraphError.
struct InputIdentity {
  uint32_t kind = 0;  // Kind << 8 | GraphFormat
  uint64_t size = 0;
  uint64_t digest = 0;
};
InputIdentity identify_input(const GraphInput& in);
// What the input declares it holds before anything is read (a file's header
// or length, the generator's spec, the edges in memory), for the memory
// check; an edge list declares nothing (0 edges). Throws GraphError.
DeclaredSize declared_input_size(const GraphInput& in);
// "a 1234-byte edgelist file (header 0x...)": the hello's mismatch message.
std::string describe_input(uint32_t kind, uint64_t size, uint64_t digest);

}  // namespace wg
