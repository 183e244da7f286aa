// A node ends with the process that started it: srun's slurmstepd, mpirun
// (or its daemon on other hosts), scripts/wiregraph-cluster, a shell. When
// that process dies, even of SIGKILL, the kernel sends the node SIGTERM
// (the parent-death signal), and the node removes its files and ends as on
// any SIGTERM (apps/node/node_files.h), at once, instead of computing on
// until it next writes to a pipe nobody reads or a peer gives up on it.
//
// The signal follows the parent *thread* that forked the node; the
// launchers above fork from a thread that lives as long as they do.
// WIREGRAPH_OUTLIVE_PARENT=1 turns this off, for a node meant to outlive
// the shell that started it (nohup).
#pragma once

namespace wg {

// First thing in main: arms the parent-death signal, then checks that the
// parent is still the one the process had a moment before (the signal only
// covers a death after it is armed); if not, raises SIGTERM itself.
void end_with_parent();

}  // namespace wg
