"""delta-rs reads every table the scenario suite writes, at every version, as rlc does.

For each scenario file given, `rlc replay FILE --export DIR` writes the scenario's table (Parquet
data files, DVs, checkpoints where the scenario asks for them). delta-rs (the `deltalake` package,
Delta Lake's Rust implementation) then reads each version's live rows through its SQL engine,
which applies DVs; they must equal the rows `rlc inspect --rows --json` reads at that version
(impl/'s reader), and at the last version the rows the oracle read (the replay's "final rows").
A table with checkpoints is read once more with its JSON before the newest checkpoint deleted.
Three readers, two of them written elsewhere and here, must agree on every table.

Usage: delta_rs_reads_test.py RLC SCENARIO_OR_DIR...
Exit 0 when every table reads alike; 1 naming each table and version that does not.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from engines_common import scenario_files

import pyarrow as pa
from deltalake import DeltaTable, QueryBuilder


def sql_text(v):
    if v is None:
        return "NULL"
    if isinstance(v, int):
        return str(v)
    return "'" + v.replace("'", "''") + "'"


def rows_text(rows):
    return ", ".join("(" + ", ".join(sql_text(v) for v in row) + ")" for row in rows)


def rlc_rows(rlc, table, version):
    out = subprocess.run([rlc, "inspect", table, "--version", str(version), "--rows", "--json"],
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    columns = report["columns"]
    rows = sorted((tuple(r["values"][c] for c in columns) for f in report["files"]
                   for r in f["rows"]), key=repr)
    return columns, rows


def delta_rs_rows(table, version, columns):
    dt = DeltaTable(table, version=version)
    select = ", ".join('"' + c + '"' for c in columns)
    batches = QueryBuilder().register("t", dt).execute(f"SELECT {select} FROM t").read_all()
    read = pa.table(batches)
    return sorted((tuple(r[c] for c in columns) for r in read.to_pylist()), key=repr)


def check(rlc, scenario, work):
    table = os.path.join(work, "table")
    replay = subprocess.run([rlc, "replay", scenario, "--export", table],
                            capture_output=True, text=True)
    if replay.returncode == 2:
        return [f"rlc replay cannot run it: {replay.stderr.strip()}"]
    oracle = [l[len("  final rows: "):] for l in replay.stdout.splitlines()
              if l.startswith("  final rows: ")]
    latest = max(int(n[:20]) for n in os.listdir(os.path.join(table, "_delta_log"))
                 if n.endswith(".json") and n[:20].isdigit())
    problems = []
    for version in range(latest + 1):
        columns, ours = rlc_rows(rlc, table, version)
        try:
            theirs = delta_rs_rows(table, version, columns)
        except Exception as e:  # delta-rs refusing the table is a finding, named
            problems.append(f"version {version}: delta-rs cannot read it: {e}")
            continue
        if ours != theirs:
            problems.append(f"version {version}: rlc inspect reads {rows_text(ours)}; "
                            f"delta-rs reads {rows_text(theirs)}")
        if version == latest and oracle:
            ordered = sorted(ours)  # the oracle prints rows in value order
            if rows_text(ordered) != oracle[0] and oracle[0] != "none" or \
               (oracle[0] == "none" and ordered):
                problems.append(f"version {version}: rlc inspect reads {rows_text(ordered)}; "
                                f"the oracle reads {oracle[0]}")
    problems += check_without_early_json(rlc, table, work, latest)
    return problems


def check_without_early_json(rlc, table, work, latest):
    """A copy of a table with checkpoints, its JSON before the newest checkpoint deleted (as a log
    cleanup leaves it): the latest version must read the same through the checkpoint alone."""
    log = os.path.join(table, "_delta_log")
    checkpoints = [int(n[:20]) for n in os.listdir(log) if ".checkpoint." in n]
    if not checkpoints:
        return []
    newest = max(checkpoints)
    copy = os.path.join(work, "cleaned")
    shutil.copytree(table, copy)
    for n in os.listdir(os.path.join(copy, "_delta_log")):
        if n.endswith(".json") and n[:20].isdigit() and int(n[:20]) < newest:
            os.remove(os.path.join(copy, "_delta_log", n))
    _, before = rlc_rows(rlc, table, latest)
    columns, ours = rlc_rows(rlc, copy, latest)
    try:
        theirs = delta_rs_rows(copy, latest, columns)
    except Exception as e:
        return [f"without the JSON before version {newest}: delta-rs cannot read it: {e}"]
    if not (before == ours == theirs):
        return [f"without the JSON before version {newest}: rlc inspect reads {rows_text(ours)}, "
                f"delta-rs {rows_text(theirs)}, the whole log {rows_text(before)}"]
    return []


def main():
    rlc, paths = sys.argv[1], sys.argv[2:]
    failed = tables = versions = 0
    for scenario in scenario_files(paths):
        with tempfile.TemporaryDirectory() as work:
            problems = check(rlc, scenario, work)
            tables += 1
            versions += len(os.listdir(os.path.join(work, "table", "_delta_log"))) \
                if os.path.isdir(os.path.join(work, "table", "_delta_log")) else 0
        if problems:
            failed += 1
            print(f"FAIL {scenario}")
            for p in problems:
                print(f"  {p}")
    print(f"{tables} tables, {tables - failed} read alike by delta-rs, rlc inspect and the oracle")
    return 1 if failed or tables == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
