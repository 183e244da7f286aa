"""One results file of a run: the nodes' DIR/result-R.txt merged into
DIR/results.tsv (or results.npy), one line per vertex sorted by vertex id,
under a header that names the columns: `vertex` and the program's value
(summary.json's results.value_column: rank, depth, distance, ...). A program
whose results are per edge (summary.json's results.rows "edge": jaccard) has
one line per edge instead, sorted by (src, dst), under `src dst` and its value.
A program with several values per vertex names a column each
(results.value_columns: ppr's ppr_<seed>, one per seed).

Each node writes its result-R.txt sorted by vertex (or edge) (apps/node/run_program.h),
so the merge is a k-way merge that streams: memory does not grow with the
graph. A file out of order (a binary older than that) is merged by a sort in
memory instead. Used by scripts/wiregraph-results (the command: main) and
scripts/wiregraph-cluster (after a run with --out); docs/OUTPUT.md has the
formats. Standard library only.
"""

import argparse
import heapq
import json
import os
import struct
import sys
from pathlib import Path

from wiregraph import wglib

FORMATS = ("tsv", "npy")
UNREACHED = ("inf", "infinity", "+inf", "+infinity")  # as the plain and Graphalytics outputs write it
INT64_MAX = 9223372036854775807  # Graphalytics' unreachable BFS depth
BATCH = 65536  # lines written at a time


class ResultsError(Exception):
    """The directory does not hold a whole run's results (the message says why)."""


class _OutOfOrder(Exception):
    pass


def default_name(fmt):
    return "results." + fmt


def describe_run(outdir):
    """(nodes, value columns, value type, rows: "vertex" or "edge") from DIR/summary.json (rank 0's):
    one column, or one per value of a multi-valued program (results.value_columns)."""
    path = Path(outdir) / "summary.json"
    try:
        summary = json.loads(path.read_text())
        nodes = summary["nodes"]
        results = summary["results"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ResultsError("%s: %s (not the --out directory of a finished run)" % (path, e))
    column = results.get("value_column") if isinstance(results, dict) else None
    if not column:
        raise ResultsError("%s names no value column (written by a wiregraph older than results.tsv): "
                           "run it again with this one" % path)
    # Several values per vertex (ppr: one per seed) name a column each.
    columns = results.get("value_columns") or [column]
    return nodes, columns, results.get("value_type", "real"), results.get("rows", "vertex")


def _key_parser(rows):
    """A result line's key: (vertex,) or, for per-edge rows, (src, dst)."""
    fields = 2 if rows == "edge" else 1
    shape = "'<src> <dst> <value>'" if rows == "edge" else "'<vertex> <value>'"

    def key(line, path):
        try:
            parts = line.split(" ", fields)
            if len(parts) <= fields:
                raise ValueError
            return tuple(int(x) for x in parts[:fields])
        except ValueError:
            raise ResultsError("%s: not a %s line: %r" % (path, shape, line[:80]))
    return key


def _named(key):
    return ("vertex %d" % key) if len(key) == 1 else ("edge %d %d" % key)


def _merged(paths, key_of):
    """Every node's (key, line) by key, in batches: a k-way merge of the
    sorted files. _OutOfOrder when a file is not sorted, ResultsError when a
    vertex (an edge) comes twice."""
    files = [open(p) for p in paths]
    try:
        heap = []
        for i, f in enumerate(files):
            line = f.readline()
            if line:
                heap.append((key_of(line, paths[i]), i, line))
        heapq.heapify(heap)
        batch, last = [], None
        while heap:
            vertex, i, line = heap[0]
            if vertex == last:
                raise ResultsError("%s is in the results twice (files of two runs?)" % _named(vertex))
            last = vertex
            batch.append((vertex, line))
            line = files[i].readline()
            if not line:
                heapq.heappop(heap)
            else:
                following = key_of(line, paths[i])
                if following <= vertex:
                    raise _OutOfOrder()
                heapq.heapreplace(heap, (following, i, line))
            if len(batch) == BATCH:
                yield batch
                batch = []
        yield batch
    finally:
        for f in files:
            f.close()


def _sorted_in_memory(paths, key_of):
    """The same from files in any order: a sort in memory (as much as the lines)."""
    rows = []
    for path in paths:
        with open(path) as f:
            rows.extend((key_of(line, path), line) for line in f)
    rows.sort()
    for k in range(1, len(rows)):
        if rows[k][0] == rows[k - 1][0]:
            raise ResultsError("%s is in the results twice (files of two runs?)" % _named(rows[k][0]))
    for k in range(0, len(rows), BATCH):
        yield rows[k:k + BATCH]


def _key_columns(rows):
    return ("src", "dst") if rows == "edge" else ("vertex",)


def _write_tsv(f, batches, columns, rows="vertex"):
    keys = _key_columns(rows)
    f.write("\t".join(keys + tuple(columns)) + "\n")
    n = 0
    for batch in batches:
        f.writelines([line.replace(" ", "\t", len(keys) + len(columns) - 1) for _, line in batch])
        n += len(batch)
    return n


def _value_parser(value_type):
    """Text to the .npy's value: reals as float64 (unreached: inf), integers as
    int64 (unreached: -1)."""
    if value_type == "real":
        return float

    def integer(text):
        text = text.strip()
        if text.lower() in UNREACHED:
            return -1
        v = int(text)
        return -1 if v == INT64_MAX else v
    return integer


def npy_header(columns, value_type, count, rows="vertex"):
    """The .npy format 1.0 header (numpy.lib.format): magic, version, length,
    the dict, padded with spaces and a newline to a multiple of 64 bytes. The
    shape is padded to 20 digits' room so that it can be written before the
    count is known and again, the same length, after."""
    if isinstance(columns, str):
        columns = [columns]
    kind = "<f8" if value_type == "real" else "<i8"
    fields = ["('%s', '<i8')" % k for k in _key_columns(rows)] + ["(%r, '%s')" % (c, kind) for c in columns]
    descr = "[%s]" % ", ".join(fields)
    text = "{'descr': %s, 'fortran_order': False, 'shape': (%d,), }" % (descr, count)
    text += " " * (20 - len(str(count)))
    pad = -(10 + len(text) + 1) % 64
    text += " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode("latin1")


def _write_npy(f, batches, columns, value_type, rows="vertex"):
    f.write(npy_header(columns, value_type, 0, rows))
    width = len(_key_columns(rows))
    pack = struct.Struct("<" + "q" * width + ("d" if value_type == "real" else "q") * len(columns)).pack
    parse = _value_parser(value_type)
    if len(columns) == 1:
        values = lambda line: (parse(line.split(" ", width)[width]),)
    else:
        values = lambda line: [parse(v) for v in line.split()[width:]]
    n = 0
    for batch in batches:
        try:
            f.write(b"".join([pack(*key, *values(line)) for key, line in batch]))
        except (ValueError, struct.error) as e:
            raise ResultsError("a value of %s..%s: %s" % (_named(batch[0][0]), _named(batch[-1][0]), e))
        n += len(batch)
    f.seek(0)
    f.write(npy_header(columns, value_type, n, rows))
    return n


def write_results(outdir, fmt="tsv", name=None):
    """Writes DIR/NAME (default results.tsv or results.npy), lists it in the
    run's manifest and returns (path, lines, value columns as text, rows). ResultsError when
    DIR does not hold a finished run's results."""
    if fmt not in FORMATS:
        raise ResultsError("--format %s: tsv or npy" % fmt)
    outdir = Path(outdir)
    name = name or default_name(fmt)
    if "/" in name or name in ("", ".", ".."):
        raise ResultsError("--name %s: a file name in %s, without '/'" % (name, outdir))
    nodes, columns, value_type, rows = describe_run(outdir)
    key_of = _key_parser(rows)
    paths = [outdir / ("result-%d.txt" % r) for r in range(nodes)]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise ResultsError("missing %s" % ", ".join(missing))
    # Listed first: a merge cut short leaves NAME.part, which the next run removes with NAME.
    wglib.add_to_manifest(outdir, [name])
    final = outdir / name
    tmp = outdir / (name + ".part")
    for lines in (lambda: _merged(paths, key_of), lambda: _sorted_in_memory(paths, key_of)):
        try:
            with open(tmp, "wb" if fmt == "npy" else "w") as f:
                n = (_write_npy(f, lines(), columns, value_type, rows) if fmt == "npy"
                     else _write_tsv(f, lines(), columns, rows))
            break
        except _OutOfOrder:
            continue
        except (ResultsError, OSError):
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    os.replace(tmp, final)
    return final, n, ", ".join(columns), rows


def written_line(path, n, column, rows, fmt):
    """What the launcher and the command say of the file written."""
    what = "%d edges, columns src, dst" % n if rows == "edge" else "%d vertices, columns vertex" % n
    return "%s (%s and %s): %s" % (path, what, column, load_line(path, fmt))


def load_line(path, fmt):
    """The one line of Python that loads it (the launcher says it)."""
    if fmt == "npy":
        return "numpy.load(%r)" % str(path)
    return "pandas.read_csv(%r, sep='\\t')" % str(path)


def main(argv=None):
    """scripts/wiregraph-results DIR [--name FILE] [--format tsv|npy]: merges
    a finished run's DIR/result-R.txt into one file (write_results). Exit
    status: 0 written, 1 it could not be (DIR holds no finished run's
    results, a file is unreadable), 2 a usage error."""
    ap = argparse.ArgumentParser(prog="wiregraph-results", description="One results file of a wiregraph run.",
                                 epilog="Loading it: pandas.read_csv('DIR/results.tsv', sep='\\t') or "
                                        "numpy.load('DIR/results.npy'); see docs/OUTPUT.md.")
    ap.add_argument("outdir", metavar="DIR", help="a finished run's --out directory")
    ap.add_argument("--format", choices=FORMATS, default="tsv",
                    help="tsv (default): text with a header line; npy: a numpy structured array")
    ap.add_argument("--name", metavar="FILE", help="the file's name in DIR (default results.tsv or results.npy)")
    args = ap.parse_args(argv)
    try:
        written = write_results(args.outdir, args.format, args.name)
    except (ResultsError, OSError) as e:
        print("wiregraph-results: error: %s" % e, file=sys.stderr)
        return 1
    print("results: " + written_line(*written, args.format))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
