"""Strongly connected components (`--app scc`) against networkx's
strongly_connected_components and the program's own oracle (iterative
Tarjan, through --verify), on the directed datasets, through
scripts/wiregraph-cluster; each run's DIR/results.tsv read vertex by vertex:
every vertex's label must be the smallest id of its networkx component.

  wiki-Vote.txt       sparse ids (mapped), one SCC of 1300 vertices, 5816 in all
  email-Eu-core.csv   self-loops, isolated vertices, one SCC of 803 vertices

Fast (suite cluster): wiki-Vote at P = 2 on memif. With --full (suite
full): both datasets at P = 1, 2, 3 on memif and on tap (tap needs root).
Run by meson as `python3 test_scc.py [--full] -v`; needs networkx."""

import os
import sys
import unittest

import networkx as nx

from python_api_env import DATASETS, launch_results, read_directed

FULL = "--full" in sys.argv
DATASETS_USED = ("wiki-Vote.txt", "email-Eu-core.csv")


FAST_CASES = [("wiki-Vote.txt", 2, "memif")]


def cases():
    """(dataset, P, link): the fast default's one, or with --full the rest of the matrix."""
    if not FULL:
        return FAST_CASES
    return [(g, p, link) for g in DATASETS_USED for p in (1, 2, 3) for link in ("memif", "tap")
            if (g, p, link) not in FAST_CASES]


def launch(graph, nodes, link):
    """wiregraph scc --verify on `graph`: (the launcher's result, {vertex: label} or None)."""
    r, rows = launch_results(["--app", "scc", "--graph", graph, "--verify"], nodes, link)
    return r, rows and {v: int(label) for v, label in rows.items()}


def expected_labels(g):
    """networkx's components, each vertex labelled with its component's smallest id."""
    return {v: min(c) for c in nx.strongly_connected_components(g) for v in c}


class SccAsNetworkx(unittest.TestCase):
    def test_datasets(self):
        if any(link == "tap" for _, _, link in cases()) and os.geteuid() != 0:
            self.skipTest("--link tap needs root")
        graphs = {}
        for name, nodes, link in cases():
            with self.subTest(graph=name, nodes=nodes, link=link):
                if name not in graphs:
                    graphs[name] = read_directed(name)
                r, got = launch(os.path.join(DATASETS, name), nodes, link)
                self.assertEqual(r.returncode, 0, r.stdout)
                self.assertIn("verify   VALID", r.stdout, "the program's own oracle (Tarjan) agrees")
                want = expected_labels(graphs[name])
                # networkx knows only the vertices its edges name: every other
                # id wiregraph numbers (none with mapped ids) is its own component.
                self.assertEqual({v: got[v] for v in want}, want)
                self.assertTrue(all(got[v] == v for v in set(got) - set(want)))


if __name__ == "__main__":
    unittest.main(argv=[a for a in sys.argv if a != "--full"])
