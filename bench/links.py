#!/usr/bin/env python3
"""Links: frames/s and Gbps between two wiregraph node processes.

Runs the real wiregraph binary through scripts/wiregraph-cluster with P=2,
PageRank on a Kronecker graph, once per link kind and trial, and reads each
node's DIR/node<R>.json: per superstep frames_sent, bytes_sent and seconds.
A node's link rate is what it sent (data buckets, END, ACK frames) over the
supersteps in which it sent anything: this is the rate the application
achieved on the link while computing (scatter, fold and transport share the
node's lcore), not the link's raw capacity (MACHINE-NOTES has raw figures).

  memif - one shared-memory memif pair (copy mode): fast
  tap   - one net_tap port per node on a fresh Linux bridge (root only): the
          kernel L2 path, lossy without pacing; the transport's pacing and
          retransmission handle the loss
  af_xdp - one net_af_xdp port per node on a veth end whose peer is on a
          fresh Linux bridge (root only): AF_XDP in copy mode (a veth has no
          zero-copy), one queue; --hosts netns puts each node in its own
          network namespace (same path, plus the namespace's veth)
  ring  - not feasible: net_ring is an in-process PMD, it cannot join two
          processes; bench_accumulation measures the in-process ring loopback

usage: links.py [--graph SPEC] [--trials N] [--links memif,tap,af_xdp] [--hosts shared|netns]
                [--xdp-prog PATH] [--out DIR] [--json PATH]
"""
import argparse
import json
import os
import sys
from pathlib import Path

from wiregraph import benchlib


def launcher_flags(kind, a):
    """--hosts for the kernel links, --xdp-prog for af_xdp."""
    if kind == "memif":
        return ()
    prog = ("--xdp-prog", a.xdp_prog) if kind == "af_xdp" and a.xdp_prog else ()
    return ("--hosts", a.hosts) + prog


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default="kron:18:16")
    ap.add_argument("--app", default="pagerank")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--links", default="memif,tap,af_xdp")
    ap.add_argument("--xdp-prog", default=None, metavar="PATH",
                    help="the launcher's --xdp-prog for af_xdp (build/dataplane/xdp/wiregraph_xdp.o)")
    ap.add_argument("--hosts", choices=("shared", "netns"), default="shared",
                    help="the launcher's --hosts for tap and af_xdp (memif always shares)")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="/tmp/wiregraph-bench/links")
    ap.add_argument("--json", default=None)
    ap.add_argument("--resummarize", action="store_true",
                    help="run nothing: rebuild the JSON from the run directories already under --out")
    a = ap.parse_args()

    kinds = [k for k in a.links.split(",") if k]
    result = {"benchmark": "links", "graph": a.graph, "app": a.app, "trials": a.trials, "hosts": a.hosts,
              "xdp_prog": a.xdp_prog,
              "links": {},
              "ring": "not feasible: net_ring is an in-process PMD and cannot join two processes; "
                      "see bench_accumulation's ring-txrx for the in-process loopback"}
    log = open(Path(a.out).parent / "links-commands.log", "a") if Path(a.out).parent.exists() else None
    failed = False
    for kind in kinds:
        if kind in ("tap", "af_xdp") and os.geteuid() != 0:
            result["links"][kind] = {"skipped": "%s needs root (a bridge, taps or veths)" % kind}
            print("links: %s skipped (needs root)" % kind)
            continue
        mbufs, mem = benchlib.pool_for(a.graph, 2, False)
        runs = []
        for t in range(a.trials):
            rundir = Path(a.out) / ("%s-%d" % (kind, t))
            if a.resummarize:
                if not (rundir / "launcher.log").exists():
                    continue
                r = benchlib.read_run(rundir)
            else:
                # Sparse scatter: one record per edge, so the link carries what
                # the application can generate (dense supersteps need far less).
                r = benchlib.run_cluster(rundir, 2, ["--app", a.app, "--graph", a.graph, "--mbufs", str(mbufs),
                                                     "--scatter", "sparse"],
                                         link=kind, mem_mb=mem, timeout=a.timeout, log=log,
                                         launcher_flags=launcher_flags(kind, a))
            entry = {"trial": t, "rc": r["rc"], "error": r["error"], "loadavg": r["loadavg_start"],
                     "command": " ".join(str(x) for x in r["command"]), "nodes": []}
            # Every node's report written: the supersteps ran; a non-zero exit
            # after that (a crash while closing) is reported but keeps the figures.
            if all(r["node_json"]):
                for node in r["node_json"]:
                    entry["nodes"].append(benchlib.link_figures(node))
            if r["rc"] != 0:
                failed = True
            runs.append(entry)
            nf = [n for n in entry["nodes"] if n]
            if nf and r["rc"] != 0:
                print("links: %-6s trial %d: every node reported, but the job exited %d: %s" % (
                    kind, t, r["rc"], r["error"]))
            if nf:
                print("links: %-6s trial %d: %s" % (kind, t, "; ".join(
                    "node %d sent %.3f M frames/s, %.2f Gbps L1 (peak superstep %.2f Gbps), %d retransmissions"
                    % (i, n["frames_per_s"] * 1e-6, n["gbps_l1"], n["peak_step_gbps_l1"], n["retransmissions"])
                    for i, n in enumerate(nf))))
            else:
                print("links: %-6s trial %d failed: %s" % (kind, t, r["error"]))
            sys.stdout.flush()
        per_node = [n for e in runs for n in e["nodes"] if n]
        summary = {
            "frames_per_s_per_node": benchlib.stat([n["frames_per_s"] for n in per_node]),
            "gbps_l1_per_node": benchlib.stat([n["gbps_l1"] for n in per_node]),
            "peak_step_gbps_l1": benchlib.stat([n["peak_step_gbps_l1"] for n in per_node]),
            "retransmissions": sum(n["retransmissions"] for n in per_node),
            "timeouts": sum(n["timeouts"] for n in per_node),
            "rx_dropped": sum(n["rx_dropped"] for n in per_node),
            "mbufs": mbufs, "mem_mb": mem,
            "exit_failures": sum(1 for e in runs if e["rc"] != 0),
            "exit_errors": [e["error"] for e in runs if e["rc"] != 0],
        }
        g = summary["gbps_l1_per_node"]
        if g:
            summary["pct_line_rate"] = {"%dGbE" % x: 100.0 * g["median"] / x for x in benchlib.LINE_RATES}
            f = summary["frames_per_s_per_node"]
            print("links: %-6s median over nodes and trials: %.3f M frames/s [%.3f, %.3f], %.2f Gbps L1 [%.2f, %.2f] "
                  "per node (%s)" % (kind, f["median"] * 1e-6, f["min"] * 1e-6, f["max"] * 1e-6, g["median"], g["min"],
                                     g["max"], ", ".join("%.0f%% of %s" % (v, k) for k, v in summary["pct_line_rate"].items())))
        result["links"][kind] = {"runs": runs, "summary": summary}
    print("links: ring: " + result["ring"])
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
