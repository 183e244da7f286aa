#!/usr/bin/env python3
"""Goodput and retransmission overhead of wiregraph against injected loss.

For each link (memif, tap) and each receive-loss rate (default 0, 0.1, 1, 10
and 30 %), runs a local cluster through scripts/wiregraph-cluster:

  wiregraph-cluster --nodes P --link L -- --app pagerank --graph G \\
      --iterations K --fault-rx drop=X --fault-seed 7 --quiet --out DIR

(no --fault-rx at all for 0 %). With --kind burst the losses come in runs of
16 frames instead (--fault-rx burst=X/16: the same expected loss, as a
congested queue drops): the rule that moves N must tell the two apart. Reads
DIR/node<R>.json and reports per row:

  compute s       max over nodes of compute_seconds
  records         records that crossed the network: sum over nodes and
                  supersteps of messages_sent - messages_local
  Mrec/s, Gbps    goodput: records / compute s, and records x 8 bytes x 8
                  bits / compute s (payload only, no headers)
  rel.            goodput relative to the 0 % row of the same link
  data frames     first transmissions of sequenced frames (links[].frames)
  tx frames       every frame the nodes sent (tx.frames: data, END/FIN,
                  acks, keepalives, hellos, retransmissions)
  retx, overhead  retransmissions, and retransmissions / data frames
  x loss          overhead / the injected loss rate (target: at most 1.5)
  lost, probes    frames found lost by the time-based rule (selective acks),
                  tail-loss probes sent
  spurious        resends whose first transmission had arrived after all
  timeouts        retransmission timeouts
  max N           largest pacing factor N of any link during the run
  congested       round trips with a congestion signal (each raised N), and
                  the signals: runs of losses / queue growth / drops at the
                  peer's port / second timeouts in a row (which raise N too)
  drop seen       frames the injectors dropped / frames they saw

A run counts only when the launcher exited 0: its cluster check
(python/wiregraph/wglib.py) then found messages sent == accumulated in every superstep.

Prints a markdown table and writes every run's figures as JSON (--out).
Only the Python standard library is used.
"""

import argparse
import glob
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from wiregraph import wglib  # the node reports and the sent == accumulated check

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCHER = os.path.join(REPO, "scripts", "wiregraph-cluster")


def parse_args():
    p = argparse.ArgumentParser(
        description="wiregraph goodput and retransmission overhead against injected receive loss",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--links", default="memif,tap",
                   help="comma-separated links to measure (default memif,tap)")
    p.add_argument("--loss", default="0,0.1,1,10,30",
                   help="comma-separated receive loss rates in PERCENT (default 0,0.1,1,10,30)")
    p.add_argument("--graph", default="kron:14:16",
                   help="graph of the memif runs, and of the tap runs unless --tap-graph (default kron:14:16)")
    p.add_argument("--tap-graph", default=None,
                   help="graph of the tap runs (default: --graph)")
    p.add_argument("--nodes", type=int, default=2, help="cluster size P (default 2)")
    p.add_argument("--iterations", type=int, default=5, help="pagerank iterations (default 5)")
    p.add_argument("--repeat", type=int, default=1,
                   help="runs per row; the row shows the run with the median compute time (default 1)")
    p.add_argument("--seed", type=int, default=7, help="--fault-seed (default 7)")
    p.add_argument("--kind", choices=("drop", "burst"), default="drop",
                   help="independent losses (drop=X) or runs of 16 (burst=X/16), same expected loss (default drop)")
    p.add_argument("--timeout", type=int, default=600, help="launcher --timeout per run (default 600)")
    p.add_argument("--out", default="/tmp/wiregraph-bench/loss_table.json",
                   help="JSON output (default /tmp/wiregraph-bench/loss_table.json)")
    p.add_argument("--launcher", default=LAUNCHER, help="scripts/wiregraph-cluster to use")
    p.add_argument("--binary", default=None, help="node binary (launcher default: build/apps/wiregraph)")
    p.add_argument("--keep", action="store_true", help="keep each run's --out directory and log")
    p.add_argument("--extra", default="",
                   help="extra node options, one shell-style string (e.g. '--window 256')")
    return p.parse_args()


def run_once(args, link, graph, loss_pct, workdir):
    """One cluster run; returns a dict of figures (or the failure)."""
    out_dir = os.path.join(workdir, "out")
    os.makedirs(out_dir, exist_ok=True)
    cmd = [sys.executable, args.launcher, "--nodes", str(args.nodes), "--link", link,
           "--timeout", str(args.timeout)]
    if args.binary:
        cmd += ["--binary", args.binary]
    # Sparse scatter (one record per edge): the table is about the transport
    # under load, and keeps the volume of the runs it was first measured with.
    cmd += ["--", "--app", "pagerank", "--graph", graph, "--iterations", str(args.iterations), "--scatter", "sparse"]
    if loss_pct > 0:
        fraction = loss_pct / 100.0
        cmd += ["--fault-rx", "drop=%g" % fraction if args.kind == "drop" else "burst=%g" % (fraction / 16)]
    cmd += ["--fault-seed", str(args.seed), "--quiet", "--out", out_dir]
    if args.extra:
        cmd += shlex.split(args.extra)
    log_path = os.path.join(workdir, "cluster.log")
    t0 = time.monotonic()
    with open(log_path, "wb") as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    row = {"link": link, "graph": graph, "nodes": args.nodes, "iterations": args.iterations,
           "loss_percent": loss_pct, "seed": args.seed, "exit_code": rc, "wall_seconds": round(wall, 3),
           "command": " ".join(cmd)}
    if rc != 0:
        with open(log_path, "r", errors="replace") as f:
            row["log_tail"] = f.read()[-4000:]
        return row
    # The launcher exited 0, so its cluster check (wglib) found every
    # superstep balanced; the totals come from the same code.
    nodes = [wglib.read_node_report(wglib.node_report_path(out_dir, r)) for r in range(args.nodes)]
    totals, _ = wglib.superstep_totals(out_dir, args.nodes)
    compute = max(n["compute_seconds"] for n in nodes)
    records = sum(s["messages_sent"] - s["messages_local"] for n in nodes for s in n["supersteps"])
    sent = sum(t["sent"] for t in totals.values())
    accumulated = sum(t["accumulated"] for t in totals.values())
    data_frames = sum(l["frames"] for n in nodes for l in n["links"])
    retx = sum(l["retransmissions"] for n in nodes for l in n["links"])
    timeouts = sum(l["timeouts"] for n in nodes for l in n["links"])
    max_n = max(l.get("max_n", l["n"]) for n in nodes for l in n["links"])
    seen = sum(n["faults"]["rx"]["seen"] for n in nodes)
    dropped = sum(n["faults"]["rx"]["dropped"] for n in nodes)
    row.update({
        "compute_seconds": compute,
        "records": records,
        "messages_sent": sent,
        "messages_accumulated": accumulated,
        "records_per_second": records / compute if compute > 0 else 0.0,
        "payload_gbps": records * 8 * 8 / compute / 1e9 if compute > 0 else 0.0,
        "data_frames": data_frames,
        "tx_frames": sum(n["tx"]["frames"] for n in nodes),
        "retransmissions": retx,
        "retransmission_overhead": retx / data_frames if data_frames else 0.0,
        "timeouts": timeouts,
        "lost": sum(l.get("lost", 0) for n in nodes for l in n["links"]),
        "probes": sum(l.get("probes", 0) for n in nodes for l in n["links"]),
        "spurious": sum(l.get("spurious", 0) for n in nodes for l in n["links"]),
        "congestion_rounds": sum(l.get("congestion_rounds", 0) for n in nodes for l in n["links"]),
        "signals": {k: sum(l.get("signal_" + k, 0) for n in nodes for l in n["links"])
                    for k in ("burst", "queue", "rx_drops", "rto")},
        "srtt_us": [l.get("srtt_us", 0) for n in nodes for l in n["links"]],
        "max_n": max_n,
        "fault_seen": seen,
        "fault_dropped": dropped,
    })
    return row


def fmt_row(r):
    loss = "%g" % r["loss_percent"]
    if r["exit_code"] != 0:
        return "| %s | %s | %s | FAILED (exit %d after %.1f s) | | | | | | | | | | | | | | | | |" % (
            r["link"], r["graph"], loss, r["exit_code"], r["wall_seconds"])
    rel = r.get("relative_goodput")
    x_loss = ("%.2f" % (r["retransmission_overhead"] / (r["loss_percent"] / 100.0))) if r["loss_percent"] > 0 else "-"
    sig = r.get("signals", {})
    signals = "/".join(str(sig.get(k, 0)) for k in ("burst", "queue", "rx_drops", "rto"))
    return ("| %s | %s | %s | %.3f | %d | %.2f | %.3f | %s | %d | %d | %d | %.2f%% | %s | %d | %d | %d | %d | %d | %d (%s) "
            "| %d/%d |" % (
                r["link"], r["graph"], loss, r["compute_seconds"], r["records"], r["records_per_second"] / 1e6,
                r["payload_gbps"], "%.3f" % rel if rel is not None else "-", r["data_frames"], r["tx_frames"],
                r["retransmissions"], 100.0 * r["retransmission_overhead"], x_loss, r["lost"], r["probes"],
                r["spurious"], r["timeouts"], r["max_n"], r["congestion_rounds"], signals, r["fault_dropped"],
                r["fault_seen"]))


HEADER = ("| link | graph | loss % | compute s | records | Mrec/s | payload Gbps | rel. goodput | data frames "
          "| tx frames | retx | retx overhead | x loss | lost | probes | spurious | timeouts | max N | congested (B/Q/D/T) "
          "| dropped/seen |\n"
          "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")


def main():
    args = parse_args()
    links = [l for l in args.links.split(",") if l]
    losses = [float(x) for x in args.loss.split(",") if x]
    if not os.path.exists(args.launcher):
        sys.exit("no launcher at %s" % args.launcher)
    base = tempfile.mkdtemp(prefix="wg-loss-")
    rows = []
    failed = False
    try:
        for link in links:
            graph = args.tap_graph if (link == "tap" and args.tap_graph) else args.graph
            baseline = None
            for loss in losses:
                runs = []
                for rep in range(args.repeat):
                    workdir = os.path.join(base, "%s-%g-%d" % (link, loss, rep))
                    os.makedirs(workdir)
                    r = run_once(args, link, graph, loss, workdir)
                    runs.append(r)
                    status = ("%.3f s compute, %.1f%% retx" % (r["compute_seconds"],
                                                              100 * r["retransmission_overhead"])
                              if r["exit_code"] == 0 else "FAILED exit %d" % r["exit_code"])
                    print("[loss_table] %s %s loss %g%% run %d/%d: %s (%.1f s wall)" % (
                        link, graph, loss, rep + 1, args.repeat, status, r["wall_seconds"]),
                        file=sys.stderr, flush=True)
                ok = [r for r in runs if r["exit_code"] == 0]
                if ok:
                    ok.sort(key=lambda r: r["compute_seconds"])
                    row = dict(ok[(len(ok) - 1) // 2])
                    if len(runs) > 1:
                        row["compute_seconds_all"] = [r["compute_seconds"] for r in runs if r["exit_code"] == 0]
                        row["compute_seconds_median"] = statistics.median(row["compute_seconds_all"])
                    row["failed_runs"] = len(runs) - len(ok)
                else:
                    row = dict(runs[-1])
                if len(ok) != len(runs):
                    failed = True
                    row["failures"] = [r for r in runs if r["exit_code"] != 0]
                if row["exit_code"] == 0:
                    if loss == 0:
                        baseline = row["records_per_second"]
                    row["relative_goodput"] = (row["records_per_second"] / baseline) if baseline else None
                rows.append(row)
    finally:
        if args.keep:
            print("[loss_table] run directories kept in %s" % base, file=sys.stderr)
        else:
            shutil.rmtree(base, ignore_errors=True)

    print("PageRank, %d nodes, %d iterations, --fault-rx %s --fault-seed %d, goodput = records "
          "crossing the network / compute s (payload 8 B per record)\n"
          % (args.nodes, args.iterations, "drop=X" if args.kind == "drop" else "burst=X/16", args.seed))
    print(HEADER)
    for r in rows:
        print(fmt_row(r))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"argv": sys.argv, "rows": rows}, f, indent=2)
    print("\nJSON: %s" % args.out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
