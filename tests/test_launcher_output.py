"""What the launcher prints (wiregraph.launcher.progress, reports,
processes), without a node: the cluster's one load progress line out of the
nodes' lines, at most every 5 s into a file and in place on a terminal; how a
node ended; the summary lines. Time is the test's (a fake clock), never
slept. Run by meson (suite unit) as `python3 tests/test_launcher_output.py
-v` (pytest)."""

import signal
import sys

import pytest

from wiregraph.launcher import progress
from wiregraph.launcher.processes import Node
from wiregraph.launcher.reports import print_summary


class Clock:
    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(progress.time, "monotonic", c.monotonic)
    return c


def test_the_clusters_share_counts_nodes_not_heard_from_like_the_others(capsys, clock):
    p = progress.ClusterProgress(2, in_place=False)
    assert p.take(0, "loading: 50% of this node's 10.0 MB, ETA 3 s")
    # 5 MB of 2 x 10 MB read; node 1 not heard from yet
    assert capsys.readouterr().out == "[cluster] loading: 25% of 20.0 MB, ETA 3 s\n"
    clock.now += 5.0
    assert p.take(1, "loading: 100% of this node's 30.0 MB, ETA 7 s")
    # (5 + 30) of 40 MB; the slowest node's ETA
    assert capsys.readouterr().out == "[cluster] loading: 88% of 40.0 MB, ETA 7 s\n"


def test_into_a_file_at_most_every_5_s(capsys, clock):
    p = progress.ClusterProgress(1, in_place=False)
    assert p.take(0, "loading: 10% of this node's 1000 edges, ETA unknown")
    clock.now += 4.9
    assert p.take(0, "loading: 20% of this node's 1000 edges, ETA unknown")   # taken, not shown
    clock.now += 0.1
    assert p.take(0, "loading: 30% of this node's 1000 edges, ETA 2 s")
    assert capsys.readouterr().out == ("[cluster] loading: 10% of 1000 edges, ETA unknown\n"
                                       "[cluster] loading: 30% of 1000 edges, ETA 2 s\n")


def test_other_lines_are_not_progress(capsys, clock):
    p = progress.ClusterProgress(2, in_place=False)
    assert not p.take(0, "graph: 1024 vertices, 8192 edges")
    assert not p.take(0, "loading: done")
    assert capsys.readouterr().out == ""


def test_on_a_terminal_the_line_is_rewritten_and_erased_before_other_output(capsys, clock):
    p = progress.ClusterProgress(1, in_place=True)
    p.take(0, "loading: 10% of this node's 4.0 MB, ETA 9 s")
    p.take(0, "loading: 50% of this node's 4.0 MB, ETA 4 s")    # in place: every line shows
    progress.say("node 0: exit code 0, 1.00 s")
    assert capsys.readouterr().out == ("[cluster] loading: 10% of 4.0 MB, ETA 9 s"
                                       "\r\033[K[cluster] loading: 50% of 4.0 MB, ETA 4 s"
                                       "\r\033[K[cluster] node 0: exit code 0, 1.00 s\n")


def node(rank, rc, seconds, killed=False):
    n = Node(rank, ["wiregraph"])
    n.proc = object()            # started
    n.t_start, n.t_end, n.rc, n.killed = 100.0, 100.0 + seconds, rc, killed
    return n


@pytest.mark.parametrize("rc, killed, words, code", [
    (0, False, "exit code 0", 0),
    (3, False, "exit code 3", 3),
    (-signal.SIGKILL, True, "killed by SIGKILL (sent by the launcher)", 137),
    (-signal.SIGSEGV, False, "killed by SIGSEGV", 139),
    (-signal.SIGTERM, False, "killed by SIGTERM", 143),   # not the launcher's
])
def test_how_a_node_ended(rc, killed, words, code):
    n = node(0, rc, 1.0, killed)
    assert (n.describe_rc(), n.exit_code()) == (words, code)
    assert Node(0, []).describe_rc() == "still running"


def test_a_line_per_node_up_to_eight(capsys):
    nodes = [node(0, 0, 1.5), node(1, 1, 0.25)]
    nodes.append(Node(2, ["wiregraph"]))      # never started
    print_summary(nodes)
    assert capsys.readouterr().out == ("[cluster] node 0: exit code 0, 1.50 s\n"
                                       "[cluster] node 1: exit code 1, 0.25 s\n"
                                       "[cluster] node 2: not started\n")


def test_beyond_eight_nodes_those_that_exited_0_share_a_line(capsys):
    nodes = [node(r, 3 if r == 7 else 0, 1.0 + r / 4) for r in range(10)]
    print_summary(nodes)
    assert capsys.readouterr().out == ("[cluster] node 7: exit code 3, 2.75 s\n"
                                       "[cluster] nodes 0-6,8-9: exit code 0, 1.00 to 3.25 s\n")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__] + sys.argv[1:]))
