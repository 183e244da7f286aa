#!/usr/bin/env python3
"""End-to-end cost of --checksum on: the same PageRank run with the CRC32C
off and on, alternating trial by trial (the machine is shared), through
scripts/wiregraph-cluster:

  wiregraph-cluster --nodes P --link L -- --app pagerank --graph G \\
      --iterations K --scatter sparse --checksum off|on --quiet --out DIR

Sparse scatter (one record per edge) sends the most buckets per second of
compute, so the CRC weighs most there. Reports per setting the median
compute seconds (max over nodes, from DIR/node<R>.json) with min and max, the
buckets sent, and on / off per trial pair (median). Only runs whose launcher
exited 0 count (its cluster check found every message accumulated).
Only the Python standard library is used.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import wglib  # noqa: E402  the node reports

REPO = Path(__file__).resolve().parent.parent


def run(args, checksum, out_dir):
    cmd = [sys.executable, str(REPO / "scripts" / "wiregraph-cluster"), "--nodes", str(args.nodes),
           "--link", args.link, "--timeout", "600"]
    if args.binary:
        cmd += ["--binary", args.binary]
    cmd += ["--", "--app", "pagerank", "--graph", args.graph, "--iterations", str(args.iterations),
            "--scatter", "sparse", "--checksum", checksum, "--quiet", "--out", out_dir]
    rc = subprocess.call(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    if rc != 0:
        sys.exit("failed (exit %d): %s" % (rc, " ".join(cmd)))
    nodes = [wglib.read_node_report(wglib.node_report_path(out_dir, r)) for r in range(args.nodes)]
    return (max(n["compute_seconds"] for n in nodes),
            sum(s["buckets_sent"] for n in nodes for s in n["supersteps"]), " ".join(cmd))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--graph", default="kron:18:16")
    p.add_argument("--nodes", type=int, default=2)
    p.add_argument("--link", default="memif")
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--binary", default=None)
    p.add_argument("--json", default=None)
    args = p.parse_args()
    seconds = {"off": [], "on": []}
    buckets = {}
    commands = {}
    with tempfile.TemporaryDirectory(prefix="wg-crc-") as tmp:
        for t in range(args.trials):
            for setting in ("off", "on") if t % 2 == 0 else ("on", "off"):
                out = os.path.join(tmp, "%s-%d" % (setting, t))
                os.makedirs(out)
                s, b, cmd = run(args, setting, out)
                seconds[setting].append(s)
                buckets[setting] = b
                commands[setting] = cmd
                print("[checksum_cost] trial %d checksum %s: %.3f s compute" % (t + 1, setting, s),
                      file=sys.stderr, flush=True)
    ratios = [on / off for on, off in zip(seconds["on"], seconds["off"])]
    print("PageRank %s, P=%d over %s, %d iterations, sparse; %d trials alternating\n"
          % (args.graph, args.nodes, args.link, args.iterations, args.trials))
    print("| --checksum | compute s, median (min-max) | buckets sent |\n|---|--:|--:|")
    for setting in ("off", "on"):
        v = seconds[setting]
        print("| %s | %.3f (%.3f-%.3f) | %d |" % (setting, statistics.median(v), min(v), max(v), buckets[setting]))
    print("\non / off per trial pair: median %.3f (%s)" % (statistics.median(ratios),
                                                          ", ".join("%.3f" % r for r in ratios)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"argv": sys.argv, "seconds": seconds, "buckets": buckets, "ratios": ratios,
                       "commands": commands}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
