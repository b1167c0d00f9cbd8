#!/usr/bin/env bash
# `rlc replay FILE --export DIR` leaves the replay's table in DIR as a Delta table directory: the
# JSON commits, DV files and Parquet data files the implementation wrote, which `rlc audit` (the
# log and DV reader of impl/) and `rlc inspect` open; the live rows `rlc inspect --rows --json`
# reads are the rows the oracle read (the replay's "final rows"); pyarrow opens every data file
# with the row count its add declares; a non-empty DIR is refused.
# Usage: replay_export_test.sh RLC SCENARIO PYTHON (a Python with pyarrow)
set -euo pipefail
rlc=$1
scenario=$2
python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$rlc" replay "$scenario" --export "$work/table" > "$work/replay.txt"
grep -q "^table: $work/table" "$work/replay.txt" || { echo "the replay does not say where the table is"; exit 1; }
for v in 0 1 2 3; do
  f=$(printf '%s/table/_delta_log/%020d.json' "$work" "$v")
  [ -s "$f" ] || { echo "missing commit $f"; exit 1; }
done
ls "$work"/table/deletion_vector_*.bin > /dev/null || { echo "no DV file was exported"; exit 1; }
ls "$work"/table/*.parquet > /dev/null || { echo "no Parquet data file was exported"; exit 1; }
if ls "$work"/table/*.rows > /dev/null 2>&1; then echo "an exported table holds row files"; exit 1; fi
"$rlc" inspect "$work/table" --rows --json > "$work/inspect.json"
oracle_rows=$(sed -n 's/^  final rows: //p' "$work/replay.txt")
[ -n "$oracle_rows" ] || { echo "the replay reports no final rows"; exit 1; }
"$python" - "$work/inspect.json" "$work/table" "$oracle_rows" <<'PY'
import json, sys, pyarrow.parquet as pq
inspect, table, oracle = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
def text(v):
    if v is None: return "NULL"
    if isinstance(v, int): return str(v)
    return "'" + v.replace("'", "''") + "'"
columns = inspect["columns"]
rows = sorted(tuple(r["values"][c] for c in columns) for f in inspect["files"] for r in f["rows"])
ours = ", ".join("(" + ", ".join(text(v) for v in row) + ")" for row in rows)
if ours != oracle:
    sys.exit(f"rlc inspect reads {ours}\nthe oracle reads  {oracle}")
for f in inspect["files"]:
    n = pq.ParquetFile(f"{table}/{f['path']}").metadata.num_rows
    if n != f["numRecords"]:
        sys.exit(f"pyarrow counts {n} rows in {f['path']}, the add says {f['numRecords']}")
print(f"{len(rows)} live rows: rlc inspect and the oracle agree")
PY
"$rlc" audit "$work/table" > "$work/audit.txt" || { echo "rlc audit finds the exported log unreadable or wrong"; cat "$work/audit.txt"; exit 1; }
"$rlc" inspect "$work/table" > "$work/inspect.txt"
grep -q "6 live rows" "$work/inspect.txt" || { echo "the exported table does not hold the replay's rows"; cat "$work/inspect.txt"; exit 1; }
if "$rlc" replay "$scenario" --export "$work/table" > /dev/null 2>&1; then
  echo "exporting into a non-empty folder must be refused"; exit 1
fi
echo "the replay's table is exported, opens, and holds its rows"
