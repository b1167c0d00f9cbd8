#!/usr/bin/env bash
# The nightly job's shape, locally: `rlc verify` on two shards, their explorer summaries merged,
# equal an unsharded run with the same seed (same histories, counts and outcome hash), and each run
# wrote its reports, its junit.xml valid against the JUnit schema (tests/support/junit.xsd).
# Usage: verify_shards_test.sh RLC_BINARY SCENARIOS_DIR
set -euo pipefail
rlc=$1
scenarios=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$rlc" verify --proofs case2 --out "$work/whole" --scenarios "$scenarios" --explore-runs 200 --seed 5 > /dev/null
"$rlc" verify --proofs case2 --out "$work/s0" --scenarios "$scenarios" --explore-runs 100 --seed 5 --shard 0/2 > /dev/null
"$rlc" verify --proofs case2 --out "$work/s1" --scenarios "$scenarios" --explore-runs 100 --seed 5 --shard 1/2 > /dev/null
"$rlc" explore merge --json "$work/s0/explore-summary.json" "$work/s1/explore-summary.json" > "$work/merged.json"
for d in whole s0 s1; do
  for f in summary.json junit.xml report.md report.html explore-summary.json; do
    test -s "$work/$d/$f" || { echo "missing $d/$f"; exit 1; }
  done
  xmllint --noout --schema "$(dirname "$0")/../support/junit.xsd" "$work/$d/junit.xml"
done
python3 - "$work/whole/explore-summary.json" "$work/merged.json" <<'PY'
import json, sys
whole, merged = (json.load(open(p)) for p in sys.argv[1:3])
for k in ["histories", "oracleViolations", "reconciledHistories", "outcomeHash", "reconciles", "aborts", "cells"]:
    assert whole[k] == merged[k], (k, whole[k], merged[k])
print("two verify shards merged equal the unsharded run:", whole["histories"], "histories")
PY
