#!/usr/bin/env python3
"""The repository explains itself: the code cites docs/, never the folder beside the clone, and
every docs/ anchor it cites exists.

Usage: check_docs.py ROOT

Fails, naming file and line,
  - on a mention of `../shared` or of a design text outside the repository in impl/, model/,
    proofs/, fuzz/ or cli/;
  - on a citation `docs/<file>.md#<id>` (in any source, script, CMake file or README) whose file
    or `<a id="<id>">` anchor does not exist;
  - on a docs/ file the index docs/README.md does not link.
"""
import os
import re
import sys

CODE = ["impl", "model", "proofs", "fuzz", "cli"]
CITING = CODE + ["tests", "bench", "scripts", "docs"]
OUTSIDE = re.compile(r"\.\./shared|reference/[a-z-]+\.md|delta-rlc\.md|umbrella")
CITATION = re.compile(r"docs/([a-z_-]+\.md)#([a-z0-9_-]+)")
LOCAL = re.compile(r"\]\(([a-z_-]+\.md)#([a-z0-9_-]+)\)")  # links inside docs/
ANCHOR = re.compile(r'<a id="([a-z0-9_-]+)"></a>')
SUFFIXES = (".h", ".cc", ".py", ".sh", ".txt", ".md", ".scenario", ".cmake")


def files_under(root, folders):
    for folder in folders:
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield os.path.join(dirpath, name)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    problems = []
    docs = os.path.join(root, "docs")
    anchors = {}
    for name in sorted(os.listdir(docs)) if os.path.isdir(docs) else []:
        if name.endswith(".md"):
            with open(os.path.join(docs, name), encoding="utf-8") as f:
                anchors[name] = set(ANCHOR.findall(f.read()))
    if not anchors:
        problems.append("docs/: no documentation")
    checked = 0
    paths = list(files_under(root, CITING)) + [os.path.join(root, "README.md")]
    for path in paths:
        if not os.path.isfile(path):
            continue
        rel = os.path.relpath(path, root)
        if rel.startswith(os.path.join("tests", "house")):
            continue  # the checks and their self-test's made-up trees
        in_code = rel.split(os.sep)[0] in CODE
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, start=1):
                if in_code and OUTSIDE.search(line):
                    problems.append(f"{rel}:{number}: cites a text outside the repository: {line.strip()}")
                found = CITATION.findall(line)
                if rel.startswith("docs" + os.sep):
                    found += LOCAL.findall(line)
                for doc, anchor in found:
                    checked += 1
                    if doc not in anchors:
                        problems.append(f"{rel}:{number}: docs/{doc} does not exist")
                    elif anchor not in anchors[doc]:
                        problems.append(f"{rel}:{number}: docs/{doc} has no anchor '{anchor}'")
    index = os.path.join(docs, "README.md")
    if os.path.isfile(index):
        with open(index, encoding="utf-8") as f:
            text = f.read()
        for name in anchors:
            if name != "README.md" and f"({name}" not in text:
                problems.append(f"docs/README.md: does not link {name}")
    for p in problems:
        print("docs: " + p)
    print(f"docs: {checked} citation(s) checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
