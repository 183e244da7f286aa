"""Jaccard similarity of every edge (--app jaccard) against networkx's
jaccard_coefficient(G, ebunch=G.edges()) on the graph made undirected without
self-loops, on the shared datasets, through scripts/wiregraph-cluster and the
per-edge DIR/results.tsv (columns src, dst, jaccard; sorted) and results.npy.

Cases: JaccardFast (the fast default: one memif cluster, P = 3) and
JaccardFull (suite full: P = 1, 2, 3 on memif on two datasets, and tap at
P = 2 and 3 where the machine allows it: root and `ip`). Needs networkx and
numpy (python/requirements-test.txt)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import networkx as nx
import numpy as np

from python_api_env import DATASETS, LAUNCHER, LIMIT_S, SOURCE, WIREGRAPH

PRINTED = 1e-7  # values are printed with 9 significant digits


def simple_undirected(name):
    """The file as networkx reads an edge list (its first two fields), undirected, without self-loops."""
    g = nx.Graph()
    with open(os.path.join(DATASETS, name)) as f:
        for line in f:
            fields = line.replace(",", " ").split()
            if not fields or line.lstrip().startswith(("#", "%")):
                continue
            g.add_edge(int(fields[0]), int(fields[1]))
    g.remove_edges_from(nx.selfloop_edges(g))
    return g


def tap_unavailable():
    if os.geteuid() != 0:
        return "tap needs root"
    if shutil.which("ip") is None:
        return "tap needs `ip`"
    return None


class JaccardCase(unittest.TestCase):
    graphs = {}

    def want(self, name):
        if name not in self.graphs:
            g = simple_undirected(name)
            self.graphs[name] = {(min(u, v), max(u, v)): j for u, v, j in nx.jaccard_coefficient(g, ebunch=g.edges())}
        return self.graphs[name]

    def check(self, name, nodes, link, npy=False):
        if not os.path.exists(os.path.join(DATASETS, name)):
            self.skipTest("dataset not found: " + name)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            r = subprocess.run([sys.executable, LAUNCHER, "--nodes", str(nodes), "--link", link,
                                "--binary", WIREGRAPH, "--results", "tsv", "--",
                                "--app", "jaccard", "--graph", os.path.join(DATASETS, name), "--out", out, "--quiet"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=LIMIT_S)
            self.assertEqual(r.returncode, 0, r.stdout)
            with open(os.path.join(out, "results.tsv")) as f:
                self.assertEqual(f.readline(), "src\tdst\tjaccard\n")
                rows = [line.rstrip("\n").split("\t") for line in f]
            if npy:  # the same edges in numpy's structured array
                r = subprocess.run([sys.executable, os.path.join(SOURCE, "scripts", "wiregraph-results"), out,
                                    "--format", "npy"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                self.assertEqual(r.returncode, 0, r.stdout)
                a = np.load(os.path.join(out, "results.npy"))
                self.assertEqual(a.dtype.names, ("src", "dst", "jaccard"))
                self.assertEqual([(int(x), int(y)) for x, y in zip(a["src"], a["dst"])],
                                 [(int(x), int(y)) for x, y, _ in rows])
            with open(os.path.join(out, "summary.json")) as f:
                answer = json.load(f)["summary"]["answer"]
        want = self.want(name)
        # The answer line's figures (a per-edge program's default summary)
        # are networkx's count, least, largest and mean similarity.
        self.assertEqual(answer["edges_with_value"], len(want))
        self.assertAlmostEqual(answer["min"], min(want.values()), delta=1e-12)
        self.assertAlmostEqual(answer["max"], max(want.values()), delta=1e-12)
        self.assertAlmostEqual(answer["mean"], sum(want.values()) / len(want), delta=1e-12)
        keys = [(int(s), int(d)) for s, d, _ in rows]
        self.assertEqual(keys, sorted(keys), "sorted by (src, dst)")
        self.assertTrue(all(s < d for s, d in keys), "src < dst")
        got = {(int(s), int(d)): float(j) for s, d, j in rows}
        self.assertEqual(len(got), len(rows), "each edge once")
        self.assertEqual(set(got), set(want), "the edges are networkx's")
        worst = max(abs(got[e] - j) - PRINTED * j for e, j in want.items())
        self.assertLessEqual(worst, 1e-12, "the largest difference beyond printing")


class JaccardFast(JaccardCase):
    def test_memif_three_nodes(self):
        self.check("email-Eu-core.csv", 3, "memif", npy=True)


class JaccardFull(JaccardCase):
    def test_memif(self):
        for name in ("email-Eu-core.csv", "ca-GrQc.csv"):
            for nodes in (1, 2, 3):
                with self.subTest(dataset=name, nodes=nodes):
                    self.check(name, nodes, "memif")

    def test_tap(self):
        why = tap_unavailable()
        if why:
            self.skipTest(why)
        for nodes in (2, 3):
            with self.subTest(nodes=nodes):
                self.check("email-Eu-core.csv", nodes, "tap")


if __name__ == "__main__":
    unittest.main()
