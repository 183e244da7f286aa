"""What the Python API's tests share: the node binary the build made, the
datasets, and networkx's graphs to compare (this checkout's package comes
first on PYTHONPATH: tests/meson.build's test_env)."""

import gzip
import os


HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
BUILD = os.environ.get("WG_BUILD_DIR", os.path.join(SOURCE, "build"))
DATASETS = os.environ.get("WG_DATASETS", os.path.join(SOURCE, "..", "shared", "datasets"))
WIREGRAPH = os.path.join(BUILD, "apps", "wiregraph")
LAUNCHER = os.path.join(SOURCE, "scripts", "wiregraph-cluster")
os.environ.setdefault("WIREGRAPH_BIN", WIREGRAPH)
LIMIT_S = 300  # a bound against hanging, not a measurement


def launch_results(node_args, nodes, link):
    """scripts/wiregraph-cluster at P = NODES over LINK with NODE_ARGS (and
    --out): (the launcher's result, {vertex: value text} from DIR/results.tsv,
    or None when the run failed)."""
    import subprocess
    import sys
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        r = subprocess.run([sys.executable, LAUNCHER, "--nodes", str(nodes), "--link", link, "--binary", WIREGRAPH,
                            "--"] + list(node_args) + ["--out", out],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=LIMIT_S)
        if r.returncode != 0:
            return r, None
        with open(os.path.join(out, "results.tsv")) as f:
            f.readline()  # the header
            rows = [line.rstrip("\n").split("\t") for line in f]
    return r, {int(v): value for v, value in rows}


def read_directed(name):
    """A dataset edge list as networkx reads it: its first two fields, its ids."""
    import networkx as nx
    path = os.path.join(DATASETS, name)
    g = nx.DiGraph()
    with (gzip.open if name.endswith(".gz") else open)(path, "rt") as f:
        for line in f:
            fields = line.replace(",", " ").split()
            if fields and not line.lstrip().startswith(("#", "%")) and fields[0].lstrip("-").isdigit():
                g.add_edge(int(fields[0]), int(fields[1]))
    return g


def mixed_graph(directed=False, seed=3):
    """A random graph with string ids, a tuple id, isolated nodes and a self-loop."""
    import networkx as nx
    g = nx.gnm_random_graph(60, 150, seed=seed, directed=directed)
    g = nx.relabel_nodes(g, {i: "v%d" % i for i in g})
    g.add_edge("v1", "v1")
    g.add_node("lonely")
    g.add_node(("t", 1))
    return g
