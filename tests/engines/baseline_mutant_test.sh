#!/usr/bin/env bash
# The class "a bug in rlc's baseline rules hides among Delta's own anomalies", found: a mutant that
# breaks Delta's rules with every flag off (baseline-forgets-read-files: a winner removing a file
# the loser read is not judged) makes the explorer file wrong rows as Delta's own behaviour, which
# `rlc mutants` cannot see. Comparison 4 must: Delta Spark re-judges the campaign's baseline
# anomalies, differs from rlc, and the difference is shrunk with Delta Spark in the loop. Then the
# shrunk history, whose expectation is Delta Spark's verdict, fails under the mutant and passes
# without it (rlc's real baseline does what Delta does).
# Usage: baseline_mutant_test.sh PYTHON RLC JUDGE_DIR [HISTORIES [SEED]]
#   RLC: a -DRLC_MUTANTS=ON build of the rlc tool. Run nightly (its JVM runs take minutes).
set -euo pipefail
python=$1
rlc=$2
judge=$3
histories=${4:-5000}
seed=${5:-20261203}
mutant=baseline-forgets-read-files
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

set +e
RLC_MUTANT=$mutant "$python" "$here/engines_test.py" "$rlc" "$judge" --anomalies "$histories" \
  --seed "$seed" --shrink 1 --shrunk-out "$work/shrunk" > "$work/out.txt" 2>&1
status=$?
set -e
fail() { echo "baseline_mutant_test: $1"; cat "$work/out.txt"; exit 1; }
[ "$status" -eq 1 ] || fail "with $mutant the engines comparison exited $status, not 1 (a difference)"
grep -q "^DIFFERS " "$work/out.txt" || fail "no baseline verdict differed from Delta Spark's"
grep -q "^SHRUNK " "$work/out.txt" || fail "the difference was not shrunk"
shrunk_files=("$work"/shrunk/*.shrunk.scenario)  # no `| head` under pipefail (SIGPIPE)
shrunk=${shrunk_files[0]}
grep -m 3 "^SHRUNK \|^DIFFERS " "$work/out.txt" || true
cat "$shrunk"
if RLC_MUTANT=$mutant "$rlc" scenario "$shrunk" > "$work/with.txt" 2>&1; then
  cat "$work/with.txt"; fail "the shrunk history passes under the mutant: it does not show the bug"
fi
"$rlc" scenario "$shrunk" > "$work/without.txt" 2>&1 ||
  { cat "$work/without.txt"; fail "without the mutant rlc does not do what Delta Spark does"; }
echo "baseline_mutant_test: $mutant found by Delta Spark's verdict and shrunk to" \
  "$(grep -vc '^#' "$shrunk") lines"
