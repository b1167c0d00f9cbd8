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
keys = ["histories", "oracleViolations", "baselineAnomalies", "deltaDecidedAnomalies", "inconclusive",
        "reconciledHistories", "missedReconciles",
        "deferredCells", "outcomeHash", "reconciles", "aborts", "cells"]
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
echo ok
