"""Pictures of one wiregraph run: turns an --out directory into PNG plots.

usage: wiregraph-plot OUTDIR

Reads OUTDIR/node<R>.json (every node's report) and OUTDIR/summary.json
(written by compute/report/run_report.cc) and draws, with gnuplot (the
drawing bench/report.py uses, python/wiregraph/wglib.py):

  throughput.png      each node's send rate per superstep (L1: frames plus
                      FCS, preamble and gap) against the line rate, log scale
  superstep_time.png  seconds and active vertices per superstep (the cluster)
  time_by_role.png    where each node's lcore time went: apply, scatter,
                      network, wait (share of its lcore-seconds)
  load_split.png      each node's load time: read, parse, shuffle, build,
                      waiting for the others
  memory.png          each node's peak RSS

and the distribution of the answer's values, read from OUTDIR/results.tsv
(else the nodes' result-R.txt), one picture by program:

  rank_ccdf.png        pagerank: share of vertices with rank >= x, log-log
  score_ccdf.png       bc: the same for the scores (zeros left out)
  component_sizes.png  cc: share of components of size >= s, log-log
  community_sizes.png  cd, louvain: the same for the communities
  depth_histogram.png  bfs: vertices per depth (log counts; unreached apart)
  distance_histogram.png  sssp: vertices per distance bin (unreached apart)
  core_histogram.png   kcore: vertices per core number (log counts)
  triangles_ccdf.png   tc: share of vertices in >= t triangles, log-log
  coefficient_histogram.png  lcc: vertices per coefficient bin (log counts)
  indegree_ccdf.png    indegree: the in-degree distribution, log-log (the
                       only run whose files hold degrees)

into OUTDIR/plots/ (with each plot's .dat and .gp, to redraw or adapt), prints
where they are, and adds them to OUTDIR/wiregraph-run.json so that the next
run into OUTDIR removes them with the rest (docs/OUTPUT.md). Exit status: 0
when every plot was drawn, 1 when gnuplot failed, 2 when OUTDIR holds no run.
Standard library and gnuplot (scripts/setup.sh installs gnuplot-nox) only.
"""

import argparse
import json
import sys
from pathlib import Path

from wiregraph import wglib  # reading node reports, gnuplot
from wiregraph import plots as answer_plots  # the distribution of the answer's values

ROLES = ("apply", "scatter", "network", "wait")
LOAD_PARTS = ("read", "parse", "shuffle", "build", "wait")


def fail(msg, code):
    print("wiregraph-plot: error: %s" % msg, file=sys.stderr)
    return code


def read_run(outdir):
    """(summary or None, [node reports by rank]); raises ValueError when OUTDIR holds no run."""
    summary = None
    try:
        summary = json.loads((outdir / "summary.json").read_text())
    except (OSError, ValueError):
        pass
    nodes = []
    for r in range(wglib_nodes(outdir, summary)):
        path = wglib.node_report_path(outdir, r)
        try:
            nodes.append(wglib.read_node_report(path))
        except (OSError, ValueError) as e:
            raise ValueError("%s: %s" % (path, e))
    if not nodes:
        raise ValueError("no node0.json: not the --out directory of a wiregraph run")
    return summary, nodes


def wglib_nodes(outdir, summary):
    if summary and isinstance(summary.get("nodes"), int):
        return summary["nodes"]
    n = 0
    while wglib.node_report_path(outdir, n).exists():
        n += 1
    return n


def q(s):
    return '"%s"' % str(s).replace('"', "'")


def title_of(summary, nodes):
    cfg = (summary or nodes[0]).get("config", {})
    return "%s on %s, %d node%s" % (cfg.get("app", "?"), cfg.get("graph", "?"), len(nodes),
                                     "" if len(nodes) == 1 else "s")


def throughput(plots, title, nodes):
    steps = max(len(n.get("supersteps", [])) for n in nodes)
    rate = nodes[0].get("line_rate_gbps", 10.0)
    rows = []
    for i in range(steps):
        cols = []
        for n in nodes:
            s = n["supersteps"][i] if i < len(n.get("supersteps", [])) else None
            g = s.get("wire_gbps", 0.0) if s else 0.0
            cols.append("%.6g" % g if g > 0 else "NaN")   # log scale: a superstep that sent nothing has no point
        rows.append("%d %s" % (i, " ".join(cols)))
    plot = ", ".join("DATA using 1:%d with linespoints title 'node %d'" % (r + 2, r) for r in range(len(nodes)))
    plot += ", %g with lines dt 2 lc rgb 'black' title 'line rate %g Gbps'" % (rate, rate)
    return wglib.gnuplot(plots, "throughput", """
set title %s
set xlabel 'superstep'
set ylabel 'Gbps (log scale)'
set logscale y
set yrange [*:%g]
set grid
set key outside right
plot %s
""" % (q(title + ": each node's send rate per superstep (L1) against the line rate"), 2 * rate, plot), "\n".join(rows) + "\n", who="wiregraph-plot")


def superstep_time(plots, title, summary, nodes):
    if summary and summary.get("supersteps"):
        rows = ["%d %.9g %d" % (s["superstep"], s["seconds"], s["active_vertices"]) for s in summary["supersteps"]]
    else:   # no summary.json: node 0's own figures
        rows = ["%d %.9g %d" % (s["superstep"], s["seconds"], s["active"]) for s in nodes[0]["supersteps"]]
    return wglib.gnuplot(plots, "superstep_time", """
set title %s
set xlabel 'superstep'
set ylabel 'seconds'
set y2label 'active vertices'
set ytics nomirror
set y2tics
set grid
set key outside right
plot DATA using 1:2 with linespoints title 'seconds' axes x1y1, DATA using 1:3 with linespoints title 'active vertices' axes x1y2
""" % q(title + ": seconds and active vertices per superstep"), "\n".join(rows) + "\n", who="wiregraph-plot")


def stacked_per_node(plots, name, title, ylabel, parts, rows, yrange=""):
    cols = ", ".join(("DATA using %d:xtic(1) title '%s'" % (i + 2, p)) if i == 0 else
                     ("'' using %d title '%s'" % (i + 2, p)) for i, p in enumerate(parts))
    return wglib.gnuplot(plots, name, """
set title %s
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel '%s'
%s
set grid ytics
set key outside right
plot %s
""" % (q(title), ylabel, yrange, cols), "\n".join(rows) + "\n", who="wiregraph-plot")


def time_by_role(plots, title, nodes):
    rows = []
    for r, n in enumerate(nodes):
        seconds = [sum(s.get("role_seconds", {}).get(role, 0.0) for s in n.get("supersteps", [])) for role in ROLES]
        total = sum(seconds) or 1.0
        rows.append("%s %s" % (q("node %d" % r), " ".join("%.3f" % (100.0 * x / total) for x in seconds)))
    return stacked_per_node(plots, "time_by_role",
                            "%s: time by role, share of each node's lcore-seconds in the computation" % title,
                            "% of lcore time", ROLES, rows, "set yrange [0:100]")


def load_split(plots, title, nodes):
    rows = []
    for r, n in enumerate(nodes):
        s = n.get("load", {}).get("seconds", {})
        rows.append("%s %s" % (q("node %d" % r), " ".join("%.6f" % s.get(p, 0.0) for p in LOAD_PARTS)))
    return stacked_per_node(plots, "load_split", "%s: each node's load time by part" % title, "seconds",
                            LOAD_PARTS, rows, "set yrange [0:*]")


def memory(plots, title, nodes):
    rows = ["%s %.3f" % (q("node %d" % r), n.get("peak_rss_bytes", 0) / 1e6) for r, n in enumerate(nodes)]
    return wglib.gnuplot(plots, "memory", """
set title %s
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel 'MB'
set yrange [0:*]
set grid ytics
plot DATA using 2:xtic(1) title 'peak RSS'
""" % q(title + ": peak RSS per node"), "\n".join(rows) + "\n", who="wiregraph-plot")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="wiregraph-plot", description=__doc__.split("\n\n")[0],
                                 epilog="Writes OUTDIR/plots/*.png; see docs/OUTPUT.md.")
    ap.add_argument("outdir", metavar="OUTDIR", help="a run's --out directory")
    args = ap.parse_args(argv)
    outdir = Path(args.outdir)
    if not outdir.is_dir():
        return fail("%s is not a directory" % outdir, 2)
    try:
        summary, nodes = read_run(outdir)
    except ValueError as e:
        return fail("%s: %s" % (outdir, e), 2)
    plots = outdir / "plots"
    title = title_of(summary, nodes)
    made = [throughput(plots, title, nodes), superstep_time(plots, title, summary, nodes),
            time_by_role(plots, title, nodes), load_split(plots, title, nodes), memory(plots, title, nodes)]
    program = (summary or nodes[0]).get("results", {}).get("program")
    made += answer_plots.draw(plots, title, program, outdir, len(nodes))
    made.append(answer_plots.degree_distribution(plots, title, nodes))
    drawn = [p for p in made if p is not None]
    names = []
    for p in drawn:
        for suffix in (".png", ".dat", ".gp"):
            names.append("plots/" + p.stem + suffix)
    listed = wglib.add_to_manifest(outdir, names)
    for p in drawn:
        print("%s" % p)
    if not listed:
        print("wiregraph-plot: note: %s has no %s (a run older than manifests): the next run will not "
              "remove %s" % (outdir, wglib.MANIFEST, plots))
    return 0 if len(drawn) == len(made) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
