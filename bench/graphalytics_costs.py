#!/usr/bin/env python3
"""What Graphalytics' rules cost: LCC against PageRank, and PageRank in double precision.

  bench/graphalytics_costs.py [--graph kron:18:16] [--nodes 2] [--trials 3]
                              [--pr-graph kron:20:16] [--memory huge|no-huge|auto]
                              [--out DIR] [--json FILE] [--quick]

Two comparisons, each in one run with the configurations in alternating
order (A B A B ...), P nodes over memif, one lcore each:
  lcc vs pagerank   processing time (the program's phase, summary.json's
                    metrics.processing_seconds) and the largest node's peak
                    RSS, on --graph (PageRank: 20 iterations, single precision)
  pagerank double   --precision single vs double (8-byte messages, 12-byte
                    records: what Graphalytics' "no single precision" costs),
                    on --pr-graph made undirected, 20 iterations
Medians of the trials, ratios to the baseline (pagerank; single). No threshold:
a report, not a test.
"""
import argparse
import json
import statistics
import sys
from pathlib import Path

import benchlib


def figures(res):
    if res["rc"] != 0:
        raise SystemExit("run failed: %s\n%s" % (res["error"], " ".join(res["command"])))
    nodes = [j for j in res["node_json"] if j is not None]
    return {"processing_seconds": res["summary"]["metrics"]["processing_seconds"],
            "load_seconds": max(j["load_seconds"] for j in nodes),
            "peak_rss_mb": max(j["peak_rss_bytes"] for j in nodes) / 1e6,
            "messages": sum(s["messages"] for s in res["summary"]["supersteps"])}


def compare(name, configs, trials, nodes, out, memory, log):
    """configs: [(label, app args)], the first the baseline. Returns the rows."""
    samples = {label: [] for label, _ in configs}
    for t in range(trials):
        order = configs if t % 2 == 0 else list(reversed(configs))
        for label, args in order:
            res = benchlib.run_cluster(out / ("%s-%s-%d" % (name, label, t)), nodes, args, memory=memory,
                                       mem_mb=512, log=log)
            samples[label].append(figures(res))
            print("  %s %s trial %d: %.3f s, %.0f MB" % (name, label, t, samples[label][-1]["processing_seconds"],
                                                      samples[label][-1]["peak_rss_mb"]), flush=True)
    base = configs[0][0]
    rows = []
    for label, args in configs:
        med = {k: statistics.median(s[k] for s in samples[label]) for k in samples[label][0]}
        bmed = {k: statistics.median(s[k] for s in samples[base]) for k in samples[base][0]}
        rows.append({"comparison": name, "config": label, "args": args, "nodes": nodes, "trials": samples[label],
                     "median": med,
                     "time_ratio": med["processing_seconds"] / bmed["processing_seconds"],
                     "rss_ratio": med["peak_rss_mb"] / bmed["peak_rss_mb"]})
    return rows


def markdown(rows):
    """The table (README, bench/report.py's RESULTS.md), as lines."""
    md = ["| comparison | config | processing s (median) | vs baseline | largest node peak RSS MB | vs baseline "
          "| records |",
          "| --- | --- | --: | --: | --: | --: | --: |"]
    for r in rows:
        m = r["median"]
        md.append("| %s | %s | %.3f | %.2fx | %.0f | %.2fx | %d |" % (
            r["comparison"], r["config"], m["processing_seconds"], r["time_ratio"], m["peak_rss_mb"], r["rss_ratio"],
            m["messages"]))
    md.append("")
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", default="kron:18:16")
    ap.add_argument("--pr-graph", default="kron:20:16")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--memory", default="no-huge", help="no-huge (default): the same memory mode for every trial")
    ap.add_argument("--out", default="/tmp/wiregraph-bench/graphalytics")
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true", help="kron:12:8, one trial (CI smoke)")
    a = ap.parse_args()
    if a.quick:
        a.graph, a.pr_graph, a.trials = "kron:12:8", "kron:12:8", 1
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(out / "commands.log", "w") as log:
        print("lcc vs pagerank on %s, P=%d, %d trials" % (a.graph, a.nodes, a.trials))
        rows += compare("lcc", [("pagerank", ["--app", "pagerank", "--graph", a.graph]),
                                ("lcc", ["--app", "lcc", "--graph", a.graph])], a.trials, a.nodes, out, a.memory, log)
        print("pagerank single vs double on %s --undirected, P=%d, %d trials" % (a.pr_graph, a.nodes, a.trials))
        rows += compare("precision",
                        [("single", ["--app", "pagerank", "--graph", a.pr_graph, "--undirected", "--precision", "single"]),
                         ("double", ["--app", "pagerank", "--graph", a.pr_graph, "--undirected", "--precision", "double"])],
                        a.trials, a.nodes, out, a.memory, log)
    print()
    print("\n".join(markdown(rows)))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
