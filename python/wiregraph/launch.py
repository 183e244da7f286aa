"""Starting a cluster from Python: where the launcher and the node binary are,
the node options of keyword arguments, and one run of the launcher with its
progress shown, its failure raised as a WiregraphError and Ctrl-C stopping
every node."""

import collections
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from wiregraph import progress as wgprogress
from wiregraph.paths import node_binary
from wiregraph.errors import WiregraphError

KEPT_LINES = 200  # the launcher's last lines kept for an error (a bc run prints one line per superstep)
ERROR = re.compile(r"^(?:\[node \d+\] )?wiregraph: error: (.*)$")
FAILURE = re.compile(r"^\[cluster\] (?:error: .*|first failure: .*|node \d+ failed .*|timeout after .*)$")


def launcher_command():
    """The argv that starts the launcher (the one place that names it): the
    package's own wiregraph.launcher, under this Python."""
    return [sys.executable, "-m", "wiregraph.launcher"]


def launcher_env():
    """The launcher's environment: this one, with the directory this package
    was imported from first on PYTHONPATH, so that the launcher is this
    package's wherever it came from (an editable install, PYTHONPATH, a
    notebook's sys.path)."""
    env = dict(os.environ)
    here = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([here] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def node_options(options):
    """Keyword arguments as node options: damping=0.85 -> --damping 0.85,
    weight_column='w' -> --weight-column w, True -> a flag, False/None -> nothing."""
    argv = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def failure_message(errors, failures, rc):
    lines = errors[:5] + failures[-3:]
    return "\n".join(lines) if lines else "the launcher exited with status %d" % rc


def stop(proc):
    """SIGINT to the launcher's process group (it stops its nodes and cleans
    up), then wait for it, reading what it still says so that it never
    blocks on a full pipe."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    while True:
        try:
            proc.communicate()
            return
        except KeyboardInterrupt:
            continue  # it is stopping already: a second Ctrl-C waits for it


def run_launcher(app_args, nodes=2, link="memif", progress=None, timeout=None, app="wiregraph"):
    """Runs the launcher on APP_ARGS (the node options) and returns its output
    lines; WiregraphError when it exits non-zero; KeyboardInterrupt after
    stopping every node."""
    argv = launcher_command() + ["--nodes", str(nodes), "--link", link, "--binary", str(node_binary()),
                                 "--results", "npy"]
    if timeout is not None:
        argv += ["--timeout", str(timeout)]
    shown = wgprogress.display(app, progress)
    if not isinstance(shown, wgprogress.Silent):
        argv += ["--verbose"]  # rank 0's superstep lines
    kept = collections.deque(maxlen=KEPT_LINES)
    errors, failures = [], []
    # Its own session: Ctrl-C in a terminal reaches Python only, which stops
    # the launcher once, by the rule above.
    with subprocess.Popen(argv + ["--"] + app_args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True,
                          env=launcher_env()) as proc:
        try:
            for line in proc.stdout:
                line = line.rstrip("\n")
                kept.append(line)
                m = ERROR.match(line)
                if m:
                    errors.append(m.group(1))
                elif FAILURE.match(line):
                    failures.append(line[len("[cluster] "):])
                event = wgprogress.parse(line)
                if event:
                    shown.update(*event)
            rc = proc.wait()
        except BaseException:
            stop(proc)
            raise
        finally:
            shown.close()
    if rc != 0:
        if rc == 2 and not errors:  # the options refused before any node started: the node's message
            errors = [line for line in kept if "error" in line][:5]
        raise WiregraphError(failure_message(errors, failures, rc), rc, kept)
    return list(kept)
