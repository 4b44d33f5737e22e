"""Tests of benchdoc.replace_section."""
import os
import tempfile
import unittest

from benchdoc import replace_section


class ReplaceSectionTest(unittest.TestCase):
    def setUp(self):
        self.doc = os.path.join(tempfile.mkdtemp(), "benchmarks.md")

    def read(self):
        with open(self.doc) as f:
            return f.read()

    def test_creates_the_file(self):
        replace_section(self.doc, "## A (make a)\n\nnew\n")
        self.assertEqual(self.read(), "# Benchmarks\n\n## A (make a)\n\nnew\n")

    def test_replaces_only_its_own_section(self):
        with open(self.doc, "w") as f:
            f.write("# Benchmarks\n\n## A (make a)\n\nold\n\n## A (make a): notes\n\nkept\n\n## B\n\nother\n")
        replace_section(self.doc, "## A (make a)\n\nnew\n")
        self.assertEqual(self.read(),
                         "# Benchmarks\n\n## A (make a)\n\nnew\n\n## A (make a): notes\n\nkept\n\n## B\n\nother\n")

    def test_appends_a_new_section(self):
        with open(self.doc, "w") as f:
            f.write("# Benchmarks\n\n## B\n\nother\n")
        replace_section(self.doc, "## A (make a)\n\nnew\n")
        self.assertEqual(self.read(), "# Benchmarks\n\n## B\n\nother\n\n## A (make a)\n\nnew\n")


if __name__ == "__main__":
    unittest.main()
