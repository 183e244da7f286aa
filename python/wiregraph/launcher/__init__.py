"""The cluster launcher (scripts/wiregraph-cluster, `python3 -m
wiregraph.launcher`): P wiregraph node processes on this machine, joined by
memif pairs or by tap ports on a Linux bridge.

Each node is one DPDK process with its own --file-prefix. The launcher gives
them a fresh key for the run (authenticated frames: a 0600 file in its run
directory), has the node binary check the application options before it
starts any node (`wiregraph --check-options`, exit 2 with the node's own
message), streams every node's output with a "[node R] " prefix (rank 0's
end-of-run summary without it, the nodes' load progress as one line for the
cluster), prints how each node ended, checks the per-superstep message
counts written under --out DIR, and always cleans up what it created
(bridge, taps, run directory, DPDK runtime and hugepage files of the job's
file prefixes). What a launcher killed with SIGKILL leaves is removed by the
next one: it holds a lock on its run directory for as long as it lives, and
a run directory whose lock nobody holds is stale (rundirs.sweep_stale_runs).

Its parts, one job each: cli (the command line), plan (names and commands
of a job), memory (EAL memory), keys (the run's key), rundirs (run
directories, the stale-run sweep, cleanup), netdevs and taps (the tap
bridge), processes (node process groups), progress (the launcher's output
lines), node_binary (what the node binary is asked before any node starts),
restarts (a restarted job's options), reports (after the run), status (exit
codes) and main (the run's steps). Standard library only.
"""
