#!/usr/bin/env python3
"""Every app against GAP's and Gemini's own binaries, in one run, on the same edges.

GAP (github.com/sbeamer/gapbs) and Gemini (github.com/thu-pacman/GeminiGraph)
are built by hand outside this repository (see bench/README.md) and named
with --gap DIR or $GAP_DIR, --gemini DIR or $GEMINI_DIR. For each scale,
GAP's converter writes its Kronecker graph (bench/gap_peer.py: .sg/.wsg for
GAP, the same edges as .bin/.wbin for wiregraph and Gemini; gemini_peer.py
adds .fwbin, float weights for Gemini's sssp; cached in --graphs-dir); then,
per app, rounds alternate one GAP process (its kernel --gap-trials times:
GAP's "Trial Time", no loading), one process per Gemini config (its 6
built-in runs, the first a warm-up; exec_time, no loading) and one
wiregraph run (seconds: max over nodes of the supersteps' seconds; the
barrier that starts the computation, i.e. the wait for the slowest node's
load and engine build, is printed apart as "start barrier"), the order
rotating every round so that interference from other work on the machine
hits all alike.

  app       wiregraph                      GAP                              Gemini (V = 2^scale)
  pagerank  --app pagerank (20 iterations) pr_spmv -i 20 -t 0 (20 Jacobi)   pagerank F V 20 (20 Jacobi, double)
  bfs       --app bfs --source S           bfs -r S (direction-optimizing)  bfs F V S (push/pull at E/20)
  cc        --app cc                       cc (Afforest)                    cc F V (min-label propagation)
  sssp      --app sssp --source S (.wbin)  sssp -r S -d 2 (delta-stepping)  sssp F.fwbin V S (Bellman-Ford-like)
  bc        --app bc --source S            bc -i 1 -r S (Brandes)           bc F V S
  tc        --app tc                       tc -a (its total, checked)       (none)
  lcc       --app lcc                      tc (the same intersections)      (none)

GAP's kron graphs are undirected: the edge lists hold both directions of
every edge, so the directed apps see the same graph GAP does; cc adds the
reverse of every edge again (its rule, and Gemini's), which doubles its edges.
Gemini's PageRank is GAP's times V (rank 1 per vertex), in double, and like
GAP's drops the rank of vertices without out-edges; wiregraph's spreads it
(only the isolated vertices of these graphs have none).

Sanity check (not a timing): the first wiregraph run of each app keeps its
results, and each Gemini config's result line must agree with them: bfs
vertices reached, cc components (Gemini also counts the isolated vertices
above the file's largest id, since it is given V = 2^scale), sssp the largest
finite distance, pagerank the vertex of highest rank. A disagreement makes the
exit status 1.

With --before BINARY, every round also runs that wiregraph binary (an older
build: the "before" of a change) on the same job, in the rotation, and the
report gives its figures next to the current binary's.

Configurations: p2memif (P=2 over memif, 1 lcore per node) against GAP with
2 threads (default), p1l1 (one node, one lcore) against GAP with 1 thread.
Gemini (--gemini-configs, RANKSxTHREADS, default 1x<CPUs>: one rank, one
OpenMP thread per CPU; 2x<CPUs> oversubscribes the CPUs) runs in every
configuration's rounds alike: a Gemini rank always has one thread per CPU.
Reported per app: median [min, max] over rounds of each side, the ratios
wiregraph / GAP and wiregraph / Gemini of the medians, supersteps, dense
supersteps and cluster messages.

Without a GAP build this says so and exits 0: bench/end_to_end.py's
bench/reference_pagerank (a rewrite of GAP's PageRank kernel) then stands in
for PageRank only. Without a Gemini build it says so and runs GAP alone.

usage: gap_compare.py [--gap DIR] [--gemini DIR] [--gemini-configs 1x2] [--scales 20,22]
                      [--apps pagerank,bfs,cc,sssp,bc,tc,lcc] [--configs p2memif] [--trials 3] [--trials-large 2]
                      [--gap-trials 3] [--source 1] [--before BINARY] [--graphs-dir DIR] [--out DIR] [--json PATH]
"""
import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from wiregraph import benchlib
import gap_peer
import gemini_peer
from end_to_end import CONFIGS, summarize_run

GAP_THREADS = {"p2memif": 2, "p1l1": 1, "p1l2": 2}


def wiregraph_args(app, paths, source):
    graph = paths["wbin"] if app == "sssp" else paths["bin"]
    # GAP's and Gemini's graphs count every id 0..largest: the same rule here
    # (--ids auto would map the ids the edges name), so every side does the
    # same work.
    args = ["--app", app, "--graph", str(graph), "--ids", "dense"]
    if app in ("bfs", "sssp", "bc"):
        args += ["--source", str(source)]
    return args


def dense_supersteps(r):
    nodes = [n for n in r["node_json"] if n]
    return sum(1 for st in nodes[0]["supersteps"] if st.get("dense")) if nodes else None


def median_figures(figs):
    return sorted(figs, key=lambda f: f["superstep_seconds"])[len(figs) // 2] if figs else None


def fmt_stat(s):
    return "%.4f [%.4f, %.4f]" % (s["median"], s["min"], s["max"]) if s else "FAILED"


def gemini_setup(a, result):
    """The Gemini configs to run ([] when there is no usable build: the reason
    is then in result["gemini_skipped"])."""
    if not a.gemini:
        result["gemini_skipped"] = "no Gemini build given (--gemini DIR or $GEMINI_DIR): GAP only"
        return []
    problems = gemini_peer.check_build(a.gemini)
    if problems:
        result["gemini_skipped"] = "Gemini directory %s is not usable: %s" % (a.gemini, "; ".join(problems))
        return []
    result["gemini_commit"] = benchlib.git_commit(a.gemini)
    return gemini_peer.parse_configs(a.gemini_configs)


class Block:
    """The rounds of one (scale, config, app): every side's times and figures."""

    def __init__(self, a, scale, c, app, paths, gemini_configs, result):
        self.a, self.scale, self.c, self.app, self.paths, self.result = a, scale, c, app, paths, result
        self.cfg = CONFIGS[c]
        self.threads = GAP_THREADS[c]
        self.args = wiregraph_args(app, paths, a.source)
        self.name = "kron%d-%s-%s" % (scale, app, c)
        # Gemini has no triangle counting
        self.gemini = {"%dx%d" % rt: rt for rt in gemini_configs if app in gemini_peer.KERNELS}
        self.sides = ["gap", "wg"] + ["gemini:" + k for k in self.gemini] + (["before"] if a.before else [])
        self.seconds = {s: [] for s in self.sides}
        self.figs = {"wg": [], "before": []}
        self.gemini_first = {}   # config -> its first run (result line, command)
        self.digest = None       # wiregraph's results, for the sanity check
        self.wg_vertices = None
        self.failed = 0
        self.triangles = {}      # tc: the total each side printed, for the sanity check

    def run(self, rounds):
        for t in range(rounds):
            k = t % len(self.sides)
            for side in self.sides[k:] + self.sides[:k]:
                if side == "gap":
                    self.run_gap(t)
                elif side.startswith("gemini:"):
                    self.run_gemini(side[len("gemini:"):], t)
                else:
                    self.run_wiregraph(side, t)

    def record(self, run):
        self.result["runs"].append({"scale": self.scale, "app": self.app, "config": self.c, **run})

    def run_gap(self, t):
        try:
            g = gap_peer.run_kernel(self.a.gap, self.app, self.paths, self.threads, self.a.gap_trials, self.a.source)
        except gap_peer.GapError as e:
            print("gap: %s round %d: GAP FAILED: %s" % (self.name, t, e))
            self.failed += 1
            return
        self.seconds["gap"].append(g["median_seconds"])
        if g.get("triangles") is not None:
            self.triangles["gap"] = g["triangles"]
        self.record({"round": t, "side": "gap", **g})
        print("gap: %-24s round %d: GAP %d thread(s) %.4f s (trials %s)" % (
            self.name, t, self.threads, g["median_seconds"], " ".join("%.4f" % x for x in g["seconds"])), flush=True)

    def run_gemini(self, key, t):
        ranks, threads = self.gemini[key]
        try:
            g = gemini_peer.run_kernel(self.a.gemini, self.app, self.paths, 1 << self.scale, ranks, self.a.source,
                                       timeout=self.a.timeout)
        except gemini_peer.GeminiError as e:
            print("gap: %s round %d: %s FAILED: %s" % (self.name, t, gemini_peer.label(ranks, threads), e))
            self.failed += 1
            return
        self.seconds["gemini:" + key].append(g["median_seconds"])
        self.gemini_first.setdefault(key, g)
        self.record({"round": t, "side": "gemini", "gemini_config": key, **g})
        print("gap: %-24s round %d: %s %.4f s (runs %s; warm-up %.4f)" % (
            self.name, t, gemini_peer.label(ranks, threads), g["median_seconds"],
            " ".join("%.4f" % x for x in g["seconds"]), g["warmup_seconds"]), flush=True)

    def run_wiregraph(self, side, t):
        rundir = Path(self.a.out) / ("%s-%s-%d" % (self.name, side, t))
        check = side == "wg" and self.digest is None and bool(self.gemini)
        r = benchlib.run_cluster(rundir, self.cfg["nodes"], self.args, link=self.cfg["link"],
                                 lcores=self.cfg["lcores"], mem_mb=256, timeout=self.a.timeout,
                                 binary=self.a.before if side == "before" else None, keep_results=check)
        f = summarize_run(r)
        who = "wiregraph" if side == "wg" else "before"
        self.record({"round": t, "side": who, "rc": r["rc"], "error": r["error"], "command": " ".join(r["command"]),
                     "loadavg_start": r["loadavg_start"], "figures": f})
        if check:
            if r["rc"] == 0:
                self.digest = gemini_peer.wiregraph_digest(self.app, rundir)
                self.wg_vertices = r["vertices"]
            benchlib.remove_results(rundir)
        if f is None or r["rc"] != 0:
            self.failed += 1
            print("gap: %-24s round %d: %s FAILED (rc %d): %s" % (self.name, t, who, r["rc"], r["error"]))
            if f is None:
                return
        f["dense_supersteps"] = dense_supersteps(r)
        answer = ((r["summary"] or {}).get("summary") or {}).get("answer") or {}
        if side == "wg" and "triangles" in answer:
            self.triangles["wg"] = answer["triangles"]
        self.seconds[side].append(f["superstep_seconds"])
        self.figs[side].append(f)
        print("gap: %-24s round %d: %-9s %s %.4f s (start barrier %.4f s), %d supersteps (%d dense), "
              "%d messages, load %.1f" % (self.name, t, who, self.cfg["label"], f["superstep_seconds"],
                                         f["compute_seconds"] - f["superstep_seconds"], f["supersteps"],
                                         f["dense_supersteps"] or 0, f["messages"],
                                         r["loadavg_start"] if r["loadavg_start"] is not None else -1), flush=True)

    def gemini_summary(self, ours):
        out = []
        for key, (ranks, threads) in self.gemini.items():
            secs = self.seconds["gemini:" + key]
            first = self.gemini_first.get(key)
            e = {"config": key, "ranks": ranks, "threads": threads, "label": gemini_peer.label(ranks, threads),
                 "seconds": benchlib.stat(secs), "command": first["command"] if first else None}
            if ours and secs:
                e["ratio"] = statistics.median(ours) / statistics.median(secs)
            if first:
                ok, why = gemini_peer.compare(self.app, first["result"], self.digest, 1 << self.scale,
                                              self.wg_vertices or 0)
                e["check"] = {"agrees": ok, "detail": why}
                print("gap: %-24s check, %s: %s: %s" % (self.name, e["label"], why, {
                    True: "agree", False: "DISAGREE", None: "not checked"}[ok]))
                if ok is False:
                    self.failed += 1
            out.append(e)
        return out

    def summary(self, rounds):
        ours, theirs = self.seconds["wg"], self.seconds["gap"]
        s = {"scale": self.scale, "app": self.app, "config": self.c, "label": self.cfg["label"],
             "gap_threads": self.threads, "rounds": rounds, "wiregraph_seconds": benchlib.stat(ours),
             "gap_seconds": benchlib.stat(theirs),
             "wiregraph_command": "scripts/wiregraph-cluster --nodes %d --link %s --lcores-per-node %d -- %s" % (
                 self.cfg["nodes"], self.cfg["link"], self.cfg["lcores"], " ".join(self.args)),
             "gap_command": next((x["command"] for x in self.result["runs"] if x["side"] == "gap" and
                                  x["scale"] == self.scale and x["app"] == self.app and x["config"] == self.c), None),
             "gemini": self.gemini_summary(ours)}
        if self.app == "tc" and len(self.triangles) == 2:
            agree = self.triangles["gap"] == self.triangles["wg"]
            s["triangles"] = {**self.triangles, "agree": agree}
            print("gap: %-24s check, GAP: %d triangles, wiregraph %d: %s" % (
                self.name, self.triangles["gap"], self.triangles["wg"], "agree" if agree else "DISAGREE"))
            if not agree:
                self.failed += 1
        med = median_figures(self.figs["wg"])
        if med:
            s.update({"supersteps": med["supersteps"], "dense_supersteps": med["dense_supersteps"],
                      "messages": med["messages"], "edges": med["edges"], "role_seconds": med["role_seconds"]})
        if ours and theirs:
            s["ratio"] = statistics.median(ours) / statistics.median(theirs)
        if self.a.before:
            before = self.seconds["before"]
            s["before_binary"] = self.a.before
            s["before_seconds"] = benchlib.stat(before)
            med = median_figures(self.figs["before"])
            if med:
                s["before_supersteps"] = med["supersteps"]
                s["before_dense_supersteps"] = med["dense_supersteps"]
                s["before_messages"] = med["messages"]
            if before and theirs:
                s["before_ratio"] = statistics.median(before) / statistics.median(theirs)
        return s


def print_summary(result):
    print()
    print("gap summary: median [min, max] seconds over rounds; ratio = wiregraph / GAP, wiregraph / Gemini")
    for s in result["summary"]:
        print("  kron%d %-9s %-24s wiregraph %s  GAP %d thread(s) %s  ratio %s  supersteps %s (%s dense)  "
              "messages %s" % (
                  s["scale"], s["app"], s["label"], fmt_stat(s["wiregraph_seconds"]), s["gap_threads"],
                  fmt_stat(s["gap_seconds"]), "%.2fx" % s["ratio"] if "ratio" in s else "-",
                  s.get("supersteps", "-"), s.get("dense_supersteps", "-"),
                  "{:,}".format(s["messages"]) if "messages" in s else "-"))
        for g in s.get("gemini", []):
            print("  %38s %-28s %s  ratio %s  check: %s" % (
                "", g["label"], fmt_stat(g["seconds"]), "%.2fx" % g["ratio"] if "ratio" in g else "-",
                {True: "agrees", False: "DISAGREES", None: "-"}[g["check"]["agrees"]] if "check" in g else "-"))
        if "before_seconds" in s:
            print("  %38s before:   %s  ratio %s  supersteps %s  messages %s" % (
                "", fmt_stat(s["before_seconds"]), "%.2fx" % s["before_ratio"] if "before_ratio" in s else "-",
                s.get("before_supersteps", "-"),
                "{:,}".format(s["before_messages"]) if "before_messages" in s else "-"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gap", default=os.environ.get("GAP_DIR"), help="GAP build directory (default $GAP_DIR)")
    ap.add_argument("--gemini", default=os.environ.get("GEMINI_DIR"),
                    help="Gemini build directory (default $GEMINI_DIR)")
    ap.add_argument("--gemini-configs", default="1x%d" % gemini_peer.threads_per_rank(),
                    help="Gemini RANKSxTHREADS, comma-separated (THREADS must be the CPU count: Gemini's rule)")
    ap.add_argument("--scales", default="20,22")
    ap.add_argument("--apps", default="pagerank,bfs,cc,sssp,bc,tc,lcc")
    ap.add_argument("--configs", default="p2memif")
    ap.add_argument("--trials", type=int, default=3,
                    help="rounds per app (each: one GAP process, one per Gemini config, one wiregraph run)")
    ap.add_argument("--trials-large", type=int, default=2, help="rounds for scales >= 22")
    ap.add_argument("--gap-trials", type=int, default=3, help="GAP kernel trials per GAP process (median taken)")
    ap.add_argument("--source", type=int, default=1, help="source vertex of bfs and sssp (GAP's -r)")
    ap.add_argument("--before", default=None, help="an older wiregraph binary run in the same rounds")
    ap.add_argument("--graphs-dir", default="/tmp/wiregraph-gap-graphs")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--out", default="/tmp/wiregraph-bench/gap")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()

    result = {"benchmark": "gap_compare", "gap_dir": a.gap, "gemini_dir": a.gemini, "source": a.source,
              "runs": [], "summary": []}
    try:
        gemini_configs = gemini_setup(a, result)
    except ValueError as e:
        ap.error(str(e))
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
    if "gemini_skipped" in result:
        print("gap: " + result["gemini_skipped"])
    result["gap_commit"] = benchlib.git_commit(a.gap)
    failed = 0
    for scale in [int(x) for x in a.scales.split(",") if x]:
        weighted = "sssp" in a.apps.split(",")
        paths = gap_peer.prepare_graphs(a.gap, scale, a.graphs_dir, log=lambda m: print("gap: " + m, flush=True),
                                        weighted_too=weighted)
        if gemini_configs and weighted:
            paths = gemini_peer.prepare_graphs(paths, log=lambda m: print("gap: " + m, flush=True))
        rounds = a.trials_large if scale >= 22 else a.trials
        for c in [x for x in a.configs.split(",") if x]:
            for app in [x for x in a.apps.split(",") if x]:
                b = Block(a, scale, c, app, paths, gemini_configs, result)
                b.run(rounds)
                result["summary"].append(b.summary(rounds))
                failed += b.failed
    print_summary(result)
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
