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
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402


def partition(sets):
    """A partition as a set of frozensets, to compare with networkx's."""
    return {frozenset(s) for s in sets}


def main():
    a = peers.arguments(__doc__, "kron:18:16")
    peers.ensure_peers()
    import igraph
    import networkit
    import networkx as nx

    rows = []
    with tempfile.TemporaryDirectory(prefix="wg-scc-") as tmp:
        edge_file = peers.edge_file(a.graph, tmp)
        edges = peers.read_edges(edge_file, undirected=False)
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

        runs = [peers.wiregraph_run("scc", edge_file, a.nodes, tmp, t) for t in range(a.trials)]
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

    peers.report(a, "SCC on %s: %d vertices, %d directed edges; %d trials, medians"
                 % (a.graph, len(vertices), len(edges), a.trials), ["components", "networkx's partition"], rows,
                 lambda r: ["%d" % r["components"], "yes" if r["same"] else "NO"])
    if not all(r["same"] for r in rows):
        sys.exit("a tool's components differ from networkx's")


if __name__ == "__main__":
    main()
