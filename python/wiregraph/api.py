"""wiregraph.run: one program on one graph over a local cluster, from Python."""

import shutil
import tempfile
from pathlib import Path

from wiregraph import graph_files, launch
from wiregraph.run_result import Result

LAUNCHER_ONLY = ("out", "results", "binary", "nodes", "link")  # set by run() itself, not passed through


def run(app, graph, nodes=2, link="memif", weight=None, *, progress=None, out=None, timeout=None,
        source=None, **options):
    """Runs APP (pagerank, bfs, cc, kcore, tc, lcc, bc, sssp, cd, indegree, ppr, scc, jaccard, louvain) on
    GRAPH over NODES local nodes joined by LINK and returns a Result.

    GRAPH: a path or `kron:` spec (the file's ids), a networkx graph, a
    DataFrame of (src, dst[, weight]) columns or arrays (src, dst[, weight])
    (any hashable ids; written once into a temporary file, isolated vertices
    and real weights kept). WEIGHT: the edge attribute or column holding the
    weights (None: 'weight' when an edge has it, a third column; False: none).
    SOURCE: a user's vertex id (bfs, sssp, bc; ppr's one seed). OPTIONS are node options:
    damping=0.85 -> --damping 0.85, undirected=True -> --undirected.
    PROGRESS: False for none. OUT: keep the results in this directory (else
    a temporary one that lives as long as the Result). Raises WiregraphError
    with the nodes' message when the run fails; Ctrl-C stops every node,
    removes what the run wrote and re-raises KeyboardInterrupt."""
    for name in LAUNCHER_ONLY:
        if name in options:
            raise TypeError("run(%s=...): set by run itself" % name)
    work = Path(tempfile.mkdtemp(prefix="wiregraph-api-"))
    try:
        written = graph_files.write_graph(graph, work, weight)
        if source is not None:
            try:
                options["source"] = written.file_id(source)
            except KeyError:
                raise ValueError("source %r is not a vertex of the graph" % (source,)) from None
        out_dir = Path(out) if out is not None else work / "out"
        app_args = (["--app", app, "--graph", written.path, "--out", str(out_dir)] + written.options +
                    launch.node_options(options))
        launch.run_launcher(app_args, nodes=nodes, link=link, progress=progress, timeout=timeout, app=app)
        # The graph file is not needed any more; the out dir lives with the Result.
        if written.path.startswith(str(work)):
            Path(written.path).unlink()
        return Result(out_dir, written, owned_dir=work if out is None else None)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    finally:
        if out is not None:
            shutil.rmtree(work, ignore_errors=True)
