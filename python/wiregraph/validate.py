"""Validate a run's output against a reference output: Graphalytics' rules, or the program's own.

Usage: wiregraph-validate [--algorithm ALG] OUTPUT REFERENCE [--max-errors N]

OUTPUT and REFERENCE are files or directories of "id value" lines (a
directory's result-*.txt files if it has any, else every file in it but
*.json). Every output wiregraph writes is read: plain (`inf` for an
unreachable vertex) and --output-format graphalytics alike. A program whose
results are per edge (the report's results.rows "edge": jaccard) writes
"src dst value" lines; both outputs must then hold the same edges (an edge
{u, v} either way round) and the rule applies to each edge's value.

The rule:
  --algorithm ALG, one of Graphalytics' algorithms (bfs, cdlp, lcc, pr, sssp,
      wcc): Graphalytics' rule for it (below);
  otherwise the rule the output directory's report states (nodeR.json and
      summary.json: `results`, written by wiregraph from the program's traits:
      "exact", "distance" or "real" within a tolerance), for every program
      wiregraph runs. ALG, when given and not a Graphalytics algorithm, must be
      the program the report names.

The rules are Graphalytics' (specification github.com/ldbc/ldbc_graphalytics_docs,
tex/definition.tex, "Output Validation"; implementation ldbc_graphalytics,
graphalytics-core/.../validation): both outputs must hold the same number of
vertices and the same vertex ids; then per algorithm
  exact match (cdlp; wiregraph's "exact")
                            every value equal, as 64-bit integers
  distance (bfs; wiregraph's "distance")
                            exact match of integers (also written as integral
                            reals, as Graphalytics' output writes distances),
                            where an unreachable vertex may be written inf,
                            infinity or 9223372036854775807 (Graphalytics' BFS
                            infinity): all mean the same
  equivalence (wcc)         labels equal up to a renaming: two vertices share a
                            label in one output exactly when they do in the other
  epsilon match (pr, lcc, sssp; wiregraph's "real")
                            |r - s| <= 1e-4 |r| (wiregraph: the program's
                            tolerance) for reference r and output s
                            (so 0 matches only 0); infinity ("inf", "infinity",
                            any case, optional '+') matches only infinity
Prints the first mismatches (--max-errors, default 10) and a verdict. Exit
status: 0 valid, 1 invalid, 2 a usage error or an unreadable or malformed file.
"""

import argparse
import glob
import json
import math
import os
import sys

EPSILON = 1e-4
# Graphalytics' algorithms and their rules. wiregraph's programs state theirs
# in the reports they write (RULE_OF_COMPARISON); none is named here.
RULES = {"bfs": "distance", "cdlp": "exact", "wcc": "equivalence", "pr": "epsilon", "lcc": "epsilon",
         "sssp": "epsilon"}
RULE_OF_COMPARISON = {"exact": "exact", "distance": "distance", "real": "epsilon"}
UNREACHABLE = 2**63 - 1  # Graphalytics' BFS infinity
INFINITY_WORDS = ("inf", "+inf", "infinity", "+infinity")


class Malformed(Exception):
    pass


class Usage(Exception):
    pass


def files_of(path):
    if os.path.isdir(path):
        results = sorted(glob.glob(os.path.join(path, "result-*.txt")))
        if results:
            return results
        return sorted(p for p in glob.glob(os.path.join(path, "*"))
                      if os.path.isfile(p) and not p.endswith(".json") and not p.endswith(".part"))
    if os.path.isfile(path):
        return [path]
    raise Malformed(f"{path}: no such file or directory")


def parse_value(text, rule, where):
    if rule == "epsilon":
        try:
            return float(text)  # accepts inf, +inf, infinity, Infinity
        except ValueError:
            raise Malformed(f"{where}: value '{text}' is not a number") from None
    if rule == "distance" and text.lower() in INFINITY_WORDS:
        return UNREACHABLE
    try:
        return int(text)
    except ValueError:
        pass
    if rule == "distance":  # Graphalytics' output writes SSSP distances as reals: 1.200000000000000e+01
        try:
            x = float(text)
        except ValueError:
            x = math.nan
        if math.isfinite(x) and x == int(x):
            return int(x)
    kind = "an integer, an integral real or inf" if rule == "distance" else "an integer"
    raise Malformed(f"{where}: value '{text}' is not {kind}")


def report_of(path):
    """The `results` of a wiregraph output directory's report (summary.json,
    else a nodeR.json), or None for a file or a directory without one."""
    if not os.path.isdir(path):
        return None
    for name in ["summary.json"] + sorted(os.path.basename(p) for p in glob.glob(os.path.join(path, "node*.json"))):
        p = os.path.join(path, name)
        if not os.path.isfile(p):
            continue
        try:
            with open(p, encoding="utf-8") as f:
                results = json.load(f).get("results")
        except (OSError, ValueError) as e:
            raise Malformed(f"{p}: not a wiregraph report: {e}") from None
        if results is not None:
            return results
    return None


def choose_rule(algorithm, output_path, reference_path):
    """(rule, epsilon, name, rows, columns): Graphalytics' rule for a
    Graphalytics algorithm, else the one the output's (or the reference's)
    report states; rows "vertex", or "edge" for per-edge results; columns the
    values a line holds (personalized PageRank: one per seed)."""
    if algorithm in RULES:
        return RULES[algorithm], EPSILON, algorithm, "vertex", 1
    results = report_of(output_path) or report_of(reference_path)
    if results is None:
        raise Usage("no rule: give --algorithm (one of Graphalytics': " + ", ".join(sorted(RULES)) +
                    ") or an OUTPUT directory written by wiregraph (its nodeR.json states how its results compare)")
    program = results.get("program")
    if algorithm is not None and algorithm != program:
        raise Usage(f"--algorithm {algorithm}: not one of Graphalytics' ({', '.join(sorted(RULES))}), "
                    f"and the report says the results are {program}'s")
    rule = RULE_OF_COMPARISON.get(results.get("comparison"))
    if rule is None:
        raise Malformed(f"the report of {program} states an unknown comparison {results.get('comparison')!r}")
    epsilon = float(results.get("tolerance") or EPSILON)
    columns = len(results.get("value_columns") or [None])
    return rule, epsilon, program, results.get("rows", "vertex"), columns


def read_output(path, rule, rows="vertex", columns=1):
    """{vertex id: value} (per-edge rows: {(smaller id, larger id): value}) of
    every file of `path`, the value a tuple of `columns` values when there are
    several; duplicate ids (edges) are an error."""
    keys = 2 if rows == "edge" else 1
    values = {}
    paths = files_of(path)
    if not paths:
        raise Malformed(f"{path}: no result files")
    for p in paths:
        with open(p, encoding="ascii", errors="replace") as f:
            for n, line in enumerate(f, 1):
                fields = line.split()
                if not fields:
                    continue
                where = f"{p}:{n}"
                if len(fields) != keys + columns:
                    shape = ("src dst" if keys == 2 else "id") + (" value" if columns == 1 else f" and {columns} values")
                    raise Malformed(f"{where}: expected '{shape}', found {len(fields)} fields")
                try:
                    ids = [int(x) for x in fields[:keys]]
                except ValueError:
                    raise Malformed(f"{where}: a vertex id of '{' '.join(fields[:keys])}' is not an integer") from None
                vertex = ids[0] if keys == 1 else (min(ids), max(ids))
                if vertex in values:
                    raise Malformed(f"{where}: {named(vertex)} appears twice")
                parsed = tuple(parse_value(x, rule, where) for x in fields[keys:])
                values[vertex] = parsed[0] if columns == 1 else parsed
    return values


def named(key):
    """"vertex 7" or "edge 3 9"."""
    return f"edge {key[0]} {key[1]}" if isinstance(key, tuple) else f"vertex {key}"


def epsilon_match(r, s, epsilon=EPSILON):
    if isinstance(r, tuple):  # several values a line: every one
        return all(epsilon_match(a, b, epsilon) for a, b in zip(r, s))
    if math.isinf(r) or math.isinf(s):
        return r == s
    return abs(r - s) <= epsilon * abs(r)


def mismatches(rule, reference, output, epsilon=EPSILON):
    """(vertex, expected, actual) for every vertex that fails, in id order."""
    if rule in ("exact", "distance"):
        return [(v, reference[v], output[v]) for v in sorted(reference) if reference[v] != output[v]]
    if rule == "epsilon":
        return [(v, reference[v], output[v]) for v in sorted(reference)
                if not epsilon_match(reference[v], output[v], epsilon)]
    # Equivalence: the first output label met for each reference label (and
    # back) must be the only one.
    to_output, to_reference, bad = {}, {}, []
    for v in sorted(reference):
        r, s = reference[v], output[v]
        if to_output.setdefault(r, s) != s or to_reference.setdefault(s, r) != r:
            bad.append((v, r, s))
    return bad


def shown(rule, x):
    return "inf" if rule == "distance" and x == UNREACHABLE else repr(x)


def validate(algorithm, output_path, reference_path, max_errors, out=sys.stdout):
    rule, epsilon, algorithm, rows, columns = choose_rule(algorithm, output_path, reference_path)
    reference = read_output(reference_path, rule, rows, columns)
    output = read_output(output_path, rule, rows, columns)
    noun = "edge" if rows == "edge" else "vertex"
    problems = []
    if len(output) != len(reference):
        problems.append(f"{noun} count is incorrect, expected: {len(reference)}, actual: {len(output)}")
    missing = sorted(set(reference) - set(output))
    extra = sorted(set(output) - set(reference))
    problems += [f"{named(v)} is in the reference but not in the output" for v in missing[:max_errors]]
    problems += [f"{named(v)} is in the output but not in the reference" for v in extra[:max_errors]]
    if not problems:
        bad = mismatches(rule, reference, output, epsilon)
        for v, r, s in bad[:max_errors]:
            if rule == "equivalence":
                problems.append(f"{named(v)}: label {s} does not correspond to reference label {r} "
                                f"(another vertex pairs them differently)")
            else:
                problems.append(f"{named(v)}: expected {shown(rule, r)}, actual {shown(rule, s)}")
        if len(bad) > max_errors:
            problems.append(f"... and {len(bad) - max_errors} more mismatching {'edges' if rows == 'edge' else 'vertices'}")
    if problems:
        for p in problems:
            print(f"validation failed ({algorithm}, {rule} rule): {p}", file=out)
        print(f"INVALID: {output_path} does not match {reference_path}", file=out)
        return False
    print(f"VALID: {len(reference)} {'edges' if rows == 'edge' else 'vertices'} of {output_path} match {reference_path} ({algorithm}, {rule} rule)",
          file=out)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(prog="wiregraph-validate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--algorithm", "-a",
                        help="a Graphalytics algorithm (" + ", ".join(sorted(RULES)) + "), or the program "
                             "the output's report names; default: the report's rule")
    parser.add_argument("--max-errors", type=int, default=10)
    parser.add_argument("output")
    parser.add_argument("reference")
    args = parser.parse_args(argv)
    try:
        return 0 if validate(args.algorithm, args.output, args.reference, args.max_errors) else 1
    except (Malformed, Usage, OSError) as e:
        print(f"wiregraph-validate: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
