#!/usr/bin/env python3
"""Branch coverage of the reconcile cases under an explorer campaign (scripts/coverage.sh).

Reads the gcov data of the coverage build's rlc_conflict objects (impl/conflict/*.cc and the
kernel templates of impl/kernel/*.h they instantiate), and writes:
  - OUT/branches.json: every line with branches in those files, its hit count and each branch's;
  - OUT/report.md: the guards first (every conditional marked `// doubt:` in the source, each
    with its hit counts), then every branch line by file.
A guard is hit both ways when at least two of the branches gcov records on its line (exceptions
aside) were taken: its decision went one way and the other (the doubt raised and passed). Every
branch count is listed, so a compound condition's parts can be read too. Exit 1 when some guard
was not (it names them), 0 otherwise.

Usage: coverage_report.py BUILD_DIR SOURCE_DIR OUT_DIR
"""
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile


def gcov_json(build_dir):
    """Every gcov JSON document for the rlc_conflict objects."""
    objects = sorted(glob.glob(os.path.join(os.path.abspath(build_dir), "impl/CMakeFiles/rlc_conflict.dir/conflict/*.gcda")))
    if not objects:
        sys.exit("coverage: no .gcda under " + build_dir + " (run the campaign with the coverage build first)")
    docs = []
    with tempfile.TemporaryDirectory() as tmp:
        for gcda in objects:
            subprocess.run(["gcov", "--json-format", "--branch-probabilities", "--branch-counts",
                            "--object-directory", os.path.dirname(gcda), gcda],
                           cwd=tmp, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for name in sorted(os.listdir(tmp)):
            if name.endswith(".gcov.json.gz"):
                with gzip.open(os.path.join(tmp, name), "rt") as f:
                    docs.append(json.load(f))
    return docs


def merge(docs, source_dir):
    """{relative path: {line: {"count": n, "branches": [n, ...]}}} over impl/conflict and impl/kernel."""
    lines = {}
    for doc in docs:
        for f in doc.get("files", []):
            path = os.path.relpath(os.path.realpath(os.path.join(doc.get("current_working_directory", ""), f["file"])),
                                   os.path.realpath(source_dir))
            if not (path.startswith("impl/conflict/") or path.startswith("impl/kernel/")):
                continue
            per_file = lines.setdefault(path, {})
            for ln in f.get("lines", []):
                entry = per_file.setdefault(ln["line_number"], {"count": 0, "branches": []})
                entry["count"] += ln.get("count", 0)
                counts = [b["count"] for b in ln.get("branches", []) if not b.get("throw", False)]
                if len(entry["branches"]) == len(counts):
                    entry["branches"] = [a + b for a, b in zip(entry["branches"], counts)]
                elif not entry["branches"]:
                    entry["branches"] = counts
                else:  # another instantiation of a template line: its branches listed beside
                    entry["branches"] += counts
    return lines


def guards(source_dir, lines, marker="// doubt:"):
    """Every line carrying `marker`, with its coverage."""
    out = []
    for pattern in ("impl/conflict/*.cc", "impl/kernel/*.h"):
        for path in sorted(glob.glob(os.path.join(source_dir, pattern))):
            rel = os.path.relpath(path, source_dir)
            with open(path, encoding="utf-8") as f:
                texts = f.read().split("\n")
            for number, text in enumerate(texts, start=1):
                if marker not in text:
                    continue
                entry = decision(lines.get(rel, {}), texts, number)
                branches = entry["branches"]
                both = sum(1 for b in branches if b > 0) >= 2
                out.append({"file": rel, "line": number, "why": text.split(marker, 1)[1].strip(),
                            "count": entry["count"], "branches": branches, "bothWays": both})
    return out


def decision(file_lines, texts, number):
    """The coverage of the decision a marker comments. The formatter may wrap one guard over
    several lines (`if (...)` above the `return;` the marker sits on, or a long condition around
    it), so the guard is the whole statement around the marker: from the line after the previous
    `;`, `{` or `}` down to the line that ends the statement; of its lines, the one whose branches
    went most ways stands for it."""
    empty = {"count": 0, "branches": []}

    def code(k):  # line k (1-based) without its comment
        return texts[k - 1].split("//", 1)[0].rstrip() if 1 <= k <= len(texts) else ";"

    def continued(k):  # line k does not end a statement or open a block
        return bool(code(k)) and not code(k).endswith((";", "{", "}"))

    start = number
    while start > 1 and number - start < 6 and continued(start - 1):
        start -= 1
    # The first statement of an `if (...) {` block: the `if` decides it.
    if start > 1 and code(start - 1).endswith("{"):
        header = start - 1
        while header > 1 and start - header < 6 and continued(header - 1):
            header -= 1
        if code(header).lstrip().startswith(("if ", "if(", "} else if", "else if")):
            start = header
    end = number
    while end < len(texts) and end - number < 6 and not code(end).endswith((";", "{", "}")):
        end += 1
    best = file_lines.get(number, empty)
    for k in range(start, end + 1):
        entry = file_lines.get(k, empty)
        ways = sum(1 for b in entry["branches"] if b > 0)
        if (ways, len(entry["branches"])) > (sum(1 for b in best["branches"] if b > 0), len(best["branches"])):
            best = entry
    return best


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    build_dir, source_dir, out_dir = sys.argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    lines = merge(gcov_json(build_dir), source_dir)
    marked = guards(source_dir, lines)
    invariants = guards(source_dir, lines, "// invariant:")
    with open(os.path.join(out_dir, "branches.json"), "w") as f:
        json.dump({"guards": marked, "lines": {p: {str(k): v for k, v in sorted(ls.items()) if v["branches"]}
                                              for p, ls in sorted(lines.items())}}, f, indent=1)
    missed = [g for g in marked if not g["bothWays"]]
    total = sum(1 for ls in lines.values() for v in ls.values() if v["branches"])
    taken = sum(1 for ls in lines.values() for v in ls.values() for b in v["branches"] if b > 0)
    every = sum(len(v["branches"]) for ls in lines.values() for v in ls.values())
    md = ["# Branch coverage of the reconcile cases", "",
          f"{total} lines with branches in impl/conflict and impl/kernel; {taken} of {every} branches taken.",
          f"Guards (`// doubt:`): {len(marked)}, hit both ways: {len(marked) - len(missed)}.", "",
          "## Guards", "", "| file:line | doubt | hits | branches | both ways |", "|---|---|---|---|---|"]
    for g in marked:
        md.append(f"| {g['file']}:{g['line']} | {g['why']} | {g['count']} | "
                  f"{' '.join(str(b) for b in g['branches']) or '-'} | {'yes' if g['bothWays'] else '**no**'} |")
    md += ["", "## Invariants", "",
           "Conditions the code around them makes impossible (`// invariant:`); kept as aborts, not gated.", "",
           "| file:line | invariant | hits | branches |", "|---|---|---|---|"]
    for g in invariants:
        md.append(f"| {g['file']}:{g['line']} | {g['why']} | {g['count']} | {' '.join(str(b) for b in g['branches']) or '-'} |")
    md += ["", "## Every branch", ""]
    for path, ls in sorted(lines.items()):
        rows = [(n, v) for n, v in sorted(ls.items()) if v["branches"]]
        if not rows:
            continue
        md += [f"### {path}", "", "| line | hits | branches |", "|---|---|---|"]
        md += [f"| {n} | {v['count']} | {' '.join(str(b) for b in v['branches'])} |" for n, v in rows]
        md.append("")
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(f"coverage: {len(marked)} guards, {len(marked) - len(missed)} hit both ways; "
          f"{taken} of {every} branches taken; report in {out_dir}/report.md")
    for g in missed:
        print(f"  not both ways: {g['file']}:{g['line']} ({g['why']}): hits {g['count']}, branches {g['branches']}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
