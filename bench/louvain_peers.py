#!/usr/bin/env python3
"""Louvain (--app louvain) next to the peers that have one, on the same edges,
in one run: networkx's louvain_communities (the answer the tests compare
with), igraph's community_multilevel (C, one thread) and NetworKit's PLM
(C++, OpenMP, as many threads as wiregraph has nodes). GAP and Gemini have
no community detection. Each tool's time is its computation on the graph it
holds (reading the file not included; wiregraph's is its compute_seconds,
its whole run beside it), the median of --trials runs; every tool's
modularity is networkx's `modularity` of the communities it returned, on the
undirected simple graph of the edges.

    bench/louvain_peers.py [--graph kron:16:16] [--nodes 2] [--trials 3] [--json FILE]

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


def ensure_peers():
    try:
        import igraph  # noqa: F401
        import networkit  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "--root-user-action=ignore", "-r", os.path.join(HERE, "requirements-peers.txt")], check=True)


def read_edges(path):
    """The undirected simple edges of a 'src dst [weight]' text file."""
    edges = set()
    with open(path) as f:
        for line in f:
            fields = line.split()
            u, v = int(fields[0]), int(fields[1])
            if u != v:
                edges.add((min(u, v), max(u, v)))
    return sorted(edges)


def wiregraph_run(edge_file, nodes, tmp, trial):
    out = os.path.join(tmp, "wg%d" % trial)
    started = time.monotonic()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "wiregraph-cluster"), "--nodes", str(nodes),
                        "--binary", os.path.join(BUILD, "apps", "wiregraph"), "--", "--app", "louvain",
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
            v, label = line.split("\t")
            labels[int(v)] = int(label)
    return compute, whole, labels


def groups(labels, vertices):
    by_label = {}
    for v in vertices:
        by_label.setdefault(labels[v], set()).add(v)
    return list(by_label.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", default="kron:16:16")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    ensure_peers()
    import igraph
    import networkit
    import networkx as nx

    rows = []
    with tempfile.TemporaryDirectory(prefix="wg-louvain-") as tmp:
        edge_file = os.path.join(tmp, "edges.txt")
        subprocess.run([os.path.join(BUILD, "apps", "wiregraph-convert"), "--graph", a.graph, "--out", edge_file],
                       check=True, stdout=subprocess.DEVNULL)
        edges = read_edges(edge_file)
        g = nx.Graph(edges)
        vertices = list(g)

        def modularity(communities):
            return nx.community.modularity(g, communities, weight=None)

        runs = [wiregraph_run(edge_file, a.nodes, tmp, t) for t in range(a.trials)]
        wg_q = modularity(groups(runs[0][2], vertices))
        rows.append({"tool": "wiregraph P=%d memif" % a.nodes, "seconds": statistics.median(r[0] for r in runs),
                     "whole_run": statistics.median(r[1] for r in runs), "modularity": wg_q,
                     "communities": len(groups(runs[0][2], vertices))})

        index = {v: i for i, v in enumerate(vertices)}
        ig = igraph.Graph(n=len(vertices), edges=[(index[u], index[v]) for u, v in edges])
        times, found = [], None
        for _ in range(a.trials):
            t0 = time.perf_counter()
            found = ig.community_multilevel()
            times.append(time.perf_counter() - t0)
        communities = [{vertices[i] for i in c} for c in found]
        rows.append({"tool": "igraph %s community_multilevel" % igraph.__version__, "seconds": statistics.median(times),
                     "modularity": modularity(communities), "communities": len(communities)})

        networkit.setNumberOfThreads(a.nodes)
        nk = networkit.Graph(len(vertices))
        for u, v in edges:
            nk.addEdge(index[u], index[v])
        times = []
        for _ in range(a.trials):
            plm = networkit.community.PLM(nk, refine=False)
            t0 = time.perf_counter()
            plm.run()
            times.append(time.perf_counter() - t0)
        part = plm.getPartition()
        by = {}
        for i, v in enumerate(vertices):
            by.setdefault(part.subsetOf(i), set()).add(v)
        rows.append({"tool": "NetworKit %s PLM, %d threads" % (networkit.__version__, a.nodes),
                     "seconds": statistics.median(times), "modularity": modularity(list(by.values())),
                     "communities": len(by)})

        times, qs = [], []
        for seed in range(a.trials):
            t0 = time.perf_counter()
            communities = nx.community.louvain_communities(g, seed=seed)
            times.append(time.perf_counter() - t0)
            qs.append((modularity(communities), len(communities)))
        rows.append({"tool": "networkx %s louvain_communities (seeds 0..%d)" % (nx.__version__, a.trials - 1),
                     "seconds": statistics.median(times), "modularity": max(q for q, _ in qs),
                     "communities": max(qs)[1]})

    base = rows[0]["seconds"]
    print("Louvain on %s: %d vertices, %d undirected edges; %d trials, medians" % (a.graph, len(vertices), len(edges),
                                                                                 a.trials))
    print("| tool | seconds | / wiregraph | modularity | communities |")
    print("| --- | --: | --: | --: | --: |")
    for r in rows:
        extra = " (whole run %.2f s)" % r["whole_run"] if "whole_run" in r else ""
        print("| %s | %.3f%s | %.2fx | %.4f | %d |" % (r["tool"], r["seconds"], extra, r["seconds"] / base,
                                                         r["modularity"], r["communities"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"graph": a.graph, "nodes": a.nodes, "trials": a.trials, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
