#!/usr/bin/env bash
# Two shards of one campaign, merged, equal the unsharded campaign: the same number of histories,
# the same counts and the same outcome hash (each history is drawn from its own (seed, index)
# stream, so the split cannot change what runs). Usage: shards_merge_test.sh RLC_BINARY
set -euo pipefail
rlc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$rlc" explore --runs 200 --seed 42 --json > "$work/whole.json"
"$rlc" explore --runs 100 --seed 42 --shard 0/2 --out "$work/s0" > /dev/null
"$rlc" explore --runs 100 --seed 42 --shard 1/2 --jobs 2 --out "$work/s1" > /dev/null
"$rlc" explore merge --json "$work/s0/summary.json" "$work/s1/summary.json" > "$work/merged.json"
python3 - "$work/whole.json" "$work/merged.json" <<'PY'
import json, sys
whole, merged = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["histories", "oracleViolations", "baselineAnomalies", "deltaDecidedAnomalies", "caseReachedAnomalies", "lyingWriterAnomalies", "trustedClaimLies", "unreadablePastALiar", "inconclusive",
        "reconciledHistories", "missedReconciles",
        "deferredCells", "missedByCell", "deferredByCell", "outcomeHash", "reconciles", "aborts", "cells"]
bad = [k for k in keys if whole[k] != merged[k]]
if bad:
    for k in bad:
        print("differs:", k, json.dumps(whole[k])[:300], "vs", json.dumps(merged[k])[:300])
    sys.exit(1)
assert whole["histories"] == 200, whole["histories"]
print("shards merged equal the whole campaign:", whole["histories"], "histories, hash", whole["outcomeHash"])
PY
# A merge of shards of different campaigns is refused.
"$rlc" explore --runs 10 --seed 43 --shard 0/2 --out "$work/other" > /dev/null
if "$rlc" explore merge "$work/s0/summary.json" "$work/other/summary.json" > /dev/null 2>&1; then
  echo "merging two campaigns must fail"; exit 1
fi
# A shard missing, or one given twice, is refused and named: either merge would report a campaign
# that never ran.
expect_refused() {  # WHAT EXPECTED-MESSAGE FILES...
  local what=$1 message=$2
  shift 2
  set +e
  "$rlc" explore merge "$@" > /dev/null 2> "$work/merge-err.txt"
  local code=$?
  set -e
  [ "$code" -eq 2 ] || { echo "$what: exit $code, expected 2"; exit 1; }
  grep -q "$message" "$work/merge-err.txt" || { echo "$what: $(cat "$work/merge-err.txt")"; exit 1; }
}
expect_refused "a missing shard" "shard(s) 1/2 missing" "$work/s0/summary.json"
expect_refused "a shard twice" "shard 0/2 given twice" "$work/s0/summary.json" "$work/s0/summary.json" "$work/s1/summary.json"
echo ok
