"""python3 -m wiregraph.launcher ARGS: the same as scripts/wiregraph-cluster ARGS."""

import sys

from .main import main

sys.exit(main(sys.argv[1:]))
