"""Shared helpers of the Python benchmarks (bench/links.py, end_to_end.py,
report.py, checksum_cost.py, auth_cost.py, ...), which import it as
`from wiregraph import benchlib`.

Runs the real wiregraph binary through scripts/wiregraph-cluster, with
bench/wg_timed.py as the node binary so that each node's peak RSS is
recorded, and reads the nodes' DIR/node<R>.json reports.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from wiregraph.paths import BENCH_DIR, REPO_ROOT, SCRIPTS_DIR

ROOT = REPO_ROOT           # the checkout whose build/ the benchmarks run
LAUNCHER = SCRIPTS_DIR / "wiregraph-cluster"
WRAPPER = BENCH_DIR / "wg_timed.py"
WIRE_OVERHEAD = 24          # FCS + preamble + SFD + inter-frame gap (wire::kWireOverheadBytes)
RECORDS_PER_BUCKET = 177    # wire::kMaxRecords
# DPDK memory per mbuf with --no-huge: a 2.3 KiB mbuf may not cross a 4 KiB
# page, so each takes a page (measured: 262143 mbufs do not fit in -m 1024).
MBUF_BYTES = 4096
LINE_RATES = (10, 25, 40, 100)


def stat(values):
    """Median, min and max of a list (None entries skipped)."""
    v = [x for x in values if x is not None]
    if not v:
        return None
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}


def git_commit(path):
    """The short commit of a checkout (a peer's build directory), or None."""
    try:
        return subprocess.run(["git", "-C", str(path), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def loadavg():
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def kron_edges(spec, undirected=False):
    """Directed edge count of a kron:SCALE:DEGREE graph (None for files)."""
    m = re.match(r"kron:(\d+):(\d+)", spec)
    if not m:
        return None
    e = (1 << int(m.group(1))) * int(m.group(2))
    return 2 * e if undirected else e


def pool_for(spec, nodes, undirected):
    """(mbufs, DPDK MiB) for a node.

    Default: the engine's own pool (16383 mbufs). With WG_BENCH_BIG_POOL=1 the
    pool holds every remote bucket a worker may queue in one superstep (1.5x
    plus 4096): the workaround for binaries older than commit 83e19fa, in
    which the worker could take every mbuf while the memif receive path
    needed one to take in the acks that would free them (both nodes 'silent
    for 30 s' on kron:20:16 at P=2). Since the receive pool is separate
    (DataplaneOptions::rx_mbufs) that cannot happen, and a big pool only inflates the RSS
    (with --no-huge every mbuf takes a 4 KiB page)."""
    e = kron_edges(spec, undirected)
    mbufs = 16383
    if os.environ.get("WG_BENCH_BIG_POOL") == "1" and e is not None and nodes > 1:
        remote = e / nodes * (nodes - 1) / nodes / RECORDS_PER_BUCKET
        need = int(1.5 * remote) + 4096
        while mbufs < need:
            mbufs = mbufs * 2 + 1
    # the transmit pool plus the receive pool (8191 by default), a page each
    mem = ((mbufs + 8191) * MBUF_BYTES) // (1 << 20) + 128
    mem = max(256, (mem + 255) // 256 * 256)
    return mbufs, mem


def run_cluster(outdir, nodes, app_args, link="memif", lcores=1, mem_mb=256, memory="no-huge",
                timeout=600, binary=None, log=None, keep_results=False, launcher_flags=()):
    """Runs one job; returns a dict with the exit status, the nodes' JSON
    reports, their peak RSS, the edge count the nodes printed and the
    launcher's output. The per-vertex results (DIR/result-R.txt) are removed
    unless keep_results (a caller that checks them removes them itself)."""
    outdir = Path(outdir)
    if outdir.exists():
        shutil.rmtree(outdir)
    outdir.mkdir(parents=True)
    env = dict(os.environ)
    env["WG_BENCH_RSS_DIR"] = str(outdir)
    if binary:
        env["WG_BENCH_BINARY"] = str(binary)
    cmd = [str(LAUNCHER), "--nodes", str(nodes), "--link", link, "--lcores-per-node", str(lcores)]
    if mem_mb is not None:  # (None: the launcher sizes it from what the node says the job takes)
        cmd += ["--mem-mb", str(mem_mb)]
    cmd += ["--memory", memory, "--timeout", str(timeout), "--binary", str(WRAPPER)] + list(launcher_flags) + \
        ["--"] + list(app_args) + ["--quiet", "--out", str(outdir)]
    t0 = time.monotonic()
    load0 = loadavg()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    wall = time.monotonic() - t0
    (outdir / "launcher.log").write_text(" ".join(cmd) + "\n" + p.stdout)
    if log is not None:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
    meta = {"rc": p.returncode, "command": cmd, "wall_seconds": wall, "loadavg_start": load0,
            "loadavg_end": loadavg(), "nodes": nodes, "link": link if nodes > 1 else "none",
            "lcores": lcores, "mem_mb": mem_mb}
    (outdir / "run.json").write_text(json.dumps(meta) + "\n")
    res = read_run(outdir)
    if not keep_results:
        remove_results(outdir)
    return res


def remove_results(outdir):
    """Keeps a run directory small: the per-vertex results are not needed once read."""
    for f in Path(outdir).glob("result-*.txt"):
        f.unlink()


def read_run(outdir):
    """What run_cluster returns, from a run directory: run.json (or, for runs
    made before it existed, the exit status inferred from launcher.log), the
    launcher output, node<R>.json, summary.json and rss-<R>.txt."""
    outdir = Path(outdir)
    lines = (outdir / "launcher.log").read_text().split("\n", 1)
    text = lines[1] if len(lines) > 1 else ""
    try:
        meta = json.loads((outdir / "run.json").read_text())
    except (OSError, ValueError):
        cmd = lines[0].split()
        n = int(cmd[cmd.index("--nodes") + 1]) if "--nodes" in cmd else 1
        meta = {"rc": 0 if re.search(r"all \d+ node\(s\) exited 0", text) else 1, "command": cmd,
                "wall_seconds": None, "loadavg_start": None, "loadavg_end": None, "nodes": n,
                "link": cmd[cmd.index("--link") + 1] if "--link" in cmd and n > 1 else "none",
                "lcores": int(cmd[cmd.index("--lcores-per-node") + 1]) if "--lcores-per-node" in cmd else 1,
                "mem_mb": int(cmd[cmd.index("--mem-mb") + 1]) if "--mem-mb" in cmd else None}
    nodes = meta["nodes"]
    res = dict(meta)
    res.update({"node_json": [], "rss_kib": [], "edges": None, "vertices": None, "error": None})
    m = re.search(r"\[node 0\] graph: (\d+) vertices, (\d+) edges", text)
    if m:
        res["vertices"], res["edges"] = int(m.group(1)), int(m.group(2))
    for r in range(nodes):
        try:
            res["node_json"].append(json.loads((outdir / ("node%d.json" % r)).read_text()))
        except (OSError, ValueError):
            res["node_json"].append(None)
        try:
            res["rss_kib"].append(int((outdir / ("rss-%d.txt" % r)).read_text().split()[0]))
        except (OSError, ValueError, IndexError):
            res["rss_kib"].append(None)
    try:
        res["summary"] = json.loads((outdir / "summary.json").read_text())
    except (OSError, ValueError):
        res["summary"] = None
    if res["rc"] != 0:
        lines = text.splitlines()
        # The node's own words first (the launcher's lines that follow them
        # only say which node stopped, and how).
        said = [l for l in lines if "error:" in l][:2]
        errs = [l for l in lines if ("error" in l.lower() or "fail" in l.lower() or "SIG" in l) and l not in said]
        res["error"] = "; ".join(said + errs[-3:]) if said or errs else "exit status %d" % res["rc"]
    return res


def link_figures(node):
    """Send-side link figures of one node over all its supersteps that sent
    anything: frames/s, L1 Gbps, per-superstep peak."""
    steps = [s for s in node["supersteps"] if s["frames_sent"] > 0 and s["seconds"] > 0]
    if not steps:
        return None
    frames = sum(s["frames_sent"] for s in steps)
    byts = sum(s["bytes_sent"] for s in steps)
    secs = sum(s["seconds"] for s in steps)
    per_step = [(s["bytes_sent"] + WIRE_OVERHEAD * s["frames_sent"]) * 8e-9 / s["seconds"] for s in steps]
    fps_step = [s["frames_sent"] / s["seconds"] for s in steps]
    gbps = (byts + WIRE_OVERHEAD * frames) * 8e-9 / secs
    links = node.get("links") or [{}]
    return {"frames": frames, "bytes": byts, "seconds": secs, "frames_per_s": frames / secs,
            "gbps_l1": gbps, "peak_step_gbps_l1": max(per_step), "peak_step_frames_per_s": max(fps_step),
            "mean_frame_bytes": byts / frames,
            "pct_line_rate": {"%dGbE" % r: 100.0 * gbps / r for r in LINE_RATES},
            "retransmissions": sum(l.get("retransmissions", 0) for l in links),
            "timeouts": sum(l.get("timeouts", 0) for l in links),
            "rx_dropped": sum(node["rx"]["dropped"].values())}


def compare_settings(settings, args, out, title):
    """The end-to-end cost of node options: the same PageRank job (args.graph,
    args.nodes over args.link, args.iterations, --scatter args.scatter) under
    each of `settings` (a list of (name, extra node options)), the order
    rotating trial by trial (the machine is shared), through run_cluster.
    Only runs that exit 0 count (the launcher's check found every message
    accumulated). Prints per setting the median compute seconds (max over
    nodes, from nodeR.json) with min and max and the buckets sent, and each
    setting over the first per trial (median). Returns the figures."""
    names = [n for n, _ in settings]
    seconds = {n: [] for n in names}
    buckets, commands, loads = {}, {}, []
    for t in range(args.trials):
        order = settings[t % len(settings):] + settings[:t % len(settings)]
        for name, extra in order:
            app = ["--app", "pagerank", "--graph", args.graph, "--iterations", str(args.iterations),
                   "--scatter", args.scatter] + list(extra)
            r = run_cluster(Path(out) / ("%s-%d" % (name, t)), args.nodes, app, link=args.link,
                            mem_mb=args.mem_mb, timeout=600, binary=args.binary)
            if r["rc"] != 0 or None in r["node_json"]:
                raise SystemExit("failed (%s): %s" % (r["error"], " ".join(r["command"])))
            s = max(n["compute_seconds"] for n in r["node_json"])
            seconds[name].append(s)
            buckets[name] = sum(st["buckets_sent"] for n in r["node_json"] for st in n["supersteps"])
            commands[name] = " ".join(r["command"])
            loads.append(r["loadavg_start"])
            print("[%s] trial %d %s: %.3f s compute, load %.1f" % (title, t + 1, name, s, r["loadavg_start"] or -1),
                  file=sys.stderr, flush=True)
    first = names[0]
    ratios = {n: [x / y for x, y in zip(seconds[n], seconds[first])] for n in names[1:]}
    print("PageRank %s, P=%d over %s, %d iterations, --scatter %s; %d trials, order rotating; load average %s\n"
          % (args.graph, args.nodes, args.link, args.iterations, args.scatter, args.trials,
             "%.1f-%.1f" % (min(l for l in loads if l is not None), max(l for l in loads if l is not None))
             if any(l is not None for l in loads) else "?"))
    print("| setting | node options | compute s, median (min-max) | buckets sent |\n|---|---|--:|--:|")
    for name, extra in settings:
        v = seconds[name]
        print("| %s | %s | %.3f (%.3f-%.3f) | %d |" % (name, " ".join(extra) or "(defaults)", statistics.median(v),
                                                     min(v), max(v), buckets[name]))
    for n, rs in ratios.items():
        print("\n%s / %s per trial: median %.3f (%s)" % (n, first, statistics.median(rs),
                                                        ", ".join("%.3f" % x for x in rs)))
    return {"settings": [{"name": n, "options": list(e)} for n, e in settings], "seconds": seconds,
            "buckets": buckets, "ratios": ratios, "commands": commands, "loadavg": loads}


def setting_cost_main(doc, settings, default_graph):
    """The command line of checksum_cost.py and auth_cost.py."""
    import argparse
    import tempfile
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=doc)
    p.add_argument("--graph", default=default_graph)
    p.add_argument("--nodes", type=int, default=2)
    p.add_argument("--link", default="memif")
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--scatter", default="sparse", choices=("sparse", "auto", "dense"))
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--mem-mb", type=int, default=512)
    p.add_argument("--binary", default=None, help="the node binary (default: the build's)")
    p.add_argument("--json", default=None)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="wg-cost-") as tmp:
        res = compare_settings(settings, args, tmp, Path(sys.argv[0]).stem)
    if args.json:
        res["argv"] = sys.argv
        Path(args.json).write_text(json.dumps(res, indent=2) + "\n")
    return 0
