#include "compute/graph/graph_input.h"

#include <cinttypes>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "compute/graph/graph_formats.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/line_slice.h"

namespace wg {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

// A snapshot is what its manifest says (compute/load/snapshot_format.h): the
// nodes' hello compares its bytes, so nodes given different snapshots (or a
// manifest rewritten since) do not run together.
std::string snapshot_manifest(const std::string& dir) {
  const std::string path = dir + "/manifest.json";
  std::ifstream f(path, std::ios::binary);
  if (!f) throw GraphError(path, 0, "cannot open: not a snapshot directory (--save-snapshot DIR writes one)");
  return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

GraphInput GraphInput::from_spec(const GraphSpec& spec, bool undirected) {
  GraphInput in;
  in.spec = spec.text;
  in.format = spec.format;
  switch (spec.kind) {
    case GraphSpec::Kind::kGenerator:
      in.kind = Kind::kGenerator;
      in.format = GraphFormat::kAuto;
      in.kron = spec.kron;
      break;
    case GraphSpec::Kind::kGraphalytics:
      in.kind = Kind::kGraphalytics;
      in.graphalytics = std::make_shared<const GraphalyticsSpec>(graphalytics_spec(spec.text, undirected));
      break;
    case GraphSpec::Kind::kSnapshot:
      in.kind = Kind::kSnapshot;
      in.format = GraphFormat::kAuto;
      in.snapshot_dir = spec.snapshot_dir;
      break;
    case GraphSpec::Kind::kFile: in.kind = Kind::kFile; break;
  }
  return in;
}

GraphInput GraphInput::from_edges(const EdgeList& g, std::string name) {
  GraphInput in;
  in.kind = Kind::kMemory;
  in.spec = std::move(name);
  in.edges = &g;
  return in;
}

InputIdentity identify_input(const GraphInput& in) {
  InputIdentity id;
  id.kind = static_cast<uint32_t>(in.kind) << 8 | static_cast<uint32_t>(in.format);
  switch (in.kind) {
    case GraphInput::Kind::kFile: {
      FileBytes bytes(in.spec);
      const reader::InputHeader h = reader::read_header(bytes, in.format, in.weight_column, in.vertices);
      id.size = h.size;
      id.digest = h.digest;
      break;
    }
    case GraphInput::Kind::kGenerator: {
      const KroneckerGenerator gen(in.kron);
      id.size = gen.num_edges();
      id.digest = in.kron.seed * 0x9e3779b97f4a7c15ULL ^ (uint64_t{in.kron.scale} << 32 | in.kron.degree);
      break;
    }
    case GraphInput::Kind::kMemory:
      id.size = in.edges->num_edges();
      id.digest = fingerprint(*in.edges);
      break;
    case GraphInput::Kind::kGraphalytics: {
      // Both files' sizes and their first bytes, and how they are read.
      const GraphalyticsSpec& g = *in.graphalytics;
      uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t{g.directed} << 8 | static_cast<uint8_t>(g.weight_column + 1));
      for (const std::string* path : {&g.vertex_file, &g.edge_file}) {
        FileBytes bytes(*path);
        char head[256];
        const size_t n = bytes.read_at(0, head, std::min<uint64_t>(sizeof head, bytes.size()));
        h = fnv1a(std::string_view(head, n), h * 31 + bytes.size());
        id.size += bytes.size();
      }
      id.digest = h;
      break;
    }
    case GraphInput::Kind::kSnapshot: {
      const std::string manifest = snapshot_manifest(in.snapshot_dir);
      id.size = manifest.size();
      id.digest = fnv1a(manifest, 0xcbf29ce484222325ULL);
      break;
    }
  }
  return id;
}

DeclaredSize declared_input_size(const GraphInput& in) {
  switch (in.kind) {
    case GraphInput::Kind::kFile: {
      FileBytes bytes(in.spec);
      return reader::declared_size(reader::read_header(bytes, in.format, in.weight_column, in.vertices));
    }
    case GraphInput::Kind::kGenerator: {
      const KroneckerGenerator gen(in.kron);
      return {gen.num_vertices(), gen.num_edges(),
              "it generates " + std::to_string(gen.num_vertices()) + " vertices and " +
                  std::to_string(gen.num_edges()) + " edges",
              in.kron_scale()};
    }
    case GraphInput::Kind::kMemory:
      return {in.edges->num_vertices, in.edges->num_edges(), std::to_string(in.edges->num_edges()) + " edges in memory"};
    case GraphInput::Kind::kGraphalytics: {
      // What NAME.properties says (meta.vertices, meta.edges), when it says it;
      // else nothing is declared and the loader checks once the edges are in.
      const GraphalyticsSpec& g = *in.graphalytics;
      if (g.meta_vertices == 0 && g.meta_edges == 0) return {};
      return {g.meta_vertices, g.meta_edges,
              "its properties declare " + std::to_string(g.meta_vertices) + " vertices and " +
                  std::to_string(g.meta_edges) + " edges"};
    }
    case GraphInput::Kind::kSnapshot:
      return {};  // the reader checks each node's file against its manifest
  }
  return {};
}

std::string describe_input(uint32_t kind, uint64_t size, uint64_t digest) {
  const auto k = static_cast<GraphInput::Kind>(kind >> 8);
  switch (k) {
    case GraphInput::Kind::kFile:
      return "a " + std::to_string(size) + "-byte " +
             graph_format_name(static_cast<GraphFormat>(kind & 0xff)) + " file (header digest " + hex(digest) + ")";
    case GraphInput::Kind::kGenerator:
      return "the generator, " + std::to_string(size) + " edges (spec digest " + hex(digest) + ")";
    case GraphInput::Kind::kMemory:
      return std::to_string(size) + " edges in memory (fingerprint " + hex(digest) + ")";
    case GraphInput::Kind::kGraphalytics:
      return "a Graphalytics graph of " + std::to_string(size) + " bytes (.v and .e; digest " + hex(digest) + ")";
    case GraphInput::Kind::kSnapshot:
      return "a snapshot whose manifest holds " + std::to_string(size) + " bytes (digest " + hex(digest) + ")";
  }
  return "input kind " + std::to_string(kind);
}

}  // namespace wg
