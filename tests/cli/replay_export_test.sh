#!/usr/bin/env bash
# `rlc replay FILE --export DIR` leaves the replay's table in DIR as a Delta table directory: the
# JSON commits and DV files the implementation wrote, which `rlc audit` (the log and DV reader of
# impl/) and `rlc inspect` open; a non-empty DIR is refused. Usage: replay_export_test.sh RLC SCENARIO
set -euo pipefail
rlc=$1
scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$rlc" replay "$scenario" --export "$work/table" > "$work/replay.txt"
grep -q "^table: $work/table" "$work/replay.txt" || { echo "the replay does not say where the table is"; exit 1; }
for v in 0 1 2 3; do
  f=$(printf '%s/table/_delta_log/%020d.json' "$work" "$v")
  [ -s "$f" ] || { echo "missing commit $f"; exit 1; }
done
ls "$work"/table/deletion_vector_*.bin > /dev/null || { echo "no DV file was exported"; exit 1; }
"$rlc" audit "$work/table" > "$work/audit.txt" || { echo "rlc audit finds the exported log unreadable or wrong"; cat "$work/audit.txt"; exit 1; }
"$rlc" inspect "$work/table" > "$work/inspect.txt"
grep -q "6 live rows" "$work/inspect.txt" || { echo "the exported table does not hold the replay's rows"; cat "$work/inspect.txt"; exit 1; }
if "$rlc" replay "$scenario" --export "$work/table" > /dev/null 2>&1; then
  echo "exporting into a non-empty folder must be refused"; exit 1
fi
echo "the replay's table is exported, opens, and holds its rows"
