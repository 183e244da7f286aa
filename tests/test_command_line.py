"""Command-line habits of every command, without a cluster and without the EAL:
--version of wiregraph, wiregraph-convert and scripts/wiregraph-cluster
(meson.build's version and the checkout's commit), application options given
before `--` (refused by name before the EAL starts), `wiregraph
--check-options`, and the launcher refusing a node's options before it starts
any node, and naming --timeout when it hits it; the launcher's exit status
after its nodes', its word on arguments it does not know, the run lock it
removes; what the launcher gives a restarted job (--restart). Run by meson (suite unit) as
`python3 -m unittest`."""

import os
import re
import stat
import subprocess
import sys
import tempfile
import unittest

from wiregraph.launcher.restarts import restart_options

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
BUILD = os.environ.get("WG_BUILD_DIR", os.path.join(SOURCE, "build"))
WIREGRAPH = os.path.join(BUILD, "apps", "wiregraph")
CONVERT = os.path.join(BUILD, "apps", "wiregraph-convert")
LAUNCHER = os.path.join(SOURCE, "scripts", "wiregraph-cluster")
LIMIT_S = 120  # a bound against hanging, not a measurement


def run(argv, **kw):
    return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=LIMIT_S, **kw)


def project_version():
    with open(os.path.join(SOURCE, "meson.build")) as f:
        return re.search(r"version:\s*'([^']+)'", f.read()).group(1)


def head_commit():
    """The checkout's commit, or None when git cannot tell."""
    try:
        r = run(["git", "-C", SOURCE, "rev-parse", "HEAD"])
    except OSError:
        return None
    return r.stdout.strip() if r.returncode == 0 else None


class Version(unittest.TestCase):
    def check(self, argv, name):
        r = run(argv)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = re.match(r"^(\S+) (\S+) \(commit ([0-9a-f]+)(-dirty)?\)", r.stdout)
        self.assertIsNotNone(m, r.stdout)
        self.assertEqual(m.group(1), name)
        self.assertEqual(m.group(2), project_version())
        head = head_commit()
        if head is not None:
            self.assertGreaterEqual(len(m.group(3)), 7)
            self.assertTrue(head.startswith(m.group(3)), "%s is not HEAD %s" % (m.group(3), head))

    def test_node(self):
        self.check([WIREGRAPH, "--version"], "wiregraph")
        # Anywhere on the line, and before the EAL would see it.
        self.check([WIREGRAPH, "--no-pci", "--version", "--", "--app", "bfs"], "wiregraph")

    def test_convert(self):
        self.check([CONVERT, "--version"], "wiregraph-convert")

    def test_launcher(self):
        self.check([sys.executable, LAUNCHER, "--binary", WIREGRAPH, "--version"], "wiregraph-cluster")


class MisplacedOptions(unittest.TestCase):
    def test_application_options_before_the_separator_are_named(self):
        for argv in ([WIREGRAPH, "--app", "pagerank", "--graph", "kron:4:2"],
                     [WIREGRAPH, "--no-pci", "--vdev", "net_null0", "--app", "pagerank", "--graph", "kron:4:2"]):
            r = run(argv)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("application options go after --: wiregraph [EAL options] -- --app", r.stderr)
            self.assertIn("'--app' came before --", r.stderr)
            # The EAL never ran: none of its usage, no "EAL initialisation failed", one line.
            self.assertNotIn("EAL initialisation", r.stdout + r.stderr)
            self.assertNotIn("EAL common options", r.stdout + r.stderr)
            self.assertEqual(len((r.stdout + r.stderr).splitlines()), 1, r.stdout + r.stderr)


class ErrorsBeforeTheEal(unittest.TestCase):
    def test_a_bad_application_option_is_one_line_without_the_eal(self):
        # Checked before rte_eal_init: no EAL start-up lines before the error.
        r = run([WIREGRAPH, "--no-pci", "--no-huge", "-m", "64", "--", "--app", "pagerank", "--graph", "kron:4:2",
                 "--damping", "2"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr.strip(), "wiregraph: error: --damping: '2' is not a number in [0, 1]")

    def test_an_unknown_help_topic_is_an_error_naming_the_topics(self):
        r = run([WIREGRAPH, "--help", "nosuchtopic"])
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertEqual(r.stdout, "", "not the short page")
        self.assertIn("unknown topic 'nosuchtopic' (expected common, input, output, security, tuning, transport, "
                      "testing, programs or all)", r.stderr)
        self.assertEqual(run([WIREGRAPH, "--help", "programs"]).returncode, 0)


class CheckOptions(unittest.TestCase):
    def test_good_options_pass_bad_ones_exit_2_with_the_nodes_message(self):
        r = run([WIREGRAPH, "--check-options", "--", "--app", "bfs", "--graph", "kron:4:2", "--source", "3"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("options ok: app bfs, graph kron:4:2", r.stdout)
        r = run([WIREGRAPH, "--check-options", "--", "--app", "bfs", "--graph", "kron:4:2", "--damping", "0.5"])
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip(),
                         "wiregraph: error: --damping does not apply to bfs: only pagerank and ppr read it")


    def test_it_says_the_eal_memory_a_node_takes_which_grows_with_the_nodes(self):
        def need(nodes):
            r = run([WIREGRAPH, "--check-options", "--", "--nodes", str(nodes), "--no-auth",
                     "--app", "bfs", "--graph", "kron:4:2"])
            m = re.search(r"EAL memory per node: (\d+) MiB \((\d+) receive mbufs\)", r.stdout)
            self.assertIsNotNone(m, r.stdout + r.stderr)
            return [int(x) for x in m.groups()]
        mb2, rx2 = need(2)
        mb32, rx32 = need(32)
        # Twice each peer's window (512 frames) for every peer, one port's 2048
        # RX descriptors, 4095 spare.
        self.assertEqual(rx2, 4095 + 2048 + 1 * 1024)
        self.assertEqual(rx32, 4095 + 2048 + 31 * 1024)
        # An mbuf of MTU 1500 holds a 2 KiB buffer, its headroom and header:
        # between 2 and 3 KiB each.
        self.assertGreaterEqual(mb32 - mb2, (rx32 - rx2) * 2048 >> 20)
        self.assertLessEqual(mb32 - mb2, (rx32 - rx2) * 3072 >> 20)
        # 16383 transmit mbufs, the receive pool, 20 MiB for the EAL.
        self.assertGreaterEqual(mb2, ((16383 + rx2) * 2048 >> 20) + 20)

    def test_the_estimate_follows_the_receive_queues_the_lcores_give(self):
        def rx_mbufs(*check):
            r = run([WIREGRAPH, "--check-options"] + list(check) + ["--", "--nodes", "8", "--no-auth",
                                                                    "--app", "bfs", "--graph", "kron:4:2"])
            m = re.search(r"EAL memory per node: \d+ MiB \((\d+) receive mbufs\)", r.stdout)
            self.assertIsNotNone(m, r.stdout + r.stderr)
            return int(m.group(1))
        # 6 lcores split: a sender, 2 accumulators, so 2 queues: twice the flows
        # of one queue (a flow per peer and queue), 1024 descriptors each.
        self.assertEqual(rx_mbufs(), 4095 + 2048 + 7 * 1024)
        self.assertEqual(rx_mbufs("--lcore-count", "6"), 4095 + 2048 + 2 * 7 * 1024)
        r = run([WIREGRAPH, "--check-options", "--lcore-count", "0", "--", "--app", "bfs"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("--lcore-count: 0 is not a number of lcores", r.stderr)


class NodeMemory(unittest.TestCase):
    def test_a_node_whose_eal_memory_cannot_hold_its_pools_says_what_it_needs(self):
        prefix = "wgcl%d" % os.getpid()
        r = run([WIREGRAPH, "--no-pci", "--no-huge", "-m", "48", "--file-prefix", prefix,
                 "--log-level", "lib.eal:error", "--", "--nodes", "16", "--rank", "3", "--no-auth",
                 "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        m = re.search(r"cannot create (a|the receive) pool of \d+ mbufs .*: this node needs about (\d+) "
                      r"MiB of EAL memory \(-m: with --no-huge the whole heap\) for 16 nodes at "
                      r"--window 512", r.stderr)
        self.assertIsNotNone(m, r.stderr)
        # 16383 transmit mbufs and 4095 + 15 x 1024 receive ones (no port
        # holds any), of 2 KiB and more each.
        self.assertGreater(int(m.group(2)), (16383 + 4095 + 15 * 1024) * 2048 >> 20)


class Launcher(unittest.TestCase):
    """The launcher with a node binary that records how it is run."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.dir.name, "runs.log")

    def tearDown(self):
        self.dir.cleanup()

    def wrapper(self, node_command):
        """A node binary that logs its arguments, runs the option check with
        the real binary and runs `node_command` as a node."""
        path = os.path.join(self.dir.name, "node.sh")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n"
                    "echo \"$*\" >> '%s'\n"
                    "if [ \"$1\" = --check-options ]; then exec '%s' \"$@\"; fi\n"
                    "%s\n" % (self.log, WIREGRAPH, node_command))
        os.chmod(path, stat.S_IRWXU)
        return path

    def runs(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return f.read().splitlines()

    def test_refused_options_start_no_node(self):
        binary = self.wrapper("exec '%s' \"$@\"" % WIREGRAPH)
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--binary", binary, "--",
                 "--app", "pagerank", "--graph", "kron:4:2", "--source", "3"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("wiregraph: error: --source does not apply to pagerank: only sssp, bfs, bc and ppr read it",
                      r.stderr)
        runs = self.runs()
        self.assertEqual(len(runs), 1, runs)
        self.assertTrue(runs[0].startswith("--check-options --lcore-count 1 -- --nodes 2 --job-id 0x"), runs[0])
        self.assertNotIn("--rank", runs[0])
        self.assertNotIn("[node", r.stdout)

    def test_bad_values_are_refused_as_the_node_refuses_them(self):
        binary = self.wrapper("exec '%s' \"$@\"" % WIREGRAPH)
        r = run([sys.executable, LAUNCHER, "--nodes", "3", "--binary", binary, "--",
                 "--app", "sssp", "--graph", "kron:4:2", "--window", "0"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.strip(), "wiregraph: error: --window: 0 is out of range [1, 65536]")
        self.assertEqual(len(self.runs()), 1)

    def test_the_timeout_message_says_how_to_raise_it(self):
        # One node (no link, no EAL: the wrapper's node only waits) that outlives --timeout.
        binary = self.wrapper("exec sleep %d" % LIMIT_S)
        r = run([sys.executable, LAUNCHER, "--nodes", "1", "--timeout", "0.5", "--binary", binary, "--",
                 "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 124, r.stdout + r.stderr)
        self.assertIn("a longer run needs a larger --timeout SEC", r.stdout)
        self.assertEqual(len(self.runs()), 2, self.runs())  # the check, then the node

    def test_memory_is_sized_from_the_job_and_a_smaller_mem_mb_is_warned_about(self):
        app = ["--", "--app", "bfs", "--graph", "kron:4:2"]
        r = run([sys.executable, LAUNCHER, "--dry-run", "--nodes", "16", "--memory", "no-huge"] + app)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        m = re.search(r"-m (\d+): the node's pools and rings take (\d+) MiB for this job", r.stdout)
        self.assertIsNotNone(m, r.stdout)
        mb, need = int(m.group(1)), int(m.group(2))
        self.assertGreater(mb, need)
        nodes = [line for line in r.stdout.splitlines() if " --file-prefix " in line]
        self.assertEqual(len(nodes), 16)
        for line in nodes:
            self.assertIn("--no-huge -m %d " % mb, line)
        r = run([sys.executable, LAUNCHER, "--dry-run", "--nodes", "16", "--memory", "no-huge",
                 "--mem-mb", "64"] + app)
        self.assertIn("warning: --mem-mb 64 is less than the %d MiB the node says its pools and rings "
                      "take for this job" % need, r.stdout + r.stderr)

    def test_many_nodes_that_exit_0_share_a_summary_line_and_a_failed_one_keeps_its_own(self):
        binary = self.wrapper('case "$*" in *"--rank 7 "*) exit 3;; esac; exit 0')
        r = run([sys.executable, LAUNCHER, "--nodes", "10", "--keep-going", "--binary", binary, "--",
                 "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("[cluster] node 7: exit code 3,", r.stdout)
        self.assertIn("[cluster] nodes 0-6,8-9: exit code 0, ", r.stdout)
        self.assertNotIn("[cluster] node 0:", r.stdout)
        self.assertEqual(len(self.runs()), 11, self.runs())  # the check, then every node at once

    def test_a_node_that_exits_2_makes_the_launcher_exit_2(self):
        # The README's rule: 2 a command-line error, found by a node once it knows the graph.
        binary = self.wrapper('case "$*" in *"--rank 1 "*) echo "wiregraph: error: node 1: --source 99 is '
                              'not a vertex" >&2; exit 2;; esac; exit 1')
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--keep-going", "--binary", binary, "--",
                 "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("[cluster] node 1: exit code 2,", r.stdout)
        binary = self.wrapper('case "$*" in *"--rank 1 "*) exit 1;; esac; exit 0')
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--binary", binary, "--",
                 "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)

    def test_application_options_without_the_separator_say_where_they_go(self):
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("unrecognized arguments: --app bfs --graph kron:4:2; application options go after '--': "
                      "scripts/wiregraph-cluster [launcher options] -- --app NAME --graph G", r.stderr)
        self.assertEqual(self.runs(), [], "no node started")

    def test_a_misspelt_option_names_the_one_meant(self):
        r = run([sys.executable, LAUNCHER, "--nodez", "2", "--", "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("unrecognized arguments: --nodez 2 (did you mean --nodes?)", r.stderr)
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--timout", "9", "--", "--app", "bfs"])
        self.assertIn("(did you mean --timeout?)", r.stderr)
        # An application option's, by the node binary's own check before any node starts.
        binary = self.wrapper("exec '%s' \"$@\"" % WIREGRAPH)
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--binary", binary, "--",
                 "--app", "bfs", "--graph", "kron:4:2", "--sorce", "3"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.strip(), "wiregraph: error: unknown option '--sorce' (did you mean --source? "
                                           "see --help)")
        self.assertEqual(len(self.runs()), 1, "the check only")

    def test_the_lock_of_a_run_whose_nodes_were_killed_is_removed(self):
        # Each node takes the run's lock in --out as a node does (apps/node/out_dir.cc), then
        # node 1 fails and the launcher kills node 0 (SIGTERM): neither lets it go itself.
        out = os.path.join(self.dir.name, "out")
        os.mkdir(out)
        with open(os.path.join(out, "wiregraph-run.json"), "w") as f:
            f.write('{"run": "00000000000000ab", "nodes": 2, "files": []}\n')
        lock = os.path.join(out, ".wiregraph-00000000000000ab.lock")
        binary = self.wrapper('%s -c \'import fcntl, os, sys, time\n'
                              'fd = os.open("%s", os.O_RDWR | os.O_CREAT)\n'
                              'fcntl.flock(fd, fcntl.LOCK_SH)\n'
                              'sys.exit(1) if "--rank 1 " in " ".join(sys.argv) else time.sleep(%d)\' "$@"'
                              % (sys.executable, lock, LIMIT_S))
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--binary", binary, "--",
                 "--app", "bfs", "--graph", "kron:4:2", "--out", out])
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("killed by SIGTERM", r.stdout)
        self.assertEqual(sorted(os.listdir(out)), ["wiregraph-run.json"])

    def test_restart_needs_checkpoints(self):
        r = run([sys.executable, LAUNCHER, "--nodes", "2", "--restart", "2", "--",
                 "--app", "bfs", "--graph", "kron:4:2"])
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--restart 2 needs checkpoints to restart from", r.stderr)
        self.assertIn("--checkpoint-every N --checkpoint-dir DIR", r.stderr)


class RestartOptionsTest(unittest.TestCase):
    """What the launcher gives a restarted job (restart_options): no --crash-node,
    --resume from the job's own committed checkpoint, else from the one it
    was resumed from, else none (from the start)."""

    restart_options = staticmethod(restart_options)

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.own, self.old = os.path.join(self.tmp.name, "own"), os.path.join(self.tmp.name, "old")
        os.makedirs(self.own)
        os.makedirs(self.old)

    def tearDown(self):
        self.tmp.cleanup()

    def commit(self, d, step):
        with open(os.path.join(d, "COMMIT"), "w") as f:
            f.write("wiregraph checkpoint\nsuperstep %d\nnodes 2\n" % step)

    def test_from_the_jobs_own_checkpoint_without_the_crash_hook(self):
        self.commit(self.own, 14)
        app = ["--app", "bfs", "--checkpoint-every", "5", "--checkpoint-dir", self.own, "--crash-node", "1:17"]
        new, step, d = self.restart_options(app)
        self.assertEqual((step, d), (14, self.own))
        self.assertEqual(new, ["--app", "bfs", "--checkpoint-every", "5", "--checkpoint-dir", self.own,
                               "--resume", self.own])

    def test_from_the_start_when_nothing_is_committed(self):
        app = ["--app", "bfs", "--checkpoint-every", "5", "--checkpoint-dir=" + self.own, "--crash-node=1:3"]
        self.assertEqual(self.restart_options(app),
                         (["--app", "bfs", "--checkpoint-every", "5", "--checkpoint-dir=" + self.own], None, None))

    def test_from_the_checkpoint_it_was_resumed_from_until_it_commits_its_own(self):
        self.commit(self.old, 9)
        app = ["--app", "bfs", "--checkpoint-every", "5", "--checkpoint-dir", self.own, "--resume", self.old]
        new, step, d = self.restart_options(app)
        self.assertEqual((step, d), (9, self.old))
        self.assertEqual(new.count("--resume"), 1)
        self.commit(self.own, 19)
        self.assertEqual(self.restart_options(app)[1:], (19, self.own))


if __name__ == "__main__":
    unittest.main()
