#!/usr/bin/env python3
"""A/B: two wiregraph binaries on one job, trials alternating (A B, B A, ...)
so that interference from other work hits both alike; medians of compute
seconds (max over nodes), and per trial supersteps (dense ones), cluster
messages, records applied locally (SSSP's local rounds), the CPU the
nodes' processes used in the computation (summed over nodes), the load
average at the start and lcore-seconds by role; then the ratio b / a of
the medians, and per alternating pair (trial t of both) the median and
range of the ratios of compute seconds and of CPU: a pair shares the
machine's load, so the spread shows the noise.

usage: ab.py --a OLD_BINARY --b NEW_BINARY [--nodes 2] [--link memif] [--lcores 1] [--trials 5]
             [--mem-mb 256] [--memory no-huge] [--out DIR] -- APP_OPTIONS...
e.g.   bench/ab.py --a /tmp/old/wiregraph --b build/apps/wiregraph -- --app bfs --graph kron20.bin --source 1
"""
import argparse
import statistics
import sys
from pathlib import Path

from wiregraph import benchlib
from end_to_end import summarize_run


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="binary A (the before)")
    ap.add_argument("--b", required=True, help="binary B (the after)")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--link", default="memif")
    ap.add_argument("--lcores", type=int, default=1)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--mem-mb", type=int, default=256, help="DPDK memory per node (launcher --mem-mb)")
    ap.add_argument("--memory", default="no-huge", help="launcher --memory")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="/tmp/wiregraph-ab")
    ap.add_argument("app_options", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    options = [x for x in a.app_options if x != "--"]
    seconds = {"a": [], "b": []}
    cpus = {"a": [], "b": []}
    by_trial = {"a": {}, "b": {}}  # trial -> (compute seconds, CPU seconds)
    for t in range(a.trials):
        for side in ("a", "b") if t % 2 == 0 else ("b", "a"):
            r = benchlib.run_cluster(Path(a.out) / ("%s-%d" % (side, t)), a.nodes, options, link=a.link,
                                     lcores=a.lcores, mem_mb=a.mem_mb, memory=a.memory, timeout=a.timeout,
                                     binary=getattr(a, side),
                                     # no results.tsv: none is read, and an older binary's summary has no column names
                                     launcher_flags=("--results", "none"))
            f = summarize_run(r)
            if f is None or r["rc"] != 0:
                print("%s trial %d: FAILED (rc %d): %s" % (side, t, r["rc"], r["error"]))
                continue
            dense = sum(1 for st in r["node_json"][0]["supersteps"] if st.get("dense"))
            relaxed = sum(st.get("relaxed_locally", 0) for n in r["node_json"] for st in n["supersteps"])
            cpu = sum(n.get("compute_cpu_seconds", 0.0) for n in r["node_json"])
            seconds[side].append(f["compute_seconds"])
            by_trial[side][t] = (f["compute_seconds"], cpu)
            cpus[side].append(cpu)
            print("%s trial %d: %.4f s, %d supersteps (%d dense), %d messages, %d applied locally, CPU %.3f s, "
                  "load %.1f, lcore-s %s" % (
                      side, t, f["compute_seconds"], f["supersteps"], dense, f["messages"], relaxed, cpu,
                      r["loadavg_start"] or -1, " ".join("%s %.3f" % kv for kv in f["role_seconds"].items())),
                  flush=True)
    for side in "ab":
        xs = seconds[side]
        if xs:
            cs = cpus[side]
            print("%s: median %.4f s [%.4f, %.4f], CPU %.3f s [%.3f, %.3f], %d trials" % (
                side, statistics.median(xs), min(xs), max(xs), statistics.median(cs), min(cs), max(cs), len(xs)))
    if seconds["a"] and seconds["b"]:
        print("b / a = %.3f" % (statistics.median(seconds["b"]) / statistics.median(seconds["a"])))
    both = [t for t in sorted(by_trial["a"]) if t in by_trial["b"]]
    for what, k in (("compute seconds", 0), ("CPU", 1)):
        pairs = [by_trial["b"][t][k] / by_trial["a"][t][k] for t in both if by_trial["a"][t][k] > 0]
        if pairs:
            print("b / a per pair, %s: median %.3f [%.3f, %.3f], %d pairs: %s" % (
                what, statistics.median(pairs), min(pairs), max(pairs), len(pairs), " ".join("%.3f" % x for x in pairs)))
    return 0 if len(seconds["a"]) == len(seconds["b"]) == a.trials else 1


if __name__ == "__main__":
    sys.exit(main())
