"""The node processes: each in its own session (so that the launcher signals
its whole group) and dying with the launcher; a reader thread per node that
streams its output; stopping them all; finding a job's live nodes."""

import os
import signal
import subprocess
import threading
import time

from .progress import out, say

KILL_GRACE_S = 5.0          # SIGTERM -> SIGKILL


class Interrupted(Exception):
    """SIGINT or SIGTERM reached the launcher."""


class Node:
    def __init__(self, rank, argv):
        self.rank = rank
        self.argv = argv
        self.proc = None
        self.t_start = None
        self.t_end = None
        self.rc = None          # exit status as Popen reports it (negative = signal)
        self.killed = False     # we sent it a signal
        self.reader = None

    def describe_rc(self):
        if self.rc is None:
            return "still running"
        if self.rc < 0:
            try:
                name = signal.Signals(-self.rc).name
            except ValueError:
                name = "signal %d" % -self.rc
            s = "killed by %s" % name
            sent = self.killed and -self.rc in (signal.SIGTERM, signal.SIGKILL)
            return s + (" (sent by the launcher)" if sent else "")
        return "exit code %d" % self.rc

    def exit_code(self):
        if self.rc is None:
            return None
        return 128 - self.rc if self.rc < 0 else self.rc


def _child_setup():
    # Die with the launcher (the own session comes from start_new_session).
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except Exception:
        pass


def reader_thread(node, exitq, verbose, progress):
    prefix = "[node %d] " % node.rank
    summary = False     # inside node 0's end-of-run summary: its lines go out without the prefix
    f = node.proc.stdout
    for raw in iter(f.readline, b""):
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        if node.rank == 0:
            summary = text.startswith("summary: ") or (summary and text.startswith("  "))
        if summary:
            out(text)
        elif verbose or not progress.take(node.rank, text):
            out(prefix + text)
    f.close()
    node.proc.wait()
    node.t_end = time.monotonic()
    node.rc = node.proc.returncode
    exitq.put(node.rank)


def start_node(node, exitq, env, verbose, progress):
    node.t_start = time.monotonic()
    node.proc = subprocess.Popen(node.argv, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 start_new_session=True, preexec_fn=_child_setup,
                                 env=env)
    node.reader = threading.Thread(target=reader_thread, args=(node, exitq, verbose, progress), daemon=True)
    node.reader.start()


def signal_group(node, sig):
    if node.proc is None or node.proc.poll() is not None:
        return
    node.killed = True
    try:
        os.killpg(node.proc.pid, sig)
    except ProcessLookupError:
        pass
    except PermissionError:
        try:
            node.proc.send_signal(sig)
        except ProcessLookupError:
            pass


def kill_all(nodes, grace=KILL_GRACE_S):
    live = [n for n in nodes if n.proc is not None and n.proc.poll() is None]
    for n in live:
        signal_group(n, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for n in live:
        try:
            n.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for n in live:
        if n.proc.poll() is None:
            signal_group(n, signal.SIGKILL)
    for n in live:
        try:
            n.proc.wait(5)
        except subprocess.TimeoutExpired:
            say("warning: node %d (pid %d) did not die after SIGKILL" % (n.rank, n.proc.pid))
    # let the reader threads drain the pipes and record exit status
    for n in nodes:
        if n.reader is not None:
            n.reader.join(2)
        if n.proc is not None and n.rc is None and n.proc.poll() is not None:
            n.rc = n.proc.returncode
            n.t_end = n.t_end or time.monotonic()


def job_processes(job):
    """PIDs of live processes started with --file-prefix wg<J>r<R>: the job's nodes."""
    pids = []
    want = ("wg%sr" % job).encode()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        for i, a in enumerate(args):
            value = args[i + 1] if a == b"--file-prefix" and i + 1 < len(args) else \
                a[len(b"--file-prefix="):] if a.startswith(b"--file-prefix=") else b""
            if value.startswith(want):
                pids.append(int(d))
                break
    return pids
