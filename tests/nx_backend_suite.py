"""networkx's own tests of the functions the wiregraph backend implements,
run with it (NETWORKX_TEST_BACKEND=wiregraph NETWORKX_FALLBACK_TO_NX=True:
networkx converts every graph and calls the backend, running calls it cannot
take itself), counting per test the cluster launches: how many tests really
ran on wiregraph and passed. Needs the package installed with its entry
points (scripts/setup.sh: pip install -e python); exit 77 (meson: skipped)
without them. Each call is a cluster launch: suite full (docs/PYTHON.md has
its time). Usage: nx_backend_suite.py [pytest arguments, default the modules]."""
import collections
import os
import sys
import time

os.environ.setdefault("NETWORKX_TEST_BACKEND", "wiregraph")  # read when networkx is imported
os.environ.setdefault("NETWORKX_FALLBACK_TO_NX", "True")
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
os.environ.setdefault("WIREGRAPH_BIN", os.path.join(os.environ.get("WG_BUILD_DIR", os.path.join(SOURCE, "build")),
                                                    "apps", "wiregraph"))
MODULES = ["networkx.algorithms.link_analysis", "networkx.algorithms.components",
           "networkx.algorithms.tests.test_core", "networkx.algorithms.tests.test_cluster",
           "networkx.algorithms.centrality.tests.test_betweenness_centrality",
           "networkx.algorithms.shortest_paths.tests.test_unweighted",
           "networkx.algorithms.shortest_paths.tests.test_generic"]

from importlib.metadata import entry_points  # noqa: E402

if not entry_points(group="networkx.backends", name="wiregraph"):
    print("the wiregraph backend is not installed (pip install python, with its entry points): skipped")
    sys.exit(77)

import pytest  # noqa: E402

import wiregraph.api  # noqa: E402
import wiregraph.launch as launch  # noqa: E402

calls = collections.Counter()
current = [None]
original = launch.run_launcher

def counted(*a, **k):
    calls[current[0]] += 1
    return original(*a, **k)

launch.run_launcher = counted  # wiregraph.api calls it through the module

class Plugin:
    def __init__(self):
        self.outcomes = {}
    def pytest_runtest_setup(self, item):
        current[0] = item.nodeid
    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            self.outcomes.setdefault(report.nodeid, report.outcome)
    def pytest_sessionfinish(self):
        on = [t for t in self.outcomes if calls[t]]
        passed = [t for t in on if self.outcomes[t] == "passed"]
        print("\nWIREGRAPH: %d tests, %d called wiregraph (%d launches), %d of those passed; failed: %s"
              % (len(self.outcomes), len(on), sum(calls.values()), len(passed),
                 [t for t in on if self.outcomes[t] != "passed"]))

t = time.time()
# Tests that compare floats for exact equality with networkx's: PageRank and
# betweenness come from the nodes' result text, 9 significant digits. And one
# that reads an order networkx does not document: condensation numbers the
# components in the order strongly_connected_components yields them (its
# Tarjan's, reverse topological); the backend yields the same sets by
# smallest id.
KNOWN = {"test_k_out_of_bounds_raises": "b1 == b2 on betweenness floats, exactly",
         "test_condensation_mapping_and_members": "component order of strongly_connected_components"}
args = sys.argv[1:] or ["--pyargs"] + MODULES + ["-q", "-W", "ignore", "-k", " and ".join("not " + t for t in KNOWN)]
rc = pytest.main(args + ["-p", "no:cacheprovider"], plugins=[Plugin()])
print("WIREGRAPH: %.0f s" % (time.time() - t))
sys.exit(rc)
