// A node's side of snapshots (compute/load/snapshot_format.h): --graph
// snapshot:DIR instead of the loading phase, and --save-snapshot DIR after it.
// The only snapshot code run_program.h calls.
#pragma once

#include <string>

#include "compute/load/graph_loader.h"
#include "compute/load/snapshot_format.h"
#include "config/options.h"

namespace wg {

// The snapshot's manifest, refused (ConfigError naming what differs) unless
// it serves this job: its P, build, format version and graph rules `lo`.
// Called before the runtime starts: nothing is loaded or computed for a
// snapshot that is refused.
SnapshotManifest snapshot_for_job(const Config& cfg, const LoadOptions& lo);

// This node's share read back, with the load figures the run reports
// (seconds: the read, bytes_read: the file).
LocalGraph load_snapshot_share(const Config& cfg, const SnapshotManifest& m, LoadReport* load);

// Saves this node's share (`g` as loaded, before split_into_ranges) and
// prints what it wrote; returns the manifest for rank 0 to write once every
// node has saved (write_snapshot_manifest, compute/load/snapshot_manifest.h).
SnapshotManifest save_snapshot_share(const Config& cfg, const LoadOptions& lo, const LoadReport& load,
                                     const LocalGraph& g);

}  // namespace wg
