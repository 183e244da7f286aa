"""What the peers' benchmarks (louvain_peers.py, scc_peers.py) share: their
command line, the peers installed from requirements-peers.txt, the graph as a
text edge list every tool reads, a wiregraph run's time and labels, and the
table they print."""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("WG_BUILD_DIR", os.path.join(ROOT, "build"))


def arguments(doc, default_graph):
    """--graph, --nodes, --trials and --json, the script's docstring as help."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--graph", default=default_graph)
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--json")
    return ap.parse_args()


def ensure_peers():
    """igraph and NetworKit at requirements-peers.txt's versions, for this python3."""
    try:
        import igraph  # noqa: F401
        import networkit  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "--root-user-action=ignore", "-r", os.path.join(HERE, "requirements-peers.txt")], check=True)


def edge_file(graph, tmp):
    """`graph` (a generator or any file wiregraph reads) as 'src dst' lines in tmp."""
    path = os.path.join(tmp, "edges.txt")
    subprocess.run([os.path.join(BUILD, "apps", "wiregraph-convert"), "--graph", graph, "--out", path],
                   check=True, stdout=subprocess.DEVNULL)
    return path


def read_edges(path, undirected):
    """The edges of a 'src dst [weight]' text file, each pair once, sorted:
    undirected, the simple graph's (u < v, self-loops dropped); else as
    directed pairs."""
    edges = set()
    with open(path) as f:
        for line in f:
            fields = line.split()
            u, v = int(fields[0]), int(fields[1])
            if not undirected:
                edges.add((u, v))
            elif u != v:
                edges.add((min(u, v), max(u, v)))
    return sorted(edges)


def wiregraph_run(app, edges, nodes, tmp, trial):
    """One run of `--app app` on P=nodes over memif: (compute seconds, whole
    run seconds, {vertex: label} from results.tsv)."""
    out = os.path.join(tmp, "wg%d" % trial)
    started = time.monotonic()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "wiregraph-cluster"), "--nodes", str(nodes),
                        "--binary", os.path.join(BUILD, "apps", "wiregraph"), "--", "--app", app,
                        "--graph", edges, "--out", out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    whole = time.monotonic() - started
    if r.returncode != 0:
        sys.exit("wiregraph failed:\n" + r.stdout[-3000:])
    with open(os.path.join(out, "summary.json")) as f:
        compute = json.load(f)["compute_seconds"]
    labels = {}
    with open(os.path.join(out, "results.tsv")) as f:
        f.readline()
        for line in f:
            v, label = line.split("\t")[:2]
            labels[int(v)] = int(label)
    return compute, whole, labels


def report(a, title, columns, rows, cells):
    """The table (the first row, wiregraph's, is the time's unit), and the rows
    as JSON with --json. cells(row) gives the row's cells after the time."""
    base = rows[0]["seconds"]
    print(title)
    print("| tool | seconds | / wiregraph | %s |" % " | ".join(columns))
    print("| --- | --: | --: |%s" % "".join(" --: |" for _ in columns))
    for r in rows:
        extra = " (whole run %.2f s)" % r["whole_run"] if "whole_run" in r else ""
        print("| %s | %.4f%s | %.2fx | %s |" % (r["tool"], r["seconds"], extra, r["seconds"] / base,
                                               " | ".join(cells(r))))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"graph": a.graph, "nodes": a.nodes, "trials": a.trials, "rows": rows}, f, indent=1)
