#!/usr/bin/env python3
"""Bytes per edge and load time next to GAP's, on GAP's own Kronecker graphs.

For each scale S, GAP's converter writes kron<S>.sg (what GAP's kernels
read) and the same edges as text (kron<S>.el, GAP's edge list) and as
wiregraph's binary pairs (kron<S>.bin): bench/gap_peer.py. Then, PageRank at
P = 2 over memif (the launcher's defaults otherwise, 20 iterations):

  - from the text file, from the binary file (saving a snapshot), and from
    that snapshot (`--graph snapshot:DIR`): each node's load seconds (the
    slower node's) and, from the binary run, each node's peak: its resident
    memory plus the hugepages it holds (node<R>.json peak_rss_bytes +
    hugepage_bytes, the node's own accounting);
  - the fixed cost per node: the same peak for kron:8:4 (EAL, pools, rings,
    the process), so that a node's graph-proportional bytes per edge are
    (peak - fixed) / edges the node holds, and the nodes together
    (sum of peaks - P x fixed) / directed edges;
  - GAP's `pr_spmv` on kron<S>.sg (2 threads, 20 iterations, one trial):
    its "Read Time" and its peak RSS (GNU time's wait4), against the directed edges
    the file holds (GAP's kron is symmetric: both directions are stored),
    its fixed cost from GAP's own kron8 (`-g 8`).

  bench/bytes_per_edge.py --gap GAP_DIR [--scales 20,22,24] [--graphs-dir DIR]
                          [--out DIR] [--json FILE] [--quick]

The graphs are cached (default /tmp/wiregraph-gap-graphs, shared with
bench/gap_compare.py; kron24's text is 9 GB and is kept). No thresholds: the report
(bench/report.py) prints the table.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gap_peer  # noqa: E402
from wiregraph import benchlib  # noqa: E402

NODES = 2
GNU_TIME = "/usr/bin/time"  # Debian's package "time"
READ_TIME = re.compile(r"^Read Time:\s+([0-9.eE+-]+)", re.M)


def node_peaks(res):
    """Every node's peak bytes: resident memory plus the hugepages it holds."""
    return [n["peak_rss_bytes"] + n.get("hugepage_bytes", 0) for n in res["node_json"]]


def held_edges(res):
    return [n["load"]["local_edges"] for n in res["node_json"]]


def load_seconds(res):
    return max(n["load_seconds"] for n in res["node_json"])


def run_wiregraph(out, graph, extra, log):
    args = ["--app", "pagerank", "--graph", str(graph)] + extra
    res = benchlib.run_cluster(out, NODES, args, memory="auto", mem_mb=None, timeout=3000, log=log)
    if res["rc"] != 0:
        raise RuntimeError("wiregraph %s failed: %s" % (" ".join(args), res["error"]))
    return res


def run_gap(gap_dir, graph_args, log):
    """GAP's pr_spmv in one process: its Read Time and peak RSS (bytes).

    The peak comes from GNU time's wait4 on its own child: a process this
    script started directly would carry this script's own peak (Linux keeps a
    process's largest resident set across fork and exec, and Python spawns by
    vfork), and this script holds every run's results."""
    rss_file = Path(tempfile.mkstemp(prefix="wg-gap-rss-")[1])
    cmd = [str(Path(gap_dir) / "pr_spmv")] + graph_args + ["-n", "1", "-i", "20", "-t", "0"]
    log.write("$ OMP_NUM_THREADS=2 " + " ".join(cmd) + "\n")
    log.flush()
    env = dict(os.environ, OMP_NUM_THREADS="2")
    p = subprocess.run([GNU_TIME, "-f", "%M", "-o", str(rss_file)] + cmd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError("%s failed: %s" % (cmd[0], p.stdout[-300:]))
    peak_kib = int(rss_file.read_text().split()[-1])
    rss_file.unlink()
    found = READ_TIME.findall(p.stdout)
    return {"read_seconds": float(found[-1]) if found else None, "peak_bytes": peak_kib * 1024,
            "command": "OMP_NUM_THREADS=2 " + " ".join(cmd)}


def text_edges(gap_dir, paths, scale, cache, log):
    """GAP's edge list of kron<scale>.sg (one "u v" line per directed edge)."""
    el = Path(cache) / ("kron%d.el" % scale)
    if not el.exists():
        tmp = Path(cache) / ("tmp-kron%d.el" % scale)
        gap_peer._run([Path(gap_dir) / "converter", "-f", paths["sg"], "-e", tmp], lambda s: log.write(s + "\n"))
        tmp.rename(el)
    return el


def measure_scale(gap_dir, scale, cache, out, fixed, gap_fixed, log):
    paths = gap_peer.prepare_graphs(gap_dir, scale, cache, log=lambda s: log.write(s + "\n"), weighted_too=False,
                                    keep_text=True)
    el = text_edges(gap_dir, paths, scale, cache, log)
    snap = out / ("snapshot%d" % scale)
    shutil.rmtree(snap, ignore_errors=True)
    # GAP numbers every id below 2^S a vertex, isolated ones too; --ids dense
    # keeps that vertex set. Under the default --ids auto these files read as
    # sparse (about a third of the ids name no edge), which maps the ids
    # while loading: its cost is the "auto" column.
    binary = run_wiregraph(out / ("bin%d" % scale), paths["bin"], ["--ids", "dense", "--save-snapshot", str(snap)], log)
    auto = run_wiregraph(out / ("auto%d" % scale), paths["bin"], [], log)
    text = run_wiregraph(out / ("text%d" % scale), el, ["--ids", "dense"], log)
    snapshot = run_wiregraph(out / ("snap%d" % scale), "snapshot:%s" % snap, [], log)
    snapshot_bytes = sum(f.stat().st_size for f in snap.iterdir())
    shutil.rmtree(snap, ignore_errors=True)
    gap = run_gap(gap_dir, ["-f", str(paths["sg"])], log)
    edges = binary["edges"]
    peaks, held = node_peaks(binary), held_edges(binary)
    per_node = [(p - fixed) / h for p, h in zip(peaks, held)]
    return {
        "scale": scale,
        "edges": edges,
        "vertices": binary["vertices"],
        "files": {"sg_bytes": paths["sg"].stat().st_size, "bin_bytes": paths["bin"].stat().st_size,
                  "el_bytes": el.stat().st_size, "snapshot_bytes": snapshot_bytes},
        "wiregraph": {
            "peak_bytes": peaks,
            "held_edges": held,
            "bytes_per_edge_per_node": per_node,
            "bytes_per_edge": (sum(peaks) - NODES * fixed) / edges,
            "total_bytes": sum(peaks),
            "estimate_bytes": [n["memory_estimate"]["total"] for n in binary["node_json"]],
            "ids_auto": {"ids": auto["node_json"][0]["config"]["ids_chosen"], "peak_bytes": node_peaks(auto),
                         "bytes_per_edge": (sum(node_peaks(auto)) - NODES * fixed) / edges,
                         "load_seconds": load_seconds(auto)},
            "load_seconds": {"text": load_seconds(text), "binary": load_seconds(binary),
                             "snapshot": load_seconds(snapshot)},
            "load_phases": {k: r["node_json"][0]["load"]["seconds"] for k, r in
                            (("text", text), ("binary", binary), ("snapshot", snapshot))},
            "compute_seconds": binary["node_json"][0]["compute_seconds"],
            "command": " ".join(binary["command"]),
        },
        "gap": dict(gap, bytes_per_edge=(gap["peak_bytes"] - gap_fixed) / edges, total_bytes=gap["peak_bytes"]),
    }


def markdown(results):
    """The report's table (bench/report.py), one row per scale."""
    fixed = max(results["fixed_bytes_per_node"])
    md = ["PageRank (20 iterations) at P=%d over memif on GAP's own kron graphs (GAP's converter: `.sg` for GAP, "
          "the same edges as text `.el` and binary `.bin` for wiregraph), commit %s. A node's peak is its resident "
          "memory plus the hugepages it holds (node<R>.json); the fixed cost per node is that peak on kron:8:4 "
          "(%.0f MB: EAL, pools, rings, the process). Graph-proportional bytes per edge: (the nodes' peaks - P x "
          "fixed) / directed edges, under `--ids dense` (GAP's vertex set: every id below 2^S, isolated ones too); "
          "under the default `--ids auto` these files read as sparse ids, mapped while loading: its figure is the "
          "\"--ids auto\" column. GAP's: `pr_spmv`'s peak RSS (GNU time) less its own on `-g 8` (%.1f MB), over "
          "the same directed edges. Load: the slower node's load_seconds (`--ids dense`); GAP's: its \"Read Time\" "
          "of the `.sg`.\n"
          % (results["nodes"], results["commit"], fixed / 1e6, results["gap_fixed_bytes"] / 1e6),
          "| graph | directed edges | wiregraph B/edge | --ids auto | fixed per node | nodes together | GAP B/edge "
          "| GAP whole | load from text | from binary | from snapshot | GAP .sg read |",
          "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |"]
    for r in results["scales"]:
        w, g = r["wiregraph"], r["gap"]
        md.append("| kron%d | %d | %.2f | %.2f | %.0f MB | %.2f GB | %.2f | %.2f GB | %.2f s (%.0f MB) "
                  "| %.2f s (%.0f MB) | %.3f s (%.0f MB) | %.3f s (%.0f MB) |" % (
                      r["scale"], r["edges"], w["bytes_per_edge"], w["ids_auto"]["bytes_per_edge"], fixed / 1e6,
                      w["total_bytes"] / 1e9,
                      g["bytes_per_edge"], g["total_bytes"] / 1e9,
                      w["load_seconds"]["text"], r["files"]["el_bytes"] / 1e6,
                      w["load_seconds"]["binary"], r["files"]["bin_bytes"] / 1e6,
                      w["load_seconds"]["snapshot"], r["files"]["snapshot_bytes"] / 1e6,
                      g["read_seconds"], r["files"]["sg_bytes"] / 1e6))
    md.append("")
    md.append("Per node (the binary run): peak MB, edges held, graph-proportional bytes per held edge, the node's "
              "estimate over its peak; load phases (read / parse / shuffle / build / wait s) by input:\n")
    md.append("| graph | node | peak MB | edges held | B/edge | estimate / peak | text | binary | snapshot |")
    md.append("| --- | --: | --: | --: | --: | --: | --- | --- | --- |")
    for r in results["scales"]:
        w = r["wiregraph"]
        phases = ["%.2f / %.2f / %.2f / %.2f / %.2f" % tuple(w["load_phases"][k].get(p, 0.0) for p in
                                                         ("read", "parse", "shuffle", "build", "wait"))
                  for k in ("text", "binary", "snapshot")]
        for n, (peak, held, bpe, est) in enumerate(zip(w["peak_bytes"], w["held_edges"],
                                                       w["bytes_per_edge_per_node"], w["estimate_bytes"])):
            md.append("| kron%d | %d | %.0f | %d | %.2f | %.2f | %s |" % (
                r["scale"], n, peak / 1e6, held, bpe, est / peak, " | ".join(phases if n == 0 else ["", "", ""])))
    md.append("")
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gap", default=os.environ.get("GAP_DIR"), help="a GAP build (default $GAP_DIR)")
    ap.add_argument("--scales", default="20,22,24")
    ap.add_argument("--graphs-dir", default="/tmp/wiregraph-gap-graphs",
                    help="where GAP's graphs are cached (bench/gap_compare.py's default too)")
    ap.add_argument("--out", default="/tmp/wiregraph-bench/runs/bytes")
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true", help="scale 14 only")
    o = ap.parse_args()
    if not o.gap:
        ap.error("needs --gap DIR (a GAP build: github.com/sbeamer/gapbs, built by hand outside this repository)")
    if not os.access(GNU_TIME, os.X_OK):
        ap.error("needs GNU time (%s: apt-get install time) to measure GAP's peak" % GNU_TIME)
    missing = gap_peer.check_build(o.gap)
    if missing:
        ap.error("%s lacks %s (run make there)" % (o.gap, ", ".join(missing)))
    scales = [14] if o.quick else [int(s) for s in o.scales.split(",")]
    out = Path(o.out)
    out.mkdir(parents=True, exist_ok=True)
    log = open(out / "commands.log", "w")
    t0 = time.monotonic()
    tiny = run_wiregraph(out / "fixed", "kron:8:4", [], log)
    fixed_peaks = node_peaks(tiny)
    fixed = max(fixed_peaks)
    gap_fixed = run_gap(o.gap, ["-g", "8"], log)["peak_bytes"]
    results = {"nodes": NODES, "fixed_bytes_per_node": fixed_peaks, "gap_fixed_bytes": gap_fixed,
               "commit": benchlib.git_commit(benchlib.ROOT), "scales": []}
    for s in scales:
        r = measure_scale(o.gap, s, o.graphs_dir, out, fixed, gap_fixed, log)
        results["scales"].append(r)
        w, g = r["wiregraph"], r["gap"]
        print("kron%d: %d edges; wiregraph %.2f B/edge (+ %.0f MB fixed per node), %.2f GB together; "
              "GAP %.2f B/edge, %.2f GB; load text %.2f s, binary %.2f s, snapshot %.3f s; GAP .sg read %.3f s"
              % (s, r["edges"], w["bytes_per_edge"], fixed / 1e6, w["total_bytes"] / 1e9, g["bytes_per_edge"],
                 g["total_bytes"] / 1e9, w["load_seconds"]["text"], w["load_seconds"]["binary"],
                 w["load_seconds"]["snapshot"], g["read_seconds"]), flush=True)
    results["seconds"] = time.monotonic() - t0
    text = json.dumps(results, indent=1) + "\n"
    (out / "bytes_per_edge.json").write_text(text)
    if o.json:
        Path(o.json).write_text(text)


if __name__ == "__main__":
    main()
