#!/usr/bin/env python3
"""Merge the benchmark JSON files of one bench/run_all.sh run into
RESULTS.md, results.json and gnuplot PNGs.

usage: report.py DIR [--mode quick|full]

Reads DIR/generation.json, DIR/generation-p16.json, DIR/accumulation.json,
DIR/rx_scaling.json, DIR/links.json, DIR/e2e.json, DIR/gap.json, DIR/load.json, DIR/graphalytics.json,
DIR/mac.json, DIR/auth.json, DIR/checkpoint.json and DIR/profile/*.txt when present (a missing
file becomes a 'not run' line), writes DIR/RESULTS.md, DIR/results.json and
DIR/plots/*.png (with their .dat and .gp files).
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from wiregraph import benchlib
import bytes_per_edge
import graphalytics_costs
import load_scaling
from wiregraph import wglib

RATES = benchlib.LINE_RATES


def load(path):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


def fmt(x, digits=3):
    return "n/a" if x is None else ("%.*f" % (digits, x))


def fstat(s, scale=1.0, digits=2):
    if not s:
        return "n/a"
    return "%.*f [%.*f, %.*f]" % (digits, s["median"] * scale, digits, s["min"] * scale, digits, s["max"] * scale)


def verdict(ok):
    return "n/a" if ok is None else ("**MET**" if ok else "**NOT MET**")


def sh(cmd):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              cwd=benchlib.ROOT).stdout.strip()
    except OSError:
        return ""


def machine_info():
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    caches = sh(["lscpu", "-C=NAME,ONE-SIZE,ALL-SIZE"]).replace("\n", "; ")
    mem = ""
    try:
        mem = Path("/proc/meminfo").read_text().splitlines()[0]
    except OSError:
        pass
    return {"host": platform.node(), "kernel": platform.release(), "cpu": cpu, "cpus": os.cpu_count(),
            "caches": caches, "memory": mem, "loadavg": benchlib.loadavg(),
            "commit": sh(["git", "rev-parse", "--short", "HEAD"]),
            "dirty_files": len([l for l in sh(["git", "status", "--porcelain"]).splitlines() if l.strip()]),
            "date": datetime.datetime.now().isoformat(timespec="seconds")}


# ---- gnuplot: the drawing shared with scripts/wiregraph-plot (python/wiregraph/wglib.py) ----

def gnuplot(plots_dir, name, script, data):
    """Writes NAME.dat and NAME.gp and runs gnuplot; returns the PNG path or None."""
    return wglib.gnuplot(plots_dir, name, script, data, who="report")


def q(s):
    return '"%s"' % s.replace('"', "'")


# ---- sections -------------------------------------------------------------------

def generation_section(gen, gen16, md, targets, bars):
    md.append("## 1. Generation (one worker lcore, real PageRank scatter into buckets, net_null port)\n")
    if not gen:
        md.append("not run (no generation.json)\n")
        targets.append(("Generation >= 40 Gbps L1 of 1500-byte buckets per worker lcore (net_null)", None, "not run"))
        return
    for g in [gen] + ([gen16] if gen16 else []):
        bw = g["baseline"]["bytes_per_s"]
        md.append("Graph `%s`, node 0 of P=%d (%d local vertices, %d out-edges: %d to other nodes, %d same-node); "
                  "port %s; %d rounds after %d warm-up (median [min, max]); same-node buckets %s; load average "
                  "%.2f -> %.2f.\n" % (g["graph"], g["nodes"], g["local_vertices"], g["edges_remote"] + g["edges_local"],
                                       g["edges_remote"], g["edges_local"], g["port"], g["trials"], g["warmup"],
                                       g["local_buckets"], g["loadavg_start"], g["loadavg_end"]))
        if "records_per_run" in g:
            md.append("Scatter runs (source, destination block): %d, %.2f records each on average: the per-vertex "
                      "work is spread over that many records.\n" % (g["scatter_runs"], g["records_per_run"]))
        md.append("Baseline, same run, interleaved with the variants: single-core sequential write bandwidth "
                  "(512 MiB, non-zero pattern) **%s GB/s** per wall second.\n" % fstat(bw, 1e-9))
        md.append("| variant | messages/s (M) | frames/s to the port (M) | wire L1 Gbps | all buckets L1 Gbps | "
                  "all buckets % of 10/25/40/100 GbE | records*8 B/s / write BW | messages/s per CPU second (M) |")
        md.append("|---|---|---|---|---|---|---|---|")
        for v in g["variants"]:
            w, c = v["wall"], v["cpu"]
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                v["name"], fstat(w["messages_per_s"], 1e-6, 1), fstat(w["frames_per_s"], 1e-6, 3),
                fstat(w["wire_l1_gbps"]), fstat(w["all_buckets_l1_gbps"]),
                " / ".join("%.0f%%" % w["pct_of_line_rate_all_buckets"]["%dGbE" % r] for r in RATES),
                fstat(w["record_bytes_vs_write_bw"], 1, 3), fstat(c["messages_per_s"], 1e-6, 1)))
        md.append("")
        for v in g["variants"]:
            md.append("- *%s*: %s" % (v["name"], v["what"]))
        if "reliable_checks" in g:
            rc = g["reliable_checks"]
            md.append("- reliable variant checks: %d ACK frames looped back, %d invalid acks, %d timeouts, %d "
                      "retransmissions, %d frames dropped on receive" % (
                          rc["acks_looped"], rc["invalid_acks"], rc["timeouts"], rc["retransmissions"],
                          rc["rx_dropped"]) + (
                "; %d frames queued, %d transmitted%s" % (
                    rc["frames_queued"], rc["frames_first_transmitted"],
                    "" if rc.get("valid", True) else ": INVALID (acks covered unsent frames)")
                if "frames_queued" in rc else ""))
        md.append("")
        for v in g["variants"]:
            if v["name"] not in ("no reliability", "with reliability"):
                continue
            w, c = v["wall"], v["cpu"]
            label = "Generation >= 40 Gbps L1 per worker lcore (net_null), %s, P=%d" % (v["name"], g["nodes"])
            for key, what in (("all_buckets_l1_gbps", "all buckets (remote + same-node)"),
                              ("wire_l1_gbps", "on the wire only (%.0f%% of records remote)" % (
                                  100.0 * g["edges_remote"] / (g["edges_remote"] + g["edges_local"])))):
                ww, cc = w[key]["median"], c[key]["median"]
                note = "" if (ww >= 40) == (cc >= 40) else " (verdicts differ: the CPU-second figure %s)" % (
                    "meets it" if cc >= 40 else "does not")
                targets.append((label + ", " + what, ww >= 40,
                                "%.1f Gbps per wall second, %.1f per CPU second%s" % (ww, cc, note)))
            if v["name"] == "no reliability":
                bars.append(("generation P=%d all buckets" % g["nodes"], w["all_buckets_l1_gbps"]["median"]))
                bars.append(("generation P=%d wire" % g["nodes"], w["wire_l1_gbps"]["median"]))


def accumulation_section(acc, md, targets, plots_dir, pngs):
    md.append("## 2. Accumulation (one lcore folding buckets received on a net_ring loopback)\n")
    if not acc:
        md.append("not run (no accumulation.json)\n")
        targets.append(("Accumulation >= 80% of the plain scatter-add", None, "not run"))
        targets.append(("Blocked beats random", None, "not run"))
        return
    md.append("Σ = %d floats (%.0f MiB), %d records (uniformly random indices) in %d buckets; blocked order: the same "
              "records grouped by %d KiB block of Σ before packing (%.1f updates per Σ cache line per block visit); "
              "%d rounds after %d warm-up, every variant once per round; load average %.2f -> %.2f.\n" % (
                  acc["sigma_entries"], acc["sigma_entries"] * 4 / 2**20, acc["records"], acc["frames"],
                  acc["block_kib"], acc["blocked_updates_per_line_per_visit"], acc["trials"], acc["warmup"],
                  acc["loadavg_start"], acc["loadavg_end"]))
    md.append("| order | variant | M records/s | / plain scatter-add, same round |")
    md.append("|---|---|---|---|")
    rows = []
    for r in acc["results"]:
        md.append("| %s | %s | %s | %s |" % (r["order"], r["variant"], fstat(r["records_per_s"], 1e-6, 1),
                                           fstat(r["vs_plain_same_order"], 1, 3)))
        rows.append(r)
    md.append("")
    md.append("- *plain*: baseline, the same records in one array, same order, folded by the same inline "
              "`ScalarAccumulator<PageRank>::fold` (no DPDK)")
    md.append("- *ring-direct*: tx_burst 32 frames on net_ring, rx_burst, then per frame `validate_frame`, "
              "`max_record_index`, the accumulator's fold; frames are reused without being freed (a receiver of NIC "
              "frames frees a one-reference mbuf without an atomic)")
    md.append("- *ring-direct-free*: the same, each frame freed after the fold (an extra reference is taken at tx: "
              "two atomics per frame a real receiver does not pay)")
    md.append("- *ring-transport*: through `Transport::receive_step` (validation, receive window, in-order delivery) "
              "into the engine's receive steps minus the superstep ledger; frames freed as above")
    md.append("- *ring-txrx*: the loopback's own tx/rx cost, no validation or fold")
    md.append("")
    for order in ("random", "blocked"):
        o = acc.get(order, {})
        if not o:
            continue
        md.append("- %s: ring direct = %s of the plain scatter-add; through Transport = %s; without the loopback's "
                  "tx/rx cost (derived from medians) %.1f%% / %.1f%%" % (
                      order, fstat(o["ring_direct_vs_plain"], 100, 1) + "%",
                      fstat(o["ring_transport_vs_plain"], 100, 1) + "%",
                      100 * o["ring_direct_without_txrx_vs_plain"], 100 * o["ring_transport_without_txrx_vs_plain"]))
        targets.append(("Accumulation >= 80%% of the plain scatter-add, %s order, ring direct" % order,
                        o["ring_direct_vs_plain"]["median"] >= 0.8,
                        "%.1f%%" % (100 * o["ring_direct_vs_plain"]["median"])))
        targets.append(("Accumulation >= 80%% of the plain scatter-add, %s order, through Transport::receive_step" % order,
                        o["ring_transport_vs_plain"]["median"] >= 0.8,
                        "%.1f%%" % (100 * o["ring_transport_vs_plain"]["median"])))
    gr = acc["blocked_gain_ring_direct"]
    md.append("- blocked / random: plain x%.2f, ring direct x%.2f [%.2f, %.2f], ring Transport x%.2f" % (
        acc["blocked_gain_plain"]["median"], gr["median"], gr["min"], gr["max"],
        acc["blocked_gain_ring_transport"]["median"]))
    mn = acc["machine_notes"]

    def med(order, variant):
        for r in acc["results"]:
            if r["order"] == order and r["variant"] == variant:
                return r["records_per_s"]["median"]
        return None
    md.append("- vs MACHINE-NOTES (another machine kind: Zen 5, 32 MiB L3): plain random %.2f x 189 M/s, ring direct "
              "random %.2f x 189 M/s; plain blocked %.2f x 650-850 M/s, ring direct blocked %.2f x 650-850 M/s "
              "(ratios to the low end)" % (
                  med("random", "plain") / mn["plain_random_per_s"], med("random", "ring-direct") / mn["plain_random_per_s"],
                  med("blocked", "plain") / mn["blocked_lo_per_s"], med("blocked", "ring-direct") / mn["blocked_lo_per_s"]))
    md.append("")
    targets.append(("Blocked beats random (ring direct)", gr["median"] > 1.0, "x%.2f" % gr["median"]))
    # plot: records/s per variant, random vs blocked
    variants = [r["variant"] for r in acc["results"] if r["order"] == "random" and r["variant"] != "ring-txrx"]
    data = "# variant random blocked\n" + "".join(
        "%s %.3f %.3f\n" % (v, (med("random", v) or 0) * 1e-6, (med("blocked", v) or 0) * 1e-6) for v in variants)
    png = gnuplot(plots_dir, "accumulation", """
set title 'Accumulation: records folded per second, one lcore (median of rounds)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'M records/s'
set yrange [0:*]
set key top left
set grid ytics
plot DATA using 2:xtic(1) title 'random order', '' using 3 title 'blocked order (256 KiB blocks)'
""", data)
    if png:
        pngs.append(("Accumulation rates", png))


def rx_scaling_section(rx, md, targets):
    md.append("## 2b. Receive scaling (A accumulator lcores, each on its own net_ring queue)\n")
    if not rx:
        md.append("not run (no rx_scaling.json)\n")
        targets.append(("Receive path >= 250 M records/s per accumulator lcore", None, "not run"))
        targets.append(("2 accumulators on 2 lcores >= 1.7x one", None, "not run"))
        return
    md.append("Σ = %d floats (%g MiB) split over A lcores, %d records a pass in %d buckets of up to %d (MTU %d), "
              "order %s, %d EAL lcores; %d rounds, every A in each round; load average %.2f -> %.2f. Wall-clock: all "
              "records / the slowest lcore's wall time; per CPU-second: all records / the lcores' summed CPU time "
              "(what one lcore does with a CPU of its own); CPUs got: CPU time / wall time.\n" % (
                  rx["sigma_entries"], rx["sigma_entries"] * 4 / 2**20, rx["records"], rx["frames"],
                  rx["records_per_frame"], rx["mtu"], rx["order"], rx["lcores"], rx["trials"], rx["loadavg_start"],
                  rx["loadavg_end"]))
    md.append("| A | range KiB | M records/s wall-clock | M records per CPU-second | CPUs got | wall-clock vs the first A "
              "| % of 10 / 40 / 100 GbE |")
    md.append("|---|---|---|---|---|---|---|")
    for r in rx["results"]:
        md.append("| %d | %d | %s | %s | %s | %s | %.1f / %.1f / %.1f |" % (
            r["accumulators"], r["range_kib"], fstat(r["records_per_s"], 1e-6, 1),
            fstat(r["records_per_cpu_s"], 1e-6, 1), fstat(r["cpus"], 1, 2), fstat(r["vs_first"], 1, 2),
            r["pct_line_10gbe"], r["pct_line_40gbe"], r["pct_line_100gbe"]))
    md.append("")
    first = rx["results"][0]
    per_cpu = first["records_per_cpu_s"]["median"]
    targets.append(("Receive path >= 250 M records/s per accumulator lcore (per CPU-second, A = %d)" %
                    first["accumulators"], per_cpu >= 250e6, "%.0f M" % (per_cpu * 1e-6)))
    two = [r for r in rx["results"] if r["accumulators"] == 2 and r["range_kib"] == first["range_kib"]]
    if first["accumulators"] == 1 and two:
        t = two[0]
        targets.append(("2 accumulators on 2 lcores >= 1.7x one (wall clock)", t["vs_first"]["median"] >= 1.7,
                        "x%.2f with %.2f CPUs got" % (t["vs_first"]["median"], t["cpus"]["median"])))


def links_section(links, md, bars):
    md.append("## 3. Links (two wiregraph node processes, PageRank, send side of each node)\n")
    if not links:
        md.append("not run (no links.json)\n")
        return
    md.append("Graph `%s`, app %s, P=2, %d trial(s); figures per node over the supersteps in which it sent: what the "
              "application achieved on the link while computing on a shared lcore, not the link's raw capacity.\n" % (
                  links["graph"], links["app"], links["trials"]))
    md.append("| link | frames/s per node (M) | L1 Gbps per node | best superstep Gbps | % of 10/25/40/100 GbE | "
              "retransmissions | timeouts | rx drops |")
    md.append("|---|---|---|---|---|---|---|---|")
    for kind, v in links["links"].items():
        if "skipped" in v:
            md.append("| %s | skipped: %s | | | | | | |" % (kind, v["skipped"]))
            continue
        s = v["summary"]
        if not s.get("gbps_l1_per_node"):
            md.append("| %s | failed | | | | | | |" % kind)
            continue
        md.append("| %s | %s | %s | %s | %s | %d | %d | %d |" % (
            kind, fstat(s["frames_per_s_per_node"], 1e-6, 3), fstat(s["gbps_l1_per_node"]),
            fstat(s["peak_step_gbps_l1"]), " / ".join("%.1f%%" % s["pct_line_rate"]["%dGbE" % r] for r in RATES),
            s["retransmissions"], s["timeouts"], s["rx_dropped"]))
        bars.append(("link %s" % kind, s["gbps_l1_per_node"]["median"]))
        if s.get("exit_failures"):
            md.append("| | %d of %d %s job(s) exited non-zero after every node reported: %s | | | | | | |" % (
                s["exit_failures"], len(v["runs"]), kind, "; ".join(s["exit_errors"])))
    md.append("| ring | %s | | | | | | |" % links["ring"])
    md.append("")


def e2e_section(e2e, md, targets, plots_dir, pngs, bars):
    md.append("## 4. End to end (scripts/wiregraph-cluster, real binary)\n")
    if not e2e:
        md.append("not run (no e2e.json)\n")
        targets.append(("End to end P=2 memif <= 1.5x GAP", None, "not run"))
        return
    md.append("Compute seconds = max over nodes of `compute_seconds` (supersteps only); median [min, max] over "
              "trials (%d per graph, %d for scale >= 22); peak RSS per node from wait4() (DPDK memory with "
              "--no-huge included: the mbuf pools column: a 4 KiB page per mbuf); bytes/edge = peak RSS of the largest node / |E|.\n" % (
                  e2e["trials"], e2e["trials_large"]))
    md.append("| graph | app | sym. | config | |E| | compute s | s / superstep | M messages/s | peak RSS MiB (max node) "
              "| bytes/edge (max node) | bytes/edge (all nodes) | mbuf pools MiB/node (tx + rx) |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for s in e2e["summary"]:
        if not s.get("compute_seconds"):
            md.append("| %s | %s | %s | %s | | FAILED (%d/%d trials) | | | | | | |" % (
                s["graph"], s["app"], "yes" if s["undirected"] else "", s["label"], s["ok"], s["trials"]))
            continue
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f |" % (
            s["graph"], s["app"], "yes" if s["undirected"] else "", s["label"], "{:,}".format(s["edges"] or 0),
            fstat(s["compute_seconds"], 1, 3) + (" (%d/%d trials; %d job(s) exited non-zero after reporting)" % (
                s["ok"], s["trials"], s["exit_failures"]) if s.get("exit_failures") else ""), fstat(s["seconds_per_superstep"], 1, 4),
            fstat(s["messages_per_s"], 1e-6, 1), fstat(s.get("peak_rss_mib_max_node"), 1, 0),
            fstat(s.get("bytes_per_edge_max_node"), 1, 1), fstat(s.get("bytes_per_edge_cluster"), 1, 1),
            s["pool_mib"]))
    md.append("")
    fails = [r for r in e2e["runs"] if r["rc"] != 0]
    if fails:
        md.append("Runs that exited non-zero (with complete node reports the figures are kept: the nodes "
                  "finished every superstep and wrote their reports before failing):\n")
        for r in fails:
            md.append("- %s %s %s %s trial %d: rc %d (%s): %s" % (
                r["graph"], r["app"], "und" if r["undirected"] else "", r["label"], r["trial"], r["rc"],
                "reports complete" if r.get("figures") else "no figures", r["error"]))
        md.append("")
    # in-run comparison: GAP's kernel on this host, in this run
    md.append("### PageRank vs GAP's kernel run here, and Gemini (estimated)\n")
    md.append("GAP = bench/reference_pagerank (GAP's pull kernel, OpenMP, same graph and duplicates, 20 "
              "iterations) measured in this run. Gemini cannot run here: its published time is scaled by the "
              "ratio of the in-run GAP (2 threads) to the published GAP (2 threads) on the issue's host.\n")
    md.append("| graph | config | ours s | GAP 1 thread s | ours / GAP 1t | GAP 2 threads s | ours / GAP 2t | "
              "host factor | Gemini 2 ranks s (est.) | speed-up over Gemini 2 ranks (est.) |")
    md.append("|---|---|---|---|---|---|---|---|---|---|")
    have_here = False
    for s in e2e["summary"]:
        here = s.get("in_run_comparison")
        if not here:
            continue
        have_here = True
        ours = s["compute_seconds"]["median"]
        md.append("| %s | %s | %.3f | %.3f | %.2f | %.3f | %.2f | %s | %s | %s |" % (
            s["graph"], s["label"], ours, here["gap_1t_seconds"], here["vs_gap_1t"], here["gap_2t_seconds"],
            here["vs_gap_2t"], fmt(here.get("host_factor"), 2), fmt(here.get("gemini_2r1t_estimated_seconds"), 2),
            fmt(here.get("speedup_over_gemini_2r1t_estimated"), 2)))
        if s["config"] == "p2memif":
            targets.append(("End to end PageRank %s sym., P=2 memif <= 1.5x GAP 2 threads (same run)" % s["graph"],
                            here["target_le_1_5x_gap_2t_met"], "%.3f s = %.2fx GAP" % (ours, here["vs_gap_2t"])))
            if "speedup_over_gemini_2r1t_estimated" in here:
                targets.append(("End to end PageRank %s sym., P=2 memif >= 3x faster than Gemini 2 ranks "
                                "(estimated for this host)" % s["graph"],
                                here["target_ge_3x_faster_than_gemini_2r_met_estimated"],
                                "%.2fx faster" % here["speedup_over_gemini_2r1t_estimated"]))
        if s["config"] == "p1l1":
            targets.append(("End to end PageRank %s sym., P=1 close to GAP 1 thread (read as within 1.25x, "
                            "same run)" % s["graph"], here["vs_gap_1t"] <= 1.25,
                            "%.3f s = %.2fx GAP" % (ours, here["vs_gap_1t"])))
    if not have_here:
        md.append("| (no undirected PageRank run with its baseline in this mode) | | | | | | | | | |")
    md.append("")
    # reference comparison
    md.append("### PageRank vs the issue's published GAP and Gemini (another host of this machine kind)\n")
    md.append("| graph | sym. | config | ours s | GAP 2 threads s | ours / GAP 2t | GAP 1 thread s | ours / GAP 1t | "
              "Gemini 1 rank s | Gemini 2 ranks s | speed-up over Gemini 2 ranks |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|")
    ref = e2e["reference"]
    for s in e2e["summary"]:
        rc = s.get("reference_comparison")
        if not rc:
            continue
        sc = s["graph"].split(":")[1]
        r = ref[sc]
        ours = s["compute_seconds"]["median"]
        md.append("| %s | %s | %s | %.3f | %.2f-%.2f | %.2f-%.2f | %s | %s | %.2f | %.2f | %.2f |" % (
            s["graph"], "yes" if s["undirected"] else "no (not like for like)", s["label"], ours,
            r["gap_2t"][0], r["gap_2t"][1], rc["vs_gap_2t"]["ratio_hi"], rc["vs_gap_2t"]["ratio_lo"],
            fmt(r.get("gap_1t"), 2), fmt(rc.get("vs_gap_1t"), 2), r["gemini_1r2t"], r["gemini_2r1t"],
            rc["speedup_over_gemini_2r1t"]))
    if not any(s.get("reference_comparison") for s in e2e["summary"]):
        md.append("| (no PageRank run on kron:20 or kron:22 in this mode) | | | | | | | | | | |")
    md.append("")
    # wire rate of the first P=2 PageRank, for the line-rate plot
    for s in e2e["summary"]:
        if s["config"] == "p2memif" and s["app"] == "pagerank" and s.get("wire_gbps_l1_per_node"):
            bars.append(("e2e PR %s%s P=2 per node" % (s["graph"], " sym" if s["undirected"] else ""),
                         s["wire_gbps_l1_per_node"]["median"]))
            break
    # plots: per superstep throughput and seconds, PageRank on the first graph
    pick = [s for s in e2e["summary"] if s["app"] == "pagerank" and s.get("per_superstep")]
    if pick:
        g0 = pick[0]["graph"]
        und = any(s["undirected"] for s in pick if s["graph"] == g0)
        sel = [s for s in pick if s["graph"] == g0 and s["undirected"] == und]
        n = max(len(s["per_superstep"]) for s in sel)
        rows = []
        for i in range(n):
            cols = []
            for s in sel:
                st = s["per_superstep"][i] if i < len(s["per_superstep"]) else None
                cols.append("%.4f %.6f" % ((st["messages"] / st["seconds"] * 1e-6) if st and st["seconds"] > 0 else 0,
                                           st["seconds"] if st else 0))
            rows.append("%d %s" % (i, " ".join(cols)))
        data = "\n".join(rows) + "\n"
        title = "PageRank %s%s" % (g0, " --undirected" if und else "")
        # Two columns per series in DATA: messages/s, then seconds.
        for name, col, what, ylabel, caption in (
                ("e2e_superstep_throughput", 2, "cluster messages per second in each superstep",
                 "M messages/s", "Throughput per superstep"),
                ("e2e_superstep_seconds", 3, "seconds per superstep",
                 "seconds", "Seconds per superstep")):
            plot = ", ".join("DATA using 1:%d with linespoints title %s" % (col + 2 * k, q(s["label"]))
                             for k, s in enumerate(sel))
            png = gnuplot(plots_dir, name, """
set title '%s: %s'
set xlabel 'superstep'
set ylabel '%s'
set grid
set key outside right
plot %s
""" % (title, what, ylabel, plot), data)
            if png:
                pngs.append(("%s (%s)" % (caption, title), png))


# The targets against GAP's own binary, P=2 memif vs GAP 2 threads.
# lcc is measured against GAP's tc (the same intersections, per vertex).
GAP_TARGET = {"pagerank": 1.1, "bfs": 2.0, "cc": 2.0, "sssp": 2.0, "tc": 1.2, "lcc": 2.0, "bc": 1.5}


def gemini_cells(s):
    """The Gemini seconds, ratio and sanity-check cells of one gap_compare summary row."""
    gs = s.get("gemini") or []
    if not gs:
        return "-", "-", "-"
    return ("; ".join("%s (%s)" % (fstat(g["seconds"], 1, 4), g["config"]) for g in gs),
            "; ".join("%s (%s)" % (fmt(g.get("ratio"), 2), g["config"]) for g in gs),
            "; ".join({True: "agrees", False: "**DISAGREES**", None: "-"}[g["check"]["agrees"]] if g.get("check")
                      else "-" for g in gs))


def gap_section(gap, md, targets):
    md.append("## 5. Every app against GAP's and Gemini's own binaries (bench/gap_compare.py)\n")
    if not gap:
        md.append("not run (no gap.json)\n")
        return
    if gap.get("skipped"):
        md.append(gap["skipped"] + ".\n")
        targets.append(("Every app vs GAP's own binary", None, "skipped: no GAP build"))
        return
    md.append("GAP %s (%s) built outside the repository; its converter wrote the graphs (`.sg`/`.wsg` for GAP, "
              "the same edges as `.bin`/`.wbin` for wiregraph and Gemini). Rounds alternate one GAP process (median of "
              "its trials, GAP's Trial Time, no graph build), one Gemini process per config (median of its 5 runs "
              "after a warm-up, its exec_time, no graph build) and one wiregraph run (seconds in supersteps, max over "
              "nodes, without the start barrier's wait for the slowest node's load); median [min, max] over rounds; "
              "source vertex %d for bfs, sssp and bc; lcc's GAP column is GAP's tc, whose intersections per-vertex "
              "coefficients also cost; tc's total is checked against GAP's.\n" % (gap.get("gap_commit"), gap["gap_dir"], gap["source"]))
    if gap.get("gemini_skipped"):
        md.append("Gemini: %s.\n" % gap["gemini_skipped"])
    else:
        md.append("Gemini %s (%s) built outside the repository; config RANKSxTHREADS (a rank runs one OpenMP thread "
                  "per CPU); check: its result line against wiregraph's results (bfs reached, cc components, sssp "
                  "largest distance, pagerank top vertex).\n" % (gap.get("gemini_commit"), gap.get("gemini_dir")))
    md.append("| graph | app | config | wiregraph s | GAP s (threads) | wiregraph / GAP | Gemini s (config) "
              "| wiregraph / Gemini | Gemini check | supersteps (dense) | cluster messages "
              "| before: s, / GAP, supersteps (dense), messages |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for s in gap["summary"]:
        before = ""
        if "before_seconds" in s:
            before = "%s, %s, %s (%s), %s" % (
                fstat(s["before_seconds"], 1, 4), fmt(s.get("before_ratio"), 2), s.get("before_supersteps", "-"),
                s.get("before_dense_supersteps", "-"),
                "{:,}".format(s["before_messages"]) if "before_messages" in s else "-")
        gem_s, gem_ratio, gem_check = gemini_cells(s)
        md.append("| GAP kron%d | %s | %s | %s | %s (%d) | %s | %s | %s | %s | %s | %s | %s |" % (
            s["scale"], s["app"], s["label"], fstat(s["wiregraph_seconds"], 1, 4), fstat(s["gap_seconds"], 1, 4),
            s["gap_threads"], fmt(s.get("ratio"), 2), gem_s, gem_ratio, gem_check,
            "%s (%s)" % (s.get("supersteps", "-"), s.get("dense_supersteps", "-")),
            "{:,}".format(s["messages"]) if "messages" in s else "-", before))
        if s["config"] == "p2memif" and s["app"] in GAP_TARGET:
            limit = GAP_TARGET[s["app"]]
            targets.append(("%s on GAP kron%d, P=2 memif <= %.1fx GAP 2 threads (same run)" % (
                s["app"], s["scale"], limit), s["ratio"] <= limit if "ratio" in s else None,
                "%.2fx" % s["ratio"] if "ratio" in s else "failed"))
        for g in s.get("gemini") or []:
            if s["config"] == "p2memif" and g["ranks"] == 1:
                targets.append(("%s on GAP kron%d, P=2 memif faster than %s (same run)" % (
                    s["app"], s["scale"], g["label"]), g["ratio"] < 1 if "ratio" in g else None,
                    "%.2fx" % g["ratio"] if "ratio" in g else "failed"))
    md.append("")
    cmds = sorted({"`%s` vs `%s`" % (s["wiregraph_command"], s["gap_command"])
                   for s in gap["summary"] if s.get("gap_command")})
    cmds += sorted({"`%s`" % g["command"] for s in gap["summary"] for g in s.get("gemini") or [] if g.get("command")})
    md.append("Commands: %s\n" % "; ".join(cmds))


def role_plot(e2e, md, plots_dir, pngs):
    """Where the lcores' time went, by role, per end-to-end run (median trial)."""
    sel = [s for s in (e2e or {}).get("summary", []) if s.get("role_seconds") and sum(s["role_seconds"].values()) > 0]
    if not sel:
        return
    roles = ("apply", "scatter", "network", "wait")
    md.append("### Time by role (lcore-seconds over every node and superstep, median trial)\n")
    md.append("| graph | app | sym. | config | " + " | ".join(roles) + " |")
    md.append("|---|---|---|---|" + "---|" * len(roles))
    rows = []
    for s in sel:
        tot = sum(s["role_seconds"].values())
        shares = [100.0 * s["role_seconds"][r] / tot for r in roles]
        md.append("| %s | %s | %s | %s | %s |" % (s["graph"], s["app"], "yes" if s["undirected"] else "", s["label"],
                                               " | ".join("%.3f s (%.0f%%)" % (s["role_seconds"][r], x)
                                                          for r, x in zip(roles, shares))))
        rows.append("%s %s" % (q("%s %s%s %s" % (s["graph"], s["app"], " sym" if s["undirected"] else "",
                                                  s["config"])), " ".join("%.2f" % x for x in shares)))
    md.append("")
    png = gnuplot(plots_dir, "time_by_role", """
set title 'Time by role: share of lcore-seconds (compute/report/role_clock.h), median trial'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel '% of lcore time'
set yrange [0:100]
set grid ytics
set xtics rotate by -50 font ',8'
set bmargin 9
set key outside right
plot DATA using 2:xtic(1) title 'apply', '' using 3 title 'scatter', '' using 4 title 'network', '' using 5 title 'wait'
""", "\n".join(rows) + "\n")
    if png:
        pngs.append(("Time by role per end-to-end run", png))


def line_rate_plot(bars, plots_dir, pngs):
    if not bars:
        return
    data = "# name " + " ".join("%dGbE" % r for r in RATES) + "\n" + "".join(
        "%s %s\n" % (q(n), " ".join("%.2f" % (100.0 * g / r) for r in RATES)) for n, g in bars)
    png = gnuplot(plots_dir, "line_rate", """
set title 'Percent of line rate (L1: frame + 24 B) per benchmark, median'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel '% of line rate'
set logscale y
set yrange [0.1:*]
set grid ytics
set xtics rotate by -25
set key top right
set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2 lc rgb 'black'
plot DATA using 2:xtic(1) title '10 GbE', '' using 3 title '25 GbE', '' using 4 title '40 GbE', '' using 5 title '100 GbE'
""", data)
    if png:
        pngs.append(("% of line rate per benchmark", png))


def load_section(load_results, md, targets):
    md.append("## 6. Per-node loading (each node reads its range, the edges shuffled to their owners)\n")
    if not load_results:
        md.append("not run (no load.json)\n")
        return
    md.extend(load_scaling.markdown(load_results))
    targets.extend(load_scaling.targets(load_results))


def graphalytics_section(rows, md):
    md.append("## 7. Graphalytics' rules: LCC against PageRank, PageRank in double precision, loading sparse ids\n")
    if not rows:
        md.append("not run (no graphalytics.json)\n")
        return
    md.append("P=%d over memif, configurations in alternating order, medians of %d trials; processing time is "
              "summary.json's metrics.processing_seconds; load time the slowest node's load_seconds.\n" % (rows[0]["nodes"], len(rows[0]["trials"])))
    md.extend(graphalytics_costs.markdown(rows))


def bytes_section(results, md):
    md.append("## 10. Bytes per edge and loading next to GAP's (bench/bytes_per_edge.py)\n")
    if not results:
        md.append("not run (no bytes.json: the step needs --gap DIR)\n")
        return
    md.extend(bytes_per_edge.markdown(results))


def mac_section(mac, auth, md):
    md.append("## 8. Authenticated frames: the MAC per bucket, and its cost end to end\n")
    if not mac:
        md.append("bench_mac: not run (no mac.json)\n")
    else:
        md.append("bench_mac (%s, %s, libsodium %s; intel-ipsec-mb code path %s), median ns per bucket of %d rounds "
                  "(thread CPU time), and as a multiple of the bucket's CRC32C in the same rounds:\n" % (
                      "intel-ipsec-mb " + mac["ipsec_mb_version"], mac["openssl_version"], mac["sodium_version"],
                      mac["ipsec_mb_arch"], mac["trials"]))
        sizes = mac["sizes"]
        md.append("| candidate | " + " | ".join("%s (%d B)" % (z["what"], z["bucket_bytes"]) for z in sizes) + " |")
        md.append("|---|" + "--:|" * len(sizes))
        for i, c in enumerate(sizes[0]["candidates"]):
            md.append("| %s | %s |" % (c["name"], " | ".join(
                "%.0f ns (x%.2f)" % (z["candidates"][i]["ns_per_bucket"], z["candidates"][i]["x_bucket_crc"])
                for z in sizes)))
        md.append("")
    if not auth:
        md.append("auth_cost.py: not run (no auth.json)\n")
        return
    names = [x["name"] for x in auth["settings"]]
    md.append("End to end (`bench/auth_cost.py`), compute seconds (max over nodes), median (min-max) of %d trials:\n"
              % len(auth["seconds"][names[0]]))
    md.append("| setting | node options | compute s | buckets | / %s per trial |" % names[0])
    md.append("|---|---|--:|--:|--:|")
    for x in auth["settings"]:
        v = auth["seconds"][x["name"]]
        r = auth["ratios"].get(x["name"])
        md.append("| %s | %s | %.3f (%.3f-%.3f) | %d | %s |" % (
            x["name"], " ".join(x["options"]) or "(defaults: the launcher's key)", statistics.median(v), min(v),
            max(v), auth["buckets"][x["name"]], "%.3f" % statistics.median(r) if r else "-"))
    md.append("")


def checkpoint_section(ck, md, targets):
    md.append("## 9. Checkpoints: their cost, and a crash (issue #27)\n")
    if not ck:
        md.append("checkpoint_cost.py: not run (no checkpoint.json)\n")
        return
    md.append("`bench/checkpoint_cost.py`: %s, P=%d over %s, %d trials, order rotating; compute seconds (max over "
              "nodes; checkpoints are written inside the computation), median (min-max):\n"
              % (ck["graph"], ck["nodes"], ck["link"], ck["trials"]))
    md.append("| program | every | compute s | / none per trial | checkpoints | MB each (node 0) | / values | "
              "pause s each | writer s each |")
    md.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for app, r in ck["programs"].items():
        for key in ("none", "20", "5", "1"):
            v, f = r["seconds"][key], r["figures"][key]
            ratio = statistics.median(r["ratios"][key]) if key != "none" else 1.0
            each = f["bytes"] / f["written"] if f["written"] else 0
            md.append("| %s | %s | %.3f (%.3f-%.3f) | %.3f | %d | %.1f | %s | %s | %s |" % (
                app, key, statistics.median(v), min(v), max(v), ratio, f["written"], each / 1e6,
                "%.2f" % (each / f["values_bytes"]) if f["written"] and f["values_bytes"] else "-",
                "%.4f" % statistics.median(f["pause"]) if f["pause"] else "-",
                "%.3f" % statistics.median(f["write"]) if f["write"] else "-"))
        if "5" in r["ratios"]:
            five = statistics.median(r["ratios"]["5"])
            targets.append(("%s: checkpoints every 5 supersteps cost at most 10%%" % app, five <= 1.10,
                            "%.1f%% (%s)" % (100 * (five - 1), ck["graph"])))
    md.append("")
    md.append("| program | node 1 killed at | resumed from | wall, uninterrupted | wall, with the crash | "
              "restarted job: start to computing (node 0) |")
    md.append("|---|--:|--:|--:|--:|--:|")
    for app, r in ck["programs"].items():
        c = r["crash"]
        md.append("| %s | superstep %d | %s | %.2f s | %.2f s | %.2f s |" % (
            app, c["at"], c["resumed_from"], c["clean_wall"], c["wall"], c["restart_to_compute"]))
    md.append("")


def published_page(md, d):
    """RESULTS.md as docs/PERFORMANCE.md: the same report under a preamble
    that says how it is made, so that the page is always one run's figures."""
    head = [
        "# Performance",
        "",
        "<!-- Generated by `bench/run_all.sh --publish` (bench/report.py): edit those, not this page. -->",
        "",
        "What wiregraph does on one machine, every figure next to a baseline measured in the same run: line",
        "rate, single-core memory bandwidth, and GAP's and Gemini's own binaries on the same edges. The whole",
        "page is one run of one command:",
        "",
        "```",
        "bench/run_all.sh --publish --gap GAP_DIR --gemini GEMINI_DIR",
        "```",
        "",
        "(tens of minutes on 2 cores; GAP and Gemini built by hand outside this repository, as",
        "[bench/README.md](../bench/README.md) says; without `--publish` the report goes to",
        "`/tmp/wiregraph-bench/RESULTS.md` only, with its plots). Nothing here is a pass/fail test. What each",
        "optimisation measured when it was made, and why: [design/performance-history.md](design/performance-history.md).",
        "",
    ]
    body = list(md[1:])  # without RESULTS.md's own title
    return "\n".join(head + body).replace(str(d) + "/", "DIR/") + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--mode", default="full")
    ap.add_argument("--publish", metavar="PAGE",
                    help="also write the report as the project's performance page (docs/PERFORMANCE.md)")
    a = ap.parse_args()
    d = Path(a.dir)
    plots = d / "plots"
    gen, gen16 = load(d / "generation.json"), load(d / "generation-p16.json")
    acc, links, e2e = load(d / "accumulation.json"), load(d / "links.json"), load(d / "e2e.json")
    rx = load(d / "rx_scaling.json")
    gap = load(d / "gap.json")
    loading = load(d / "load.json")
    graphalytics = load(d / "graphalytics.json")
    mac, auth = load(d / "mac.json"), load(d / "auth.json")
    checkpoint = load(d / "checkpoint.json")
    bytes_results = load(d / "bytes.json")
    info = machine_info()
    src = d / "bin" / "SOURCE"
    if src.exists():  # what the snapshot binaries were built from
        lines = src.read_text().splitlines()
        info["commit"] = lines[0].replace("commit ", "")[:12] if lines else info["commit"]
        info["dirty_files"] = len([l for l in lines[1:] if l and not l.startswith("diff sha256")])
        info["source_state"] = lines
    md, targets, pngs, bars = [], [], [], []
    md.append("# wiregraph benchmark results (%s mode)\n" % a.mode)
    md.append("%s on %s: %s, %s CPUs, %s; caches: %s; kernel %s; commit %s with %d uncommitted/untracked files; "
              "load average %s at report time.\n" % (
                  info["date"], info["host"], info["cpu"], info["cpus"], info["memory"], info["caches"],
                  info["kernel"], info["commit"], info["dirty_files"], info["loadavg"]))
    if info.get("source_state"):
        md.append("Binaries: snapshot in `%s/bin/` taken when the suite started; built from commit %s with these "
                  "uncommitted files: %s.\n" % (d, info["commit"], ", ".join(
                      l.strip() for l in info["source_state"][1:] if l and not l.startswith("diff")) or "none"))
    md.append("Speed is reported against baselines measured in the same run; nothing here is a pass/fail test. "
              "The machine may be shared with other work: every section records the load average.\n")
    body = []
    generation_section(gen, gen16, body, targets, bars)
    accumulation_section(acc, body, targets, plots, pngs)
    rx_scaling_section(rx, body, targets)
    links_section(links, body, bars)
    e2e_section(e2e, body, targets, plots, pngs, bars)
    gap_section(gap, body, targets)
    role_plot(e2e, body, plots, pngs)
    load_section(loading, body, targets)
    graphalytics_section(graphalytics, body)
    mac_section(mac, auth, body)
    checkpoint_section(checkpoint, body, targets)
    bytes_section(bytes_results, body)
    line_rate_plot(bars, plots, pngs)
    md.append("## Targets from the issue\n")
    md.append("| target | result | figure |")
    md.append("|---|---|---|")
    for name, ok, fig in targets:
        md.append("| %s | %s | %s |" % (name, verdict(ok), fig))
    md.append("")
    md.extend(body)
    prof = sorted((d / "profile").glob("*.txt")) if (d / "profile").exists() else []
    if prof:
        md.append("## Profiles (callgrind instruction counts, AVX2 build: valgrind cannot run AVX-512)\n")
        for p in prof:
            md.append("### %s\n\n```\n%s\n```\n" % (p.stem, p.read_text().rstrip()))
    if pngs:
        md.append("## Plots\n")
        for title, p in pngs:
            md.append("- %s: `%s`" % (title, p))
        md.append("")
    steps = ["build", "generation", "generation-p16", "accumulation", "rxscaling", "links", "e2e", "gap", "load",
             "graphalytics", "mac", "auth", "checkpoint", "bytes", "profile"]
    cmds = [(n, d / "logs" / (n + ".cmd")) for n in steps]
    cmds = [(n, f.read_text().strip()) for n, f in cmds if f.exists()]
    if cmds:
        md.append("## Commands (as run by bench/run_all.sh; output in DIR/logs/NAME.log)\n\n```\n%s\n```\n" % "\n".join(
            "# %s\n%s" % (n, c) for n, c in cmds))
    (d / "RESULTS.md").write_text("\n".join(md) + "\n")
    if a.publish:
        Path(a.publish).write_text(published_page(md, d))
        print("report: published %s" % a.publish)
    merged = {"mode": a.mode, "machine": info, "generation": gen, "generation_p16": gen16, "accumulation": acc,
              "rx_scaling": rx, "links": links, "end_to_end": e2e, "gap": gap, "load": loading, "graphalytics": graphalytics,
              "mac": mac, "auth": auth, "checkpoint": checkpoint,
              "targets": [{"target": n, "met": ok, "figure": f} for n, ok, f in targets],
              "plots": [str(p) for _, p in pngs]}
    (d / "results.json").write_text(json.dumps(merged, indent=1) + "\n")
    print("report: %s, %s, %d plots" % (d / "RESULTS.md", d / "results.json", len(pngs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
