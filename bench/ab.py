#!/usr/bin/env python3
"""A/B: two wiregraph binaries on one job, trials alternating (A B, B A, ...)
so that interference from other work hits both alike; medians of compute
seconds (max over nodes, supersteps only), supersteps (dense ones), cluster
messages and lcore-seconds by role per trial.

usage: ab.py --a OLD_BINARY --b NEW_BINARY [--nodes 2] [--link memif] [--lcores 1] [--trials 5]
             [--out DIR] -- APP_OPTIONS...
e.g.   bench/ab.py --a /tmp/old/wiregraph --b build/apps/wiregraph -- --app bfs --graph kron20.bin --source 1
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402
from end_to_end import summarize_run  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="binary A (the before)")
    ap.add_argument("--b", required=True, help="binary B (the after)")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--link", default="memif")
    ap.add_argument("--lcores", type=int, default=1)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="/tmp/wiregraph-ab")
    ap.add_argument("app_options", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    options = [x for x in a.app_options if x != "--"]
    seconds = {"a": [], "b": []}
    for t in range(a.trials):
        for side in ("a", "b") if t % 2 == 0 else ("b", "a"):
            r = benchlib.run_cluster(Path(a.out) / ("%s-%d" % (side, t)), a.nodes, options, link=a.link,
                                     lcores=a.lcores, mem_mb=256, timeout=a.timeout, binary=getattr(a, side))
            f = summarize_run(r)
            if f is None or r["rc"] != 0:
                print("%s trial %d: FAILED (rc %d): %s" % (side, t, r["rc"], r["error"]))
                continue
            dense = sum(1 for st in r["node_json"][0]["supersteps"] if st.get("dense"))
            seconds[side].append(f["compute_seconds"])
            print("%s trial %d: %.4f s, %d supersteps (%d dense), %d messages, load %.1f, lcore-s %s" % (
                side, t, f["compute_seconds"], f["supersteps"], dense, f["messages"], r["loadavg_start"] or -1,
                " ".join("%s %.3f" % kv for kv in f["role_seconds"].items())), flush=True)
    for side in "ab":
        xs = seconds[side]
        if xs:
            print("%s: median %.4f s [%.4f, %.4f], %d trials" % (side, statistics.median(xs), min(xs), max(xs), len(xs)))
    if seconds["a"] and seconds["b"]:
        print("b / a = %.3f" % (statistics.median(seconds["b"]) / statistics.median(seconds["a"])))
    return 0 if len(seconds["a"]) == len(seconds["b"]) == a.trials else 1


if __name__ == "__main__":
    sys.exit(main())
