#!/usr/bin/env bash
# Shows that the house checks can fail: each broken tree below must be rejected with the problem
# named, and a clean tree accepted.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

make_tree() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree/impl/base" "$work/tree/docs"
  cp "$here/../../.clang-format" "$work/tree/"
  printf '// Contract (docs/notes.md#why).\nint F() { return 1; }\n' > "$work/tree/impl/base/a.cc"
  printf '# Docs\n\n- [notes.md](notes.md)\n' > "$work/tree/docs/README.md"
  printf '# Notes\n\n<a id="why"></a>\n## Why\n\nBecause.\n' > "$work/tree/docs/notes.md"
}

expect() {  # expect <ok|fail> <pattern> <description> <command...>
  local want=$1 pattern=$2 what=$3
  shift 3
  out=$("$@" 2>&1)
  code=$?
  if [ "$want" = ok ] && [ $code -ne 0 ]; then
    echo "FAIL: $what: clean tree rejected: $out"; failures=$((failures + 1))
  elif [ "$want" = fail ] && { [ $code -eq 0 ] || ! grep -q -- "$pattern" <<<"$out"; }; then
    echo "FAIL: $what: expected a rejection naming '$pattern', got ($code): $out"; failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}

lengths() { python3 "$here/function_lengths.py" "$work/tree" --exceptions "$work/exceptions.txt"; }
docs() { python3 "$here/check_docs.py" "$work/tree"; }
format() { bash "$here/check_format.sh" "$work/tree"; }
: > "$work/exceptions.txt"

markers() { python3 "$here/check_doubt_markers.py" "$work/tree"; }

make_tree
mkdir -p "$work/tree/impl/conflict"
printf 'bool F(int x) {\n  if (x < 0) return false;  // doubt: a negative x\n  return true;\n}\n' \
  > "$work/tree/impl/conflict/g.cc"
expect ok "" "doubt markers: a well-formed marker passes" markers
printf 'bool F(int x) {\n  if (x < 0) return false;  // doubt\n  return true;\n}\n' \
  > "$work/tree/impl/conflict/g.cc"
expect fail "g.cc:2: a doubt marker the coverage report does not count" \
  "doubt markers: a marker without its colon and reason" markers

make_tree
expect ok "" "function lengths: a clean tree passes" lengths
expect ok "" "docs: a clean tree passes" docs
expect ok "" "format: a clean tree passes" format

make_tree
{ echo 'int Long() {'; for i in $(seq 1 75); do echo "  int v$i = $i;"; done; echo '  return 0;'; echo '}'; } > "$work/tree/impl/base/long.cc"
expect fail "Long is 78 lines" "function lengths: a 78-line function" lengths
echo 'impl/base/long.cc:Long' > "$work/exceptions.txt"
expect ok "" "function lengths: an excepted function passes" lengths
rm "$work/tree/impl/base/long.cc"
expect fail "within the limit now" "function lengths: a stale exception" lengths
: > "$work/exceptions.txt"

make_tree; printf '// See ../shared/reference/notes.md.\n' > "$work/tree/impl/base/b.h"
expect fail "outside the repository" "docs: a citation of ../shared" docs
make_tree; printf '// See docs/notes.md#how.\n' > "$work/tree/impl/base/b.h"
expect fail "has no anchor 'how'" "docs: a missing anchor" docs
make_tree; printf '# Other\n' > "$work/tree/docs/other.md"
expect fail "does not link other.md" "docs: a file the index omits" docs

make_tree; printf 'int  G( ) {return 2;}\n' > "$work/tree/impl/base/c.cc"
expect fail "differ from clang-format" "format: a misformatted file" format

if [ $failures -ne 0 ]; then echo "house self-test: $failures case(s) misbehave"; exit 1; fi
echo "house self-test: all cases behave"
