#!/usr/bin/env python3
"""Strongly connected components (--app scc) next to the peers that have them,
on the same directed edges, in one run: networkx's
strongly_connected_components (the answer the tests compare with), igraph's
connected_components(mode="strong") (C, one thread) and NetworKit's
StronglyConnectedComponents (C++). GAP and Gemini have no SCC. Each tool's
time is its computation on the graph it holds (reading the file not
included; wiregraph's is its compute_seconds, its whole run beside it), the
median of --trials runs; every tool's components are checked to be
networkx's partition.

    bench/scc_peers.py [--graph kron:18:16] [--nodes 2] [--trials 3] [--json FILE]

igraph and NetworKit come from PyPI at the versions of
bench/requirements-peers.txt, installed for this python3 when missing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("WG_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, HERE)
from louvain_peers import ensure_peers  # noqa: E402


def read_directed_edges(path):
    """The directed edges of a 'src dst [weight]' text file, each pair once."""
    edges = set()
    with open(path) as f:
        for line in f:
            fields = line.split()
            edges.add((int(fields[0]), int(fields[1])))
    return sorted(edges)


def wiregraph_run(edge_file, nodes, tmp, trial):
    out = os.path.join(tmp, "wg%d" % trial)
    started = time.monotonic()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "wiregraph-cluster"), "--nodes", str(nodes),
                        "--binary", os.path.join(BUILD, "apps", "wiregraph"), "--", "--app", "scc",
                        "--graph", edge_file, "--out", out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    whole = time.monotonic() - started
    if r.returncode != 0:
        sys.exit("wiregraph failed:\n" + r.stdout[-3000:])
    with open(os.path.join(out, "summary.json")) as f:
        compute = json.load(f)["compute_seconds"]
    labels = {}
    with open(os.path.join(out, "results.tsv")) as f:
        f.readline()
        for line in f:
            v, label = line.split("\t")[:2]
            labels[int(v)] = int(label)
    return compute, whole, labels


def partition(sets):
    """A partition as a set of frozensets, to compare with networkx's."""
    return {frozenset(s) for s in sets}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", default="kron:18:16")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    ensure_peers()
    import igraph
    import networkit
    import networkx as nx

    rows = []
    with tempfile.TemporaryDirectory(prefix="wg-scc-") as tmp:
        edge_file = os.path.join(tmp, "edges.txt")
        subprocess.run([os.path.join(BUILD, "apps", "wiregraph-convert"), "--graph", a.graph, "--out", edge_file],
                       check=True, stdout=subprocess.DEVNULL)
        edges = read_directed_edges(edge_file)
        g = nx.DiGraph(edges)
        vertices = list(g)
        index = {v: i for i, v in enumerate(vertices)}

        times, want = [], None
        for _ in range(a.trials):
            t0 = time.perf_counter()
            want = partition(nx.strongly_connected_components(g))
            times.append(time.perf_counter() - t0)
        nx_row = {"tool": "networkx %s strongly_connected_components" % nx.__version__,
                  "seconds": statistics.median(times), "components": len(want), "same": True}

        runs = [wiregraph_run(edge_file, a.nodes, tmp, t) for t in range(a.trials)]
        by = {}
        for v in vertices:
            by.setdefault(runs[0][2][v], set()).add(v)
        rows.append({"tool": "wiregraph P=%d memif" % a.nodes, "seconds": statistics.median(r[0] for r in runs),
                     "whole_run": statistics.median(r[1] for r in runs), "components": len(by),
                     "same": partition(by.values()) == want})

        ig = igraph.Graph(n=len(vertices), edges=[(index[u], index[v]) for u, v in edges], directed=True)
        times, found = [], None
        for _ in range(a.trials):
            t0 = time.perf_counter()
            found = ig.connected_components(mode="strong")
            times.append(time.perf_counter() - t0)
        got = partition({vertices[i] for i in c} for c in found)
        rows.append({"tool": "igraph %s connected_components(mode=\"strong\")" % igraph.__version__,
                     "seconds": statistics.median(times), "components": len(got), "same": got == want})

        networkit.setNumberOfThreads(a.nodes)
        nk = networkit.Graph(len(vertices), directed=True)
        for u, v in edges:
            nk.addEdge(index[u], index[v])
        times = []
        for _ in range(a.trials):
            scc = networkit.components.StronglyConnectedComponents(nk)
            t0 = time.perf_counter()
            scc.run()
            times.append(time.perf_counter() - t0)
        got = partition({vertices[i] for i in c} for c in scc.getComponents())
        rows.append({"tool": "NetworKit %s StronglyConnectedComponents" % networkit.__version__,
                     "seconds": statistics.median(times), "components": len(got), "same": got == want})
        rows.append(nx_row)

    base = rows[0]["seconds"]
    print("SCC on %s: %d vertices, %d directed edges; %d trials, medians" % (a.graph, len(vertices), len(edges),
                                                                            a.trials))
    print("| tool | seconds | / wiregraph | components | networkx's partition |")
    print("| --- | --: | --: | --: | --- |")
    for r in rows:
        extra = " (whole run %.2f s)" % r["whole_run"] if "whole_run" in r else ""
        print("| %s | %.4f%s | %.2fx | %d | %s |" % (r["tool"], r["seconds"], extra, r["seconds"] / base,
                                                     r["components"], "yes" if r["same"] else "NO"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"graph": a.graph, "nodes": a.nodes, "trials": a.trials, "rows": rows}, f, indent=1)
    if not all(r["same"] for r in rows):
        sys.exit("a tool's components differ from networkx's")


if __name__ == "__main__":
    main()
