"""Command-line habits of every command, without a cluster and without the EAL:
--version of wiregraph, wiregraph-convert and scripts/wiregraph-cluster
(meson.build's version and the checkout's commit). Run by meson (suite unit)
as `python3 -m unittest`."""

import os
import re
import subprocess
import sys
import unittest

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


if __name__ == "__main__":
    unittest.main()
