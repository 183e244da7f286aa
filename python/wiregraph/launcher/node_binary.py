"""What the launcher asks the node binary without the EAL, before any node
starts: its version (--version) and its own parse of the application
options (--check-options), which also says how much EAL memory a node takes."""

import os
import subprocess

from .memory import memory_need
from .progress import out, say
from .status import EXIT_FAIL, EXIT_OK, EXIT_USAGE

ASK_LIMIT_S = 60.0          # the node binary answering --version or --check-options (no EAL)
# A launcher's rank variables: the option check runs outside any rank.
RANK_VARIABLES = ("SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK")


def check_app_options(plan):
    """The node binary's own parse of the application options (no EAL),
    before any node starts. Returns (exit code, message, need): (0, "", need)
    when they are fine, the node's exit 2 and its message when it refuses
    them, and anything else when the binary could not tell (an older one
    without --check-options starts the EAL instead and fails on it); `need` is
    the node's estimate of its EAL memory (memory_need), or None."""
    env = {k: v for k, v in os.environ.items() if k not in RANK_VARIABLES}
    try:
        r = subprocess.run(plan.check_command(), env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=ASK_LIMIT_S)
    except subprocess.TimeoutExpired:
        return EXIT_FAIL, "did not answer within %.0f s" % ASK_LIMIT_S, None
    except OSError as e:
        return EXIT_FAIL, str(e), None
    if r.returncode == 0:
        return EXIT_OK, "", memory_need(r.stdout)
    text = (r.stderr.strip() or r.stdout.strip()).splitlines()
    return (r.returncode, "\n".join(text[-3:]) if r.returncode != EXIT_USAGE else "\n".join(text),
            None)


def print_version(binary):
    """`wiregraph-cluster --version`: the node binary's version and commit
    (the launcher ships with it), e.g. "wiregraph-cluster 0.1.0 (commit 5cc2a8f)"."""
    try:
        r = subprocess.run([binary, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=ASK_LIMIT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        say("error: cannot run %s --version: %s" % (binary, e))
        return EXIT_FAIL
    line = r.stdout.strip()
    if r.returncode != 0 or not line.startswith("wiregraph "):
        say("error: %s --version said %r (exit %d)" % (binary, line, r.returncode))
        return EXIT_FAIL
    out("wiregraph-cluster" + line[len("wiregraph"):] + ", node binary " + binary)
    return EXIT_OK
