#!/usr/bin/env python3
"""A scaling model of wiregraph's superstep (issue #30), checked against runs on this machine.

From per-lcore rates measured here (generation per worker lcore, the sender's
work per frame, receive + fold per accumulator lcore, the MAC per frame, apply
per vertex) and a graph's cut (records that cross nodes at P), it predicts the
superstep time and link utilisation of P nodes x L lcores at 10/40/100 GbE and
says which resource binds. docs/SCALING.md explains the model; this script is
the whole of it.

  measure   run the microbenchmarks (bench_generation, bench_rx_scaling,
            bench_mac) and the PageRank runs (P = 1, 2, 4, 8, 16 over memif,
            --trials each, order rotating), write everything to --json, print
            the check table (model vs measured) and the predictions
  predict   the same tables from a JSON written by measure (--rates FILE):
            nothing is run, so docs/SCALING.md's tables come back from one
            command: bench/scaling_model.py predict --rates FILE

Python 3 standard library only; the runs go through wiregraph.benchlib (python/wiregraph/benchlib.py).
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import shutil
import tempfile
import time
from pathlib import Path

from wiregraph import benchlib

BUILD = None  # the binaries' directory: a snapshot of --build's, taken when measure starts
BINARIES = ("apps/wiregraph", "bench/bench_generation", "bench/bench_rx_scaling", "bench/bench_mac")
# Wire format (dataplane/wire.h): records start at frame offset 96 (Ethernet,
# IPv4, UDP, the 54-byte header), 177 records of 8 bytes fill a 1500-byte MTU
# bucket; every frame costs 24 more bytes on the wire (FCS, preamble, gap).
HEADER_BYTES = 96
RECORD_BYTES = 8
RECORDS_PER_BUCKET = benchlib.RECORDS_PER_BUCKET
FULL_FRAME_WIRE = HEADER_BYTES + RECORD_BYTES * RECORDS_PER_BUCKET + benchlib.WIRE_OVERHEAD
LINKS_GBE = (10, 40, 100)
# Graphs of the extrapolations (vertices, directed edges), as BlitzG's Table 1 /
# the Gemini paper give them (../shared/papers/DIGEST.md).
GRAPHS = {
    "twitter-2010": (41_652_230, 1_468_365_182),
    "uk-2007-05": (105_896_555, 3_738_733_648),
}
BLITZG_ROLES = (6, 4, 6)  # workers, senders, accumulators: BlitzG's 16 threads (section 6.2)


# ---------------------------------------------------------------- measuring

def run_json(cmd, json_path):
    """Runs one microbenchmark that writes --json; returns the parsed JSON."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(map(str, cmd)), p.stdout[-2000:]))
    return json.loads(Path(json_path).read_text())


def eal(prefix, vdev, mem):
    return ["--no-pci", "--vdev", vdev, "-l", "0", "--no-huge", "-m", str(mem),
            "--log-level", "lib.eal:error", "--file-prefix", prefix]


def variant(gen, name):
    return next(v for v in gen["variants"] if v["name"] == name)


def measure_generation(graph, nodes, trials, tmp):
    """Per-record costs of one worker lcore at node 0 of a `nodes`-node
    partition of `graph` (bench_generation, per CPU second: the machine is shared)."""
    out = Path(tmp) / ("gen-%d.json" % nodes)
    g = run_json([BUILD / "bench" / "bench_generation"] + eal("scm-g%d" % nodes, "net_null0,no-rx=1", 1024)
                 + ["--", "--graph", graph, "--nodes", str(nodes), "--trials", str(trials), "--warmup", "1",
                    "--json", out], out)
    bare, rel = variant(g, "no reliability"), variant(g, "with reliability")
    t_bare = bare["cpu"]["seconds"]["median"]
    t_rel = rel["cpu"]["seconds"]["median"]
    recs = bare["records_per_superstep"]
    frames = bare["frames_per_superstep"]
    return {
        "nodes": nodes, "graph": graph, "records": recs, "local_records": bare["local_records_per_superstep"],
        "frames": frames, "local_vertices": g["local_vertices"], "records_per_run": g["records_per_run"],
        # a worker alone (remote buckets straight to the port): the workers' rate on a real node
        "worker_ns_per_record": 1e9 * t_bare / recs,
        # worker + sender + acks on one lcore (--roles shared): the 1-lcore nodes of the check
        "shared_ns_per_record": 1e9 * t_rel / recs,
        # what the transport adds per remote frame: a sender lcore's work on a real node
        "sender_ns_per_frame": 1e9 * max(t_rel - t_bare, 0.0) / frames,
        "write_bytes_per_cpu_s": g["baseline"]["bytes_per_cpu_s"]["median"],
        "loadavg": g["loadavg_start"],
    }


def measure_receive(sigma_log2, trials, tmp):
    """Records per CPU second of one accumulator lcore folding a 2^sigma_log2
    slice of Σ through Transport::receive_step, random order (bench_rx_scaling, A = 1)."""
    out = Path(tmp) / ("rx-%d.json" % sigma_log2)
    r = run_json([BUILD / "bench" / "bench_rx_scaling"] + eal("scm-r%d" % sigma_log2, "net_ring0", 1024)
                 + ["--", "--sigma-log2", str(sigma_log2), "--records-log2", "22", "--accumulators", "1",
                    "--order", "random", "--trials", str(trials), "--warmup", "1", "--json", out], out)
    rate = r["results"][0]["records_per_cpu_s"]["median"]
    return {"sigma_log2": sigma_log2, "records_per_cpu_s": rate, "ns_per_record": 1e9 / rate,
            "loadavg": r["loadavg_start"]}


def measure_mac(trials, tmp):
    """ns per MTU-1500 data frame and per ACK frame of the transport's own seal (frame_mac)."""
    out = Path(tmp) / "mac.json"
    m = run_json([BUILD / "bench" / "bench_mac", "--trials", str(trials), "--json", out], out)

    def ns(what):
        size = next(s for s in m["sizes"] if s["what"].startswith(what))
        return next(c["ns_per_bucket"] for c in size["candidates"] if c["name"] == "frame_mac")
    return {"data_frame_ns": ns("full bucket, MTU 1500"), "ack_frame_ns": ns("ACK frame")}


def node_figures(node):
    """One node's per-run sums from its nodeR.json."""
    st = node["supersteps"]
    s = lambda k: sum(x[k] for x in st)  # noqa: E731
    roles = {k: sum(x["role_seconds"][k] for x in st) for k in ("apply", "scatter", "network", "wait")}
    return {"supersteps": len(st), "active": s("active"), "sent": s("messages_sent"), "local": s("messages_local"),
            "accumulated": s("messages_accumulated"), "buckets": s("buckets_sent"), "frames": s("frames_sent"),
            "bytes": s("bytes_sent"), "compute_seconds": node["compute_seconds"],
            "cpu_seconds": node["compute_cpu_seconds"], "roles": roles}


def run_pagerank(p, graph, trial, tmp, mem_mb, failures, attempts=3):
    """One PageRank run (sparse: one record per edge, as BlitzG) at P=p over
    memif. A failed run (on a loaded 2-CPU machine a node can be starved until
    its peers give it up) is recorded in `failures` and tried again."""
    app = ["--app", "pagerank", "--graph", graph, "--scatter", "sparse"]
    for attempt in range(attempts):
        r = benchlib.run_cluster(Path(tmp) / ("run-p%d-%d" % (p, trial)), p, app, mem_mb=mem_mb, timeout=900)
        if r["rc"] == 0 and None not in r["node_json"]:
            return {"nodes": p, "trial": trial, "command": " ".join(r["command"]), "wall_seconds": r["wall_seconds"],
                    "loadavg_start": r["loadavg_start"], "loadavg_end": r["loadavg_end"],
                    "node": [node_figures(n) for n in r["node_json"]]}
        failures.append({"nodes": p, "trial": trial, "attempt": attempt, "error": r["error"],
                         "loadavg_start": r["loadavg_start"]})
        log("run P=%d trial %d failed (%s); trying again" % (p, trial + 1, r["error"]))
    raise SystemExit("P=%d failed %d times: %s" % (p, attempts, failures[-1]["error"]))


def measure(args):
    """Everything the model needs, measured now; returns the JSON document."""
    ps = [int(x) for x in args.nodes.split(",")]
    gen_ps = sorted(set(ps + [int(x) for x in args.gen_nodes.split(",")]) - {1})
    doc = {"argv": sys.argv, "cpus": os.cpu_count(), "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
           "graph": args.graph, "loadavg_start": benchlib.loadavg(), "binaries": source_state(args.build)}
    with tempfile.TemporaryDirectory(prefix="wg-scaling-") as tmp:
        snapshot(args.build, tmp)
        log("microbenchmarks: generation at P = %s" % gen_ps)
        doc["generation"] = [measure_generation(args.graph, p, args.bench_trials, tmp) for p in gen_ps]
        sig = range(args.sigma_min, args.sigma_max + 1)
        log("microbenchmarks: receive at Σ = 2^%d..2^%d, MAC" % (args.sigma_min, args.sigma_max))
        doc["receive"] = [measure_receive(s, args.bench_trials, tmp) for s in sig]
        doc["mac"] = measure_mac(max(args.bench_trials, 9), tmp)
        runs = doc["runs"] = []
        doc["failed_runs"] = []
        for t in range(args.trials):
            order = ps[t % len(ps):] + ps[:t % len(ps)]  # rotate: load from other work hits every P alike
            for p in order:
                mem = args.mem_mb if p < 16 else max(args.mem_mb, 320)
                runs.append(run_pagerank(p, args.graph, t, tmp, mem, doc["failed_runs"]))
                n0 = runs[-1]["node"]
                log("run P=%d trial %d: compute %.3f s (max node), load %.1f"
                    % (p, t + 1, max(n["compute_seconds"] for n in n0), runs[-1]["loadavg_start"] or -1))
    doc["loadavg_end"] = benchlib.loadavg()
    doc.update(p1_rates(runs))
    return doc


def snapshot(build, tmp):
    """Copies the binaries: the build tree may be rebuilt by other work on the
    machine while this runs, and every figure must come from the same build."""
    global BUILD
    BUILD = Path(tmp) / "bin"
    for b in BINARIES:
        (BUILD / b).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(Path(build) / b, BUILD / b)
    os.environ["WG_BENCH_BINARY"] = str(BUILD / "apps" / "wiregraph")  # what bench/wg_timed.py runs


def source_state(build):
    """Commit and uncommitted files of the checkout the build directory belongs to."""
    src = Path(build).resolve().parent
    git = lambda *a: subprocess.run(["git", "-C", str(src)] + list(a), capture_output=True,  # noqa: E731
                                    text=True).stdout.strip()
    return {"build": str(Path(build).resolve()), "commit": git("rev-parse", "HEAD"),
            "uncommitted": git("status", "--porcelain", "--untracked-files=no").splitlines()}


def log(msg):
    print("[scaling_model] " + msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the rates

def p1_rates(runs):
    """From the P=1 runs (one lcore, no network), medians: apply per vertex
    ('apply' lcore-seconds / vertices applied) and a record that stays on its
    node ('scatter' lcore-seconds / records: written and folded by the worker
    itself, no bucket, no transport). Role seconds are wall-clock; scaled by
    the CPU the process got (CPU / compute seconds) they become per CPU
    second, as the microbenchmarks' rates are: the machine is shared."""
    p1 = [r["node"][0] for r in runs if r["nodes"] == 1]
    if not p1:
        raise SystemExit("the model needs a P=1 run (--nodes 1,...)")
    got = lambda n: min(1.0, n["cpu_seconds"] / n["compute_seconds"])  # noqa: E731
    return {"apply_ns_per_vertex": statistics.median(1e9 * n["roles"]["apply"] * got(n) / n["active"] for n in p1),
            "local_ns_per_record": statistics.median(1e9 * n["roles"]["scatter"] * got(n) / n["sent"] for n in p1)}


def nearest(items, key, want):
    """The measured item whose `key` is nearest `want` on a log scale."""
    return min(items, key=lambda it: abs(math.log2(it[key]) - math.log2(want)))


def gen_at(rates, p):
    return nearest(rates["generation"], "nodes", max(p, 2))


def rx_at(rates, slice_entries):
    """Receive rate measured at the Σ slice nearest one accumulator lcore's."""
    return nearest(rates["receive"], "sigma_log2", max(math.log2(max(slice_entries, 2)), 1))


# ---------------------------------------------------------------- the model on this machine

def node_work(rates, run, r):
    """Seconds of CPU node r of a run needs, from the run's own counts (the
    measured cut: its remote records) and the per-lcore rates. On one lcore
    (--roles shared) a node does everything itself: apply, its same-node
    records (written and folded at once), scatter of remote records with the
    sender's work, receive + fold of the records other nodes sent it, the MAC
    of every frame in and out, and memif's two copies of every frame (link
    emulation: a NIC does these by DMA)."""
    p = run["nodes"]
    nodes = run["node"]
    me = nodes[r]
    g = gen_at(rates, p)
    rx = rx_at(rates, rates["graph_vertices"] / p)
    mac = rates["mac"]
    remote_out_all = sum(n["sent"] - n["local"] for n in nodes)
    remote_in = me["accumulated"] - me["local"]
    # frames in: the cluster's buckets in proportion to the remote records this node took
    frames_in = sum(n["buckets"] for n in nodes) * remote_in / remote_out_all if remote_out_all else 0
    ctrl = me["frames"] - me["buckets"]  # ACK, END, retransmissions: sealed here, verified there
    mean_frame = me["bytes"] / me["frames"] if me["frames"] else 0
    terms = {
        "apply": me["active"] * rates["apply_ns_per_vertex"],
        "local records": me["local"] * rates["local_ns_per_record"],
        "scatter+send": (me["sent"] - me["local"]) * g["shared_ns_per_record"],
        "receive+fold": remote_in * rx["ns_per_record"],
        "mac": (me["buckets"] + frames_in) * mac["data_frame_ns"] + 2 * ctrl * mac["ack_frame_ns"],
        "memif copies": 1e9 * (me["bytes"] + frames_in * mean_frame) / g["write_bytes_per_cpu_s"] if p > 1 else 0,
    }
    return {k: v * 1e-9 for k, v in terms.items()}


def check_row(rates, runs_at_p):
    """Model vs measured at one P, medians over the trials."""
    cpus = rates["cpus"]
    pred, meas, cpu_pred, cpu_meas, cluster10, loads = [], [], [], [], [], []
    for run in runs_at_p:
        steps = run["node"][0]["supersteps"]
        work = [node_work(rates, run, r) for r in range(run["nodes"])]
        per_node = [sum(w.values()) for w in work]
        used = min(cpus, run["nodes"])  # P node processes share the CPUs
        pred.append(max(max(per_node), sum(per_node) / used) / steps)
        meas.append(max(n["compute_seconds"] for n in run["node"]) / steps)
        cpu_pred.append(sum(per_node) / steps)
        cpu_meas.append(sum(n["cpu_seconds"] for n in run["node"]) / steps)
        # the same nodes one per machine, 1 lcore, 10 GbE: no memif copies, the link apart
        link = max(n["bytes"] + benchlib.WIRE_OVERHEAD * n["frames"] for n in run["node"]) * 8 / 10e9
        cpu1 = max(x - w["memif copies"] for x, w in zip(per_node, work))
        cluster10.append(max(cpu1, link) / steps)
        loads.append(run["loadavg_start"])
    med = statistics.median
    terms = {k: med([sum(node_work(rates, run, r)[k] for r in range(run["nodes"])) for run in runs_at_p])
             for k in node_work(rates, runs_at_p[0], 0)}
    return {"nodes": runs_at_p[0]["nodes"], "trials": len(runs_at_p), "predicted_s": med(pred),
            "measured_s": med(meas), "measured_range": [min(meas), max(meas)], "ratio": med(meas) / med(pred),
            "cpu_predicted_s": med(cpu_pred), "cpu_measured_s": med(cpu_meas),
            "cut": cut_of(runs_at_p[0]), "cluster_1lcore_10gbe_s": med(cluster10),
            "work_terms_s": terms, "loadavg": [min(loads), max(loads)] if None not in loads else None}


def cut_of(run):
    """Fraction of the records (edges, sparse) that crossed nodes: measured counts."""
    sent = sum(n["sent"] for n in run["node"])
    return (sent - sum(n["local"] for n in run["node"])) / sent


def check_table(rates):
    runs = rates.get("runs") or []
    ps = sorted({r["nodes"] for r in runs})
    rows = [check_row(rates, [r for r in runs if r["nodes"] == p]) for p in ps]
    print("\n## Model vs measured on this machine (%d CPUs): PageRank %s, --scatter sparse, 1 lcore per node"
          % (rates["cpus"], rates["graph"]))
    print("\nSuperstep seconds = compute seconds (max over nodes) / supersteps; medians over trials. Predicted on this "
          "machine: max(slowest node's work, all nodes' work / min(P, CPUs)).\n")
    print("| P | nodes per CPU | cut (measured) | predicted s/superstep | measured s/superstep [min, max] | "
          "measured / predicted | CPU s/superstep, all nodes: model / measured | one node per machine, 10 GbE: "
          "predicted s/superstep | load average |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--|")
    for w in rows:
        la = "%.1f-%.1f" % tuple(w["loadavg"]) if w["loadavg"] else "?"
        print("| %d | %.1f | %.3f | %.4f | %.4f [%.4f, %.4f] | %.2f | %.4f / %.4f | %.4f | %s |"
              % (w["nodes"], w["nodes"] / rates["cpus"], w["cut"], w["predicted_s"], w["measured_s"],
                 w["measured_range"][0], w["measured_range"][1], w["ratio"], w["cpu_predicted_s"],
                 w["cpu_measured_s"], w["cluster_1lcore_10gbe_s"], la))
    print("\nModelled CPU seconds per run, all nodes, by term (median trial):\n")
    keys = list(rows[0]["work_terms_s"]) if rows else []
    print("| P | " + " | ".join(keys) + " |\n|--:|" + "--:|" * len(keys))
    for w in rows:
        print("| %d | " % w["nodes"] + " | ".join("%.3f" % w["work_terms_s"][k] for k in keys) + " |")
    return rows


# ---------------------------------------------------------------- the model on a real cluster

def split_roles(lcores):
    """(workers, senders, accumulators) as --roles split gives them (apps' option
    table): 1 lcore shared, 2: w1 a1, 3: w2 a1, n >= 4: s1, a (n-2)/2, the rest workers.
    With no sender lcore each accumulator sends its own queue's frames."""
    if lcores == 1:
        return (1, 0, 0)
    if lcores < 4:
        return (lcores - 1, 0, 1)
    a = (lcores - 2) // 2
    return (lcores - 1 - a, 1, a)


def predict(rates, vertices, edges, p, link_gbe, roles):
    """Superstep seconds of a sparse superstep (every vertex active, one record
    per edge) on P nodes, each with `roles` = (workers, senders, accumulators)
    lcores and one link of link_gbe, the graph spread round-robin: each node
    holds V/P vertices and E/P out-edges, of which (P-1)/P cross nodes. The
    roles run at once (pipelined), so the superstep is the slowest of them."""
    w, s, a = roles
    g = gen_at(rates, p)
    mac = rates["mac"]
    v_p, m_p = vertices / p, edges / p
    remote = m_p * (p - 1) / p
    local = m_p - remote  # written and folded by the worker itself
    apply_local = (v_p * rates["apply_ns_per_vertex"] + local * rates["local_ns_per_record"]) * 1e-9
    # full buckets, plus one part-filled bucket per worker and peer at the superstep's end
    frames = remote / RECORDS_PER_BUCKET + w * (p - 1)
    wire_bytes = remote * RECORD_BYTES + frames * (HEADER_BYTES + benchlib.WIRE_OVERHEAD)
    if p == 1:
        frames, wire_bytes = 0, 0
    send = frames * (g["sender_ns_per_frame"] + mac["data_frame_ns"]) * 1e-9
    if w + s + a == 1:  # one lcore does everything: the shared rate already holds the sender
        work = apply_local + remote * g["shared_ns_per_record"] * 1e-9
        send = frames * mac["data_frame_ns"] * 1e-9
        acc = (remote * rx_at(rates, v_p)["ns_per_record"] + frames * mac["data_frame_ns"]) * 1e-9
        t = {"lcore": work + send + acc}
    else:
        # accumulators fold every remote record the node takes in and verify each frame
        acc_n = max(a, 1)
        acc = (remote * rx_at(rates, v_p / acc_n)["ns_per_record"] + frames * mac["data_frame_ns"]) * 1e-9
        t = {"workers": (apply_local + remote * g["worker_ns_per_record"] * 1e-9) / w}
        if s:
            t["senders"] = send / s
            t["accumulators"] = acc / acc_n
        else:
            t["accumulators"] = (acc + send) / acc_n
    t["link"] = wire_bytes * 8 / (link_gbe * 1e9)
    binds = max(t, key=t.get)
    total = t[binds]
    return {"seconds": total, "binds": binds, "terms": t, "link_util": t["link"] / total if total else 0,
            "wire_bytes": wire_bytes, "frames": frames,
            "gen_measured_at_p": g["nodes"], "records_per_s_per_worker": 1e9 / g["worker_ns_per_record"]}


def fmt_cell(x):
    return "%.1f ms, %s, %.0f%%" % (1e3 * x["seconds"], x["binds"], 100 * x["link_util"])


def grid_table(rates, graph, ps, ls):
    v, e = GRAPHS[graph]
    print("\n## Predicted superstep, %s (%.1fM vertices, %.2fG edges), PageRank sparse, --roles split"
          % (graph, v / 1e6, e / 1e9))
    print("\nEach cell: superstep time, the resource that binds, link utilisation (bytes on the wire / "
          "(superstep x line rate)).\n")
    print("| P | lcores (w/s/a) | " + " | ".join("%d GbE" % b for b in LINKS_GBE) + " |")
    print("|--:|--|" + "--|" * len(LINKS_GBE))
    out = []
    for p in ps:
        for lc in ls:
            roles = split_roles(lc)
            cells = [predict(rates, v, e, p, b, roles) for b in LINKS_GBE]
            out.append({"nodes": p, "lcores": lc, "roles": roles, "cells": cells})
            print("| %d | %d (%d/%d/%d) | " % (p, lc, *roles) + " | ".join(fmt_cell(c) for c in cells) + " |")
    return out


def scenario(rates, title, graph, p, link, roles):
    v, e = GRAPHS[graph]
    x = predict(rates, v, e, p, link, roles)
    t = x["terms"]
    print("\n### %s: %d nodes x %d lcores (w/s/a %d/%d/%d), %s, %d GbE"
          % (title, p, sum(roles), *roles, graph, link))
    print("\n| term | seconds per superstep |\n|--|--:|")
    for k, s in sorted(t.items(), key=lambda kv: -kv[1]):
        print("| %s | %.4f |" % (k, s))
    print("\nSuperstep %.1f ms, %s binds; link utilisation %.0f%%; %.2f Gbit per node per superstep; "
          "per-worker generation %.0f M records/s (measured at P=%d)."
          % (1e3 * x["seconds"], x["binds"], 100 * x["link_util"], x["wire_bytes"] * 8e-9,
             x["records_per_s_per_worker"] / 1e6, x["gen_measured_at_p"]))
    return x


def blitzg_checks(rates):
    """Where BlitzG published a number for its setting, the model's figure next to it."""
    v, e = GRAPHS["twitter-2010"]
    print("\n### Against BlitzG's published figures (PageRank, Twitter-2010, BlitzG's 6/4/6 threads)\n")
    print("| BlitzG figure | published | model (this machine's per-core rates, wiregraph's wire format) |")
    print("|--|--|--|")
    for gbe, pub in ((10, "96%"), (40, "95%")):
        x = predict(rates, v, e, 24, gbe, BLITZG_ROLES)
        payload = (e / 24) * (23 / 24) * RECORD_BYTES * 8 / (x["seconds"] * gbe * 1e9)
        print("| line-rate use, 24 nodes, %d GbE | %s | %.0f%% of the line in frames, %.0f%% in records (%s binds) |"
              % (gbe, pub, 100 * x["link_util"], 100 * payload, x["binds"]))
    x8 = predict(rates, v, e, 8, 40, BLITZG_ROLES)
    gen = BLITZG_ROLES[0] * x8["records_per_s_per_worker"]
    rate = min(gen, e / 8 / x8["seconds"])
    print("| messages generated per node per second, 8 nodes | 4.02-4.73 x 10^8 | %.2f x 10^8 (workers alone "
          "could generate %.2f x 10^8; %s binds) |" % (rate / 1e8, gen / 1e8, x8["binds"]))
    x32 = predict(rates, v, e, 32, 40, BLITZG_ROLES)
    print("| speed-up 8 -> 32 nodes, 40 GbE | 3.9x | %.2fx |" % (x8["seconds"] / x32["seconds"]))
    return {"util_24_10": predict(rates, v, e, 24, 10, BLITZG_ROLES)["link_util"],
            "util_24_40": predict(rates, v, e, 24, 40, BLITZG_ROLES)["link_util"],
            "msgs_per_node_8": rate, "speedup_8_32": x8["seconds"] / x32["seconds"]}


def rates_table(rates):
    print("\n## Per-lcore rates measured here (per CPU second; medians)\n")
    print("From the P=1 runs, per CPU second: apply %.2f ns per vertex (apply lcore-seconds / vertices applied), a "
          "same-node record %.2f ns (scatter lcore-seconds / records: written and folded by the worker). MAC (frame_mac): %.0f ns per "
          "1500-MTU data frame, %.0f ns per ACK frame. Full data frame on the wire: %d bytes.\n"
          % (rates["apply_ns_per_vertex"], rates["local_ns_per_record"], rates["mac"]["data_frame_ns"],
             rates["mac"]["ack_frame_ns"], FULL_FRAME_WIRE))
    print("| P (node 0 of %s) | records per scatter run | worker M records/s | worker + sender, 1 lcore, M records/s "
          "| sender ns per frame |\n|--:|--:|--:|--:|--:|" % rates["graph"])
    for g in rates["generation"]:
        print("| %d | %.1f | %.0f | %.0f | %.0f |" % (g["nodes"], g["records_per_run"], 1e3 / g["worker_ns_per_record"],
                                                   1e3 / g["shared_ns_per_record"], g["sender_ns_per_frame"]))
    print("\n| Σ slice of one accumulator lcore | receive + fold, M records/s |\n|--:|--:|")
    for r in rates["receive"]:
        print("| 2^%d floats (%s) | %.0f |" % (r["sigma_log2"], human(4 << r["sigma_log2"]),
                                             r["records_per_cpu_s"] / 1e6))


def human(n):
    return "%d KiB" % (n >> 10) if n < 1 << 20 else "%d MiB" % (n >> 20)


def report(rates):
    rates_table(rates)
    out = {"check": check_table(rates) if rates.get("runs") else None}
    out["grid"] = grid_table(rates, "twitter-2010", [2, 4, 8, 16, 24, 32, 64], [4, 8, 16])
    print("\n## Named settings")
    out["blitzg"] = scenario(rates, "BlitzG's setting", "twitter-2010", 24, 40, BLITZG_ROLES)
    out["blitzg_split"] = scenario(rates, "BlitzG's setting, wiregraph's own split", "twitter-2010", 24, 40,
                                   split_roles(16))
    out["c64_twitter"] = scenario(rates, "64 nodes", "twitter-2010", 64, 100, split_roles(16))
    out["c64_uk"] = scenario(rates, "64 nodes", "uk-2007-05", 64, 100, split_roles(16))
    out["blitzg_published"] = blitzg_checks(rates)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="mode", required=True)
    m = sub.add_parser("measure", help="measure the rates and the runs here, then print every table")
    m.add_argument("--graph", default="kron:20:16", help="graph of the runs and of bench_generation")
    m.add_argument("--nodes", default="1,2,4,8,16", help="P of the PageRank runs (1: the apply rate)")
    m.add_argument("--gen-nodes", default="2,4,8,16,24,32,64", help="P of the generation benchmark")
    m.add_argument("--sigma-min", type=int, default=15, help="smallest Σ slice (log2 floats) of the receive benchmark")
    m.add_argument("--sigma-max", type=int, default=21, help="largest")
    m.add_argument("--trials", type=int, default=3, help="runs per P (median)")
    m.add_argument("--bench-trials", type=int, default=3, help="rounds of each microbenchmark")
    m.add_argument("--mem-mb", type=int, default=256, help="DPDK MiB per node (320 at least for P >= 16)")
    m.add_argument("--build", default=str(benchlib.ROOT / "build"),
                   help="build directory with apps/wiregraph and the bench binaries (default: this checkout's)")
    m.add_argument("--json", required=True, help="where the rates and the runs go")
    p = sub.add_parser("predict", help="print every table from a JSON written by measure; run nothing")
    p.add_argument("--rates", required=True, help="the JSON of measure")
    p.add_argument("--json", help="also write the tables' figures here")
    args = ap.parse_args()
    if args.mode == "measure":
        rates = measure(args)
        rates["graph_vertices"] = rates["generation"][0]["local_vertices"] * rates["generation"][0]["nodes"]
        Path(args.json).write_text(json.dumps(rates, indent=1) + "\n")
        log("wrote %s" % args.json)
    else:
        rates = json.loads(Path(args.rates).read_text())
        rates.update(p1_rates(rates["runs"]))  # derived again: the recorded runs are the source
    out = report(rates)
    if getattr(args, "json", None) and args.mode == "predict":
        Path(args.json).write_text(json.dumps(out, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
