"""bench/wg_timed.py, the wrapper the benchmarks start as the node binary:
it ends as the node ended (its exit status, or the signal that killed it:
the launcher tells a crash from a refusal by that) and records the node's
figures. The node here is a shell script. Run by meson (suite unit) as
`python3 tests/test_bench_wrapper.py -v` (pytest)."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

WRAPPER = Path(__file__).resolve().parent.parent / "bench" / "wg_timed.py"


@pytest.mark.parametrize("node_does, status", [
    ("exit 0", 0),
    ("exit 3", 3),
    ("kill -KILL $$", -signal.SIGKILL),   # --crash-node: the node kills itself
    ("kill -TERM $$", -signal.SIGTERM),   # the launcher stopping the others
])
def test_the_wrapper_ends_as_the_node_ended_and_records_it(tmp_path, node_does, status):
    node = tmp_path / "node.sh"
    node.write_text("#!/bin/sh\n%s\n" % node_does)
    node.chmod(0o755)
    env = dict(os.environ, WG_BENCH_BINARY=str(node), WG_BENCH_RSS_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, str(WRAPPER), "--rank", "1", "--app", "cc"], env=env,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == status, r.stderr
    assert r.stderr == ""
    fields = (tmp_path / "rss-1.txt").read_text().split()
    assert len(fields) == 5 and int(fields[0]) > 0
    assert int(fields[4]) == status


if __name__ == "__main__":
    sys.exit(pytest.main([__file__] + sys.argv[1:]))
