"""scripts/wiregraph-validate on outputs that must pass and outputs that must fail,
one case per Graphalytics rule (exact, equivalence, epsilon) and per way a
file can be wrong. Run by meson (suite unit) as `python3 -m unittest`."""

import importlib.machinery
import importlib.util
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE)), "scripts", "wiregraph-validate")
loader = importlib.machinery.SourceFileLoader("wiregraph_validate", SCRIPT)
spec = importlib.util.spec_from_loader("wiregraph_validate", loader)
validate_mod = importlib.util.module_from_spec(spec)
loader.exec_module(validate_mod)


class ValidateTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def check(self, algorithm, output, reference):
        out = io.StringIO()
        ok = validate_mod.validate(algorithm, output, reference, 10, out)
        return ok, out.getvalue()

    def test_exact_passes_and_fails(self):
        ref = self.write("ref", "1 3\n2 1\n-5 9223372036854775807\n")
        self.assertTrue(self.check("bfs", self.write("ok", "-5 9223372036854775807\n2 1\n1 3\n"), ref)[0])
        ok, text = self.check("bfs", self.write("bad", "1 4\n2 1\n-5 9223372036854775807\n"), ref)
        self.assertFalse(ok)
        self.assertIn("vertex 1: expected 3, actual 4", text)
        # The largest 64-bit value is an integer, not a float close to it.
        self.assertFalse(self.check("bfs", self.write("near", "1 3\n2 1\n-5 9223372036854775806\n"), ref)[0])

    def test_output_directory_of_result_files(self):
        ref = self.write("ref", "1 3\n2 1\n7 0\n")
        self.write("out/result-0.txt", "1 3\n7 0\n")
        self.write("out/result-1.txt", "2 1\n")
        self.write("out/summary.json", "{}\n")
        self.assertTrue(self.check("cdlp", os.path.join(self.dir.name, "out"), ref)[0])

    def test_equivalence_up_to_renaming(self):
        ref = self.write("ref", "1 1\n2 1\n3 1\n4 2\n5 2\n6 3\n")
        self.assertTrue(self.check("wcc", self.write("ok", "1 81\n2 81\n3 81\n4 32\n5 32\n6 12\n"), ref)[0])
        # The specification's incorrect example: a split and a merge.
        ok, text = self.check("wcc", self.write("bad", "1 31\n2 52\n3 31\n4 31\n5 31\n6 74\n"), ref)
        self.assertFalse(ok)
        self.assertIn("vertex 2", text)
        # Merging two components alone is wrong too (the mapping must be two-way).
        self.assertFalse(self.check("wcc", self.write("merged", "1 1\n2 1\n3 1\n4 1\n5 1\n6 3\n"), ref)[0])

    def test_epsilon(self):
        ref = self.write("ref", "1 0\n2 0.3\n3 0.45\n4 0.23\n5 +inf\n6 0.001\n")
        ok = self.write("ok", "1 0.000000000000000e+00\n2 0.30002\n3 0.45\n4 0.229997\n5 infinity\n6 0.001\n")
        self.assertTrue(self.check("pr", ok, ref)[0])
        # The specification's incorrect example, every wrong value named.
        bad = self.write("bad", "1 0.000001\n2 0.3\n3 0.46\n4 0.22\n5 1.79769e+308\n6 0\n")
        passed, text = self.check("sssp", bad, ref)
        self.assertFalse(passed)
        for v in (1, 3, 4, 5, 6):
            self.assertIn(f"vertex {v}:", text)
        self.assertNotIn("vertex 2:", text)

    def test_vertex_sets_must_match(self):
        ref = self.write("ref", "1 1\n2 1\n")
        passed, text = self.check("lcc", self.write("fewer", "1 1\n"), ref)
        self.assertFalse(passed)
        self.assertIn("vertex count is incorrect, expected: 2, actual: 1", text)
        passed, text = self.check("lcc", self.write("other", "1 1\n3 1\n"), ref)
        self.assertFalse(passed)
        self.assertIn("vertex 2 is in the reference but not in the output", text)
        self.assertIn("vertex 3 is in the output but not in the reference", text)

    def test_malformed_files_are_errors(self):
        ref = self.write("ref", "1 1\n")
        for name, text, what in [("dup", "1 1\n1 1\n", "appears twice"), ("word", "1 x\n", "not an integer"),
                                 ("three", "1 1 1\n", "expected 'id value'")]:
            with self.assertRaises(validate_mod.Malformed) as e:
                self.check("bfs", self.write(name, text), ref)
            self.assertIn(what, str(e.exception))
        self.assertEqual(validate_mod.main(["--algorithm", "bfs", os.path.join(self.dir.name, "missing"), ref]), 2)


if __name__ == "__main__":
    unittest.main()
