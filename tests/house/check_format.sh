#!/usr/bin/env bash
# Every C++ source under the project's folders is as clang-format-14 (with .clang-format) writes
# it: fails naming each file and line that differs. A missing clang-format is a failure, not a
# skip (scripts/install-deps.sh installs it).
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || exit 2
formatter=$(command -v clang-format-14 || true)
if [ -z "$formatter" ]; then
  echo "format: clang-format-14 is not installed (run scripts/install-deps.sh)"
  exit 1
fi
files=$(find impl model proofs fuzz cli tests bench -type f \( -name '*.h' -o -name '*.cc' \) 2>/dev/null | sort)
if [ -z "$files" ]; then
  echo "format: no source under $root"
  exit 1
fi
out=$(echo "$files" | xargs "$formatter" --dry-run -Werror 2>&1)
status=$?
if [ $status -ne 0 ]; then
  echo "$out" | grep -E '^[^ ].*(error|warning):' | head -50
  echo "format: $(echo "$out" | grep -cE '(error|warning):') place(s) differ from clang-format-14; run:"
  echo "  clang-format-14 -i \$(git ls-files '*.h' '*.cc')"
  exit 1
fi
echo "format: $(echo "$files" | wc -l) files as clang-format-14 writes them"
