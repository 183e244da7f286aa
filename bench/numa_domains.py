#!/usr/bin/env python3
"""NUMA domains: superstep time with k domains per node against k = 1.

Runs the real wiregraph binary through scripts/wiregraph-cluster (PageRank on
a Kronecker graph by default) with --domains 1 (the baseline) and, for every k
in --domains and split in --splits, --domains k --domain-split split, each
with as many workers as domains times --workers-per-domain (lcores per node =
workers + 1, the network lcore). Each trial runs every configuration once, in
an order rotated per trial, so that drift in the machine's state spreads over
all of them. Per run, from the nodes' node<R>.json:

  superstep seconds   median over supersteps with active vertices of the
                      slowest node's seconds (the cluster waits for it)
  compute seconds     max over nodes (the app's time, e.g. PageRank's)
  edges per domain    node 0's out-edges per domain, and the imbalances
                      (largest / mean) of edges and of vertices
  cross-domain edges  node 0's local edges whose ends lie in different
                      domains, even split and after METIS, and METIS's time

and per configuration the median over trials, with its ratio to the k = 1
median of the same trials (below 1: faster than one domain).

On a machine with one NUMA node (this one, and CI) the k domains are
simulated: every domain's memory is on node 0. The figures then show what the
domain machinery costs (k accumulators, k buckets per peer, smaller runs per
bucket) and what METIS buys back by cutting cross-domain traffic, not the
remote-memory latency a real multi-socket node would save.

The lcores float over the machine's CPUs: with more lcores than CPUs (k = 4
on a 2-CPU machine) the workers share them and the times show contention.

usage: numa_domains.py [--graph SPEC] [--app APP] [--nodes P] [--domains 2,4]
                       [--splits even,metis] [--workers-per-domain W]
                       [--trials N] [--out DIR] [--json PATH]
"""
import argparse
import json
import statistics
import sys
from pathlib import Path

from wiregraph import benchlib


def figures(r):
    """Per-run figures, or None if the run failed."""
    nodes = r["node_json"]
    if r["rc"] != 0 or not all(nodes):
        return None
    steps = {}
    for n in nodes:
        for s in n["supersteps"]:
            if s["active"] > 0:
                steps[s["superstep"]] = max(steps.get(s["superstep"], 0.0), s["seconds"])
    part = nodes[0].get("partition") or {}
    return {"superstep_seconds": statistics.median(steps.values()) if steps else None,
            "compute_seconds": max(n["compute_seconds"] for n in nodes),
            "cross_even_fraction": part.get("cross_even_fraction"),
            "cross_metis_fraction": part.get("cross_metis_fraction"),
            "used_metis": part.get("used_metis"),
            "metis_seconds": part.get("metis_seconds"),
            "edges_per_domain": part.get("edges_per_domain"),
            "edge_imbalance": part.get("edge_imbalance"),
            "vertex_imbalance": part.get("vertex_imbalance"),
            "cross": part.get("cross_metis") if part.get("used_metis") else part.get("cross_even")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default="kron:18:16")
    ap.add_argument("--app", default="pagerank")
    ap.add_argument("--nodes", type=int, default=1)
    ap.add_argument("--domains", default="2,4", help="k values to compare with k = 1")
    ap.add_argument("--splits", default="even,metis")
    ap.add_argument("--workers-per-domain", type=int, default=1,
                    help="workers per domain (lcores per node = k * W + 1)")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="/tmp/wiregraph-bench/numa")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()

    w = a.workers_per_domain
    configs = [("k1", ["--domains", "1"], w + 1)]
    for k in [int(x) for x in a.domains.split(",") if x]:
        for split in [s for s in a.splits.split(",") if s]:
            configs.append(("k%d-%s" % (k, split), ["--domains", str(k), "--domain-split", split], k * w + 1))
    mbufs, mem = benchlib.pool_for(a.graph, a.nodes, False)
    runs = {name: [] for name, _, _ in configs}
    failed = False
    for t in range(a.trials):
        order = configs[t % len(configs):] + configs[:t % len(configs)]
        for name, extra, lcores in order:
            r = benchlib.run_cluster(Path(a.out) / ("%s-%d" % (name, t)), a.nodes,
                                     ["--app", a.app, "--graph", a.graph, "--mbufs", str(mbufs)] + extra,
                                     lcores=lcores, mem_mb=mem, timeout=a.timeout)
            f = figures(r)
            if f is None:
                failed = True
                print("numa: %-10s trial %d failed: %s" % (name, t, r["error"]))
            else:
                print("numa: %-10s trial %d: superstep %.4f s, compute %.3f s, edges per domain %s, cut %s" % (
                    name, t, f["superstep_seconds"] or 0, f["compute_seconds"], f["edges_per_domain"], f["cross"]))
            sys.stdout.flush()
            runs[name].append({"trial": t, "rc": r["rc"], "error": r["error"], "loadavg": r["loadavg_start"],
                               "command": " ".join(str(x) for x in r["command"]), "figures": f})

    def stat(name, key):
        return benchlib.stat([e["figures"][key] for e in runs[name] if e["figures"]])

    base_stat = stat("k1", "superstep_seconds")
    base = base_stat["median"] if base_stat else None
    summary = {}
    print("numa: %s, %s, P=%d, %d trial(s); k=1 median superstep %s" % (
        a.app, a.graph, a.nodes, a.trials, "%.4f s" % base if base else "n/a"))
    for name, _, lcores in configs:
        step = stat(name, "superstep_seconds")
        s = step["median"] if step else None
        last = next((e["figures"] for e in reversed(runs[name]) if e["figures"]), {}) or {}
        summary[name] = {"superstep_seconds": step,
                         "compute_seconds": stat(name, "compute_seconds"),
                         "ratio_to_k1": s / base if s and base else None,
                         "cross_even_fraction": last.get("cross_even_fraction"),
                         "cross_metis_fraction": last.get("cross_metis_fraction"),
                         "used_metis": last.get("used_metis"),
                         "metis_seconds": last.get("metis_seconds"),
                         "lcores": lcores,
                         "edges_per_domain": last.get("edges_per_domain"),
                         "edge_imbalance": last.get("edge_imbalance"),
                         "vertex_imbalance": last.get("vertex_imbalance"),
                         "cross": last.get("cross")}
        x = summary[name]
        if s is not None:
            print("numa: %-10s superstep %.4f s = %.2fx k=1; cross-domain %s even, %s after METIS%s" % (
                name, s, x["ratio_to_k1"] or 0,
                "%.1f%%" % (100 * x["cross_even_fraction"]) if x["cross_even_fraction"] is not None else "-",
                "%.1f%%" % (100 * x["cross_metis_fraction"]) if x["used_metis"] else "-",
                " (METIS %.0f ms)" % (1000 * x["metis_seconds"]) if x["used_metis"] else ""))
            cs = x["compute_seconds"]
            print("numa: %-10s %d lcores, %s %.3f s (median compute), edges per domain %s (imbalance %s, "
                  "vertices %s), cut %s" % (
                      name, lcores, a.app, cs["median"] if cs else 0, x["edges_per_domain"],
                      "%.3f" % x["edge_imbalance"] if x["edge_imbalance"] is not None else "-",
                      "%.3f" % x["vertex_imbalance"] if x["vertex_imbalance"] is not None else "-", x["cross"]))
    result = {"benchmark": "numa_domains", "graph": a.graph, "app": a.app, "nodes": a.nodes,
              "trials": a.trials, "mbufs": mbufs, "mem_mb": mem, "runs": runs, "summary": summary}
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
