#!/usr/bin/env python3
"""End-to-end cost of the CRC32C in runs without a key: the same PageRank
run with --no-auth and --checksum off, then on, the order rotating trial by
trial (the machine is shared), through scripts/wiregraph-cluster:

  wiregraph-cluster --nodes P --link L -- --app pagerank --graph G \\
      --iterations K --scatter sparse --no-auth --checksum off|on --quiet --out DIR

(With a key, the default, frames carry a MAC and no CRC: bench/auth_cost.py
measures that.) Sparse scatter (one record per edge) sends the most buckets
per second of compute, so the CRC weighs most there. Reports per setting the
median compute seconds (max over nodes, from DIR/node<R>.json) with min and
max, the buckets sent, and on / off per trial (median). Only runs whose
launcher exited 0 count (its cluster check found every message accumulated).
Only the Python standard library is used.
"""

import sys

from wiregraph import benchlib

SETTINGS = [("off", ["--no-auth", "--checksum", "off"]), ("on", ["--no-auth", "--checksum", "on"])]

if __name__ == "__main__":
    sys.exit(benchlib.setting_cost_main(__doc__, SETTINGS, "kron:18:16"))
