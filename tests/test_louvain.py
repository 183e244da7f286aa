"""Louvain community detection (`--app louvain`) against networkx's
louvain_communities, through scripts/wiregraph-cluster; each run's
DIR/results.tsv read vertex by vertex. On the undirected simple graph
networkx builds from the same file (self-loops dropped, as the program
drops them):

  - the modularity of wiregraph's communities is at least 0.95 of the best
    of networkx's louvain_communities over seeds 0, 1, 2 (the issue's margin;
    the communities themselves may differ: wiregraph moves half the vertices
    at once each round, networkx one at a time in a seeded order);
  - the modularity the run prints for its last level is networkx's
    modularity of the communities it wrote;
  - every community is labelled with its smallest member's id;
  - --verify: every label is the program's oracle's (the same rule on one
    thread, apps/louvain.h);
  - (--full) the communities are the same at every P on a link.

  ca-GrQc.csv         sparse ids (mapped), 5,242 vertices
  email-Eu-core.csv   self-loops, isolated vertices
  wiki-Vote.txt       directed: directions ignored
  rome99.gr           --weighted: DIMACS arc lengths as weights (the
                      smallest of u->v and v->u, as the program keeps)

Fast (suite cluster): ca-GrQc and rome99 --weighted at P = 2 on memif.
With --full (suite full): every dataset at P = 1, 2, 3 on memif and on tap
(tap needs root). Run by meson as `python3 test_louvain.py [--full] -v`;
needs networkx."""

import os
import re
import sys
import unittest

import networkx as nx

from python_api_env import DATASETS, launch_results, read_directed

FULL = "--full" in sys.argv
DATASETS_USED = ("ca-GrQc.csv", "email-Eu-core.csv", "wiki-Vote.txt", "rome99.gr")
FAST_CASES = [("ca-GrQc.csv", 2, "memif"), ("rome99.gr", 2, "memif")]
MARGIN = 0.95
SEEDS = (0, 1, 2)


def cases():
    """(dataset, P, link): the fast default's, or with --full the whole matrix."""
    if not FULL:
        return FAST_CASES
    return [(g, p, link) for g in DATASETS_USED for p in (1, 2, 3) for link in ("memif", "tap")]


def weighted(name):
    return name.endswith(".gr")


def read_undirected(name):
    """The undirected simple graph of a dataset, as the program reads it."""
    if not weighted(name):
        g = nx.Graph(read_directed(name))
        g.remove_edges_from(list(nx.selfloop_edges(g)))
        return g
    g = nx.Graph()
    with open(os.path.join(DATASETS, name)) as f:
        for line in f:
            if not line.startswith("a "):
                continue
            _, u, v, w = line.split()
            u, v, w = int(u), int(v), float(w)
            if u == v:
                continue
            if not g.has_edge(u, v) or w < g[u][v]["weight"]:
                g.add_edge(u, v, weight=w)
    return g


def launch(name, nodes, link):
    """wiregraph louvain --verify on `name`: (the launcher's result, {vertex: label} or None)."""
    args = ["--app", "louvain", "--graph", os.path.join(DATASETS, name), "--verify"]
    r, rows = launch_results(args + (["--weighted"] if weighted(name) else []), nodes, link)
    return r, rows and {v: int(label) for v, label in rows.items()}


def printed_modularity(stdout):
    """The modularity of the last level the run kept, as it printed it."""
    found = re.findall(r"level \d+: \d+ communities, modularity (-?[0-9.]+)", stdout)
    return float(found[-1]) if found else None


class LouvainAsNetworkx(unittest.TestCase):
    def test_datasets(self):
        if any(link == "tap" for _, _, link in cases()) and os.geteuid() != 0:
            self.skipTest("--link tap needs root")
        graphs, best, partitions = {}, {}, {}
        for name, nodes, link in cases():
            with self.subTest(graph=name, nodes=nodes, link=link):
                if name not in graphs:
                    g = graphs[name] = read_undirected(name)
                    w = "weight" if weighted(name) else None
                    best[name] = max(nx.community.modularity(g, nx.community.louvain_communities(g, weight=w, seed=s),
                                                             weight=w) for s in SEEDS)
                g = graphs[name]
                r, got = launch(name, nodes, link)
                self.assertEqual(r.returncode, 0, r.stdout)
                self.assertIn("verify   VALID", r.stdout, "the program's own oracle agrees")
                communities = {}
                for v in g:
                    communities.setdefault(got[v], set()).add(v)
                for label, members in communities.items():
                    self.assertEqual(label, min(members), "a community is named by its smallest member")
                q = nx.community.modularity(g, communities.values(), weight="weight" if weighted(name) else None)
                self.assertGreaterEqual(q, MARGIN * best[name],
                                        f"modularity {q:.6f} against networkx's best {best[name]:.6f}")
                printed = printed_modularity(r.stdout)
                self.assertIsNotNone(printed, "a level line with its modularity:\n" + r.stdout)
                self.assertAlmostEqual(printed, q, delta=1e-6)
                key = (name, link)
                if key in partitions:
                    self.assertEqual({v: got[v] for v in g}, partitions[key], "the same communities at every P")
                else:
                    partitions[key] = {v: got[v] for v in g}


if __name__ == "__main__":
    unittest.main(argv=[a for a in sys.argv if a != "--full"])
