#!/usr/bin/env python3
"""Run a wiregraph node and record its peak resident set size.

scripts/wiregraph-cluster --binary bench/wg_timed.py starts this instead of
the node binary; it runs the real binary (WG_BENCH_BINARY, default
build/apps/wiregraph next to this file's project) with the same arguments,
waits for it with wait4() and writes one line

    <peak RSS KiB> <wall seconds> <user seconds> <system seconds> <exit status>

to $WG_BENCH_RSS_DIR/rss-<rank>.txt (the rank is taken from --rank). The
engine is not touched. Signals the launcher sends to the process group reach
the node directly; SIGTERM/SIGINT sent to this wrapper alone are forwarded.

Peak RSS counts every page the node touched: the graph as loaded (each node
loads the whole graph before keeping its part), its partition, the
accumulators, and DPDK memory when it runs with --no-huge (the mbuf pool is
written when created). Hugepage-backed DPDK memory (--in-memory) is not in
RSS.
"""
import os
import signal
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv):
    binary = os.environ.get("WG_BENCH_BINARY", str(HERE.parent / "build" / "apps" / "wiregraph"))
    # The launcher asks the binary to check the options (and --version, --help)
    # before any node starts: no node runs, so nothing is recorded (an rss file
    # in --out DIR would be a stranger's file to the nodes that follow).
    if any(a in ("--check-options", "--version", "--help", "--help-all") for a in argv):
        os.execv(binary, [binary] + argv)
    outdir = os.environ.get("WG_BENCH_RSS_DIR", "/tmp")
    rank = "0"
    for i, a in enumerate(argv):
        if a == "--rank" and i + 1 < len(argv):
            rank = argv[i + 1]
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execv(binary, [binary] + argv)
        finally:
            os._exit(127)

    def forward(signum, _frame):
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, forward)
    while True:
        try:
            _, status, ru = os.wait4(pid, 0)
            break
        except InterruptedError:
            continue
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    try:
        Path(outdir, "rss-%s.txt" % rank).write_text(
            "%d %.3f %.3f %.3f %d\n" % (ru.ru_maxrss, wall, ru.ru_utime, ru.ru_stime, code))
    except OSError as e:
        print("wg_timed: cannot write %s: %s" % (outdir, e), file=sys.stderr)
    if code < 0:  # killed by a signal: die the same way
        if -code not in (signal.SIGKILL, signal.SIGSTOP):  # (those two keep no handler to reset)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
