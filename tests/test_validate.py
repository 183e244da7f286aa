"""scripts/wiregraph-validate (wiregraph.validate) on outputs that must pass and outputs that must fail,
one case per Graphalytics rule (exact, distance, equivalence, epsilon), per
way a file can be wrong, and per way the rule is chosen (--algorithm, or the
`results` of the output's report, for programs Graphalytics does not have).
tests/test_cluster_validate.cc checks it on real runs of every program.
Run by meson (suite unit) as `python3 -m unittest`."""

import io
import json
import os
import sys
import tempfile
import unittest

from wiregraph import validate as validate_mod


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

    def output_dir(self, name, program, comparison, tolerance, lines):
        """A wiregraph output directory: result-0.txt and node0.json's `results`."""
        self.write(f"{name}/result-0.txt", lines)
        self.write(f"{name}/node0.json", json.dumps({"config": {"app": program}, "results": {
            "program": program, "format": "plain", "comparison": comparison, "tolerance": tolerance}}))
        return os.path.join(self.dir.name, name)

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

    def test_plain_bfs_unreachable_is_graphalytics_infinity(self):
        # wiregraph's plain output writes "inf"; Graphalytics' reference 2^63 - 1.
        ref = self.write("ref", "1 0\n2 1\n3 9223372036854775807\n")
        ok, text = self.check("bfs", self.write("plain", "1 0\n2 1\n3 inf\n"), ref)
        self.assertTrue(ok, text)
        ok, text = self.check("bfs", self.write("wrong", "1 0\n2 inf\n3 inf\n"), ref)
        self.assertFalse(ok)
        self.assertIn("vertex 2: expected 1, actual inf", text)

    def test_rule_from_the_report_for_a_program_graphalytics_has_not(self):
        ref = self.write("ref", "1 2\n2 2\n3 0\n")
        out = self.output_dir("kcore", "kcore", "exact", 0, "1 2\n2 2\n3 0\n")
        ok, text = self.check(None, out, ref)
        self.assertTrue(ok, text)
        self.assertIn("(kcore, exact rule)", text)
        self.assertTrue(self.check("kcore", out, ref)[0])
        bad = self.output_dir("kcore-bad", "kcore", "exact", 0, "1 2\n2 1\n3 0\n")
        ok, text = self.check(None, bad, ref)
        self.assertFalse(ok)
        self.assertIn("vertex 2: expected 2, actual 1", text)
        # Another program's name is not this output's.
        with self.assertRaises(validate_mod.Usage) as e:
            self.check("pagerank", out, ref)
        self.assertIn("the report says the results are kcore's", str(e.exception))

    def test_distance_rule_reads_integral_reals_and_every_infinity(self):
        # sssp's Graphalytics output writes its integer distances as reals.
        ref = self.write("ref", "1 0\n2 12\n3 inf\n")
        out = self.output_dir("sssp", "sssp", "distance", 0,
                              "1 0.000000000000000e+00\n2 1.200000000000000e+01\n3 infinity\n")
        ok, text = self.check(None, out, ref)
        self.assertTrue(ok, text)
        half = self.output_dir("sssp-half", "sssp", "distance", 0, "1 0\n2 12.5\n3 inf\n")
        with self.assertRaises(validate_mod.Malformed) as e:
            self.check(None, half, ref)
        self.assertIn("'12.5' is not an integer, an integral real or inf", str(e.exception))

    def test_real_rule_takes_the_reports_tolerance(self):
        ref = self.write("ref", "1 0.3\n2 inf\n")
        close = self.output_dir("close", "lcc", "real", 1e-7, "1 0.30000001\n2 inf\n")
        self.assertTrue(self.check(None, close, ref)[0])
        # 7e-5 relative: inside Graphalytics' 1e-4, outside the report's 1e-7.
        far = self.output_dir("far", "lcc", "real", 1e-7, "1 0.30002\n2 inf\n")
        self.assertFalse(self.check(None, far, ref)[0])
        self.assertTrue(self.check("lcc", far, ref)[0])

    def test_per_edge_results_compare_edge_by_edge(self):
        # jaccard's per-edge lines: an edge either way round in the reference.
        out = self.output_dir("edges", "jaccard", "real", 1e-7, "1 2 0.5\n1 3 0.25\n")
        results = json.loads(open(os.path.join(out, "node0.json")).read())
        results["results"]["rows"] = "edge"
        self.write("edges/node0.json", json.dumps(results))
        ok, text = self.check(None, out, self.write("edges_ref", "3 1 0.25\n1 2 0.5\n"))
        self.assertTrue(ok, text)
        self.assertIn("VALID: 2 edges", text)
        ok, text = self.check(None, out, self.write("edges_other", "1 2 0.5\n1 3 0.2\n"))
        self.assertFalse(ok)
        self.assertIn("edge 1 3: expected 0.2, actual 0.25", text)
        ok, text = self.check(None, out, self.write("edges_fewer", "1 2 0.5\n"))
        self.assertFalse(ok)
        self.assertIn("edge 1 3 is in the output but not in the reference", text)
        with self.assertRaises(validate_mod.Malformed) as e:
            self.check(None, out, self.write("edges_twice", "1 2 0.5\n2 1 0.5\n"))
        self.assertIn("edge 1 2 appears twice", str(e.exception))

    def test_several_values_a_line_compare_value_by_value(self):
        # ppr from three seeds: `id r1 r2 r3`, summary.json's value_columns.
        out = self.output_dir("lanes", "ppr", "real", 1e-4, "1 0.5 0.25 0\n2 0.5 0.75 1\n")
        results = json.loads(open(os.path.join(out, "node0.json")).read())
        results["results"]["value_columns"] = ["ppr_0", "ppr_5", "ppr_9"]
        self.write("lanes/node0.json", json.dumps(results))
        ok, text = self.check(None, out, self.write("lanes_ref", "2 0.50001 0.75 1\n1 0.5 0.25 0\n"))
        self.assertTrue(ok, text)
        ok, text = self.check(None, out, self.write("lanes_third", "1 0.5 0.25 0\n2 0.5 0.75 0.9\n"))
        self.assertFalse(ok)
        self.assertIn("vertex 2: expected (0.5, 0.75, 0.9), actual (0.5, 0.75, 1.0)", text)
        with self.assertRaises(validate_mod.Malformed) as e:
            self.check(None, out, self.write("lanes_short", "1 0.5 0.25\n2 0.5 0.75 1\n"))
        self.assertIn("expected 'id and 3 values', found 3 fields", str(e.exception))

    def test_without_a_rule_it_says_how_to_give_one(self):
        ref = self.write("ref", "1 1\n")
        with self.assertRaises(validate_mod.Usage) as e:
            self.check(None, self.write("out", "1 1\n"), ref)
        self.assertIn("give --algorithm", str(e.exception))
        self.assertEqual(validate_mod.main([os.path.join(self.dir.name, "out"), ref]), 2)

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
