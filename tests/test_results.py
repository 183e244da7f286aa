"""A run's answer in one file: 2-node memif clusters through
scripts/wiregraph-cluster with --out, whose DIR/results.tsv (pandas' and
people's) and DIR/results.npy (numpy's) are checked for their header or
fields, the order of the vertices, every vertex once, and values equal to
networkx's on the same dataset; scripts/wiregraph-results by hand; and
scripts/wiregraph-plot's picture of the answer. Run by meson (suite cluster)
as `python3 -m unittest`; needs python/requirements-test.txt (numpy,
networkx: scripts/setup.sh installs them)."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import networkx as nx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
BUILD = os.environ.get("WG_BUILD_DIR", os.path.join(SOURCE, "build"))
DATASETS = os.environ.get("WG_DATASETS", os.path.join(SOURCE, "..", "shared", "datasets"))
WIREGRAPH = os.path.join(BUILD, "apps", "wiregraph")
SCRIPTS = os.path.join(SOURCE, "scripts")
LIMIT_S = 300  # a bound against hanging, not a measurement


def run(argv):
    return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=LIMIT_S)


def launch(out, app, launcher=()):
    return run([sys.executable, os.path.join(SCRIPTS, "wiregraph-cluster"), "--nodes", "2", "--link", "memif",
                "--binary", WIREGRAPH] + list(launcher) + ["--"] + app + ["--out", out])


def wiki_vote():
    """wiki-Vote as networkx reads it: directed, the file's own ids."""
    g = nx.DiGraph()
    with open(os.path.join(DATASETS, "wiki-Vote.txt")) as f:
        for line in f:
            if not line.startswith("#"):
                u, v = line.split()
                g.add_edge(int(u), int(v))
    return g


def rome99():
    """rome99's arcs, weighted, DIMACS's 1-based ids; parallel arcs keep the lightest."""
    g = nx.DiGraph()
    with open(os.path.join(DATASETS, "rome99.gr")) as f:
        for line in f:
            if line.startswith("p "):
                g.add_nodes_from(range(1, int(line.split()[2]) + 1))
            elif line.startswith("a "):
                _, u, v, w = line.split()
                u, v, w = int(u), int(v), int(w)
                if not g.has_edge(u, v) or g[u][v]["weight"] > w:
                    g.add_edge(u, v, weight=w)
    return g


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [line.rstrip("\n").split("\t") for line in f]
    return header, rows


class Results(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def out(self, name):
        return os.path.join(self.tmp.name, name)

    def expect_picture(self, out, name):
        r = run([sys.executable, os.path.join(SCRIPTS, "wiregraph-plot"), out])
        self.assertEqual(r.returncode, 0, r.stdout)
        png = os.path.join(out, "plots", name + ".png")
        self.assertIn(png, r.stdout)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(out, "wiregraph-run.json")) as f:
            self.assertIn("plots/%s.png" % name, json.load(f)["files"], "the next run removes it")

    def test_bfs_results_tsv_is_sorted_whole_and_networkx_s(self):
        out = self.out("bfs")
        r = launch(out, ["--app", "bfs", "--graph", os.path.join(DATASETS, "wiki-Vote.txt"), "--source", "28"])
        self.assertEqual(r.returncode, 0, r.stdout)
        path = os.path.join(out, "results.tsv")
        self.assertIn("[cluster] results: %s (" % path, r.stdout)
        header, rows = read_tsv(path)
        self.assertEqual(header, ["vertex", "depth"])
        vertices = [int(v) for v, _ in rows]
        g = wiki_vote()
        named = sorted(g.nodes)
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(json.load(f)["metrics"]["vertices"], len(named))
        self.assertEqual(vertices, named, "every vertex once, in order (the ids the file names)")
        depth = nx.single_source_shortest_path_length(g, 28)
        got = {int(v): d for v, d in rows}
        self.assertEqual({v: int(d) for v, d in got.items() if d != "inf"}, depth)
        self.assertGreater(sum(1 for d in got.values() if d == "inf"), 0, "unreached as the node files write it")
        with open(os.path.join(out, "wiregraph-run.json")) as f:
            self.assertIn("results.tsv", json.load(f)["files"], "the next run removes it")
        self.expect_picture(out, "depth_histogram")

        # The same by hand, as numpy's: unreached depths are -1.
        r = run([sys.executable, os.path.join(SCRIPTS, "wiregraph-results"), out, "--format", "npy",
                 "--name", "depths.npy"])
        self.assertEqual(r.returncode, 0, r.stdout)
        a = np.load(os.path.join(out, "depths.npy"))
        self.assertEqual(a.dtype.names, ("vertex", "depth"))
        self.assertEqual(a.dtype["depth"], np.dtype("<i8"))
        self.assertEqual(a["vertex"].tolist(), named)
        self.assertEqual({int(v): int(d) for v, d in a if d >= 0}, depth)
        self.assertTrue(((a["depth"] >= 0) | (a["depth"] == -1)).all())

    def test_sssp_results_npy_holds_networkx_s_distances(self):
        out = self.out("sssp")
        r = launch(out, ["--app", "sssp", "--graph", os.path.join(DATASETS, "rome99.gr"), "--source", "1"],
                   ["--results", "npy"])
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertFalse(os.path.exists(os.path.join(out, "results.tsv")))
        a = np.load(os.path.join(out, "results.npy"))
        self.assertEqual(a.dtype.names, ("vertex", "distance"))
        self.assertEqual(a.dtype["distance"], np.dtype("<f8"))
        g = rome99()
        self.assertEqual(a["vertex"].tolist(), sorted(g.nodes), "DIMACS's ids, 1..n, each once")
        want = nx.single_source_dijkstra_path_length(g, 1)
        for v, d in a:
            self.assertEqual(d, want.get(int(v), math.inf), "vertex %d" % v)
        self.expect_picture(out, "distance_histogram")

    def test_cc_components_are_networkx_s(self):
        out = self.out("cc")
        r = launch(out, ["--app", "cc", "--graph", os.path.join(DATASETS, "wiki-Vote.txt")])
        self.assertEqual(r.returncode, 0, r.stdout)
        header, rows = read_tsv(os.path.join(out, "results.tsv"))
        self.assertEqual(header, ["vertex", "component"])
        label = {int(v): int(c) for v, c in rows}
        self.assertEqual(len(label), len(rows), "every vertex once")
        g = wiki_vote()
        for component in nx.weakly_connected_components(g):
            smallest = min(component)
            self.assertEqual({label[v] for v in component}, {smallest})
        self.assertEqual(set(label), set(g.nodes), "the vertices are the ids the file names, as networkx's")
        self.expect_picture(out, "component_sizes")

    def test_degree_counts_are_networkx_s_and_drawn(self):
        out = self.out("degrees")
        r = launch(out, ["--app", "pagerank", "--graph", os.path.join(DATASETS, "wiki-Vote.txt")])
        self.assertEqual(r.returncode, 0, r.stdout)
        got = {"out": {}, "in": {}}
        for rank in range(2):
            with open(os.path.join(out, "node%d.json" % rank)) as f:
                for direction, pairs in json.load(f)["degrees"].items():
                    for degree, vertices in pairs:
                        got[direction][degree] = got[direction].get(degree, 0) + vertices
        g = wiki_vote()
        for direction, degrees in (("out", g.out_degree()), ("in", g.in_degree())):
            want = {}
            for _, d in degrees:
                want[d] = want.get(d, 0) + 1
            self.assertEqual(got[direction], want, direction + "-degrees")
        self.expect_picture(out, "degree_ccdf")


if __name__ == "__main__":
    unittest.main()
