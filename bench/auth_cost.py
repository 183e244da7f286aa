#!/usr/bin/env python3
"""End-to-end cost of authenticated frames (issue #14): the same PageRank
run with the launcher's key (every frame sealed with AES-128-GMAC and
verified, no CRC: the default), without a key (--no-auth: the CRC32C that
was the default before) and without either (--no-auth --checksum off), the
order rotating trial by trial (the machine is shared), through
scripts/wiregraph-cluster:

  wiregraph-cluster --nodes 2 --link memif -- --app pagerank --graph kron:20:16 \\
      --iterations K --scatter sparse [--no-auth [--checksum off]] --quiet --out DIR

Sparse scatter (one record per edge) sends the most buckets per second of
compute, so the MAC weighs most there. Reports per setting the median compute
seconds (max over nodes, from DIR/node<R>.json) with min and max, the buckets
sent, and each setting over the keyed one per trial (median). Only runs whose
launcher exited 0 count (its cluster check found every message accumulated).
Only the Python standard library is used.
"""

import sys

from wiregraph import benchlib

SETTINGS = [("mac", []), ("crc", ["--no-auth"]), ("none", ["--no-auth", "--checksum", "off"])]

if __name__ == "__main__":
    sys.exit(benchlib.setting_cost_main(__doc__, SETTINGS, "kron:20:16"))
