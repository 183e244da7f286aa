// What --graph names, parsed once: a graph file (in a format), the
// Kronecker generator (kron:SCALE:DEGREE[:SEED]), a Graphalytics graph
// (NAME.properties, or a NAME.v / NAME.e pair) or a snapshot a run saved
// (snapshot:DIR, compute/load/snapshot_format.h). Everything that asks which
// kind of input a run has asks this, not the string.
#pragma once

#include <cstdint>
#include <string>

#include "compute/graph/graph_format.h"
#include "compute/graph/kronecker.h"

namespace wg {

struct GraphSpec {
  enum class Kind : uint8_t { kFile, kGenerator, kGraphalytics, kSnapshot };
  Kind kind = Kind::kFile;
  std::string text;                         // as given
  GraphFormat format = GraphFormat::kAuto;  // kFile: --format, or from the name when auto
  KroneckerSpec kron;                       // kGenerator
  std::string snapshot_dir;                 // kSnapshot

  bool is_file() const { return kind == Kind::kFile; }
  bool is_generator() const { return kind == Kind::kGenerator; }
  bool is_graphalytics() const { return kind == Kind::kGraphalytics; }
  bool is_snapshot() const { return kind == Kind::kSnapshot; }
};

// `format` is --format: kAuto lets the name decide (and lets NAME.properties,
// NAME.v and NAME.e be a Graphalytics graph); the generator and snapshots
// ignore it. Throws GraphError (file: the spec) for a bad kron: spec or an
// empty snapshot: directory.
GraphSpec parse_graph_spec(const std::string& text, GraphFormat format);

}  // namespace wg
