// Saves this node's share of a loaded graph (--save-snapshot DIR): one file,
// DIR/node<R>.snap (compute/load/snapshot_format.h), written to a temporary
// file that is renamed over it once complete.
#pragma once

#include <string>

#include "compute/load/snapshot_format.h"
#include "compute/partition/partition.h"

namespace wg {

// `g` as the loader's finish() returned it (before split_into_ranges);
// `m` the manifest every node writes alike (rank 0 writes it too, once every
// node has saved). Creates DIR if need be. Returns the bytes written. Throws
// SnapshotError.
uint64_t write_node_snapshot(const std::string& dir, const LocalGraph& g, const SnapshotManifest& m);

}  // namespace wg
