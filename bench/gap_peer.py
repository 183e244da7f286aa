"""GAP's own binaries as the in-run baseline (bench/gap_compare.py).

GAP (github.com/sbeamer/gapbs) is built by hand outside this repository
(`make` in a checkout; nothing of it is vendored or built from here). Given
its directory, this module

  - writes GAP's Kronecker graphs with GAP's own converter: kron<S>.sg and
    kron<S>.wsg (serialized, what GAP's kernels read), then the same graphs
    as edge lists (`converter -f kron<S>.sg -e ...`, so the edges are the
    serialized graph's by construction) turned into wiregraph's binary
    formats kron<S>.bin (uint32 pairs) and kron<S>.wbin (uint32 triples);
  - runs GAP's kernels (bfs, cc, sssp, pr_spmv) and reads their
    "Trial Time" lines.

The graphs are cached in a directory of their own (never the source tree)
and rebuilt when one of them is missing.
"""
import array
import os
import re
import statistics
import subprocess
from pathlib import Path

# wiregraph app -> (GAP binary, graph suffix, extra arguments). GAP's own
# benchmark settings for kron (benchmark/bench.mk): sssp with delta 2;
# pr_spmv with tolerance 0 runs every one of its 20 iterations, the same
# Jacobi iteration as wiregraph's PageRank.
KERNELS = {
    "bfs": ("bfs", "sg", ["-r", "{source}"]),
    "cc": ("cc", "sg", []),
    "sssp": ("sssp", "wsg", ["-r", "{source}", "-d", "2"]),
    "pagerank": ("pr_spmv", "sg", ["-i", "20", "-t", "0"]),
    "tc": ("tc", "sg", ["-a"]),  # -a: print the total after the trials
    "lcc": ("tc", "sg", []),  # per-vertex coefficients cost the intersections of the total
    "bc": ("bc", "sg", ["-i", "1", "-r", "{source}"]),
}
BINARIES = ("converter", "bfs", "cc", "sssp", "pr_spmv", "tc", "bc")
TRIANGLES = re.compile(r"^(\d+) triangles$", re.M)


class GapError(RuntimeError):
    pass


def check_build(gap_dir):
    """The GAP directory's missing binaries (empty when it is usable)."""
    d = Path(gap_dir)
    return [b for b in BINARIES if not os.access(d / b, os.X_OK)]


def _run(cmd, log):
    log("$ " + " ".join(str(c) for c in cmd))
    p = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise GapError("%s exited %d: %s" % (cmd[0], p.returncode, p.stdout.strip()[-400:]))
    return p.stdout


def el_to_binary(el_path, out_path):
    """A text edge list (2 or 3 integer columns) as little-endian uint32s, in
    file order: pairs (wiregraph's .bin) or triples (.wbin)."""
    values = array.array("I")
    with open(el_path, "rb") as f:
        while True:
            lines = f.readlines(1 << 26)
            if not lines:
                break
            values.extend(map(int, b"".join(lines).split()))
    if values.itemsize != 4:
        raise GapError("array('I') is not 32-bit here")
    tmp = Path(str(out_path) + ".tmp")
    with open(tmp, "wb") as f:
        values.tofile(f)
    tmp.rename(out_path)
    return len(values)


def prepare_graphs(gap_dir, scale, cache_dir, log=print, weighted_too=True, keep_text=False):
    """Paths of GAP's kron<scale> graphs, written by GAP's converter into
    cache_dir when missing: {"sg", "wsg", "bin", "wbin"} ("sg" and "bin"
    only unless weighted_too: at scale 24 the weighted pair costs 11 GB of
    text on the way). keep_text: the unweighted text the binary is made from
    stays as kron<scale>.el (bench/bytes_per_edge.py reads it)."""
    cache = Path(cache_dir)
    cache.mkdir(parents=True, exist_ok=True)
    conv = Path(gap_dir) / "converter"
    kinds = ("sg", "wsg", "bin", "wbin") if weighted_too else ("sg", "bin")
    paths = {k: cache / ("kron%d.%s" % (scale, k)) for k in kinds}
    for weighted in (False, True) if weighted_too else (False,):
        sg, out = (paths["wsg"], paths["wbin"]) if weighted else (paths["sg"], paths["bin"])
        w = ["-w"] if weighted else []
        if not sg.exists():
            tmp = cache / ("tmp-" + sg.name)
            _run([conv, "-g", str(scale)] + w + ["-b", tmp], log)
            tmp.rename(sg)
            if out.exists():
                out.unlink()
        if not out.exists():
            el = cache / ("kron%d.%s" % (scale, "wel" if weighted else "el"))
            _run([conv, "-f", sg] + w + ["-e", el], log)
            n = el_to_binary(el, out)
            if weighted or not keep_text:
                el.unlink()
            log("gap: %s: %d directed edges" % (out, n // (3 if weighted else 2)))
    return paths


TRIAL = re.compile(r"^Trial Time:\s+([0-9.eE+-]+)", re.M)


def run_kernel(gap_dir, app, paths, threads, trials, source, log=print):
    """GAP's kernel for `app` in one process, `trials` trials: their seconds
    (GAP's "Trial Time": the kernel alone, no loading) and the command."""
    binary, suffix, extra = KERNELS[app]
    cmd = [str(Path(gap_dir) / binary), "-f", str(paths[suffix]), "-n", str(trials)] + \
        [a.format(source=source) for a in extra]
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    times = [float(x) for x in TRIAL.findall(p.stdout)]
    if p.returncode != 0 or len(times) != trials:
        raise GapError("%s exited %d with %d trial times: %s" % (binary, p.returncode, len(times),
                                                                p.stdout.strip()[-300:]))
    found = TRIANGLES.findall(p.stdout)
    return {"seconds": times, "median_seconds": statistics.median(times), "threads": threads,
            "triangles": int(found[-1]) if found else None,
            "command": "OMP_NUM_THREADS=%d %s" % (threads, " ".join(cmd))}
