"""The launcher's run, step by step: parse the command line; answer
--version, --sweep and --dry-run; refuse what cannot run; then a Launch:
the run dir, the node binary's option check, the bridge, the nodes (again
from a checkpoint with --restart), the checks after success, and the
cleanup, whatever way the run ends."""

import os
import queue
import secrets
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from .. import wglib  # the run lock the nodes leave in --out DIR
from .cli import parse_args
from .keys import write_key
from .netdevs import disable_ipv6, run_ip
from .node_binary import check_app_options, print_version
from .plan import Plan
from .processes import Interrupted, Node, kill_all, start_node
from .progress import ClusterProgress, err, say
from .reports import check_outputs, dry_run, merge_results, print_summary
from .restarts import out_dir_from_app, restart_options
from .rundirs import (RunDirError, cleanup, create_run_dir, node_environment, run_dir_base,
                      sweep_stale_runs)
from .status import (EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, EXIT_TIMEOUT, EXIT_USAGE,
                     nodes_status)
from .taps import TapManager


def main(argv=None):
    """The launcher on ARGV (without the program name; default sys.argv[1:],
    as the installed command wiregraph-cluster calls it); returns its exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.version:
        return print_version(args.binary)
    if args.sweep:
        say("swept %d run(s) killed with SIGKILL" % sweep_stale_runs())
        return EXIT_OK
    if args.dry_run:
        return plan_only(args)
    refusal = why_not_runnable(args)
    if refusal is not None:
        say("error: " + refusal)
        return EXIT_FAIL
    # Whatever runs killed with SIGKILL left behind goes first, then this
    # run's own directory, locked for as long as this launcher lives.
    sweep_stale_runs()
    try:
        job, lock_fd = create_run_dir()
    except RunDirError as e:
        say("error: %s" % e)
        return EXIT_FAIL
    if job is None:
        say("error: could not create a fresh %s/wiregraph-<job> directory" % run_dir_base())
        return EXIT_FAIL
    return Launch(args, job, lock_fd).run()


def plan_only(args):
    """--dry-run: the plan's commands, with the memory the node says it takes."""
    plan = Plan(args, "%08x" % (secrets.randbits(32) or 1))
    # The node's memory estimate, asked with a key that exists (the run's
    # would only be made by a real run).
    with tempfile.TemporaryDirectory() as tmp:
        shown_key, plan.key_file = plan.key_file, plan.key_file and Path(tmp) / "key"
        if plan.key_file is not None:
            write_key(plan.key_file)
        need = check_app_options(plan)[2]
        plan.key_file = shown_key
    for w in plan.choose_memory(need):
        say("warning: " + w)
    return dry_run(plan)


def why_not_runnable(args):
    """What keeps this run from starting on this machine, or None."""
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        return ("node binary %s not found or not executable (build it with "
                "scripts/setup.sh, or pass --binary)" % args.binary)
    if args.link in ("tap", "af_xdp") and args.nodes > 1:
        if os.geteuid() != 0:
            makes = {"tap": "a bridge and tap netdevs", "af_xdp": "a bridge and veths"}[args.link]
            return ("--link %s needs root (it creates %s); use --link memif or run as root"
                    % (args.link, makes))
        if shutil.which("ip") is None:
            return "--link %s needs the 'ip' command (iproute2)" % args.link
    return None


def ignore_signals():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class Launch:
    """One run past the launcher's checks, in its run dir: what it creates
    (bridge, taps, nodes) is removed in run()'s end whatever way it ends."""

    def __init__(self, args, job, lock_fd):
        self.args = args
        self.plan = Plan(args, job)
        self.lock_fd = lock_fd
        self.use_tap = args.link == "tap" and args.nodes > 1
        self.nodes = []
        self.created_bridge = False
        self.tapmgr = None
        self.signal_seen = None

    def on_signal(self, signum, _frame):
        if self.signal_seen is None:
            self.signal_seen = signum
            raise Interrupted()

    def run(self):
        if self.plan.key_file is not None:
            write_key(self.plan.key_file)
        rc = EXIT_FAIL
        old_handlers = {s: signal.signal(s, self.on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            rc = self.prepare()
            if rc is None:
                rc = self.run_attempts(node_environment(self.plan.job, self.plan.rundir, self.plan.P))
        except Interrupted:
            ignore_signals()
            say("interrupted by %s; stopping all nodes" % signal.Signals(self.signal_seen).name)
            kill_all(self.nodes)
            print_summary(self.nodes)
            rc = EXIT_INTERRUPTED
        except (OSError, RuntimeError) as e:
            ignore_signals()
            say("error: %s" % e)
            kill_all(self.nodes)
            rc = EXIT_FAIL
        finally:
            ignore_signals()
            try:
                kill_all(self.nodes)
            except Interrupted:
                pass
            self.clean_up()
            for s, h in old_handlers.items():
                signal.signal(s, h)
        return rc

    def prepare(self):
        """The option check, the memory, the nodes' commands and the bridge;
        EXIT_USAGE when the node binary refuses the options, else None."""
        args, plan = self.args, self.plan
        # Options a node refuses are refused here, before any node starts,
        # with the node's own message and exit status.
        check_rc, message, need = check_app_options(plan)
        if check_rc == EXIT_USAGE:
            err(message)
            return EXIT_USAGE
        if check_rc != EXIT_OK:
            say("warning: %s --check-options could not check the application options "
                "(exit %d): %s; starting the nodes anyway" % (args.binary, check_rc, message))
        for w in plan.choose_memory(need):
            say("warning: " + w)
        self.nodes = [Node(r, plan.command(r)) for r in range(plan.P)]
        say("job %s: %d node(s), link %s, %s, lcores %s, run dir %s, %s"
            % (plan.job, plan.P, args.link if plan.P > 1 else "none", plan.mem_reason,
               plan.lcores, plan.rundir, plan.auth_summary()))
        if plan.uses_bridge():
            for c in plan.bridge_commands():
                run_ip(c)
                self.created_bridge = True
            disable_ipv6(plan.bridge)
            for r in range(plan.P):
                plan.hosts.create(r)
        return None

    def run_attempts(self, env):
        """The job, restarted up to --restart times when a node dies; its exit status."""
        args, plan = self.args, self.plan
        restarts = 0
        while True:
            first_fail, timed_out, t0 = self.run_attempt(env)
            print_summary(self.nodes)
            if (first_fail is None or timed_out
                    or restarts >= args.restart or first_fail.rc == EXIT_USAGE):
                break  # (exit 2: the options or the checkpoint were refused; again would be the same)
            # A node died: the job goes on from its last committed checkpoint.
            restarts += 1
            plan.args.app, step, ckdir = restart_options(plan.args.app)
            say("restart %d of %d: %s" % (
                restarts, args.restart,
                "from the checkpoint of superstep %d in %s" % (step, ckdir)
                if step is not None else "from the start (no checkpoint was committed yet)"))
            if self.tapmgr is not None:
                self.tapmgr.stop()
                self.tapmgr = None
            plan.remove_memif_sockets()
            self.nodes = [Node(r, plan.command(r)) for r in range(plan.P)]
        if timed_out:
            return EXIT_TIMEOUT
        if first_fail is not None:
            say("first failure: node %d, %s" % (first_fail.rank, first_fail.describe_rc()))
            return nodes_status(self.nodes)
        say("all %d node(s) exited 0 in %.2f s" % (plan.P, time.monotonic() - t0))
        return self.check_after_success()

    def run_attempt(self, env):
        """Every node started at once and waited for; returns (the first node
        that failed or None, whether --timeout hit, when the attempt began)."""
        exitq = queue.Queue()  # per attempt: a killed attempt's exits stay in its own
        if self.use_tap:
            self.tapmgr = TapManager(self.plan, self.nodes)
            self.tapmgr.start()
        progress = ClusterProgress(self.plan.P, sys.stdout.isatty())
        t0 = time.monotonic()
        # Every node at once: a memif client port waits for its server's
        # (dataplane/memif_quirks.h, workaround 5) and a tap joins the
        # bridge when it appears (TapManager), so no order is needed.
        for node in self.nodes:
            start_node(node, exitq, env, self.args.verbose, progress)
            if self.tapmgr is not None:
                self.tapmgr.node_started(node.rank)
        first_fail, timed_out = self.wait_for_nodes(exitq, t0 + self.args.timeout)
        if timed_out:
            nodes = self.nodes
            still = sorted(n.rank for n in nodes if n.proc is not None and n.proc.poll() is None)
            unstarted = [n.rank for n in nodes if n.proc is None]
            say("timeout after %g s (a longer run needs a larger --timeout SEC); "
                "nodes still running: %s%s"
                % (self.args.timeout, ", ".join(str(x) for x in still) or "none",
                   "; not started: " + ", ".join(map(str, unstarted)) if unstarted else ""))
        kill_all(self.nodes)
        return first_fail, timed_out, t0

    def wait_for_nodes(self, exitq, deadline):
        """Until every node has exited, one failed (unless --keep-going) or
        the deadline; returns (the first node that failed or None, timed out)."""
        running = {n.rank for n in self.nodes if n.proc is not None}
        first_fail = None
        while running:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return first_fail, True
            try:
                r = exitq.get(timeout=min(remaining, 1.0))
            except queue.Empty:
                continue
            running.discard(r)
            n = self.nodes[r]
            if n.rc != 0 and first_fail is None:
                first_fail = n
                if not self.args.keep_going and running:
                    say("node %d failed (%s) after %.2f s; stopping the others"
                        % (r, n.describe_rc(), n.t_end - n.t_start))
                    break
        return first_fail, False

    def check_after_success(self):
        """--out DIR: the sent == accumulated check, then the merged results."""
        outdir = out_dir_from_app(self.args.app)
        if outdir is None:
            return EXIT_OK
        if not check_outputs(outdir, self.plan.P, self.args.verbose):
            return EXIT_FAIL
        if self.args.results != "none":
            return merge_results(outdir, self.args.results)
        return EXIT_OK

    def clean_up(self):
        if self.tapmgr is not None:
            self.tapmgr.stop()
        cleanup(self.plan, self.created_bridge)
        outdir = out_dir_from_app(self.args.app)
        if outdir is not None:
            wglib.remove_ended_run_lock(outdir)  # the nodes killed could not
        os.close(self.lock_fd)
