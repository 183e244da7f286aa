"""Code in docs/ cut from compiled code stays the code: a fenced block after
`<!-- 8< PATH NAME -->` in a docs/*.md file must equal the lines of PATH
between `// 8< NAME` and `// >8 NAME` (DPDK's markers for the snippets its
guides include), so that a doc cannot drift from the code the build
compiles. Run by meson (suite unit) as `python3 -m unittest`."""

import glob
import os
import re
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
DOC_MARK = re.compile(r"^<!-- 8< (\S+) (\S+)")


def marked_region(path, name):
    """The lines of `path` strictly between `// 8< NAME` and `// >8 NAME`."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == f"// 8< {name}"]
    ends = [i for i, line in enumerate(lines) if line.strip() == f"// >8 {name}"]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise AssertionError(f"{path}: expected one '// 8< {name}' before one '// >8 {name}', "
                             f"found {len(starts)} and {len(ends)}")
    return lines[starts[0] + 1:ends[0]]


def snippets(doc):
    """(line number, path, name, code lines) for every marked block of `doc`."""
    with open(doc, encoding="utf-8") as f:
        lines = f.read().splitlines()
    found = []
    for i, line in enumerate(lines):
        m = DOC_MARK.match(line)
        if not m:
            continue
        fence = i + 1
        if fence >= len(lines) or not lines[fence].startswith("```"):
            raise AssertionError(f"{doc}:{i + 1}: the marker must be followed by a fenced code block")
        end = next((j for j in range(fence + 1, len(lines)) if lines[j].startswith("```")), None)
        if end is None:
            raise AssertionError(f"{doc}:{fence + 1}: the code block is not closed")
        found.append((i + 1, m.group(1), m.group(2), lines[fence + 1:end]))
    return found


def differences(root):
    """One message per marked block of root/docs/*.md that differs from its
    source region, and the number of blocks checked."""
    problems, checked = [], 0
    for doc in sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        for line, path, name, code in snippets(doc):
            checked += 1
            if code != marked_region(os.path.join(root, path), name):
                problems.append(f"{os.path.relpath(doc, root)}:{line}: the block differs from {path} between "
                                f"'// 8< {name}' and '// >8 {name}': copy the region again")
    return problems, checked


class DocSnippetsTest(unittest.TestCase):
    def test_every_marked_block_equals_its_source(self):
        problems, checked = differences(ROOT)
        self.assertEqual(problems, [])
        self.assertGreaterEqual(checked, 1, "no marked snippet in docs/: the worked example of docs/PROGRAMS.md?")

    def test_a_block_that_drifted_is_named(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "docs"))
            with open(os.path.join(root, "x.h"), "w") as f:
                f.write("int a;\n// 8< two\nint b;\nint c;\n// >8 two\n")
            doc = os.path.join(root, "docs", "X.md")
            with open(doc, "w") as f:
                f.write("Text.\n\n<!-- 8< x.h two -->\n```cpp\nint b;\nint c;\n```\n")
            self.assertEqual(differences(root), ([], 1))
            with open(doc, "w") as f:
                f.write("Text.\n\n<!-- 8< x.h two -->\n```cpp\nint b;\n```\n")
            problems, _ = differences(root)
            self.assertEqual(len(problems), 1)
            self.assertIn("docs/X.md:3: the block differs from x.h", problems[0])


if __name__ == "__main__":
    unittest.main()
