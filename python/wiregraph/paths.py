"""Where this checkout's files are: found from the package's own location
(python/wiregraph/ of a checkout; scripts/setup.sh installs it editable), so
the launcher, the benchmarks and the API run the node binary built beside it."""

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
BUILT_BINARY = REPO_ROOT / "build" / "apps" / "wiregraph"
SCRIPTS_DIR = REPO_ROOT / "scripts"
BENCH_DIR = REPO_ROOT / "bench"


def node_binary():
    """The node binary: $WIREGRAPH_BIN when set (another build, an installed
    one), else this checkout's build/apps/wiregraph."""
    return Path(os.environ.get("WIREGRAPH_BIN") or BUILT_BINARY)
