"""Pictures of a run's answer for scripts/wiregraph-plot: the distribution of
the values the program computed, one picture by program (a CCDF on log-log
axes where the values span decades, a histogram where they are few and
small), read from DIR/results.tsv or, without it, the nodes' result-R.txt
(their order does not matter here). Unreached vertices (bfs, sssp: `inf`,
`infinity`, Graphalytics' 9223372036854775807) are counted apart and named
in the title. Standard library and gnuplot (through python/wiregraph/wglib.py) only.
"""

import math
from collections import Counter
from pathlib import Path

from wiregraph import wglib

CCDF_POINTS = 400      # points of a CCDF, log-spaced in rank: a curve, not V points
HISTOGRAM_BINS = 40    # bins of a histogram of reals (sssp distances, lcc coefficients)
UNREACHED = ("inf", "infinity", "+inf", "9223372036854775807")


class NothingToDraw(Exception):
    """The answer has no value the picture shows (the message says why)."""


def values(outdir, nodes):
    """Every vertex's value as text, from results.tsv or the node files."""
    merged = Path(outdir) / "results.tsv"
    if merged.exists():
        with open(merged) as f:
            next(f, None)  # the header
            for line in f:
                yield line[line.find("\t") + 1:].strip()
        return
    for r in range(nodes):
        with open(Path(outdir) / ("result-%d.txt" % r)) as f:
            for line in f:
                yield line[line.find(" ") + 1:].strip()


def numbers(texts):
    """(finite values as floats, how many were unreached)."""
    finite, unreached = [], 0
    for t in texts:
        if t.lower() in UNREACHED:
            unreached += 1
        else:
            finite.append(float(t))
    return finite, unreached


def unreached_note(unreached):
    return "" if unreached == 0 else " (%d unreached vertices not shown)" % unreached


def q(s):
    return '"%s"' % str(s).replace('"', "'")


def ccdf(plots, name, title, xlabel, xs, what="vertices"):
    """P(X >= x) against x on log-log axes, for the positive values of XS (of WHAT)."""
    xs = sorted(x for x in xs if x > 0)
    n = len(xs)
    if n == 0:
        raise NothingToDraw("%s: no value above 0" % name)
    ranks = sorted({max(1, round(n ** (j / CCDF_POINTS))) for j in range(CCDF_POINTS + 1)})
    rows = ["%.9g %.9g" % (xs[n - r], r / n) for r in ranks]
    return wglib.gnuplot(plots, name, """
set title %s
set xlabel %s
set ylabel %s
set logscale xy
set format x '%%g'
set grid
unset key
plot DATA using 1:2 with linespoints pt 7 ps 0.5
""" % (q(title), q(xlabel + " (log scale)"), q("share of the %s with x or more (log scale)" % what)),
        "\n".join(rows) + "\n", who="wiregraph-plot")


def histogram(plots, name, title, xlabel, counts, width):
    """Vertices per value (WIDTH 1: a box on each integer) or per bin (a box
    from each bin's start to its end), log counts: COUNTS maps a value or a
    bin's start to its count."""
    if not counts:
        raise NothingToDraw("%s: no finite value" % name)
    rows = ["%.9g %d" % (x, counts[x]) for x in sorted(counts)]
    lo, hi = min(counts), max(counts)
    centre = 0.0 if width == 1.0 else width / 2
    xrange = (lo - 0.5, hi + 0.5) if width == 1.0 else (lo, hi + width)
    return wglib.gnuplot(plots, name, """
set title %s
set xlabel %s
set ylabel 'vertices (log scale)'
set logscale y
set xrange [%.9g:%.9g]
set yrange [0.8:%d]
set style fill solid 0.7 border -1
set boxwidth %.9g absolute
set grid ytics
unset key
plot DATA using ($1 + %.9g):2 with boxes
""" % (q(title), q(xlabel), xrange[0], xrange[1], 2 * max(counts.values()), width * 0.9, centre),
        "\n".join(rows) + "\n", who="wiregraph-plot")


def binned(xs, lo, hi):
    """Counts of XS in HISTOGRAM_BINS bins over [lo, hi] (one bin per integer when fewer)."""
    span = hi - lo
    integral = all(x == int(x) for x in xs)
    width = 1.0 if integral and span < HISTOGRAM_BINS else (span / HISTOGRAM_BINS or 1.0)
    counts = Counter(lo + width * min(int((x - lo) / width), max(0, math.ceil(span / width) - 1)) for x in xs)
    return counts, width


def degree_distribution(plots, title, nodes):
    """The graph's out- and in-degree distributions (share of vertices with
    degree >= d, log-log) from the nodes' counts (node<R>.json "degrees"),
    as the program's graph has them (made undirected where it asks): None
    when the nodes did not count them (an older build)."""
    totals = {}
    for node in nodes:
        for direction, pairs in (node.get("degrees") or {}).items():
            counts = totals.setdefault(direction, Counter())
            for degree, vertices in pairs:
                counts[degree] += vertices
    if not totals.get("out"):
        return None
    n = sum(totals["out"].values())
    rows, curves = [], []
    for direction in ("out", "in"):
        counts = totals.get(direction)
        if not counts:
            continue
        at_least = n
        for degree in sorted(counts):
            if degree > 0:
                rows.append("%d %.9g" % (degree, at_least / n))
            at_least -= counts[degree]
        rows.append("\n")  # gnuplot: the next data block
        curves.append("DATA index %d using 1:2 with linespoints pt 7 ps 0.5 title '%s-degree (%d with none)'"
                      % (len(curves), direction, counts.get(0, 0)))
    return wglib.gnuplot(plots, "degree_ccdf", """
set title %s
set xlabel 'degree d (log scale)'
set ylabel 'share of the vertices with degree d or more (log scale)'
set logscale xy
set format x '%%g'
set grid
set key top right
plot %s
""" % (q(title + ": degree distribution, %d vertices" % n), ", ".join(curves)), "\n".join(rows) + "\n",
        who="wiregraph-plot")


def sizes(texts):
    """The size of each group of vertices that share a value (components, communities)."""
    return list(Counter(texts).values())


def draw(plots, title, program, outdir, nodes):
    """The answer's picture for PROGRAM; [] when there is none (no program
    known, no results), else [its path or None when gnuplot failed]."""
    try:
        texts = values(outdir, nodes)
        if program == "pagerank":
            made = ccdf(plots, "rank_ccdf", title + ": PageRank, share of vertices with rank >= x",
                        "rank", numbers(texts)[0])
        elif program == "bc":
            made = ccdf(plots, "score_ccdf", title + ": betweenness, share of vertices with score >= x "
                        "(score 0 left out)", "score", numbers(texts)[0])
        elif program in ("cc", "scc"):
            groups = sizes(texts)
            kind = "strongly connected components" if program == "scc" else "components"
            made = ccdf(plots, "component_sizes", title + ": %d %s, share of them with >= s vertices"
                        % (len(groups), kind), "component size s, in vertices", groups, "components")
        elif program in ("cd", "louvain"):
            groups = sizes(texts)
            made = ccdf(plots, "community_sizes", title + ": %d communities, share of them with >= s vertices"
                        % len(groups), "community size s, in vertices", groups, "communities")
        elif program == "bfs":
            xs, unreached = numbers(texts)
            made = histogram(plots, "depth_histogram", title + ": vertices per depth" + unreached_note(unreached),
                             "depth (hops from the source)", Counter(xs), 1.0)
        elif program == "sssp":
            xs, unreached = numbers(texts)
            counts, width = binned(xs, min(xs, default=0), max(xs, default=0))
            made = histogram(plots, "distance_histogram", title + ": vertices per distance" +
                             unreached_note(unreached), "distance from the source (bins of %.6g)" % width,
                             counts, width)
        elif program == "kcore":
            made = histogram(plots, "core_histogram", title + ": vertices per core number", "core number",
                             Counter(numbers(texts)[0]), 1.0)
        elif program == "tc":
            xs = numbers(texts)[0]
            made = ccdf(plots, "triangles_ccdf", title + ": share of vertices in >= t triangles (%d in none, "
                        "left out)" % sum(1 for x in xs if x == 0), "triangles t through the vertex", xs)
        elif program == "lcc":
            xs = numbers(texts)[0]
            counts, width = binned(xs, 0.0, 1.0)
            made = histogram(plots, "coefficient_histogram", title + ": vertices per local clustering coefficient",
                             "coefficient (bins of %.3g)" % width, counts, width)
        elif program == "indegree":
            xs = numbers(texts)[0]
            made = ccdf(plots, "indegree_ccdf", title + ": in-degree distribution, share of vertices with "
                        "in-degree >= d (%d with none, left out)" % sum(1 for x in xs if x == 0),
                        "in-degree d", xs)
        else:
            return []
    except (OSError, ValueError, NothingToDraw) as e:
        print("wiregraph-plot: no picture of the answer: %s" % e)
        return []
    return [made]
