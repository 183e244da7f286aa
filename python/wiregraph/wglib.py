"""What scripts/wiregraph-cluster, scripts/wiregraph-plot, scripts/wiregraph-results,
bench/*.py and the tests share about a run's --out directory: its manifest
and locks (apps/node/out_dir.cc), the node reports (DIR/node<R>.json, written
by compute/report/run_report.cc): reading them, the cluster check that, in
every superstep, the messages sent by all nodes equal the messages
accumulated by all nodes (nothing lost, nothing folded twice), and drawing
with gnuplot. The check exists here only: the launcher runs it after a
clean run with --out and exits non-zero when it fails; bench/loss_table.py
takes its sums from here; the C++ tests read the launcher's verdict line and
test this check through the command below.

As a program:

  python3 -m wiregraph.wglib check-balance DIR NODES

prints what the launcher prints (one line per superstep and the verdict) and
exits 0 when DIR/node0.json .. node<NODES-1>.json balance, 1 otherwise.
Only the Python standard library is used.
"""

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

# The launcher's verdict lines (tests/cluster_harness.cc looks for these).
VERDICT_BALANCED = "cluster check: every message sent was accumulated"
VERDICT_PREFIX = "cluster check: "


def node_report_path(outdir, rank):
    return Path(outdir) / ("node%d.json" % rank)


def read_node_report(path):
    """The parsed node<R>.json; raises OSError or ValueError (json errors are ValueErrors)."""
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def _counter(entry, key, where):
    v = entry.get(key) if isinstance(entry, dict) else None
    if v is None:
        raise ValueError("%s lacks %s" % (where, key))
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError("%s: %s is %r, not a non-negative integer" % (where, key, v))
    return v


def superstep_totals(outdir, nodes):
    """Sums node0..node<nodes-1>.json per superstep.

    Returns (totals, problems): totals maps superstep -> dict(sent=,
    accumulated=, detail=[(rank, sent, accumulated), ...]); problems lists
    missing or unreadable files and malformed entries (each a sentence)."""
    totals, problems = {}, []
    for rank in range(nodes):
        path = node_report_path(outdir, rank)
        try:
            data = read_node_report(path)
            steps = data.get("supersteps")
            if not isinstance(steps, list):
                raise ValueError("no \"supersteps\" array")
            seen = set()
            rows = []
            for i, s in enumerate(steps):
                where = "superstep entry %d" % i
                k = _counter(s, "superstep", where)
                rows.append((k, _counter(s, "messages_sent", where), _counter(s, "messages_accumulated", where)))
                if k in seen:
                    raise ValueError("superstep %d listed twice" % k)
                seen.add(k)
        except FileNotFoundError:
            problems.append("missing %s" % path)
            continue
        except (OSError, ValueError) as e:
            problems.append("%s: %s" % (path, e))
            continue
        for k, sent, acc in rows:
            t = totals.setdefault(k, {"sent": 0, "accumulated": 0, "detail": []})
            t["sent"] += sent
            t["accumulated"] += acc
            t["detail"].append((rank, sent, acc))
    if not problems and not totals:
        problems.append("no node recorded any superstep")
    return totals, problems


def check_message_balance(outdir, nodes, out=print, per_superstep=True):
    """The cluster check: prints the verdict (and, if per_superstep, one line
    per superstep before it) through `out`; returns True when every node
    reported and, in every superstep, the messages sent equal the messages
    accumulated."""
    totals, problems = superstep_totals(outdir, nodes)
    for k in sorted(totals) if per_superstep else []:
        out("cluster superstep %d: messages sent %d, accumulated %d"
            % (k, totals[k]["sent"], totals[k]["accumulated"]))
    for p in problems:
        out(VERDICT_PREFIX + "FAILED: " + p)
    # With a node missing the sums are partial: no mismatch is claimed.
    wrong = [] if problems else [k for k in sorted(totals) if totals[k]["sent"] != totals[k]["accumulated"]]
    for k in wrong:
        t = totals[k]
        out(VERDICT_PREFIX + "MISMATCH in superstep %d: sent %d, accumulated %d (%+d; sent/accumulated: %s)"
            % (k, t["sent"], t["accumulated"], t["accumulated"] - t["sent"],
               " ".join("node%d=%d/%d" % d for d in t["detail"])))
    if problems or wrong:
        return False
    out(VERDICT_BALANCED)
    return True


# ----------------------------------------------------------------------------
# the --out directory a run owns (apps/node/out_dir.cc has the rules)

MANIFEST = "wiregraph-run.json"
CLAIM_LOCK = ".wiregraph-run.lock"   # serialises changes to the manifest (the nodes' claims too)


def _same_file(fd, path):
    try:
        held, named = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)


def _lock_file(path, operation):
    """Opens (creating it) and flocks PATH as apps/node/out_dir.cc's lock_file
    does: a lock that lands on a file removed meanwhile is taken again."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, operation)
        except OSError:
            os.close(fd)
            raise
        if _same_file(fd, path):
            return fd
        os.close(fd)


def _release_lock_file(fd, path):
    """Removes a lock file this process holds unless another process holds it too, then lets it go."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if _same_file(fd, path):
            os.unlink(path)
    except OSError:
        pass  # another holder: it removes the file when it lets go
    finally:
        os.close(fd)


def add_to_manifest(outdir, names):
    """Lists NAMES (relative to OUTDIR) in the run's manifest, under the lock
    the nodes claim OUTDIR with, so that the next run into OUTDIR removes them
    with the run's other files. False when OUTDIR has no manifest."""
    outdir = Path(outdir)
    manifest = outdir / MANIFEST
    if not manifest.exists():
        return False
    fd = _lock_file(outdir / CLAIM_LOCK, fcntl.LOCK_EX)
    try:
        data = json.loads(manifest.read_text())
        files = data.setdefault("files", [])
        for n in names:
            if n not in files:
                files.append(n)
        tmp = outdir / ".wiregraph-run.json.new"
        tmp.write_text(json.dumps(data, indent=2) + "\n")
        os.replace(tmp, manifest)
    finally:
        _release_lock_file(fd, outdir / CLAIM_LOCK)
    return True


def remove_ended_run_lock(outdir):
    """Removes DIR/.wiregraph-<run>.lock of the run the manifest names once no
    process holds it: the nodes' last one removes it as it exits, but a node
    killed (the launcher stops the others when one fails) cannot. True when
    it removed one."""
    outdir = Path(outdir)
    try:
        run = json.loads((outdir / MANIFEST).read_text())["run"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    path = outdir / (".wiregraph-%s.lock" % run)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if _same_file(fd, path):
            os.unlink(path)
            return True
    except OSError:
        pass  # a live process of the run holds it
    finally:
        os.close(fd)
    return False


def gnuplot(plots_dir, name, script, data, who="wglib"):
    """Writes plots_dir/NAME.dat (the data) and NAME.gp (the script, DATA
    standing for the data file) and runs gnuplot into NAME.png (1000x560).
    Returns the PNG's path, or None after saying why (as `who`)."""
    plots_dir = Path(plots_dir)
    plots_dir.mkdir(parents=True, exist_ok=True)
    dat = plots_dir / (name + ".dat")
    gp = plots_dir / (name + ".gp")
    png = plots_dir / (name + ".png")
    dat.write_text(data)
    gp.write_text("set terminal pngcairo size 1000,560 noenhanced font ',10'\nset output '%s'\n%s\n"
                  % (png, script.replace("DATA", "'%s'" % dat)))
    try:
        r = subprocess.run(["gnuplot", str(gp)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        print("%s: gnuplot not available: %s" % (who, e))
        return None
    if r.returncode != 0 or not png.exists():
        print("%s: gnuplot failed for %s: %s" % (who, name, r.stdout.strip()[:400]))
        return None
    return png


def main(argv):
    if len(argv) != 3 or argv[0] != "check-balance":
        print("usage: python3 -m wiregraph.wglib check-balance DIR NODES", file=sys.stderr)
        return 2
    try:
        nodes = int(argv[2])
    except ValueError:
        print("wiregraph.wglib: NODES must be an integer, not %r" % argv[2], file=sys.stderr)
        return 2
    return 0 if check_message_balance(argv[1], nodes, lambda line: print(line, flush=True)) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
