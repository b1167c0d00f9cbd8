#!/usr/bin/env python3
"""`rlc inspect --rows --json` against the expected rows the source repositories ship.

Four tables of the shared delta-tables folder come with the rows a correct reader must return at
their latest version (`_expected/<table>/`, Parquet files written by the engines' own test
generators). This test reads those files with pyarrow's Python API, which shares nothing with
rlc's reader but the Parquet decoder, and compares them, as multisets of rows, with the live rows
rlc prints: rlc's DV application, partition values and column mapping are what is under test.

Usage: expected_rows_test.py RLC_BINARY SHARED_DELTA_TABLES_DIR
Exit 0: all match; 1: a mismatch (printed); 77: the shared tables are absent (CTest: skipped),
except with CI=true, where that is a failure.
"""
import datetime
import json
import os
import pathlib
import subprocess
import sys

import pyarrow.parquet as pq

EXPECTED = {
    "delta__dat-v0.0.3__deletion_vectors": "expected/latest/table_content",
    "delta__dv-partitioned-with-checkpoint": ".",
    "delta__dv-with-columnmapping": ".",
    "delta__log-replay-dv-key-cases": ".",
}


def normalized(value):
    """A value as rlc's JSON prints it."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        text = value.strftime("%Y-%m-%d %H:%M:%S")
        return text + (".%06d" % value.microsecond if value.microsecond else "")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def expected_rows(folder):
    rows = []
    for f in sorted(folder.glob("*.parquet")):
        for row in pq.read_table(f).to_pylist():
            rows.append({k: normalized(v) for k, v in row.items()})
    return rows


def rlc_rows(rlc, table):
    out = subprocess.run([rlc, "inspect", str(table), "--rows", "--json"], capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"rlc inspect {table} failed ({out.returncode}): {out.stderr}")
    report = json.loads(out.stdout)
    return [r["values"] for f in report["files"] for r in f["rows"]]


def as_multiset(rows, columns):
    return sorted(json.dumps([row.get(c) for c in columns]) for row in rows)


def main():
    rlc, tables = sys.argv[1], pathlib.Path(sys.argv[2])
    if not tables.is_dir():
        print(f"shared tables missing at {tables}")
        return 1 if os.environ.get("CI") == "true" else 77
    failures = 0
    for name, sub in EXPECTED.items():
        want = expected_rows(tables / "_expected" / name / sub)
        got = rlc_rows(rlc, tables / name)
        columns = sorted(want[0].keys()) if want else []
        if not want or as_multiset(want, columns) != as_multiset(got, columns):
            failures += 1
            print(f"FAIL {name}: expected {len(want)} rows, rlc printed {len(got)}")
            print("  expected (first 5):", as_multiset(want, columns)[:5])
            print("  rlc      (first 5):", as_multiset(got, columns)[:5])
        else:
            print(f"ok   {name}: {len(want)} rows over {columns}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
