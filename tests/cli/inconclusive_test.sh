#!/usr/bin/env bash
# The oracle's verdict on a history's rows has three values: valid, invalid, and inconclusive
# (its search of serial orders was cut before one explained the rows). A campaign whose oracle may
# try a single order (--oracle-max-orders 1) finds histories its commit order does not explain:
# they are counted as inconclusive, kept as examples, and are neither counterexamples nor a
# failing exit; the same campaign with the default search judges every one of them.
# Usage: inconclusive_test.sh RLC
set -euo pipefail
rlc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
campaign=(explore --runs 400 --seed 7 --max-writers 4)
"$rlc" "${campaign[@]}" --oracle-max-orders 1 --out "$work/cut" > "$work/cut.txt"
"$rlc" "${campaign[@]}" --out "$work/full" > "$work/full.txt"
python3 - "$work/cut/summary.json" "$work/full/summary.json" <<'PY'
import json, sys
cut, full = (json.load(open(p)) for p in sys.argv[1:3])
assert cut["inconclusive"] > 0, "a one-order search left no history inconclusive"
assert cut["oracleViolations"] == 0 and not cut["counterexamples"], "inconclusive filed as violation"
assert cut["inconclusiveExamples"], "no inconclusive history kept"
assert full["inconclusive"] == 0, f"{full['inconclusive']} inconclusive with the default search"
assert full["oracleViolations"] == 0, "the default search found violations"
print(f"{cut['inconclusive']} of {cut['histories']} histories inconclusive with a one-order "
      "search; none with the default")
PY
grep -q "inconclusive: the oracle tried as many serial orders" "$work/cut.txt"
! grep -q COUNTEREXAMPLE "$work/cut.txt"
