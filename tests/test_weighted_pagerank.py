"""Weighted PageRank (`--app pagerank --weighted`) gives networkx's
pagerank(G, weight='weight'), on 2-node memif clusters through
scripts/wiregraph-cluster, each run's DIR/results.tsv read vertex by vertex:

  rome99.gr (DIMACS, arc lengths 1..12711, 11 parallel arcs)  a MultiDiGraph: parallel arcs add
  karate_club_graph's weighted edges, --undirected            the undirected Graph
  real weights, zero weights, parallel edges, a self-loop,
  isolated highest ids (--vertices N)                         a MultiDiGraph on 0..N-1
  soc-sign-bitcoinotc.csv (ratings -10..10)                    refused: a negative weight, named

Both stop by networkx's rule at tolerance 1e-10; the ranks must agree to
1e-6 relative (they agree to the 9 digits the result files write). Run by
meson (suite cluster) as `python3 -m unittest`; needs networkx
(python/requirements-test.txt)."""

import os
import tempfile
import unittest

import networkx as nx

from python_api_env import DATASETS, launch_results

TOLERANCE = "1e-10"


def launch(graph, app):
    """Runs wiregraph on `graph` at P = 2: (the launcher's result, {vertex: rank} or None)."""
    r, rows = launch_results(["--graph", graph, "--quiet"] + app, 2, "memif")
    return r, rows and {v: float(rank) for v, rank in rows.items()}


def write_edges(path, edges):
    with open(path, "w") as f:
        for u, v, w in edges:
            f.write("%d %d %r\n" % (u, v, w))


class WeightedPageRankAsNetworkx(unittest.TestCase):
    def assert_ranks(self, got, want):
        self.assertEqual(set(got), set(want), "the vertices are networkx's nodes")
        worst = max(abs(got[v] - r) / r for v, r in want.items())
        self.assertLess(worst, 1e-6, "the largest relative difference")
        self.assertAlmostEqual(sum(got.values()), 1.0, places=6)

    def weighted_run(self, graph, extra=()):
        r, got = launch(graph, ["--app", "pagerank", "--weighted", "--tolerance", TOLERANCE] + list(extra))
        self.assertEqual(r.returncode, 0, r.stdout)
        return got

    def test_rome99_parallel_arcs_add(self):
        path = os.path.join(DATASETS, "rome99.gr")
        g = nx.MultiDiGraph()
        g.add_nodes_from(range(1, 3354))  # 1..n, the file's own ids
        with open(path) as f:
            for line in f:
                if line.startswith("a "):
                    _, u, v, w = line.split()
                    g.add_edge(int(u), int(v), weight=int(w))
        self.assertEqual(g.number_of_edges(), 8870)
        self.assert_ranks(self.weighted_run(path), nx.pagerank(g, tol=float(TOLERANCE), weight="weight"))

    def test_karate_club_undirected(self):
        g = nx.karate_club_graph()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "karate.txt")
            write_edges(path, [(u, v, d["weight"]) for u, v, d in g.edges(data=True)])
            got = self.weighted_run(path, ["--undirected"])
        self.assert_ranks(got, nx.pagerank(g, tol=float(TOLERANCE), weight="weight"))

    def test_zero_weights_parallel_edges_and_isolated_highest_ids(self):
        # 0..29 hold the edges, 30..35 are isolated (only --vertices says they
        # exist); vertex 4's out-edges all weigh 0: dangling, as networkx has it.
        n = 36
        g = nx.MultiDiGraph()
        g.add_nodes_from(range(n))
        edges = []
        for u in range(30):
            edges.append((u, (3 * u + 1) % 30, 0.25 * (u % 5)))
            edges.append((u, (3 * u + 1) % 30, 1.5))  # parallel to the first
            if u % 4 == 0:
                edges.append((u, (u + 7) % 30, 2.0 / 3.0))
        edges.append((9, 9, 3.0))  # a self-loop
        edges = [(u, v, 0.0 if u == 4 else w) for u, v, w in edges]
        for u, v, w in edges:
            g.add_edge(u, v, weight=w)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "from-memory.txt")
            write_edges(path, edges)
            got = self.weighted_run(path, ["--vertices", str(n)])
        self.assert_ranks(got, nx.pagerank(g, tol=float(TOLERANCE), weight="weight"))

    def test_a_negative_weight_is_refused_naming_it(self):
        path = os.path.join(DATASETS, "soc-sign-bitcoinotc.csv")
        r, got = launch(path, ["--app", "pagerank", "--weighted"])
        self.assertIsNone(got)
        self.assertEqual(r.returncode, 1, r.stdout)
        for said in ("soc-sign-bitcoinotc.csv:", "field 3 (weight)", "is negative", "pagerank --weighted"):
            self.assertIn(said, r.stdout)


if __name__ == "__main__":
    unittest.main()
