"""Personalized PageRank from K seeds (`--app ppr --seeds LIST|FILE`) gives,
for each seed s, networkx's pagerank(G, alpha=0.85, personalization={s: 1})
(dangling=None: the dangling rank goes to s), through scripts/wiregraph-cluster,
DIR/results.tsv read vertex by vertex (a column ppr_<s> per seed).

Both sides run to convergence: wiregraph exactly 200 iterations (0.85^200 is
below 1e-14, so only the float messages' rounding is left), networkx with
tol=1e-12. The ranks must agree to 1e-4 relative (plus 1e-9 absolute, for the
vertices the seed does not reach, which both drive towards 0 at different
speeds). Every run also passes --verify (the C++ oracle, the same 200 steps).

  fast (the default suite, `cluster`): email-Eu-core, 3 seeds, P = 2 memif
  full: P = 1 and 3 memif, wiki-Vote (--ids dense: its unnamed ids are
        isolated, dangling vertices) with 9 seeds from a file (a 16-lane
        message) and by its own ids (--ids auto maps them: the loader
        looks each seed up), karate (undirected) with 16 seeds, one seed by --source,
        --tolerance against the oracle, tap at P = 2 (root), a 1-based file's own
        ids (rome99.gr), and the refusals.

Run by meson as `python3 -m unittest`; needs networkx."""

import os
import subprocess
import sys
import tempfile
import unittest

import networkx as nx

from python_api_env import DATASETS, LAUNCHER, LIMIT_S, WIREGRAPH, read_directed

ITERATIONS = "200"


def launch(graph, app, nodes=2, link="memif"):
    """(the launcher's result, {column: {vertex: rank}} or None)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        r = subprocess.run([sys.executable, LAUNCHER, "--nodes", str(nodes), "--link", link, "--binary", WIREGRAPH,
                            "--", "--graph", graph, "--out", out, "--quiet", "--app", "ppr"] + app,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=LIMIT_S)
        if r.returncode != 0:
            return r, None
        with open(os.path.join(out, "results.tsv")) as f:
            columns = f.readline().rstrip("\n").split("\t")
            rows = [line.rstrip("\n").split("\t") for line in f]
    return r, {c: {int(row[0]): float(row[j]) for row in rows} for j, c in enumerate(columns) if j > 0}


def networkx_ppr(g, seed):
    return nx.pagerank(g, alpha=0.85, personalization={seed: 1}, tol=1e-12, max_iter=100000, weight=None)


def tap_unavailable():
    if os.geteuid() != 0:
        return "tap links need root"
    if not os.access("/dev/net/tun", os.R_OK | os.W_OK):
        return "tap links need /dev/net/tun"
    return None


class PprCase(unittest.TestCase):
    def assert_as_networkx(self, g, seeds, got):
        self.assertEqual(list(got), ["ppr_%d" % s for s in seeds], "a column per seed, in --seeds order")
        for s in seeds:
            want = networkx_ppr(g, s)
            column = got["ppr_%d" % s]
            self.assertEqual(set(column), set(want), "the vertices are networkx's nodes")
            worst = max(abs(column[v] - r) - 1e-4 * r for v, r in want.items())
            self.assertLess(worst, 1e-9, "seed %d: the largest difference beyond 1e-4 relative" % s)
            self.assertAlmostEqual(sum(column.values()), 1.0, places=4)

    def run_seeds(self, graph, seeds, extra=(), nodes=2, link="memif"):
        r, got = launch(graph, ["--seeds", ",".join(map(str, seeds)), "--iterations", ITERATIONS, "--verify"] +
                        list(extra), nodes, link)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("verify: VALID", r.stdout)
        return got


def email():
    return read_directed("email-Eu-core.csv")


EMAIL_SEEDS = [0, 160, 1004]  # 160: a hub; 1004 the largest id


class PprFast(PprCase):
    def test_email_eu_core_three_seeds_p2(self):
        path = os.path.join(DATASETS, "email-Eu-core.csv")
        self.assert_as_networkx(email(), EMAIL_SEEDS, self.run_seeds(path, EMAIL_SEEDS))


class PprFull(PprCase):
    def test_graphalytics_output_writes_every_seed(self):
        path = os.path.join(DATASETS, "email-Eu-core.csv")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            r = subprocess.run([sys.executable, LAUNCHER, "--nodes", "2", "--binary", WIREGRAPH, "--",
                                "--graph", path, "--out", out, "--quiet", "--app", "ppr", "--output-format",
                                "graphalytics", "--seeds", ",".join(map(str, EMAIL_SEEDS)), "--iterations",
                                ITERATIONS], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=LIMIT_S)
            self.assertEqual(r.returncode, 0, r.stdout)
            rows = {}
            for name in sorted(os.listdir(out)):
                if name.startswith("result-") and name.endswith(".txt"):
                    with open(os.path.join(out, name)) as f:
                        for line in f:
                            fields = line.split()
                            rows[int(fields[0])] = [float(x) for x in fields[1:]]
        self.assertTrue(all(len(v) == len(EMAIL_SEEDS) for v in rows.values()), "every seed's rank on each line")
        got = {"ppr_%d" % s: {v: ranks[j] for v, ranks in rows.items()} for j, s in enumerate(EMAIL_SEEDS)}
        self.assert_as_networkx(email(), EMAIL_SEEDS, got)

    def test_email_eu_core_p1_and_p3(self):
        path = os.path.join(DATASETS, "email-Eu-core.csv")
        for nodes in (1, 3):
            with self.subTest(nodes=nodes):
                self.assert_as_networkx(email(), EMAIL_SEEDS, self.run_seeds(path, EMAIL_SEEDS, nodes=nodes))

    def test_email_eu_core_tap_p2(self):
        why = tap_unavailable()
        if why:
            self.skipTest(why)
        path = os.path.join(DATASETS, "email-Eu-core.csv")
        self.assert_as_networkx(email(), EMAIL_SEEDS, self.run_seeds(path, EMAIL_SEEDS, link="tap"))

    def test_wiki_vote_nine_seeds_from_a_file_p3(self):
        path = os.path.join(DATASETS, "wiki-Vote.txt")
        g = read_directed("wiki-Vote.txt")
        g.add_nodes_from(range(max(g) + 1))  # --ids dense: every id up to the largest, unnamed ones isolated
        seeds = [30, 1412, 3352, 8297, 4, 2565, 15, 6, 7]
        with tempfile.TemporaryDirectory() as tmp:
            listing = os.path.join(tmp, "seeds.txt")
            with open(listing, "w") as f:
                f.write("# wiki-Vote seeds\n" + "\n".join(map(str, seeds)) + "\n\n")
            r, got = launch(path, ["--seeds", listing, "--ids", "dense", "--iterations", ITERATIONS, "--verify"],
                            nodes=3)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("verify: VALID", r.stdout)
        self.assert_as_networkx(g, seeds, got)

    def test_wiki_vote_seeds_where_the_ids_are_mapped_p2(self):
        # The default --ids auto maps wiki-Vote's ids (the vertices are the
        # ids its edges name): the loader looks every seed up.
        path = os.path.join(DATASETS, "wiki-Vote.txt")
        seeds = [30, 8297, 4, 2565]
        got = self.run_seeds(path, seeds)
        self.assert_as_networkx(read_directed("wiki-Vote.txt"), seeds, got)
        r, got = launch(path, ["--seeds", "30,70"])
        self.assertIsNone(got)
        self.assertIn("--seeds: 70 is not a vertex of the graph: no edge names it (the vertices are the ids the "
                      "edges name); the nearest ids that are vertices are 68 and 71", r.stdout)

    def test_karate_undirected_sixteen_seeds(self):
        g = nx.karate_club_graph()
        seeds = list(range(0, 32, 2))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "karate.txt")
            with open(path, "w") as f:
                f.writelines("%d %d\n" % e for e in g.edges())
            got = self.run_seeds(path, seeds, ["--undirected"])
        self.assert_as_networkx(g, seeds, got)

    def test_one_seed_by_source(self):
        path = os.path.join(DATASETS, "email-Eu-core.csv")
        r, got = launch(path, ["--source", "160", "--iterations", ITERATIONS, "--verify"])
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assert_as_networkx(email(), [160], got)

    def test_tolerance_stops_when_every_seed_converged(self):
        # The oracle iterates the seeds together and stops at the same step.
        path = os.path.join(DATASETS, "email-Eu-core.csv")
        r, got = launch(path, ["--seeds", "0,160", "--tolerance", "1e-8", "--iterations", "500", "--verify"])
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("verify: VALID", r.stdout)

    def test_a_one_based_file_names_its_seeds_by_its_own_ids(self):
        path = os.path.join(DATASETS, "rome99.gr")  # DIMACS: vertices 1..3353
        r, got = launch(path, ["--seeds", "1,3353", "--verify"])
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("verify: VALID", r.stdout)
        self.assertEqual(list(got), ["ppr_1", "ppr_3353"])
        self.assertEqual(len(got["ppr_1"]), 3353)
        self.assertGreater(got["ppr_1"][1], got["ppr_1"][2])  # the seed holds its teleport share
        r, got = launch(path, ["--seeds", "0,5"])
        self.assertIsNone(got)
        self.assertIn("0 is not a vertex of the graph: its ids are 1..3353; the nearest id that is a vertex is 1",
                      r.stdout)

    def test_refusals(self):
        path = os.path.join(DATASETS, "email-Eu-core.csv")
        for app, said in [
            (["--seeds", "0,5000"], "5000 is not a vertex of the graph: its ids are 0..1004; the nearest id that "
                                    "is a vertex is 1004"),
            (["--seeds", "3,3"], "names vertex 3 twice"),
            (["--seeds", ",".join(map(str, range(17)))], "at most 16"),
            (["--seeds", "1", "--source", "2"], "--source and --seeds"),
        ]:
            with self.subTest(app=app):
                r, got = launch(path, app)
                self.assertIsNone(got)
                self.assertNotEqual(r.returncode, 0)
                self.assertIn(said, r.stdout)


if __name__ == "__main__":
    unittest.main()
