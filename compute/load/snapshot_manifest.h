// DIR/manifest.json of a snapshot (compute/load/snapshot_format.h): written
// by rank 0 once every node has saved its share, read by every node of a run
// given --graph snapshot:DIR.
#pragma once

#include <string>

#include "compute/graph/declared_size.h"
#include "compute/graph/graph_input.h"
#include "compute/load/snapshot_format.h"

namespace wg {

// Writes DIR/manifest.json atomically (a temporary file renamed over it).
// Throws SnapshotError.
void write_snapshot_manifest(const std::string& dir, const SnapshotManifest& m);
// Throws SnapshotError for a missing or unreadable manifest, naming the field.
SnapshotManifest read_snapshot_manifest(const std::string& dir);

// What an input declares before it is read (declared_input_size), and for
// a snapshot what its manifest says: the graph as loaded, read back as built.
// Throws SnapshotError for a snapshot without a readable manifest.
DeclaredSize declared_size_of(const GraphInput& in);

// Refuses (SnapshotError, naming what differs) a snapshot this build cannot
// run with P = `nodes` under the graph rules `wanted`.
void check_snapshot_serves(const std::string& dir, const SnapshotManifest& m, unsigned nodes, const SnapshotRules& wanted);

}  // namespace wg
