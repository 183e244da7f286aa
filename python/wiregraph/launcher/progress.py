"""The launcher's output: whole lines from several reader threads, the
"[cluster] " lines, and the cluster's one load progress line, rewritten in
place on a terminal."""

import re
import sys
import threading
import time

PROGRESS_EVERY_S = 5.0      # the cluster's load progress into a file or pipe: at most this often

_print_lock = threading.Lock()
_progress_shown = [False]   # a progress line is on the terminal, to be rewritten or erased


def _erase_progress():
    if _progress_shown[0]:
        sys.stdout.write("\r\033[K")
        _progress_shown[0] = False


def out(line):
    """Print one whole line to stdout (thread-safe, flushed)."""
    with _print_lock:
        _erase_progress()
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def err(text):
    """Print text and a newline to stderr, never in the middle of a stdout line."""
    with _print_lock:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def show_progress(line, in_place):
    """The cluster's progress line: rewritten in place on a terminal, else a line."""
    with _print_lock:
        _erase_progress()
        if in_place:
            sys.stdout.write(line)
            _progress_shown[0] = True
        else:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()


def say(msg):
    out("[cluster] " + msg)


class ClusterProgress:
    """One load progress line for the cluster out of every node's
    "loading: 45% of this node's 13.7 MB, ETA 3 s" (compute/load/graph_loader.cc):
    the share of all nodes' bytes (or edges) read, and the ETA of the slowest."""

    LINE = re.compile(r"^loading: (\d+)% of this node's ([\d.]+) (MB|edges), ETA (\d+ s|unknown)")

    def __init__(self, nodes, in_place):
        self.nodes = nodes
        self.in_place = in_place
        self.lock = threading.Lock()
        self.latest = {}        # rank -> (fraction, size, unit, eta seconds or None)
        self.shown_at = None

    def take(self, rank, text):
        """True when `text` is a node's progress line (then shown through the cluster's line)."""
        m = self.LINE.match(text)
        if not m:
            return False
        eta = None if m.group(4) == "unknown" else float(m.group(4).split()[0])
        with self.lock:
            self.latest[rank] = (int(m.group(1)) / 100.0, float(m.group(2)), m.group(3), eta)
            now = time.monotonic()
            if not self.in_place and self.shown_at is not None and now - self.shown_at < PROGRESS_EVERY_S:
                return True
            self.shown_at = now
            line = self.line()
        show_progress(line, self.in_place)
        return True

    def line(self):
        sizes = [v[1] for v in self.latest.values()]
        mean = sum(sizes) / len(sizes)
        total = mean * self.nodes   # nodes not heard from yet: a share like the others'
        done = sum(f * size for f, size, _, _ in self.latest.values())
        etas = [v[3] for v in self.latest.values() if v[3] is not None]
        eta = "ETA %.0f s" % max(etas) if etas else "ETA unknown"   # the slowest node heard from
        unit = next(iter(self.latest.values()))[2]
        amount = "%.1f MB" % total if unit == "MB" else "%.0f edges" % total
        return "[cluster] loading: %.0f%% of %s, %s" % (100.0 * done / total if total else 0.0, amount, eta)
