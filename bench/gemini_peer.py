"""Gemini's own binaries as an in-run baseline next to GAP (bench/gap_compare.py).

Gemini (github.com/thu-pacman/GeminiGraph) is built by hand outside this
repository (`make` in a checkout, with Open MPI; nothing of it is vendored or
built from here). Given its directory, this module

  - writes its sssp input from GAP's kron<S>.wbin (bench/gap_peer.py): Gemini
    reads packed (uint32 src, uint32 dst, float32 weight) records, so
    kron<S>.fwbin is the same triples with the weight as a float. bfs, cc and
    pagerank read kron<S>.bin (uint32 pairs) as it is: the same edges as
    GAP's and wiregraph's;
  - runs a kernel under mpirun on this machine only (Open MPI's shared-memory
    and self transports, its runtime on loopback) and reads its times and the
    result line it prints for gap_compare's sanity check.

What Gemini measures (toolkits/*.cpp at commit 170e7d3): main() runs the
kernel 6 times on the loaded graph, each printing exec_time= (rank 0's
wall-clock seconds from the kernel's first vertex-array allocation to its last
superstep's all-reduce: no loading, no partitioning, no result gathering).
The first run is a warm-up and is dropped; the median of the other 5 is taken.
Each rank runs as many OpenMP threads as the machine has CPUs
(Graph::Graph() calls omp_set_num_threads(numa_num_configured_cpus()), which
overrides OMP_NUM_THREADS), and its work stealing waits for every one of
them, so a rank cannot be given fewer.
"""
import array
import os
import re
import signal
import statistics
import subprocess
from pathlib import Path

# wiregraph app -> (Gemini toolkit, graph, arguments after the file)
KERNELS = {
    "pagerank": ("pagerank", "bin", ["{vertices}", "20"]),
    "bfs": ("bfs", "bin", ["{vertices}", "{source}"]),
    "cc": ("cc", "bin", ["{vertices}"]),
    "sssp": ("sssp", "fwbin", ["{vertices}", "{source}"]),
    "bc": ("bc", "bin", ["{vertices}", "{source}"]),
}
RUNS = 6  # compute() once, then 5 more (every toolkit's main)
# Open MPI 4.1 (Debian) would also try UCX, libfabric and TCP on the
# machine's interfaces: ob1 over self + vader keeps messages in shared
# memory, and the runtime's own connections stay on loopback.
MPI_LOCAL = ["--bind-to", "none", "--mca", "pml", "ob1", "--mca", "btl", "self,vader",
             "--mca", "oob_tcp_if_include", "lo"]
# The return type of Graph::dealloc_vertex_array in the unpatched source:
# it returns nothing, and gcc 12 -O3 turns that into a crash after the first run.
UNPATCHED = "T * dealloc_vertex_array(T * array)"


class GeminiError(RuntimeError):
    pass


def threads_per_rank():
    """What Gemini gives each rank: numa_num_configured_cpus()."""
    return os.cpu_count() or 1


def parse_configs(spec):
    """'1x2,2x2' -> [(ranks, threads)]; a thread count Gemini cannot run is refused."""
    out = []
    t = threads_per_rank()
    for c in [x for x in spec.split(",") if x]:
        m = re.fullmatch(r"(\d+)x(\d+)", c)
        if not m or int(m.group(1)) < 1:
            raise ValueError("Gemini config %r: expected RANKSxTHREADS, e.g. 1x%d" % (c, t))
        if int(m.group(2)) != t:
            raise ValueError("Gemini config %r: each Gemini rank runs %d OpenMP threads here (one per CPU: "
                             "Graph::Graph() sets omp_set_num_threads(numa_num_configured_cpus()), overriding "
                             "OMP_NUM_THREADS), so only %sx%d configs can be run" % (c, t, m.group(1), t))
        out.append((int(m.group(1)), t))
    return out


def label(ranks, threads):
    return "Gemini %d rank%s x %d threads" % (ranks, "" if ranks == 1 else "s", threads)


def check_build(gemini_dir):
    """Why the Gemini directory cannot be used (empty when it can)."""
    d = Path(gemini_dir)
    problems = ["toolkits/%s missing" % b for b, _, _ in KERNELS.values() if not os.access(d / "toolkits" / b, os.X_OK)]
    try:
        if UNPATCHED in (d / "core" / "graph.hpp").read_text():
            problems.append("core/graph.hpp's dealloc_vertex_array returns T* without a return statement (gcc 12 "
                            "-O3 crashes after the first run): make it return void and rebuild")
    except OSError:
        problems.append("core/graph.hpp missing")
    if not any(os.access(Path(p) / "mpirun", os.X_OK) for p in os.environ.get("PATH", "").split(os.pathsep)):
        problems.append("mpirun not found (Debian: openmpi-bin)")
    return problems


def float_weights(wbin, out, chunk_edges=1 << 22):
    """wiregraph's uint32 (src, dst, weight) triples as Gemini's (uint32, uint32,
    float32) records, in file order; returns the edge count."""
    if array.array("I").itemsize != 4 or array.array("f").itemsize != 4:
        raise GeminiError("array('I') or array('f') is not 32-bit here")
    tmp = Path(str(out) + ".tmp")
    n = 0
    with open(wbin, "rb") as f, open(tmp, "wb") as g:
        while True:
            raw = f.read(12 * chunk_edges)
            if not raw:
                break
            if len(raw) % 12:
                raise GeminiError("%s: %d bytes is not a whole number of 12-byte triples" % (wbin, len(raw)))
            t = array.array("I")
            t.frombytes(raw)
            bits = array.array("I")
            bits.frombytes(array.array("f", t[2::3]).tobytes())
            t[2::3] = bits
            t.tofile(g)
            n += len(t) // 3
    tmp.rename(out)
    return n


def prepare_graphs(paths, log=print):
    """Adds Gemini's weighted file ("fwbin", next to "wbin") to gap_peer's paths."""
    fw = Path(paths["wbin"]).with_suffix(".fwbin")
    if not fw.exists() or fw.stat().st_mtime < Path(paths["wbin"]).stat().st_mtime:
        n = float_weights(paths["wbin"], fw)
        log("gemini: %s: %d directed edges, float weights" % (fw, n))
    return dict(paths, fwbin=fw)


EXEC_TIME = re.compile(r"^exec_time=([0-9.eE+-]+)\(s\)", re.M)
# the last result line each toolkit prints after a run (rank 0)
RESULT = {
    "bfs": re.compile(r"^found_vertices = (\d+)", re.M),
    "cc": re.compile(r"^components = (\d+)", re.M),
    "sssp": re.compile(r"^distance\[(\d+)\]=([0-9.eE+-]+)", re.M),
    "pagerank": re.compile(r"^pr\[(\d+)\]=([0-9.eE+-]+)", re.M),
    "bc": re.compile(r"^exec_time=", re.M),  # bc prints its first 20 vertices' figures: not compared
}


def command(gemini_dir, app, paths, vertices, ranks, source):
    binary, graph, extra = KERNELS[app]
    cmd = ["mpirun"] + (["--allow-run-as-root"] if os.geteuid() == 0 else []) + ["-np", str(ranks)] + MPI_LOCAL
    if ranks * threads_per_rank() > (os.cpu_count() or 1):
        # more busy threads than CPUs: Open MPI's own setting for an
        # oversubscribed node (it cannot see Gemini's OpenMP threads)
        cmd += ["--mca", "mpi_yield_when_idle", "1"]
    return cmd + [str(Path(gemini_dir) / "toolkits" / binary), str(paths[graph])] + \
        [a.format(vertices=vertices, source=source) for a in extra]


def run_kernel(gemini_dir, app, paths, vertices, ranks, source, timeout=900):
    """One Gemini process of `ranks` ranks: its 5 timed runs (warm-up
    dropped), their median, its result line and the command."""
    cmd = command(gemini_dir, app, paths, vertices, ranks, source)
    # its own process group, so that a hung job is ended whole (mpirun and its ranks)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        text, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise GeminiError("%s: no exit within %d s (killed)" % (" ".join(cmd), timeout))
    times = [float(x) for x in EXEC_TIME.findall(text)]
    if p.returncode != 0 or len(times) != RUNS:
        hint = " (a crash after the first run: see core/graph.hpp's dealloc_vertex_array)" \
            if len(times) == 1 and "Segmentation fault" in text else ""
        raise GeminiError("%s exited %d with %d of %d exec_time lines%s: %s" % (
            KERNELS[app][0], p.returncode, len(times), RUNS, hint, text.strip()[-300:]))
    found = RESULT[app].findall(text)
    return {"seconds": times[1:], "warmup_seconds": times[0], "median_seconds": statistics.median(times[1:]),
            "ranks": ranks, "threads": threads_per_rank(), "result": found[-1] if found else None,
            "command": " ".join(cmd)}


def wiregraph_digest(app, outdir):
    """From a wiregraph run's DIR/result-R.txt, the figure Gemini prints for
    the same app: bfs vertices reached, cc components, sssp the largest finite
    distance, pagerank the vertex of highest rank (with its rank)."""
    reached = 0
    labels = set()
    best = None
    for f in sorted(Path(outdir).glob("result-*.txt")):
        with open(f) as fh:
            for line in fh:
                v, x = line.split()
                if app == "cc":
                    labels.add(x)
                elif x != "inf":
                    reached += 1
                    val = float(x)
                    if best is None or val > best[1]:
                        best = (int(v), val)
    if app == "bfs":
        return {"reached": reached}
    if app == "cc":
        return {"components": len(labels)}
    if app == "sssp":
        return {"max_distance": best[1] if best else None}
    return {"top_vertex": best[0] if best else None, "top_rank": best[1] if best else None}


def compare(app, result, digest, gemini_vertices, wiregraph_vertices):
    """(agrees, sentence) for Gemini's result line against wiregraph's digest."""
    if result is None or digest is None:
        return None, "no result to compare"
    if app == "bc":
        return None, "bc: Gemini prints no figure wiregraph reports (its first 20 vertices' raw dependencies)"
    if app == "bfs":
        g, w = int(result), digest["reached"]
        return g == w, "bfs: Gemini found_vertices %d, wiregraph reached %d" % (g, w)
    if app == "cc":
        # Gemini labels every one of the vertices it was given; wiregraph's
        # vertex count is the file's largest id + 1, so isolated vertices
        # above it are components only to Gemini.
        extra = gemini_vertices - wiregraph_vertices
        g, w = int(result), digest["components"]
        return g == w + extra, "cc: Gemini components %d, wiregraph %d + %d isolated vertices past its last id" % (
            g, w, extra)
    if app == "sssp":
        g, w = float(result[1]), digest["max_distance"]
        return w is not None and g == w, "sssp: largest finite distance Gemini %g (vertex %s), wiregraph %s" % (
            g, result[0], w)
    # Gemini's ranks are GAP's times V, without the dangling spread
    # wiregraph adds: only the order is comparable
    g = int(result[0])
    return g == digest["top_vertex"], "pagerank: top vertex Gemini %d (rank %s, unnormalised), wiregraph %s (%.6g)" % (
        g, result[1], digest["top_vertex"], digest["top_rank"])
