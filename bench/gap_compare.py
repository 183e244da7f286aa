#!/usr/bin/env python3
"""Every app against GAP's own binary, in one run, on the same edges.

GAP (github.com/sbeamer/gapbs) is built by hand outside this repository
(clone it, `make`; see ../shared/MACHINE-NOTES.md item 13) and named with
--gap DIR or $GAP_DIR. For each scale, GAP's converter writes its Kronecker
graph (bench/gap_peer.py: .sg/.wsg for GAP, the same edges as .bin/.wbin for
wiregraph, cached in --graphs-dir); then, per app, rounds alternate one GAP
process (its kernel --gap-trials times: GAP's "Trial Time", no loading) and
one wiregraph run (seconds: max over nodes of the supersteps' seconds; the
barrier that starts the computation, i.e. the wait for the slowest node's
load and engine build, is printed apart as "start barrier"), the
order flipping every round so that interference from other work on the
machine hits both alike.

  app        wiregraph                      GAP
  pagerank   --app pagerank (20 iterations) pr_spmv -i 20 -t 0 (20 Jacobi iterations)
  bfs        --app bfs --source S           bfs -r S (direction-optimizing)
  cc         --app cc                       cc (Afforest)
  sssp       --app sssp --source S (.wbin)  sssp -r S -d 2 (delta-stepping, GAP's kron setting)

GAP's kron graphs are undirected: the edge lists hold both directions of
every edge, so the directed apps see the same graph GAP does; cc adds the
reverse of every edge again (its rule), which doubles its edges.

With --before BINARY, every round also runs that wiregraph binary (an older
build: the "before" of a change) on the same job, in the rotation, and the
report gives its figures next to the current binary's.

Configurations: p2memif (P=2 over memif, 1 lcore per node) against GAP with
2 threads (default), p1l1 (one node, one lcore) against GAP with 1 thread.
Reported per app: median [min, max] over rounds of each side, the ratio of
the medians, supersteps, dense supersteps and cluster messages.

Without a GAP build this says so and exits 0: bench/end_to_end.py's
bench/reference_pagerank (a rewrite of GAP's PageRank kernel) then stands in
for PageRank only.

usage: gap_compare.py [--gap DIR] [--scales 20,22] [--apps pagerank,bfs,cc,sssp] [--configs p2memif]
                      [--trials 3] [--trials-large 2] [--gap-trials 3] [--source 1] [--before BINARY]
                      [--graphs-dir DIR] [--out DIR] [--json PATH]
"""
import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402
import gap_peer  # noqa: E402
from end_to_end import CONFIGS, summarize_run  # noqa: E402

GAP_THREADS = {"p2memif": 2, "p1l1": 1, "p1l2": 2}


def wiregraph_args(app, paths, source):
    graph = paths["wbin"] if app == "sssp" else paths["bin"]
    args = ["--app", app, "--graph", str(graph)]
    if app in ("bfs", "sssp"):
        args += ["--source", str(source)]
    return args


def dense_supersteps(r):
    nodes = [n for n in r["node_json"] if n]
    return sum(1 for st in nodes[0]["supersteps"] if st.get("dense")) if nodes else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gap", default=os.environ.get("GAP_DIR"), help="GAP build directory (default $GAP_DIR)")
    ap.add_argument("--scales", default="20,22")
    ap.add_argument("--apps", default="pagerank,bfs,cc,sssp")
    ap.add_argument("--configs", default="p2memif")
    ap.add_argument("--trials", type=int, default=3, help="rounds per app (each: one GAP process, one wiregraph run)")
    ap.add_argument("--trials-large", type=int, default=2, help="rounds for scales >= 22")
    ap.add_argument("--gap-trials", type=int, default=3, help="GAP kernel trials per GAP process (median taken)")
    ap.add_argument("--source", type=int, default=1, help="source vertex of bfs and sssp (GAP's -r)")
    ap.add_argument("--before", default=None, help="an older wiregraph binary run in the same rounds")
    ap.add_argument("--graphs-dir", default="/tmp/wiregraph-gap-graphs")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--out", default="/tmp/wiregraph-bench/gap")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()

    result = {"benchmark": "gap_compare", "gap_dir": a.gap, "source": a.source, "runs": [], "summary": []}
    if not a.gap:
        result["skipped"] = ("no GAP build given (--gap DIR or $GAP_DIR): the comparison with GAP's own binaries "
                             "is skipped; bench/end_to_end.py's bench/reference_pagerank (a rewrite of GAP's "
                             "PageRank kernel) stands in for PageRank only")
    elif gap_peer.check_build(a.gap):
        result["skipped"] = "GAP directory %s lacks %s (build it there with make)" % (
            a.gap, ", ".join(gap_peer.check_build(a.gap)))
    if "skipped" in result:
        print("gap: " + result["skipped"])
        if a.json:
            Path(a.json).write_text(json.dumps(result, indent=1) + "\n")
        return 0
    result["gap_commit"] = gap_peer.gap_commit(a.gap)
    failed = 0
    for scale in [int(x) for x in a.scales.split(",") if x]:
        paths = gap_peer.prepare_graphs(a.gap, scale, a.graphs_dir, log=lambda m: print("gap: " + m, flush=True))
        rounds = a.trials_large if scale >= 22 else a.trials
        for c in [x for x in a.configs.split(",") if x]:
            cfg = CONFIGS[c]
            threads = GAP_THREADS[c]
            for app in [x for x in a.apps.split(",") if x]:
                args = wiregraph_args(app, paths, a.source)
                name = "kron%d-%s-%s" % (scale, app, c)
                ours, theirs, figs = [], [], []
                before, before_figs = [], []
                sides = ["gap", "wg"] + (["before"] if a.before else [])
                for t in range(rounds):
                    for side in sides[t % len(sides):] + sides[:t % len(sides)]:
                        if side == "gap":
                            try:
                                g = gap_peer.run_kernel(a.gap, app, paths, threads, a.gap_trials, a.source)
                            except gap_peer.GapError as e:
                                print("gap: %s round %d: GAP FAILED: %s" % (name, t, e))
                                failed += 1
                                continue
                            theirs.append(g["median_seconds"])
                            result["runs"].append({"scale": scale, "app": app, "config": c, "round": t,
                                                   "side": "gap", **g})
                            print("gap: %-24s round %d: GAP %d thread(s) %.4f s (trials %s)" % (
                                name, t, threads, g["median_seconds"], " ".join("%.4f" % x for x in g["seconds"])),
                                flush=True)
                            continue
                        rundir = Path(a.out) / ("%s-%s-%d" % (name, side, t))
                        r = benchlib.run_cluster(rundir, cfg["nodes"], args, link=cfg["link"], lcores=cfg["lcores"],
                                                 mem_mb=256, timeout=a.timeout,
                                                 binary=a.before if side == "before" else None)
                        f = summarize_run(r)
                        who = "wiregraph" if side == "wg" else "before"
                        run = {"scale": scale, "app": app, "config": c, "round": t, "side": who,
                               "rc": r["rc"], "error": r["error"], "command": " ".join(r["command"]),
                               "loadavg_start": r["loadavg_start"], "figures": f}
                        result["runs"].append(run)
                        if f is None or r["rc"] != 0:
                            failed += 1
                            print("gap: %-24s round %d: %s FAILED (rc %d): %s" % (name, t, who, r["rc"], r["error"]))
                            if f is None:
                                continue
                        f["dense_supersteps"] = dense_supersteps(r)
                        (ours if side == "wg" else before).append(f["superstep_seconds"])
                        (figs if side == "wg" else before_figs).append(f)
                        print("gap: %-24s round %d: %-9s %s %.4f s (start barrier %.4f s), %d supersteps (%d dense), "
                              "%d messages, load %.1f" % (name, t, who, cfg["label"], f["superstep_seconds"],
                                             f["compute_seconds"] - f["superstep_seconds"], f["supersteps"],
                                             f["dense_supersteps"] or 0, f["messages"],
                                             r["loadavg_start"] if r["loadavg_start"] is not None else -1),
                              flush=True)
                s = {"scale": scale, "app": app, "config": c, "label": cfg["label"], "gap_threads": threads,
                     "rounds": rounds, "wiregraph_seconds": benchlib.stat(ours), "gap_seconds": benchlib.stat(theirs),
                     "wiregraph_command": "scripts/wiregraph-cluster --nodes %d --link %s --lcores-per-node %d -- %s" % (
                         cfg["nodes"], cfg["link"], cfg["lcores"], " ".join(args)),
                     "gap_command": next((x["command"] for x in result["runs"] if x["side"] == "gap" and
                                          x["scale"] == scale and x["app"] == app and x["config"] == c), None)}
                if figs:
                    med = sorted(figs, key=lambda f: f["superstep_seconds"])[len(figs) // 2]
                    s.update({"supersteps": med["supersteps"], "dense_supersteps": med["dense_supersteps"],
                              "messages": med["messages"], "edges": med["edges"], "role_seconds": med["role_seconds"]})
                if ours and theirs:
                    s["ratio"] = statistics.median(ours) / statistics.median(theirs)
                if a.before:
                    s["before_binary"] = a.before
                    s["before_seconds"] = benchlib.stat(before)
                    if before_figs:
                        med = sorted(before_figs, key=lambda f: f["superstep_seconds"])[len(before_figs) // 2]
                        s["before_supersteps"] = med["supersteps"]
                        s["before_dense_supersteps"] = med["dense_supersteps"]
                        s["before_messages"] = med["messages"]
                    if before and theirs:
                        s["before_ratio"] = statistics.median(before) / statistics.median(theirs)
                result["summary"].append(s)
    print()
    print("gap summary: median [min, max] seconds over rounds; ratio = wiregraph / GAP")
    for s in result["summary"]:
        w, g = s["wiregraph_seconds"], s["gap_seconds"]
        print("  kron%d %-9s %-24s wiregraph %s  GAP %d thread(s) %s  ratio %s  supersteps %s  messages %s" % (
            s["scale"], s["app"], s["label"],
            "%.4f [%.4f, %.4f]" % (w["median"], w["min"], w["max"]) if w else "FAILED",
            s["gap_threads"], "%.4f [%.4f, %.4f]" % (g["median"], g["min"], g["max"]) if g else "FAILED",
            "%.2fx" % s["ratio"] if "ratio" in s else "-", s.get("supersteps", "-"),
            "{:,}".format(s["messages"]) if "messages" in s else "-"))
        if "before_seconds" in s:
            b = s["before_seconds"]
            print("  %38s before:   %s  ratio %s  supersteps %s  messages %s" % (
                "", "%.4f [%.4f, %.4f]" % (b["median"], b["min"], b["max"]) if b else "FAILED",
                "%.2fx" % s["before_ratio"] if "before_ratio" in s else "-", s.get("before_supersteps", "-"),
                "{:,}".format(s["before_messages"]) if "before_messages" in s else "-"))
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
