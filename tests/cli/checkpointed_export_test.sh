#!/usr/bin/env bash
# A scenario's table exported with checkpoints (`table ... checkpoints 2`), then cleaned as a log
# cleanup leaves it (the JSON before the newest checkpoint deleted): `rlc audit` starts
# from the earliest checkpoint every later commit follows and says so, in text and in JSON;
# `rlc inspect` reads the same live rows as before the cleanup. Also: an RLC_MUTANT that names no
# mutant is refused with exit 2 before anything runs.
# Usage: checkpointed_export_test.sh RLC SCENARIO (a scenario with checkpoints every 2 commits)
set -euo pipefail
rlc=$1
scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$rlc" replay "$scenario" --export "$work/table" > /dev/null
log="$work/table/_delta_log"
ls "$log"/*.checkpoint.parquet > /dev/null || { echo "the export holds no checkpoint"; exit 1; }
[ -s "$log/_last_checkpoint" ] || { echo "the export has no _last_checkpoint"; exit 1; }
before=$("$rlc" inspect "$work/table" | tail -1)
cp -r "$work/table" "$work/cleaned"
newest=$(ls "$log" | grep -E '^[0-9]{20}\.checkpoint\.parquet$' | sort | tail -1 | cut -c1-20)
for f in "$work"/cleaned/_delta_log/*.json; do
  v=$(basename "$f" .json)
  if [[ "$v" =~ ^[0-9]{20}$ ]] && [ "$((10#$v))" -lt "$((10#$newest))" ]; then rm "$f"; fi
done
after=$("$rlc" inspect "$work/cleaned" | tail -1)
[ "$before" = "$after" ] || { echo "live rows differ after the cleanup: '$before' vs '$after'"; exit 1; }
"$rlc" audit "$work/cleaned" > "$work/audit.txt" || { cat "$work/audit.txt"; exit 1; }
grep -q "^(from the checkpoint at version $((10#$newest)): the JSON before it is gone)$" "$work/audit.txt" ||
  { echo "audit does not say it started from checkpoint $((10#$newest)):"; cat "$work/audit.txt"; exit 1; }
"$rlc" audit "$work/cleaned" --json | grep -q "\"fromCheckpoint\":$((10#$newest))," ||
  { echo "audit --json does not name the checkpoint"; exit 1; }
"$rlc" audit "$work/table" | grep -q "from the checkpoint" &&
  { echo "audit of the whole log says it started from a checkpoint"; exit 1; }
set +e
RLC_MUTANT=no-such-mutant "$rlc" inspect "$work/table" > /dev/null 2> "$work/err.txt"
code=$?
set -e
[ "$code" -eq 2 ] || { echo "an unknown RLC_MUTANT exits $code, not 2"; exit 1; }
grep -q "RLC_MUTANT=no-such-mutant names no mutant" "$work/err.txt" ||
  { echo "the refusal does not name the variable:"; cat "$work/err.txt"; exit 1; }
echo "checkpointed export: audit from checkpoint $((10#$newest)), rows alike; unknown mutant refused"
