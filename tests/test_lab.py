#!/usr/bin/env python3
"""The lab suite: wiregraph under the launchers a lab cluster has (issue #25).

Real Slurm daemons (scripts/lab-slurm: munged, slurmctld, slurmd on this
machine) and Open MPI's mpirun start the project's own example scripts,
examples/slurm/wiregraph.sbatch and wiregraph-task, and
examples/mpirun/wiregraph.mpirun, exactly as docs/LAB-CLUSTER.md tells a lab
engineer to: the rank from the launcher, the key in WIREGRAPH_KEY (srun
passes the environment on, mpirun with -x), the port from WIREGRAPH_PORT
with %r for the task's rank. Each run gets a fresh bridge with one tap per
task (persistent taps the node's net_tap port attaches to, as a host's NIC
is there before the job), removed even when the test fails.

Checked: results against a plain single-threaded oracle (BFS depths, CC
labels of a small graph written by the test) at P = 2 and 3 through sbatch,
srun and mpirun; examples/slurm/wiregraph-restart.sbatch going on from its
last checkpoint after a task died; scancel mid-run leaves no process, EAL runtime directory or
hugepage file, and Slurm reports the job CANCELLED and every task ended by
the SIGTERM it sent; a task that dies (--crash-node) fails the job and
Slurm's output names its host and task; mpirun names the dead rank; a
mpirun killed with SIGKILL takes its nodes with it (their parent-death
signal). No sleeps as synchronisation: every wait polls a state (squeue,
scontrol, a file, /proc) with a deadline.

Needs root (taps, a bridge, SlurmUser=root). Starts the daemons with
scripts/lab-slurm when they do not run, and then stops them at the end.
"""

import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

SRC = Path(os.environ.get("WG_SOURCE_DIR", Path(__file__).resolve().parent.parent))
BUILD = Path(os.environ.get("WG_BUILD_DIR", SRC / "build"))
BINARY = BUILD / "apps" / "wiregraph"
LAB_SLURM = SRC / "scripts" / "lab-slurm"
SBATCH = SRC / "examples" / "slurm" / "wiregraph.sbatch"
RESTART_SBATCH = SRC / "examples" / "slurm" / "wiregraph-restart.sbatch"
TASK = SRC / "examples" / "slurm" / "wiregraph-task"
MPIRUN = SRC / "examples" / "mpirun" / "wiregraph.mpirun"

DEADLINE_S = 300     # a job of this suite on a loaded 2-CPU machine ends well within it
POLL_S = 0.2
started_slurm = False
slurm_env = {}


# ------------------------------------------------------------------ helpers

def eventually(done, seconds=DEADLINE_S):
    """Polls done() until it holds or the deadline passes; its last value."""
    end = time.monotonic() + seconds
    while True:
        v = done()
        if v or time.monotonic() > end:
            return v
        time.sleep(POLL_S)


def run(argv, env=None, timeout=DEADLINE_S, cwd=None):
    return subprocess.run([str(a) for a in argv], env=env, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)


def ip(*args):
    r = run(["ip"] + list(args))
    if r.returncode != 0:
        raise RuntimeError("ip %s: %s" % (" ".join(args), r.stdout.strip()))


def disable_ipv6(dev):
    try:
        Path("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % dev).write_text("1")
    except OSError:
        pass


class TapBridge:
    """A bridge and `count` persistent multi-queue taps on it, uniquely named
    (wl<4 hex>b, wl<4 hex>t<R>), removed on exit whatever happened."""

    def __init__(self, count):
        self.tag = "wl%04x" % random.getrandbits(16)
        self.bridge = self.tag + "b"
        self.taps = ["%st%d" % (self.tag, r) for r in range(count)]

    def __enter__(self):
        try:
            ip("link", "add", "name", self.bridge, "type", "bridge", "forward_delay", "0", "stp_state", "0",
               "mcast_snooping", "0")
            disable_ipv6(self.bridge)
            ip("link", "set", "dev", self.bridge, "up")
            for t in self.taps:
                ip("tuntap", "add", "dev", t, "mode", "tap", "multi_queue")
                disable_ipv6(t)
                ip("link", "set", "dev", t, "txqueuelen", "10000")
                ip("link", "set", "dev", t, "master", self.bridge, "up")
        except Exception:
            self.__exit__(None, None, None)
            raise
        return self

    def port(self):
        """WIREGRAPH_PORT for the example wrapper: the task's tap by its rank."""
        return "--no-pci --vdev net_tap0,iface=%st%%r" % self.tag

    def __exit__(self, *exc):
        for dev in self.taps + [self.bridge]:
            if Path("/sys/class/net/" + dev).exists():
                run(["ip", "link", "del", "dev", dev])
        return False


def hugetlbfs_mounts():
    with open("/proc/mounts") as f:
        return [l.split()[1] for l in f if len(l.split()) > 2 and l.split()[2] == "hugetlbfs"]


def hugepages_free_mb():
    info = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, _, v = line.partition(":")
            info[k] = v.split()
    return int(info["HugePages_Free"][0]) * int(info["Hugepagesize"][0]) // 1024


def memory_eal(nodes):
    """Hugepages with files (--huge-unlink=never), so that a test can see the
    node remove them, when there is room for every node; else --no-huge."""
    if hugetlbfs_mounts() and hugepages_free_mb() >= nodes * 192 + 256:
        return "--huge-unlink=never -m 192"
    return "--no-huge -m 256"


def job_env(tb, nodes, key):
    env = dict(os.environ, **slurm_env)
    env.update(WIREGRAPH_KEY=key, WIREGRAPH_PORT=tb.port(), WIREGRAPH_EAL=memory_eal(nodes),
               WIREGRAPH_BIN=str(BINARY))
    return env


def processes_with_prefix(prefix):
    """Live processes whose --file-prefix starts with `prefix`."""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            args = Path("/proc/%s/cmdline" % d).read_bytes().split(b"\0")
            state = Path("/proc/%s/stat" % d).read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state in ("Z", "X"):
            continue
        for i, a in enumerate(args[:-1]):
            if a == b"--file-prefix" and args[i + 1].startswith(prefix.encode()):
                pids.append(int(d))
    return pids


def leftovers(prefix):
    """What nodes with file prefixes `prefix`... could leave: processes,
    EAL runtime directories, hugepage files."""
    left = ["process %d" % p for p in processes_with_prefix(prefix)]
    for root in ("/var/run/dpdk",):
        if os.path.isdir(root):
            left += [os.path.join(root, n) for n in os.listdir(root) if n.startswith(prefix)]
    for m in hugetlbfs_mounts():
        try:
            left += [os.path.join(m, n) for n in os.listdir(m) if n.startswith(prefix)]
        except OSError:
            pass
    return left


def remove_leftovers(prefix):
    """What a node killed with SIGKILL (--crash-node) cannot remove itself:
    its runtime directory and hugepage files, removed by the test so that
    the machine stays clean (the other nodes' are checked, not removed)."""
    for path in leftovers(prefix):
        if path.startswith("process "):
            continue
        if os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


# ------------------------------------------------------------------ graph and oracles

def make_graph(path, n=240, seed=25):
    """A directed graph of n vertices in a few weakly connected pieces (ids
    mod 3 apart, plus a chain that makes BFS take many supersteps), vertex
    n-1 present so that V = n."""
    rnd = random.Random(seed)
    edges = set()
    for v in range(n - 1):
        if v % 3 != 2:
            edges.add((v, (v + 3) % (n - 1)))  # chains within each residue class but 2
    for _ in range(3 * n):
        u, w = rnd.randrange(n), rnd.randrange(n)
        if u % 3 == w % 3 and u % 3 != 2:
            edges.add((u, w))
    edges.add((n - 1, n - 1))
    with open(path, "w") as f:
        for u, w in sorted(edges):
            f.write("%d %d\n" % (u, w))
    return n, sorted(edges)


def bfs_oracle(n, edges, source):
    out = [[] for _ in range(n)]
    for u, w in edges:
        out[u].append(w)
    depth = [None] * n
    depth[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for u in frontier:
            for w in out[u]:
                if depth[w] is None:
                    depth[w] = depth[u] + 1
                    nxt.append(w)
        frontier = nxt
    return ["inf" if d is None else str(d) for d in depth]


def cc_oracle(n, edges):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, w in edges:
        a, b = find(u), find(w)
        if a != b:
            parent[max(a, b)] = min(a, b)
    smallest = {}
    for v in range(n):
        smallest.setdefault(find(v), v)
    return [str(smallest[find(v)]) for v in range(n)]


def read_results(out_dir, n):
    """Every vertex's value from out_dir/result-R.txt, each exactly once."""
    values = [None] * n
    files = sorted(Path(out_dir).glob("result-*.txt"))
    if not files:
        raise AssertionError("no result files in %s" % out_dir)
    for f in files:
        for line in f.read_text().splitlines():
            v, value = line.split()
            v = int(v)
            if values[v] is not None:
                raise AssertionError("vertex %d twice (%s)" % (v, f))
            values[v] = value
    missing = [v for v in range(n) if values[v] is None]
    if missing:
        raise AssertionError("vertices without a result: %s" % missing[:10])
    return values


# ------------------------------------------------------------------ Slurm

def scontrol_job(job):
    r = run(["scontrol", "-o", "show", "job", job], env=dict(os.environ, **slurm_env))
    return dict(kv.split("=", 1) for kv in r.stdout.split() if "=" in kv)


FINAL_STATES = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED"}


def wait_job_end(job):
    info = eventually(lambda: (lambda i: i if i.get("JobState") in FINAL_STATES else None)(scontrol_job(job)))
    if not info:
        raise AssertionError("job %s did not end within %d s: %s" % (job, DEADLINE_S, scontrol_job(job)))
    return info


def jobcomp_line(job):
    log = Path(slurm_env["SLURM_CONF"]).parent / "log" / "jobcomp.log"
    try:
        for line in log.read_text().splitlines():
            if re.search(r"\bJobId=%s\b" % job, line):
                return line
    except OSError:
        pass
    return None


def setUpModule():
    global started_slurm
    if os.geteuid() != 0:
        raise unittest.SkipTest("the lab suite needs root (taps, a bridge, SlurmUser=root)")
    if not BINARY.exists():
        raise unittest.SkipTest("no node binary %s" % BINARY)
    if run([LAB_SLURM, "status"]).returncode != 0:
        r = run([LAB_SLURM, "start"], timeout=900)
        if r.returncode != 0:
            raise RuntimeError("scripts/lab-slurm start failed:\n" + r.stdout)
        started_slurm = True
    m = re.search(r"export SLURM_CONF=(\S+)", run([LAB_SLURM, "env"]).stdout)
    slurm_env["SLURM_CONF"] = m.group(1)


def tearDownModule():
    if started_slurm:
        run([LAB_SLURM, "stop"])


class LabTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wglab-")
        self.key = secrets.token_hex(32)
        self.n, self.edges = make_graph(os.path.join(self.tmp, "g.el"))
        self.graph = os.path.join(self.tmp, "g.el")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def app(self, name, out):
        # The graph's ids 2 mod 3 are isolated vertices of 0..n-1: GAP's rule
        # (--ids dense), as the oracles count them.
        args = ["--app", name, "--graph", self.graph, "--ids", "dense", "--out", out, "--quiet"]
        return args + (["--source", "0"] if name == "bfs" else [])

    def oracle(self, name):
        return bfs_oracle(self.n, self.edges, 0) if name == "bfs" else cc_oracle(self.n, self.edges)

    def check_results(self, name, out, log):
        try:
            got = read_results(out, self.n)
        except AssertionError as e:
            self.fail("%s\n--- output ---\n%s" % (e, log))
        want = self.oracle(name)
        wrong = [(v, got[v], want[v]) for v in range(self.n) if got[v] != want[v]]
        self.assertEqual(wrong, [], "vertex, got, oracle\n--- output ---\n" + log)


class SlurmTest(LabTest):
    def sbatch(self, tb, nodes, app_args, extra=()):
        """Submits examples/slurm/wiregraph.sbatch from the checkout (its
        submit directory) with `nodes` tasks on this one host; (job, output file)."""
        out_file = os.path.join(self.tmp, "slurm-%j.out")
        r = run(["sbatch", "--parsable", "-N", "1", "-n", nodes, "--ntasks-per-node", nodes,
                 "--output", out_file] +
                list(extra) + [SBATCH] + app_args, env=job_env(tb, nodes, self.key), cwd=SRC)
        self.assertEqual(r.returncode, 0, r.stdout)
        job = r.stdout.strip().split(";")[0]
        return job, out_file.replace("%j", job)

    def read(self, path):
        try:
            return Path(path).read_text()
        except OSError:
            return ""

    def test_sbatch_results_at_p2_and_p3(self):
        for nodes, app in ((2, "bfs"), (3, "cc")):
            with self.subTest(nodes=nodes, app=app), TapBridge(nodes) as tb:
                out = os.path.join(self.tmp, "sbatch-%s-%d" % (app, nodes))
                job, log = self.sbatch(tb, nodes, self.app(app, out))
                info = wait_job_end(job)
                text = self.read(log)
                self.assertEqual(info["JobState"], "COMPLETED", text)
                self.assertEqual(info["ExitCode"], "0:0", text)
                self.assertIn("(rank from SLURM_PROCID)", text)
                self.assertIn("key from environment variable WIREGRAPH_KEY", text)
                self.check_results(app, out, text)
                self.assertEqual(leftovers("wg%ss" % job), [], text)

    def test_srun_results_at_p2_and_p3(self):
        for nodes, app in ((2, "cc"), (3, "bfs")):
            with self.subTest(nodes=nodes, app=app), TapBridge(nodes) as tb:
                out = os.path.join(self.tmp, "srun-%s-%d" % (app, nodes))
                r = run(["srun", "-N", "1", "-n", nodes, "--kill-on-bad-exit=1", "--label", TASK] +
                        self.app(app, out), env=job_env(tb, nodes, self.key))
                self.assertEqual(r.returncode, 0, r.stdout)
                self.assertIn("%d: wiregraph node %d/%d" % (nodes - 1, nodes - 1, nodes), r.stdout)
                self.check_results(app, out, r.stdout)

    def test_doctor_through_srun(self):
        # The preflight on every host of the job, through the same wrapper:
        # each task's verdicts under its own rank, nothing failed here.
        nodes = 2
        with TapBridge(nodes) as tb:
            r = run(["srun", "-N", "1", "-n", nodes, "--label", TASK, "doctor", "--app", "bfs", "--graph", self.graph,
                     "--rx-queues", "2"], env=job_env(tb, nodes, self.key))
            self.assertEqual(r.returncode, 0, r.stdout)
            for rank in range(nodes):
                self.assertRegex(r.stdout, r"%d: wiregraph doctor on \S+ \(node %d of %d, rank from SLURM_PROCID\): "
                                           r".*0 failed.*: READY" % (rank, rank, nodes))
                self.assertRegex(r.stdout, r"%d: ok    port 0 steering +tun flow steering" % rank)

    def test_scancel_leaves_nothing_and_every_task_is_cancelled(self):
        nodes = 2
        with TapBridge(nodes) as tb:
            out = os.path.join(self.tmp, "cancel")
            # --verbose: the accumulation plan (printed after loading) says a node computes.
            app = ["--app", "pagerank", "--graph", "kron:12:8", "--iterations", "1000000", "--verbose", "--out", out]
            job, log = self.sbatch(tb, nodes, app)
            # Both nodes compute: each has printed its accumulation plan (after loading).
            running = eventually(lambda: all("%d: accumulation:" % r in self.read(log) for r in range(nodes)))
            self.assertTrue(running, "the job's nodes did not start computing:\n" + self.read(log))
            prefix = "wg%ss" % job
            self.assertEqual(len(processes_with_prefix(prefix)), nodes, self.read(log))
            r = run(["scancel", job], env=dict(os.environ, **slurm_env))
            self.assertEqual(r.returncode, 0, r.stdout)
            info = wait_job_end(job)
            self.assertEqual(info["JobState"], "CANCELLED")
            self.assertTrue(eventually(lambda: not processes_with_prefix(prefix), 60),
                            "nodes outlived scancel: %s" % processes_with_prefix(prefix))
            self.assertEqual(leftovers(prefix), [])
            # What Slurm keeps: the job completion record, and in the job's
            # output the step cancelled and srun's account of every task:
            # ended by the SIGTERM Slurm sent (not Killed after KillWait).
            self.assertTrue(eventually(lambda: jobcomp_line(job), 30), "no jobcomp record of job " + job)
            self.assertIn("JobState=CANCELLED", jobcomp_line(job))
            text = eventually(lambda: (lambda t: t if "Terminated" in t else None)(self.read(log)), 30) or self.read(log)
            self.assertRegex(text, r"STEP %s\.0 ON \S+ CANCELLED" % job)
            ended = re.findall(r"srun: error: \S+: tasks? ([0-9,-]+): Terminated", text)
            ranks = set()
            for spec in ended:
                for part in spec.split(","):
                    a, _, b = part.partition("-")
                    ranks.update(range(int(a), int(b or a) + 1))
            self.assertEqual(ranks, set(range(nodes)), text)
            self.assertNotIn("Killed", text)

    def test_a_task_that_dies_fails_the_job_naming_it(self):
        nodes = 3
        with TapBridge(nodes) as tb:
            out = os.path.join(self.tmp, "crash")
            app = ["--app", "pagerank", "--graph", "kron:10:8", "--iterations", "50", "--quiet", "--out", out,
                   "--crash-node", "1:3"]
            job, log = self.sbatch(tb, nodes, app)
            info = wait_job_end(job)
            text = self.read(log)
            self.assertEqual(info["JobState"], "FAILED", text)
            host = run(["hostname", "-s"]).stdout.strip()
            self.assertRegex(text, r"srun: error: %s: task 1: Killed" % re.escape(host))
            self.assertTrue(eventually(lambda: jobcomp_line(job), 30))
            self.assertIn("JobState=FAILED", jobcomp_line(job))
            self.assertTrue(eventually(lambda: not processes_with_prefix("wg%ss" % job), 60))
            remove_leftovers("wg%ss0r1" % job)  # the task that died of SIGKILL
            self.assertEqual(leftovers("wg%ss" % job), [], text)


    def test_a_requeued_or_restarted_job_goes_on_from_its_checkpoint(self):
        # examples/slurm/wiregraph-restart.sbatch: task 1 dies at superstep 10
        # of its first attempt (a wrapper adds --crash-node while nothing is
        # committed); srun ends the step, the script's loop runs it again with
        # --resume, and the job completes with the oracle's depths.
        nodes = 2
        n = 40  # a path 0 -> 1 -> ... -> 39 with shortcuts back: 40 supersteps of BFS
        graph = os.path.join(self.tmp, "path.el")
        edges = [(v, v + 1) for v in range(n - 1)] + [(v, v // 2) for v in range(2, n)]
        Path(graph).write_text("".join("%d %d\n" % e for e in edges))
        ck = os.path.join(self.tmp, "ck")
        wrapper = os.path.join(self.tmp, "crash-once")
        Path(wrapper).write_text(
            "#!/bin/sh\n"
            "if [ -f %s/COMMIT ]; then exec %s \"$@\"; fi\n"
            "exec %s \"$@\" --crash-node 1:10\n" % (ck, TASK, TASK))
        os.chmod(wrapper, 0o755)
        with TapBridge(nodes) as tb:
            out = os.path.join(self.tmp, "restart")
            env = job_env(tb, nodes, self.key)
            env.update(WIREGRAPH_TASK=wrapper, WIREGRAPH_CHECKPOINTS=ck, WIREGRAPH_RESTARTS="2")
            out_file = os.path.join(self.tmp, "slurm-%j.out")
            r = run(["sbatch", "--parsable", "-N", "1", "-n", nodes, "--ntasks-per-node", nodes,
                     "--output", out_file, RESTART_SBATCH, "--app", "bfs", "--graph", graph, "--source", "0",
                     "--checkpoint-every", "3", "--quiet", "--out", out], env=env, cwd=SRC)
            self.assertEqual(r.returncode, 0, r.stdout)
            job = r.stdout.strip().split(";")[0]
            info = wait_job_end(job)
            text = Path(out_file.replace("%j", job)).read_text()
            self.assertEqual(info["JobState"], "COMPLETED", text)
            self.assertIn("attempt 0: from the start", text)
            self.assertIn("a task failed (exit", text)
            self.assertIn("attempt 1: from the checkpoint of superstep 5", text)
            self.assertIn("resumed from the checkpoint of superstep 5 in %s" % ck, text)
            got = read_results(out, n)
            want = bfs_oracle(n, edges, 0)
            self.assertEqual([(v, got[v], want[v]) for v in range(n) if got[v] != want[v]], [], text)
            remove_leftovers("wg%ss0r1" % job)  # the task that died of SIGKILL
            self.assertTrue(eventually(lambda: not processes_with_prefix("wg%ss" % job), 60))
            self.assertEqual(leftovers("wg%ss" % job), [], text)


class MpirunTest(LabTest):
    def mpirun(self, tb, nodes, app_args, **kw):
        return subprocess.Popen([str(MPIRUN), "-np", str(nodes), "--oversubscribe", "--"] + app_args,
                                env=job_env(tb, nodes, self.key), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, **kw)

    def test_mpirun_results_at_p2_and_p3(self):
        for nodes, app in ((2, "bfs"), (3, "cc")):
            with self.subTest(nodes=nodes, app=app), TapBridge(nodes) as tb:
                out = os.path.join(self.tmp, "mpi-%s-%d" % (app, nodes))
                p = self.mpirun(tb, nodes, self.app(app, out))
                text, _ = p.communicate(timeout=DEADLINE_S)
                self.assertEqual(p.returncode, 0, text)
                self.assertIn("(rank from OMPI_COMM_WORLD_RANK)", text)
                self.assertIn("key from environment variable WIREGRAPH_KEY", text)
                self.check_results(app, out, text)
                self.assertEqual(leftovers("wgm%dr" % p.pid), [], text)

    def test_a_rank_that_dies_is_named(self):
        nodes = 3
        with TapBridge(nodes) as tb:
            out = os.path.join(self.tmp, "mpi-crash")
            p = self.mpirun(tb, nodes, ["--app", "pagerank", "--graph", "kron:10:8", "--iterations", "50",
                                        "--quiet", "--out", out, "--crash-node", "2:3"])
            text, _ = p.communicate(timeout=DEADLINE_S)
            self.assertNotEqual(p.returncode, 0, text)
            self.assertRegex(text, r"process rank 2 with PID \d+ on node \S+ exited on signal 9")
            self.assertTrue(eventually(lambda: not processes_with_prefix("wgm%dr" % p.pid), 60))
            remove_leftovers("wgm%dr2" % p.pid)  # the rank that died of SIGKILL
            self.assertEqual(leftovers("wgm%dr" % p.pid), [], text)

    def test_nodes_end_with_a_mpirun_killed_with_sigkill(self):
        # mpirun asks for no parent-death signal for its ranks: before the
        # node armed its own, they computed on until --peer-timeout or their
        # next write to the dead mpirun's pipe.
        nodes = 2
        with TapBridge(nodes) as tb:
            log = os.path.join(self.tmp, "mpi-kill.log")
            with open(log, "w") as f:
                p = subprocess.Popen([str(MPIRUN), "-np", str(nodes), "--oversubscribe", "--", "--app", "pagerank",
                                      "--graph", "kron:12:8", "--iterations", "1000000", "--verbose"],
                                     env=job_env(tb, nodes, self.key), stdout=f, stderr=subprocess.STDOUT)
            prefix = "wgm%dr" % p.pid
            try:
                self.assertTrue(eventually(lambda: "accumulation:" in Path(log).read_text() and
                                           len(processes_with_prefix(prefix)) == nodes),
                                Path(log).read_text())
                p.send_signal(signal.SIGKILL)
                p.wait(10)
                self.assertTrue(eventually(lambda: not processes_with_prefix(prefix), 60),
                                "nodes outlived mpirun: %s" % processes_with_prefix(prefix))
                self.assertEqual(leftovers(prefix), [])
            finally:
                for pid in processes_with_prefix(prefix):
                    os.kill(pid, signal.SIGKILL)
                if p.poll() is None:
                    p.kill()
                if eventually(lambda: not processes_with_prefix(prefix), 30):
                    remove_leftovers(prefix)


if __name__ == "__main__":
    unittest.main(verbosity=2)
