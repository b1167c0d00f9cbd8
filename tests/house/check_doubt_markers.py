#!/usr/bin/env python3
"""Every doubt marker in the reconcile code is one the coverage report counts.

scripts/coverage_report.py holds each conditional marked `// doubt: <why>` in impl/conflict/*.cc
and impl/kernel/*.h to being taken both ways by the explorer's histories. A marker written any
other way (`// doubt`, `// Doubt:`, `//doubt:`, no reason after the colon) is not counted: the
guard silently leaves the check. This check rejects such markers, naming file and line.

Usage: check_doubt_markers.py SOURCE_DIR
"""
import glob
import os
import re
import sys

ANY = re.compile(r"//\s*doubt\b", re.IGNORECASE)
WELL_FORMED = re.compile(r"// doubt: \S")


def main():
    root = sys.argv[1]
    problems, counted = [], 0
    for pattern in ("impl/conflict/*.cc", "impl/kernel/*.h"):
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, start=1):
                    for m in ANY.finditer(line):
                        if WELL_FORMED.match(line, m.start()):
                            counted += 1
                        else:
                            problems.append(f"{rel}:{number}: a doubt marker the coverage report "
                                            f"does not count (write '// doubt: <why>'): "
                                            f"{line.strip()}")
    for p in problems:
        print(p)
    print(f"doubt markers: {counted} counted, {len(problems)} malformed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
