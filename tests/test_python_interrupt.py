"""A run from Python that is stopped: Ctrl-C (SIGINT to the Python process
once its progress shows supersteps) stops every node and leaves no process,
run directory or temporary file behind, then KeyboardInterrupt reaches the
caller; a node killed mid-run makes wiregraph.run raise WiregraphError with
the launcher's words. Each run is a child Python process whose progress lines
(stderr) say when it is computing: synchronised on output, never on time.
Run by meson (suite cluster) as `python3 -m unittest`."""

import os
import signal
import subprocess
import sys
import tempfile
import unittest

from python_api_env import HERE, LIMIT_S

# Long enough to be stopped while computing: the test ends it at the first superstep.
CHILD = """
import python_api_env
import wiregraph
try:
    wiregraph.run("pagerank", "kron:12:8", iterations=100000, progress=True)
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
except wiregraph.WiregraphError as e:
    print("WiregraphError %d: %s" % (e.returncode, e))
"""


def job_processes(job):
    """Pids whose command line names the job's run dir or file prefixes."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmdline = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        if "wiregraph-%s" % job in cmdline or "wg%sr" % job in cmdline:
            found.append((int(pid), cmdline.replace("\0", " ")))
    return found


class StoppedRuns(unittest.TestCase):
    def start(self, tmp):
        env = dict(os.environ, TMPDIR=tmp, PYTHONUNBUFFERED="1")
        # python -c puts its cwd first on sys.path: python_api_env is found there.
        child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=HERE, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)
        job = None
        for line in child.stderr:
            if " job " in line and line.rstrip().endswith("started"):
                job = line.split(" job ")[1].split()[0]
            if "superstep" in line:
                return child, job
        child.kill()
        self.fail("the run ended before computing: %s" % child.communicate(timeout=LIMIT_S)[0])

    def finish(self, child):
        out, _ = child.communicate(timeout=LIMIT_S)
        return out

    def test_ctrl_c_stops_every_node_and_leaves_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            child, job = self.start(tmp)
            self.assertIsNotNone(job)
            self.assertTrue(job_processes(job), "the nodes run")
            child.send_signal(signal.SIGINT)
            out = self.finish(child)
            self.assertIn("KeyboardInterrupt", out)
            self.assertEqual(job_processes(job), [], "no node or launcher left")
            self.assertFalse(os.path.exists("/tmp/wiregraph-%s" % job), "the launcher's run dir is gone")
            self.assertEqual(os.listdir(tmp), [], "the API's temporary directory is gone")

    def test_a_killed_node_raises_wiregraph_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            child, job = self.start(tmp)
            node1 = [pid for pid, cmdline in job_processes(job) if "--file-prefix wg%sr1" % job in cmdline]
            self.assertEqual(len(node1), 1)
            os.kill(node1[0], signal.SIGKILL)
            out = self.finish(child)
            self.assertIn("WiregraphError 1:", out)
            self.assertIn("first failure: node 1", out)
            self.assertEqual(job_processes(job), [])
            self.assertEqual(os.listdir(tmp), [])


if __name__ == "__main__":
    unittest.main()
