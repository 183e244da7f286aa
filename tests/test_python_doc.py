"""The Python in docs/PYTHON.md runs: its ```python blocks, in order, in one
namespace, on this checkout's package and node binary (2-node memif runs
against networkx: the blocks assert the answers). Run by meson (suite cluster)."""

import os
import re
import unittest

from python_api_env import SOURCE

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks(doc):
    with open(doc, encoding="utf-8") as f:
        return BLOCK.findall(f.read())


class PythonDoc(unittest.TestCase):
    def test_every_python_block_runs(self):
        code = blocks(os.path.join(SOURCE, "docs", "PYTHON.md"))
        self.assertGreaterEqual(len(code), 4)
        namespace = {}
        for k, block in enumerate(code):
            with self.subTest(block=k):
                exec(compile(block, "docs/PYTHON.md block %d" % (k + 1), "exec"), namespace)


if __name__ == "__main__":
    unittest.main()
