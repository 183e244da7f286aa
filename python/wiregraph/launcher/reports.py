"""What the launcher prints and checks around a run: a line per node, the
--out check and results merge after success, and --dry-run's commands."""

import time

from .. import results as wgresults  # DIR/results.tsv from the nodes' result-R.txt
from .. import wglib  # the node reports and the sent == accumulated check
from .plan import cpu_list_string, qcmd
from .progress import out, say
from .status import EXIT_FAIL, EXIT_OK

SUMMARY_LINES_MAX = 8       # nodes that exited 0 beyond this many share one summary line


def check_outputs(outdir, P, verbose):
    """The cluster check on DIR/node<R>.json (python/wiregraph/wglib.py); True when it passed."""
    return wglib.check_message_balance(outdir, P, out, per_superstep=verbose)


def merge_results(outdir, fmt):
    """DIR/results.tsv (or .npy) from the nodes' result-R.txt (wiregraph.results)."""
    try:
        written = wgresults.write_results(outdir, fmt)
    except (wgresults.ResultsError, OSError) as e:
        say("error: results: %s" % e)
        return EXIT_FAIL
    say("results: " + wgresults.written_line(*written, fmt))
    return EXIT_OK


def print_summary(nodes):
    """A line per node; beyond SUMMARY_LINES_MAX nodes, the ones that exited 0
    share one ("nodes 0-15: exit code 0, 3.37 to 6.88 s")."""
    def seconds(n):
        return (n.t_end or time.monotonic()) - n.t_start
    fine = [n for n in nodes if n.proc is not None and n.rc == 0]
    shared = len(nodes) > SUMMARY_LINES_MAX and len(fine) > 1
    for n in nodes:
        if n.proc is None:
            say("node %d: not started" % n.rank)
        elif not (shared and n.rc == 0):
            say("node %d: %s, %.2f s" % (n.rank, n.describe_rc(), seconds(n)))
    if shared:
        times = [seconds(n) for n in fine]
        say("nodes %s: exit code 0, %.2f to %.2f s"
            % (cpu_list_string({n.rank for n in fine}), min(times), max(times)))


def dry_run(plan):
    a = plan.args
    say("dry run: job %s, %d node(s), link %s, run dir %s, %s"
        % (plan.job, plan.P, a.link if plan.P > 1 else "none", plan.rundir, plan.auth_summary()))
    say("memory: %s" % plan.mem_reason)
    if plan.uses_bridge():
        for c in plan.bridge_commands():
            out(qcmd(c))
        for r in range(plan.P):
            for c in plan.hosts.node_commands(r):
                out(qcmd(c))
    if a.link == "tap" and plan.P > 1:
        for r in range(plan.P):
            c = plan.tap_commands(r)
            out("# when node %d has created %s:" % (r, plan.tap_iface(r)))
            out(qcmd(c[0]))
            out("# when %s is up (the node started its port), then whenever its MAC "
                "changes:" % plan.tap_iface(r))
            out(qcmd(c[1]))
            out("# once the MAC is set:")
            out(qcmd(c[2]))
    for r in range(plan.P):
        out(qcmd(plan.command(r)))
    return EXIT_OK
