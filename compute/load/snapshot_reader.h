// Reads this node's share back from a snapshot (--graph snapshot:DIR): no
// parse, shuffle or build, one sequential read of DIR/node<R>.snap straight
// into the LocalGraph the engine uses (why read() and not mmap: docs/PERFORMANCE.md,
// "Snapshots").
#pragma once

#include <string>

#include "compute/load/snapshot_format.h"
#include "compute/partition/partition.h"

namespace wg {

// Node `rank`'s share, as the loader's finish() returned it when the snapshot
// was saved. Refuses (SnapshotError: the file, the field, the values) a file
// that is missing, truncated, damaged (its CRC), of another format version,
// build, P, rank or graph than `m` says. `bytes_read`: the file's size.
LocalGraph read_node_snapshot(const std::string& dir, unsigned rank, const SnapshotManifest& m, uint64_t* bytes_read);

}  // namespace wg
