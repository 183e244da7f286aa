"""apps/list_programs.py, the build step that turns the WG_PROGRAM(Type) lines
of apps/*.h into the program list: every marked header is included and every
marked type listed, in header order; a line that does not start with the
marker (a comment, the macro's definition) is not a registration; and the
list is rewritten only when it changes, so that the build recompiles nothing
when no program was added. Run by meson (suite unit)."""

import importlib.util
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("WG_SOURCE_DIR", os.path.dirname(HERE))
SPEC = importlib.util.spec_from_file_location("list_programs", os.path.join(ROOT, "apps", "list_programs.py"))
list_programs = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(list_programs)


class ListPrograms(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.apps = os.path.join(self.tmp.name, "apps")
        os.mkdir(self.apps)
        self.out = os.path.join(self.tmp.name, "registered_programs.h")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.apps, name), "w", encoding="utf-8") as f:
            f.write(text)

    def generated(self):
        list_programs.main(self.apps, self.out)
        with open(self.out, encoding="utf-8") as f:
            return f.read()

    def test_marked_headers_in_header_order(self):
        self.write("zeta.h", "struct Zeta {};\nWG_PROGRAM(Zeta);\n")
        self.write("alpha.h", "struct A {};\nWG_PROGRAM(A);\nstruct B {};\nWG_PROGRAM(B);\n")
        self.write("helper.h", "// WG_PROGRAM(NotOne) in a comment\n#define WG_PROGRAM(Type) x\n")
        self.write("notes.txt", "WG_PROGRAM(NotAHeader);\n")
        text = self.generated()
        self.assertIn('#include "apps/alpha.h"\n#include "apps/zeta.h"\n', text)
        self.assertNotIn("helper.h", text)
        self.assertIn("using RegisteredPrograms = ProgramList<Completed<A>, Completed<B>, Completed<Zeta>>;", text)
        self.assertNotIn("NotOne", text)
        self.assertNotIn("NotAHeader", text)

    def test_rewritten_only_when_the_list_changes(self):
        self.write("a.h", "WG_PROGRAM(A);\n")
        self.generated()
        os.utime(self.out, (1, 1))  # an old file: a rewrite would make it new
        self.generated()
        self.assertEqual(os.stat(self.out).st_mtime, 1, "an unchanged list must not be written again")
        self.write("b.h", "WG_PROGRAM(B);\n")  # a new program's header: picked up
        self.assertIn("Completed<B>", self.generated())
        self.assertNotEqual(os.stat(self.out).st_mtime, 1)

    def test_the_repository_lists_every_program_header(self):
        found = [t for _, t in list_programs.registered(os.path.join(ROOT, "apps"))]
        for program in ("InDegree", "MinLabelComponents", "PageRank", "Bfs"):
            self.assertIn(program, found)
        self.assertEqual(len(found), len(set(found)), "a program registered twice")


if __name__ == "__main__":
    unittest.main()
