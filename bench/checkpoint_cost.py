#!/usr/bin/env python3
"""What checkpoints cost (issue #27): PageRank and SSSP through
scripts/wiregraph-cluster with --checkpoint-every 1, 5 and 20 against none,
the order rotating trial by trial (the machine is shared):

  wiregraph-cluster --nodes 2 --link memif -- --app pagerank --graph kron:22:16 \\
      [--checkpoint-every N --checkpoint-dir DIR] --quiet --out OUT

Reports per program and setting the median compute seconds (max over nodes,
from OUT/node<R>.json; the checkpoints are written inside the computation)
with min and max, each setting over none per trial (median), the
checkpoints written, their size per node against the node's vertex values
(what an uninterrupted job must keep anyway), and per checkpoint the pause
on the critical path (the copy, and a wait before END when the writer is
late: Checkpointer) and the writer thread's time (write, fsync, rename),
medians of the larger node's. Then a crash: node 1 killed (--crash-node 1:S) with --restart 1
and --checkpoint-every 5; the job's wall time against an uninterrupted
one's, and in the restarted job the time from its start to computing again
on node 0 (discovery, loading the graph again, reading the checkpoint; the
processes' start and EAL set-up come before). Only runs the launcher ends with exit 0 count (its
check found every message accumulated). Only the Python standard library.
"""

import argparse
import os
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from wiregraph import benchlib

EVERY = [None, 20, 5, 1]


def job(app, graph):
    a = ["--app", app, "--graph", graph]
    if app == "sssp":
        a += ["--source", "0"]
    return a


def run(args, out, app, every, extra=(), flags=()):
    ck = Path(out) / "ck"
    shutil.rmtree(ck, ignore_errors=True)
    app_args = job(app, args.graph) + (["--checkpoint-every", str(every), "--checkpoint-dir", str(ck)]
                                       if every else []) + list(extra)
    r = benchlib.run_cluster(Path(out) / "run", args.nodes, app_args, link=args.link, mem_mb=args.mem_mb,
                             memory="huge" if args.huge else "no-huge", timeout=1800, binary=args.binary,
                             launcher_flags=flags)
    if r["rc"] != 0 or None in r["node_json"]:
        raise SystemExit("failed (%s): %s" % (r["error"], " ".join(r["command"])))
    shutil.rmtree(ck, ignore_errors=True)
    os.sync()  # the next run does not pay for this one's writeback
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--graph", default="kron:22:16")
    p.add_argument("--apps", default="pagerank,sssp")
    p.add_argument("--nodes", type=int, default=2)
    p.add_argument("--link", default="memif")
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--crash-at", type=int, default=17, help="the superstep node 1 dies at (default 17: with "
                   "checkpoints every 5, committed 5 supersteps later, the one of 9 is taken)")
    p.add_argument("--mem-mb", type=int, default=1024)
    p.add_argument("--huge", action="store_true", help="hugepages (default --no-huge, as the other benchmarks)")
    p.add_argument("--binary", default=None)
    p.add_argument("--json", default=None)
    args = p.parse_args()
    res = {"graph": args.graph, "nodes": args.nodes, "link": args.link, "trials": args.trials, "programs": {}}
    with tempfile.TemporaryDirectory(prefix="wg-ckpt-") as tmp:
        for app in args.apps.split(","):
            seconds = {e: [] for e in EVERY}
            figures = {}
            for t in range(args.trials):
                order = EVERY[t % len(EVERY):] + EVERY[:t % len(EVERY)]
                for every in order:
                    r = run(args, tmp, app, every)
                    s = max(n["compute_seconds"] for n in r["node_json"])
                    seconds[every].append(s)
                    n0 = r["node_json"][0]
                    ck = n0.get("checkpoints") or {}
                    values = n0["load"]["vertices"] * 4 / args.nodes  # 4-byte values, V/P a node
                    f = figures.setdefault(every, {"written": ck.get("written", 0), "bytes": ck.get("bytes", 0),
                                                   "supersteps": len(n0["supersteps"]), "values_bytes": values,
                                                   "pause": [], "write": []})
                    # per checkpoint, the larger of the two nodes'
                    if ck.get("written"):
                        f["pause"].append(max(n["checkpoints"]["copy_seconds"] + n["checkpoints"]["wait_seconds"]
                                              for n in r["node_json"]) / ck["written"])
                        f["write"].append(max(n["checkpoints"]["write_seconds"] for n in r["node_json"]) / ck["written"])
                    print("[checkpoint_cost] %s trial %d every %s: %.3f s compute, %d checkpoints"
                          % (app, t + 1, every or "none", s, ck.get("written", 0)), file=sys.stderr, flush=True)
            clean = run(args, tmp, app, None)
            # --out-keep-others: the timing wrapper's rss-R.txt of the killed attempt stay in OUT
            crashed = run(args, tmp, app, 5, extra=["--crash-node", "1:%d" % args.crash_at, "--out-keep-others"],
                          flags=["--restart", "1"])
            n0 = crashed["node_json"][0]
            res["programs"][app] = {
                "seconds": {str(e or "none"): v for e, v in seconds.items()},
                "ratios": {str(e): [x / y for x, y in zip(seconds[e], seconds[None])] for e in EVERY[1:]},
                "figures": {str(e or "none"): f for e, f in figures.items()},
                "crash": {"at": args.crash_at, "clean_wall": clean["wall_seconds"], "wall": crashed["wall_seconds"],
                          "resumed_from": (n0.get("checkpoints") or {}).get("resumed_from"),
                          "restart_to_compute": n0["discovery_seconds"] + n0["load_seconds"] +
                          (n0.get("checkpoints") or {}).get("resume_seconds", 0.0)}}
    print("Checkpoint cost: %s, P=%d over %s, %d trials, order rotating\n" % (args.graph, args.nodes, args.link,
                                                                           args.trials))
    print("| program | every | compute s, median (min-max) | / none, median | checkpoints | MB each (node 0) "
          "| / values | pause s each | writer s each |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for app, r in res["programs"].items():
        for e in EVERY:
            key = str(e or "none")
            v = r["seconds"][key]
            f = r["figures"][key]
            ratio = "1" if e is None else "%.3f" % statistics.median(r["ratios"][str(e)])
            each = f["bytes"] / f["written"] / 1e6 if f["written"] else 0
            rel = "%.2f" % (f["bytes"] / f["written"] / f["values_bytes"]) if f["written"] and f["values_bytes"] else "-"
            pause = "%.4f" % statistics.median(f["pause"]) if f["pause"] else "-"
            write = "%.3f" % statistics.median(f["write"]) if f["write"] else "-"
            print("| %s | %s | %.3f (%.3f-%.3f) | %s | %d | %.1f | %s | %s | %s |"
                  % (app, key, statistics.median(v), min(v), max(v), ratio, f["written"], each, rel, pause, write))
    print("\n| program | node 1 killed at | resumed from | wall, uninterrupted | wall, with the crash | "
          "restarted job: start to computing |\n|---|--:|--:|--:|--:|--:|")
    for app, r in res["programs"].items():
        c = r["crash"]
        print("| %s | superstep %d | %s | %.2f s | %.2f s | %.2f s |"
              % (app, c["at"], c["resumed_from"], c["clean_wall"], c["wall"], c["restart_to_compute"]))
    if args.json:
        res["argv"] = sys.argv
        Path(args.json).write_text(json.dumps(res, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
