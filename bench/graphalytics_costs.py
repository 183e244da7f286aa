#!/usr/bin/env python3
"""What Graphalytics' rules cost: LCC against PageRank, PageRank in double precision,
and loading sparse ids.

  bench/graphalytics_costs.py [--graph kron:18:16] [--nodes 2] [--trials 3]
                              [--pr-graph kron:20:16] [--ids-graph kron:18:16]
                              [--only lcc,precision,ids] [--memory huge|no-huge|auto]
                              [--out DIR] [--json FILE] [--quick]

Two comparisons, each in one run with the configurations in alternating
order (A B A B ...), P nodes over memif, one lcore each:
  lcc vs pagerank   processing time (the program's phase, summary.json's
                    metrics.processing_seconds) and the largest node's peak
                    RSS, on --graph (PageRank: 20 iterations, single precision)
  pagerank double   --precision single vs double (8-byte messages, 12-byte
                    records: what Graphalytics' "no single precision" costs),
                    on --pr-graph made undirected, 20 iterations
  ids               load time (the slowest node's nodeR.json load_seconds) of
                    PageRank, 1 iteration, on --ids-graph written as a text
                    edge list (its ids 0..2^SCALE-1) read dense, the same file
                    under --ids sparse (the mapping's supersteps alone), and
                    the same edges with every id v written as v * 1000003 + 7
                    under --ids sparse (the mapping and the longer ids)
Medians of the trials, ratios to the baseline (pagerank; single; dense). No
threshold: a report, not a test.
"""
import array
import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from wiregraph import benchlib


def figures(res):
    if res["rc"] != 0:
        raise SystemExit("run failed: %s\n%s" % (res["error"], " ".join(res["command"])))
    nodes = [j for j in res["node_json"] if j is not None]
    return {"processing_seconds": res["summary"]["metrics"]["processing_seconds"],
            "load_seconds": max(j["load_seconds"] for j in nodes),
            "peak_rss_mb": max(j["peak_rss_bytes"] for j in nodes) / 1e6,
            "messages": sum(s["messages"] for s in res["summary"]["supersteps"])}


def compare(name, configs, trials, nodes, out, memory, log, key="processing_seconds"):
    """configs: [(label, app args)], the first the baseline; `key` the time
    compared. Returns the rows."""
    samples = {label: [] for label, _ in configs}
    for t in range(trials):
        order = configs if t % 2 == 0 else list(reversed(configs))
        for label, args in order:
            res = benchlib.run_cluster(out / ("%s-%s-%d" % (name, label, t)), nodes, args, memory=memory,
                                       mem_mb=512, log=log)
            samples[label].append(figures(res))
            print("  %s %s trial %d: %s %.3f s, %.0f MB" % (name, label, t, key, samples[label][-1][key],
                                                         samples[label][-1]["peak_rss_mb"]), flush=True)
    base = configs[0][0]
    rows = []
    for label, args in configs:
        med = {k: statistics.median(s[k] for s in samples[label]) for k in samples[label][0]}
        bmed = {k: statistics.median(s[k] for s in samples[base]) for k in samples[base][0]}
        rows.append({"comparison": name, "config": label, "args": args, "nodes": nodes, "trials": samples[label],
                     "median": med, "time_key": key,
                     "spread": [min(s[key] for s in samples[label]), max(s[key] for s in samples[label])],
                     "time_ratio": med[key] / bmed[key],
                     "rss_ratio": med["peak_rss_mb"] / bmed["peak_rss_mb"]})
    return rows


def markdown(rows):
    """The table (docs/PERFORMANCE.md, bench/report.py's RESULTS.md), as lines."""
    md = ["| comparison | config | time | seconds (median) | vs baseline | largest node peak RSS MB | vs baseline "
          "| records |",
          "| --- | --- | --- | --: | --: | --: | --: | --: |"]
    for r in rows:
        m = r["median"]
        key = r.get("time_key", "processing_seconds")
        md.append("| %s | %s | %s | %.3f | %.2fx | %.0f | %.2fx | %d |" % (
            r["comparison"], r["config"], key.split("_")[0], m[key], r["time_ratio"], m["peak_rss_mb"],
            r["rss_ratio"], m["messages"]))
    md.append("")
    return md


SCATTER = 1000003  # id v of the generated graph is written as v * SCATTER + 7


def write_edge_lists(spec, out, log):
    """The generator's edges as two text edge lists: ids as generated, and
    scattered (v * SCATTER + 7). Written once, through wiregraph-convert's
    binary file. Returns (dense path, scattered path)."""
    base = out / spec.replace(":", "_")
    dense, scattered = Path(str(base) + ".el"), Path(str(base) + "-scattered.el")
    if dense.exists() and scattered.exists():
        return dense, scattered
    binary = Path(str(base) + ".bin")
    cmd = [str(benchlib.ROOT / "build" / "apps" / "wiregraph-convert"), "--graph", spec, "--out", str(binary)]
    log.write("$ " + " ".join(cmd) + "\n")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    ids = array.array("I")
    with open(binary, "rb") as f:
        ids.frombytes(f.read())
    binary.unlink()
    with open(dense, "w") as d, open(scattered, "w") as s:
        for at in range(0, len(ids), 1 << 20):
            chunk = ids[at:at + (1 << 20)]
            pairs = range(0, len(chunk), 2)
            d.write("".join("%d %d\n" % (chunk[i], chunk[i + 1]) for i in pairs))
            s.write("".join("%d %d\n" % (chunk[i] * SCATTER + 7, chunk[i + 1] * SCATTER + 7) for i in pairs))
    return dense, scattered


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", default="kron:18:16")
    ap.add_argument("--pr-graph", default="kron:20:16")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--ids-graph", default="kron:18:16")
    ap.add_argument("--only", default="lcc,precision,ids", help="which comparisons (comma-separated)")
    ap.add_argument("--memory", default="no-huge", help="no-huge (default): the same memory mode for every trial")
    ap.add_argument("--out", default="/tmp/wiregraph-bench/graphalytics")
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true", help="kron:12:8, one trial (CI smoke)")
    a = ap.parse_args()
    if a.quick:
        a.graph, a.pr_graph, a.ids_graph, a.trials = "kron:12:8", "kron:12:8", "kron:12:8", 1
    only = set(a.only.split(","))
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(out / "commands.log", "w") as log:
        if "lcc" in only:
            print("lcc vs pagerank on %s, P=%d, %d trials" % (a.graph, a.nodes, a.trials))
            rows += compare("lcc", [("pagerank", ["--app", "pagerank", "--graph", a.graph]),
                                    ("lcc", ["--app", "lcc", "--graph", a.graph])], a.trials, a.nodes, out, a.memory,
                            log)
        if "precision" in only:
            print("pagerank single vs double on %s --undirected, P=%d, %d trials" % (a.pr_graph, a.nodes, a.trials))
            rows += compare("precision",
                            [("single", ["--app", "pagerank", "--graph", a.pr_graph, "--undirected", "--precision",
                                         "single"]),
                             ("double", ["--app", "pagerank", "--graph", a.pr_graph, "--undirected", "--precision",
                                         "double"])],
                            a.trials, a.nodes, out, a.memory, log)
        if "ids" in only:
            dense, scattered = write_edge_lists(a.ids_graph, out, log)
            print("loading %s as an edge list, dense vs --ids sparse, P=%d, %d trials" % (a.ids_graph, a.nodes,
                                                                                          a.trials))
            pr1 = ["--app", "pagerank", "--iterations", "1"]
            rows += compare("ids", [("dense", pr1 + ["--graph", str(dense)]),
                                    ("same file, --ids sparse", pr1 + ["--graph", str(dense), "--ids", "sparse"]),
                                    ("scattered ids, --ids sparse", pr1 + ["--graph", str(scattered), "--ids", "sparse"])],
                            a.trials, a.nodes, out, a.memory, log, key="load_seconds")
    print()
    print("\n".join(markdown(rows)))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
