"""Writes a benchmark's section into docs/benchmarks.md: the section under the same
heading is replaced up to the next "## " heading, or appended when the file has none, so
the sections of other benchmarks and hand-written ones stay as they are."""
import os
import re


def replace_section(doc, section):
    """Puts section, whose first line is its "## " heading, into the file doc."""
    heading = section.split("\n", 1)[0]
    text = "# Benchmarks\n"
    if os.path.exists(doc):
        with open(doc) as f:
            text = f.read()
    m = re.search("^" + re.escape(heading) + r"\n.*?(?=^## |\Z)", text, flags=re.M | re.S)
    if m:
        rest = text[m.end():]
        text = text[:m.start()] + section + ("\n" + rest if rest else "")
    else:
        text = text.rstrip() + "\n\n" + section
    with open(doc, "w") as f:
        f.write(text)
