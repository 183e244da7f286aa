"""scripts/wiregraph-cluster run by an ordinary user (notebook users are not
root): a 2-node memif PageRank as uid 65534 whose answer is networkx's, with
its run dir (key, memif sockets) and the EAL's runtime dir under the user's
own $XDG_RUNTIME_DIR (one the test makes, so that it leaves nothing behind;
tests/test_launcher_rundirs.py has /tmp/wiregraph-user-<uid>, the choice
without one) and gone afterwards; and --link tap, which needs root, refused
in one line. Switching to another uid needs root: as any
other user the test is skipped. Run by meson (suite cluster) as `python3 -m
unittest`; needs networkx (python/requirements-test.txt)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import networkx as nx

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
BUILD = os.environ.get("WG_BUILD_DIR", os.path.join(SOURCE, "build"))
WIREGRAPH = os.path.join(BUILD, "apps", "wiregraph")
LAUNCHER = os.path.join(SOURCE, "scripts", "wiregraph-cluster")
USER_UID = 65534  # nobody: a user that owns nothing of the checkout or the build
LIMIT_S = 300  # a bound against hanging, not a measurement

# A small directed graph: a 3-cycle, a 4-cycle joined to it, a vertex only
# pointed to (dangling: its rank is spread over all vertices) and one that
# only points.
EDGES = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 6), (6, 3), (6, 7), (8, 0), (8, 4), (1, 7)]


def as_user(argv, home):
    """ARGV run as USER_UID (no groups), with this checkout's package and the
    environment such a user has: their own HOME and XDG_RUNTIME_DIR (HOME/run)."""
    env = dict(os.environ)
    env["HOME"] = home
    env["XDG_RUNTIME_DIR"] = os.path.join(home, "run")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(SOURCE, "python"), env.get("PYTHONPATH")) if p)
    return subprocess.run(["setpriv", "--reuid=%d" % USER_UID, "--regid=%d" % USER_UID, "--clear-groups"] + argv,
                          env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=LIMIT_S, cwd=home)


@unittest.skipUnless(os.geteuid() == 0, "running the launcher as another uid needs root (setpriv)")
@unittest.skipUnless(shutil.which("setpriv"), "setpriv (util-linux) is not installed")
class LauncherAsAnOrdinaryUser(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wiregraph-as-user-")
        self.run = os.path.join(self.tmp, "run")
        os.mkdir(self.run, 0o700)
        for d in (self.tmp, self.run):
            os.chown(d, USER_UID, USER_UID)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_memif_pagerank_is_networkx_s_and_leaves_nothing(self):
        graph = os.path.join(self.tmp, "graph.txt")
        with open(graph, "w") as f:
            f.writelines("%d %d\n" % e for e in EDGES)
        os.chmod(graph, 0o644)
        out = os.path.join(self.tmp, "out")
        r = as_user([sys.executable, LAUNCHER, "--nodes", "2", "--link", "memif", "--binary", WIREGRAPH, "--",
                     "--app", "pagerank", "--graph", graph, "--tolerance", "1e-6", "--out", out, "--quiet"],
                    self.tmp)
        self.assertEqual(r.returncode, 0, r.stdout)
        m = re.search(r"run dir (\S+),", r.stdout)
        self.assertIsNotNone(m, r.stdout)
        rundir = m.group(1)
        self.assertEqual(os.path.dirname(rundir), self.run, "the run dir is under the user's own directory")
        self.assertFalse(os.path.exists(rundir), "the run dir is removed")
        self.assertEqual(os.listdir(self.run), ["dpdk"], "only the EAL's own directory is left")
        self.assertEqual(os.listdir(os.path.join(self.run, "dpdk")), [],
                         "the EAL runtime dirs of the job's nodes are removed")

        with open(os.path.join(out, "results.tsv")) as f:
            self.assertEqual(f.readline().split("\t")[0], "vertex")
            got = {int(v): float(x) for v, x in (line.split("\t") for line in f)}
        want = nx.pagerank(nx.DiGraph(EDGES), tol=1e-6)
        self.assertEqual(set(got), set(want))
        for v, rank in want.items():
            self.assertLess(abs(got[v] - rank) / rank, 1e-4, "vertex %d: %g, networkx %g" % (v, got[v], rank))

    def test_tap_is_refused_because_it_needs_root(self):
        r = as_user([sys.executable, LAUNCHER, "--nodes", "2", "--link", "tap", "--binary", WIREGRAPH, "--",
                     "--app", "pagerank", "--graph", "kron:4:2"], self.tmp)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertEqual(r.stdout, "[cluster] error: --link tap needs root (it creates a bridge and tap netdevs); "
                                   "use --link memif or run as root\n")


if __name__ == "__main__":
    unittest.main()
