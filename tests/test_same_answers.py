"""The same answers as networkx, on the shared datasets, with default options
(issue #40): 2-node memif clusters through scripts/wiregraph-cluster, each
run's DIR/results.tsv read vertex by vertex against networkx's own function on
the graph networkx reads from the same file:

  cc                        weakly_connected_components (labelled by the smallest id)
  pagerank --tolerance 1e-6 pagerank(G, tol=1e-6), to 1e-4 relative
  bfs (the default source)  single_source_shortest_path_length from the first edge's source
  kcore                     core_number       of the graph made undirected without self-loops
  tc                        triangles         of the same
  lcc --undirected          clustering        of the same

The vertices are the ids each file's edges name (networkx's nodes): wiki-Vote
has ids 0..8,297 but 7,115 vertices. The loader keeps ids as themselves where
the sample found them dense (a bitmap) and turns to its id table when an id
beyond them appears: a file larger than the sample with such ids where the
sample does not read checks that turn (MappedIdsBeyondTheSample). Run by meson (suite cluster) as `python3
-m unittest`; needs networkx (python/requirements-test.txt, installed by
`scripts/setup.sh --tests`)."""

import gzip
import os
import subprocess
import sys
import tempfile
import unittest

import networkx as nx

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
BUILD = os.environ.get("WG_BUILD_DIR", os.path.join(SOURCE, "build"))
DATASETS = os.environ.get("WG_DATASETS", os.path.join(SOURCE, "..", "shared", "datasets"))
WIREGRAPH = os.path.join(BUILD, "apps", "wiregraph")
LAUNCHER = os.path.join(SOURCE, "scripts", "wiregraph-cluster")
LIMIT_S = 300  # a bound against hanging, not a measurement

# The edge lists among the datasets: directed SNAP graphs, one of them as SNAP
# ships it (gzip, a CSV with a rating column and a time column).
DATASET_FILES = ("wiki-Vote.txt", "ca-GrQc.csv", "email-Eu-core.csv", "soc-sign-bitcoinotc.csv.gz")


def read_directed(name):
    """The file as networkx reads an edge list: its first two fields, its ids."""
    path = os.path.join(DATASETS, name)
    opener = gzip.open if name.endswith(".gz") else open
    g = nx.DiGraph()
    with opener(path, "rt") as f:
        for line in f:
            fields = line.replace(",", " ").split()
            if not fields or line.lstrip().startswith(("#", "%")):
                continue
            g.add_edge(int(fields[0]), int(fields[1]))
    return g


def first_source(name):
    path = os.path.join(DATASETS, name)
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith(("#", "%")):
                return int(line.replace(",", " ").split()[0])
    raise AssertionError("no edge in " + name)


def simple_undirected(g):
    u = nx.Graph(g)
    u.remove_edges_from(nx.selfloop_edges(u))
    return u


def results(test, name, app):
    """Runs `app` on dataset `name` at P = 2 and returns {vertex: value}."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        r = subprocess.run([sys.executable, LAUNCHER, "--nodes", "2", "--link", "memif", "--binary", WIREGRAPH, "--",
                            "--graph", os.path.join(DATASETS, name), "--out", out, "--quiet"] + app,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=LIMIT_S)
        test.assertEqual(r.returncode, 0, r.stdout)
        with open(os.path.join(out, "results.tsv")) as f:
            f.readline()  # the header
            rows = [line.rstrip("\n").split("\t") for line in f]
    return {int(v): value for v, value in rows}


class SameAnswersAsNetworkx(unittest.TestCase):
    graphs = {}

    def graph(self, name):
        if name not in self.graphs:
            self.graphs[name] = read_directed(name)
        return self.graphs[name]

    def for_each_dataset(self, check):
        for name in DATASET_FILES:
            with self.subTest(dataset=name):
                check(name, self.graph(name))

    def test_cc_is_weakly_connected_components(self):
        def check(name, g):
            got = results(self, name, ["--app", "cc"])
            self.assertEqual(set(got), set(g.nodes), "the vertices are networkx's nodes")
            want = {}
            for component in nx.weakly_connected_components(g):
                for v in component:
                    want[v] = min(component)
            self.assertEqual({v: int(c) for v, c in got.items()}, want)
        self.for_each_dataset(check)

    def test_pagerank_with_a_tolerance_is_networkx_s(self):
        def check(name, g):
            got = results(self, name, ["--app", "pagerank", "--tolerance", "1e-6"])
            want = nx.pagerank(g, tol=1e-6)
            self.assertEqual(set(got), set(want))
            worst = max(abs(float(got[v]) - r) / r for v, r in want.items())
            self.assertLess(worst, 1e-4, "the largest relative difference")
        self.for_each_dataset(check)

    def test_bfs_from_the_default_source_is_networkx_s(self):
        def check(name, g):
            got = results(self, name, ["--app", "bfs"])
            want = nx.single_source_shortest_path_length(g, first_source(name))
            self.assertEqual(set(got), set(g.nodes))
            self.assertEqual({v: int(d) for v, d in got.items() if d != "inf"}, want)
        self.for_each_dataset(check)

    def test_kcore_tc_and_undirected_lcc_are_networkx_s(self):
        def check(name, g):
            u = simple_undirected(g)
            core = results(self, name, ["--app", "kcore"])
            self.assertEqual({v: int(c) for v, c in core.items()}, nx.core_number(u))
            triangles = results(self, name, ["--app", "tc"])
            self.assertEqual({v: int(t) for v, t in triangles.items()}, nx.triangles(u))
            lcc = results(self, name, ["--app", "lcc", "--undirected"])
            want = nx.clustering(u)
            self.assertEqual(set(lcc), set(want))
            for v, c in want.items():
                self.assertAlmostEqual(float(lcc[v]), c, places=6, msg="vertex %d" % v)
        self.for_each_dataset(check)


if __name__ == "__main__":
    unittest.main()


class MappedIdsBeyondTheSample(unittest.TestCase):
    def test_ids_the_sample_did_not_see_are_vertices_too(self):
        # About 4 MiB of random edges over ids 0..199,999: more than the
        # sample reads whole, so it reads 16 ranges of 64 KiB spread over the
        # file, the first at its start and the second about 1/15 in. Lines
        # about 150 KB in, between them, name ids the sample never sees:
        # well above the largest it saw (beyond the bitmap's eighth of
        # headroom: the table takes over), above what dense ids hold, and
        # negative.
        import random
        rnd = random.Random(40)
        g = nx.DiGraph()
        lines = []
        for i in range(330000):
            if i == 12000:
                for a, b in ((300000, 5), (5, 900000), (900000, 7), (5000000000, 11), (-3, 5000000000), (17, -3)):
                    lines.append("%d %d\n" % (a, b))
                    g.add_edge(a, b)
            a, b = rnd.randrange(200000), rnd.randrange(200000)
            lines.append("%d %d\n" % (a, b))
            g.add_edge(a, b)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "beyond.txt")
            with open(path, "w") as f:
                f.writelines(lines)
            self.assertGreater(os.path.getsize(path), 4 << 20)
            self.assertLess(len("".join(lines[:12006])), 200000, "the odd ids lie between the first two ranges")
            self.assertGreater(len("".join(lines[:12000])), 70000)
            r = subprocess.run([sys.executable, LAUNCHER, "--nodes", "2", "--link", "memif", "--binary", WIREGRAPH,
                                "--", "--graph", path, "--out", os.path.join(tmp, "out"), "--app", "cc"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=LIMIT_S)
            self.assertEqual(r.returncode, 0, r.stdout)
            self.assertIn("ids: sparse (auto: the vertices are the ids the edges name, about", r.stdout)
            with open(os.path.join(tmp, "out", "results.tsv")) as f:
                f.readline()
                got = {int(v): int(c) for v, c in (line.split() for line in f)}
        want = {}
        for component in nx.weakly_connected_components(g):
            smallest = min(component)
            want.update((v, smallest) for v in component)
        self.assertEqual(set(got), set(want), "the vertices are networkx's nodes")
        differ = [v for v in want if got[v] != want[v]]
        self.assertEqual(differ, [], "vertices whose component differs from networkx's")
