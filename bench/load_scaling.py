#!/usr/bin/env python3
"""Per-node loading: peak RSS and load time against P, for every node.

Each node reads only its byte range of a graph file (or generates only its
share of the generator's edges), sends every edge to the owner of its source
and keeps its part (compute/load/graph_loader.h). This measures what that buys:
for each input (the generator's kron:SCALE:DEGREE, and the same graph written
as a binary file by build/apps/wiregraph-convert) and P = 1, 2, 4 over memif,
every node's peak RSS and load time, split into read, parse, shuffle, build
and wait (nodeR.json's load.seconds), and the largest node's peak RSS and the
slowest node's load time as ratios to P = 1 in the same run. Then, per
program at P = 2, the bytes of peak RSS per edge a node holds.

  bench/load_scaling.py [--graph kron:22:16] [--nodes 1,2,4] [--trials 2]
                        [--inputs generated,binary] [--apps-graph kron:20:16]
                        [--apps pagerank,sssp,bfs,cc,cd,kcore,lcc]
                        [--memory huge|no-huge|auto] [--out DIR] [--json FILE]
                        [--quick]

--inputs binary skips the generated input (none: both), --apps none the
per-program runs, so that one part can be re-measured alone.

Peak RSS is the node's own getrusage() maximum (node<R>.json), which
bench/wg_timed.py confirms from outside (wait4). With --memory huge, DPDK's
memory (mbuf pools) is in hugepages and not in the RSS, so the figures are
the graph's and the engine's; with no-huge it adds about 100 MB per node (a
4 KiB page per mbuf), more with more peers (larger receive pool).
PageRank with one iteration: the load is what is measured, the run is short.

The split (compute/load/graph_loader_build.cc): read and parse are this node's
(the sending of the edges it parses happens inside parse, one lcore per
node); shuffle is the rest of the edges superstep, until every node's END:
the edges still in flight and, above all, waiting for slower nodes to finish
parsing; build is this node's blocks; wait is the rest of the phase.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from wiregraph import benchlib


def hugepages_free_mib():
    try:
        info = Path("/proc/meminfo").read_text()
    except OSError:
        return 0
    free = size = 0
    for line in info.splitlines():
        if line.startswith("HugePages_Free:"):
            free = int(line.split()[1])
        elif line.startswith("Hugepagesize:"):
            size = int(line.split()[1])
    return free * size // 1024


SPLIT = ("read", "parse", "shuffle", "build", "wait")


def node_figures(res):
    """Every node's figures (None for a node without node<R>.json)."""
    out = []
    for r, j in enumerate(res["node_json"]):
        if j is None:
            out.append(None)
            continue
        load = j["load"]
        fig = {"rank": r, "peak_rss_mb": j["peak_rss_bytes"] / 1e6,
               "rss_wait4_mb": (res["rss_kib"][r] or 0) / 1024.0,
               "local_edges": load["local_edges"], "bytes_read": load["bytes_read"],
               "edges_read": load["edges_read"], "edges_sent": load["edges_sent"],
               "edges_received": load["edges_received"],
               "bytes_per_local_edge": j["bytes_per_local_edge"], "load_seconds": load["seconds"]["total"]}
        for part in SPLIT:
            fig[part] = load["seconds"].get(part, 0.0)
        out.append(fig)
    return out


def largest_node(figures):
    """The node with the largest peak RSS, and its figures (figures: node_figures' list)."""
    nodes = [f for f in figures if f is not None]
    best = dict(max(nodes, key=lambda f: f["peak_rss_mb"]))
    # The load takes as long as its slowest node.
    best["load_seconds_max"] = max(f["load_seconds"] for f in nodes)
    return best


def median_nodes(runs, nodes):
    """Per rank, the median over trials of every figure (runs: node_figures lists)."""
    out = []
    for r in range(nodes):
        figs = [run[r] for run in runs if run[r] is not None]
        row = {"rank": r}
        for key in figs[0]:
            if key != "rank":
                row[key] = benchlib.stat([f[key] for f in figs])["median"]
        out.append(row)
    return out


def markdown(results):
    """The tables (docs/PERFORMANCE.md, RESULTS.md) and the issue's targets, as lines."""
    md = ["Per-node loading, %s (the largest node of each run; medians of %s trials; DPDK memory %s)\n" % (
        results["graph"], results.get("trials", "?"),
        "in hugepages, not in RSS" if results["memory"] == "huge" else "in RSS (--no-huge)")]
    md.append("| input | P | peak RSS MB | vs P=1 | load s | vs P=1 | read / parse / shuffle / build s | MB read | edges held |")
    md.append("| --- | --: | --: | --: | --: | --: | --- | --: | --: |")
    for kind, rows in results["scaling"].items():
        for r in rows:
            md.append("| %s | %d | %.0f | %.2f | %.2f | %.2f | %.2f / %.2f / %.2f / %.2f | %.0f | %d |" % (
                kind, r["nodes"], r["peak_rss_mb"], r["rss_vs_p1"], r["load_seconds_max"], r["load_vs_p1"],
                r["read"], r["parse"], r["shuffle"], r["build"], r["bytes_read"] / 1e6, r["local_edges"]))
    md.append("")
    if results.get("per_node"):
        md.append("Every node (medians per rank over the trials):\n")
        md.append("| input | P | node | peak RSS MB | load s | read / parse / shuffle / build / wait s "
                  "| MB read | edges read | sent | received | held |")
        md.append("| --- | --: | --: | --: | --: | --- | --: | --: | --: | --: | --: |")
        for kind, per_p in results["per_node"].items():
            for entry in per_p:
                for f in entry["ranks"]:
                    md.append("| %s | %d | %d | %.0f | %.2f | %s | %.0f | %d | %d | %d | %d |" % (
                        kind, entry["nodes"], f["rank"], f["peak_rss_mb"], f["load_seconds"],
                        " / ".join("%.2f" % f.get(part, 0.0) for part in SPLIT), f["bytes_read"] / 1e6,
                        f.get("edges_read", 0), f.get("edges_sent", 0), f.get("edges_received", 0),
                        f["local_edges"]))
        md.append("")
    if results["apps"]:
        md.append("Bytes of peak RSS per edge held, P=2, %s:\n" % results.get("apps_graph", "?"))
        md.append("| program | peak RSS MB | edges held | bytes per edge |")
        md.append("| --- | --: | --: | --: |")
        for app, f in results["apps"].items():
            md.append("| %s | %.0f | %d | %.1f |" % (app, f["peak_rss_mb"], f["local_edges"], f["bytes_per_local_edge"]))
        md.append("")
    return md


def targets(results):
    """(target, met, figure) for the issue's targets, where the run has the figures."""
    out = []
    for kind, rows in results["scaling"].items():
        p4 = [r for r in rows if r["nodes"] == 4]
        if not p4:
            continue
        if kind == "generated" or kind == "binary file":
            out.append(("%s: largest node's peak RSS at P=4 <= 0.35x P=1" % kind, p4[0]["rss_vs_p1"] <= 0.35,
                        "%.2fx" % p4[0]["rss_vs_p1"]))
        if kind == "binary file":
            out.append(("binary file: load at P=4 <= 0.6x P=1", p4[0]["load_vs_p1"] <= 0.6,
                        "%.2fx" % p4[0]["load_vs_p1"]))
    return out


def run(outdir, nodes, args, memory, mem_mb, log):
    res = benchlib.run_cluster(outdir, nodes, args, memory=memory, mem_mb=mem_mb, timeout=1800, log=log)
    if res["rc"] != 0:
        raise RuntimeError("run failed (%s): %s" % (" ".join(args), res["error"]))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default="kron:22:16")
    ap.add_argument("--nodes", default="1,2,4")
    ap.add_argument("--trials", type=int, default=2)
    ap.add_argument("--inputs", default="generated,binary", help="generated, binary, both or none")
    ap.add_argument("--apps-graph", default="kron:20:16", help="graph of the per-program bytes per edge (P=2)")
    ap.add_argument("--apps", default="pagerank,sssp,bfs,cc,cd,kcore,lcc",
                    help="programs of the bytes per edge (P=2); none: skip")
    ap.add_argument("--memory", default="auto", choices=["auto", "huge", "no-huge"])
    ap.add_argument("--out", default="/tmp/wiregraph-bench/runs/load")
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true", help="kron:14:16, 1 trial, two programs")
    o = ap.parse_args()
    if o.quick:
        o.graph, o.trials, o.apps_graph, o.apps = "kron:14:16", 1, "kron:14:16", "pagerank,bfs"
    nodes = [int(x) for x in o.nodes.split(",")]
    kinds = [] if o.inputs == "none" else o.inputs.split(",")
    if any(k not in ("generated", "binary") for k in kinds):
        ap.error("--inputs takes generated, binary, both or none")
    out = Path(o.out)
    out.mkdir(parents=True, exist_ok=True)
    memory = o.memory
    if memory == "auto":
        memory = "huge" if hugepages_free_mib() >= max(nodes) * 256 else "no-huge"
    mem_mb = 256 if memory == "huge" else 512  # with --no-huge every mbuf takes a 4 KiB page
    log = open(out / "commands.log", "w")

    inputs = []
    if "generated" in kinds:
        inputs.append(("generated", o.graph))
    if "binary" in kinds:
        # The same graph as a binary file, written once by the converter.
        binary = Path(os.environ.get("WG_BENCH_BINARY", benchlib.ROOT / "build" / "apps" / "wiregraph"))
        convert = binary.parent / "wiregraph-convert"
        if not convert.exists():
            convert = benchlib.ROOT / "build" / "apps" / "wiregraph-convert"
        bin_path = out / (o.graph.replace(":", "_") + ".bin")
        if not bin_path.exists():
            cmd = [str(convert), "--graph", o.graph, "--out", str(bin_path)]
            log.write("$ " + " ".join(cmd) + "\n")
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        inputs.append(("binary file", str(bin_path)))

    results = {"graph": o.graph, "apps_graph": o.apps_graph, "trials": o.trials, "memory": memory, "mem_mb": mem_mb,
               "loadavg_start": benchlib.loadavg(), "scaling": {}, "per_node": {}, "apps": {}}
    for kind, spec in inputs:
        per_p = {p: [] for p in nodes}
        for t in range(o.trials):
            order = nodes if t % 2 == 0 else list(reversed(nodes))  # alternate, so load hits all alike
            for p in order:
                res = run(out / ("%s-p%d-t%d" % (kind.split()[0], p, t)), p,
                          ["--app", "pagerank", "--graph", spec, "--iterations", "1"], memory, mem_mb, log)
                per_p[p].append(node_figures(res))
        rows = []
        base = None
        for p in nodes:
            runs = [largest_node(run) for run in per_p[p]]
            row = {"nodes": p}
            for key in ("peak_rss_mb", "rss_wait4_mb", "load_seconds_max", "read", "parse", "shuffle", "build",
                        "bytes_per_local_edge", "bytes_read", "local_edges"):
                row[key] = benchlib.stat([r[key] for r in runs])["median"]
            if base is None:
                base = row
            row["rss_vs_p1"] = row["peak_rss_mb"] / base["peak_rss_mb"]
            row["load_vs_p1"] = row["load_seconds_max"] / base["load_seconds_max"]
            rows.append(row)
        results["scaling"][kind] = rows
        results["per_node"][kind] = [{"nodes": p, "ranks": median_nodes(per_p[p], p), "trials": per_p[p]}
                                     for p in nodes]

    apps = [] if o.apps == "none" else o.apps.split(",")
    for app in apps:
        args = ["--app", app, "--graph", o.apps_graph]
        if app in ("pagerank", "cd"):
            args += ["--iterations", "1"]
        res = run(out / ("app-" + app), 2, args, memory, mem_mb, log)
        results["apps"][app] = largest_node(node_figures(res))
    results["loadavg_end"] = benchlib.loadavg()

    print("\n".join(markdown(results)))
    if o.json:
        Path(o.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, subprocess.CalledProcessError) as e:
        print("load_scaling: %s" % e, file=sys.stderr)
        sys.exit(1)
