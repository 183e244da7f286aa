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
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402


def groups(labels, vertices):
    by_label = {}
    for v in vertices:
        by_label.setdefault(labels[v], set()).add(v)
    return list(by_label.values())


def main():
    a = peers.arguments(__doc__, "kron:16:16")
    peers.ensure_peers()
    import igraph
    import networkit
    import networkx as nx

    rows = []
    with tempfile.TemporaryDirectory(prefix="wg-louvain-") as tmp:
        edge_file = peers.edge_file(a.graph, tmp)
        edges = peers.read_edges(edge_file, undirected=True)
        g = nx.Graph(edges)
        vertices = list(g)

        def modularity(communities):
            return nx.community.modularity(g, communities, weight=None)

        runs = [peers.wiregraph_run("louvain", edge_file, a.nodes, tmp, t) for t in range(a.trials)]
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

    peers.report(a, "Louvain on %s: %d vertices, %d undirected edges; %d trials, medians"
                 % (a.graph, len(vertices), len(edges), a.trials), ["modularity", "communities"], rows,
                 lambda r: ["%.4f" % r["modularity"], "%d" % r["communities"]])

if __name__ == "__main__":
    main()
