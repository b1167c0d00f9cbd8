#!/usr/bin/env python3
"""`rlc inspect` on the checkpointed tables of ../shared/checkpoint-tables (and the delta-tables that
carry checkpoints), against a second reader written here.

The second reader shares no code with rlc: it lists _delta_log itself, picks the newest complete
checkpoint at or below a version (classic, multi-part, V2 with a JSON or Parquet top level and
sidecars; `_last_checkpoint` ignored), reads its adds with pyarrow's Python API, applies the JSON
commits after it, and reports the active files with their numRecords. Two independent sources
check that reader in turn: the `numFiles` of the writers' own `.crc` files, wherever a table has
them. For every version that still has a log, the active paths rlc prints must equal the second
reader's; at the latest version of every table whose data files exist, `rlc inspect --rows` must
print as many rows as the adds' numRecords sum to (none of these tables has DVs).

Usage: checkpoint_tables_test.py RLC_BINARY SHARED_DIR
Exit 0: all match; 1: a mismatch (printed); 77: the shared folder is absent (CTest: skipped),
except with CI=true, where that is a failure.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import urllib.parse

import pyarrow.parquet as pq

COMMIT = re.compile(r"^(\d{20})\.json$")
CLASSIC = re.compile(r"^(\d{20})\.checkpoint\.parquet$")
PART = re.compile(r"^(\d{20})\.checkpoint\.(\d{10})\.(\d{10})\.parquet$")
V2 = re.compile(r"^(\d{20})\.checkpoint\.[0-9a-fA-F-]{36}\.(json|parquet)$")

# Tables whose data files are absent (logs only): rows are not read there.
LOG_ONLY = {"delta__checkpoint", "delta-kernel-rs__with_checkpoint_no_last_checkpoint",
            "delta-rs__checkpoints_vacuumed"}
# delta-tables with checkpoints, and their DV file-name prefix.
DV_TABLES = {"delta__dv-partitioned-with-checkpoint": "", "delta__dv-with-columnmapping": "",
             "delta__basic-dv-with-checkpoint": "", "delta-rs__table_with_deletion_logs": ""}


def checkpoints(log):
    """{version: [file lists]} of complete checkpoints."""
    found, parts = {}, {}
    for name in sorted(os.listdir(log)):
        if m := CLASSIC.match(name) or V2.match(name):
            found.setdefault(int(m.group(1)), []).append([name])
        elif m := PART.match(name):
            parts.setdefault((int(m.group(1)), int(m.group(3))), {})[int(m.group(2))] = name
    for (version, count), got in parts.items():
        if len(got) == count:
            found.setdefault(version, []).append([got[i] for i in sorted(got)])
    return found


def parquet_actions(path):
    table = pq.read_table(path)
    for row in table.to_pylist():
        for key, value in row.items():
            if value is not None and not key.endswith("_parsed"):
                yield {key: value}


def file_actions(log, name):
    path = log / name
    actions = ([json.loads(l) for l in path.read_text().splitlines() if l.strip()]
               if name.endswith(".json") else list(parquet_actions(path)))
    for action in actions:
        if "sidecar" in action:
            yield from parquet_actions(log / "_sidecars" / action["sidecar"]["path"])
        else:
            yield action


def key(action):
    """A file's logical key: its decoded path and its DV's id (the protocol's (path, DV) key)."""
    dv = action.get("deletionVector") or {}
    dv_id = ""
    if dv:
        dv_id = dv["storageType"] + dv["pathOrInlineDv"]
        if dv.get("offset") is not None:
            dv_id += "@%d" % dv["offset"]
    return urllib.parse.unquote(action["path"]), dv_id


def apply(files, action):
    if "add" in action:
        files[key(action["add"])] = action["add"]
    elif "remove" in action:
        files.pop(key(action["remove"]), None)


def state(table, version):
    log = table / "_delta_log"
    cps = {v: f for v, f in checkpoints(log).items() if v <= version}
    files, start = {}, 0
    if cps:
        start = max(cps)
        for name in cps[start][0]:
            for action in file_actions(log, name):
                apply(files, action)
        start += 1
    for v in range(start, version + 1):
        for line in (log / ("%020d.json" % v)).read_text().splitlines():
            if line.strip():
                apply(files, json.loads(line))
    return files


def versions(table):
    log = table / "_delta_log"
    commits = sorted(int(m.group(1)) for n in os.listdir(log) if (m := COMMIT.match(n)))
    cps = sorted(checkpoints(log))
    latest = max(commits + cps)
    first = 0 if commits and commits[0] == 0 else min(cps)
    return [v for v in range(first, latest + 1)
            if v in cps or all((log / ("%020d.json" % w)).exists()
                               for w in range(max([c for c in cps if c <= v] or [-1]) + 1, v + 1))]


def crc_files(table, version):
    crc = table / "_delta_log" / ("%020d.crc" % version)
    return json.loads(crc.read_text()).get("numFiles") if crc.exists() else None


def rlc(binary, table, version, rows=False):
    args = [binary, "inspect", str(table), "--json", "--version", str(version)]
    out = subprocess.run(args + (["--rows"] if rows else []), capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def check_from(binary, table, vs):
    """`rlc check` of a blind append that read the version before the latest: its read snapshot
    comes from a checkpoint wherever the JSON before it is gone. It must reach a verdict (a
    winner that changed the metadata, as an identity column's writer does, aborts it)."""
    if len(vs) < 2:
        return []
    read_version = vs[-2]
    txn = {"readVersion": read_version,
           "actions": [{"commitInfo": {"operation": "WRITE", "isBlindAppend": True}},
                       {"add": {"path": "new-file.parquet", "partitionValues": {}, "size": 1,
                                "modificationTime": 1, "dataChange": True}}]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(txn, f)
    try:
        out = subprocess.run([binary, "check", str(table), "--txn", f.name, "--json"],
                             capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if out.returncode not in (0, 1):
        return [f"rlc check from version {read_version}: exit {out.returncode}: "
                f"{out.stderr.strip()}{out.stdout[:300]}"]
    verdict = json.loads(out.stdout)
    if verdict["checkedThroughVersion"] != vs[-1]:
        return [f"rlc check from version {read_version}: checked through "
                f"{verdict['checkedThroughVersion']}, the latest is {vs[-1]}"]
    return []


def check_table(binary, table, read_rows):
    problems = []
    vs = versions(table)
    for v in vs:
        want = state(table, v)
        got = rlc(binary, table, v)
        got_paths = {urllib.parse.unquote(f["path"]) for f in got["files"]}
        if got_paths != {path for path, _ in want}:
            problems.append(f"v{v}: rlc has {len(got_paths)} files, the second reader {len(want)}")
        crc = crc_files(table, v)
        if crc is not None and crc != len(want):
            problems.append(f"v{v}: .crc says numFiles {crc}, the second reader {len(want)}")
    audit = subprocess.run([binary, "audit", str(table), "--json"], capture_output=True, text=True)
    if audit.returncode != 0:
        problems.append(f"rlc audit: exit {audit.returncode}: {audit.stderr.strip()}{audit.stdout[:200]}")
    problems += check_from(binary, table, vs)
    if read_rows:
        # Live rows: each data file's row count as its own footer says (pyarrow), less its DV's
        # cardinality as the log says.
        latest = vs[-1]
        want = state(table, latest)
        live = sum(pq.ParquetFile(table / path).metadata.num_rows -
                   (add.get("deletionVector") or {}).get("cardinality", 0)
                   for (path, _), add in want.items())
        got = rlc(binary, table, latest, rows=True)
        rows = sum(len(f["rows"]) for f in got["files"])
        if rows != live:
            problems.append(f"v{latest}: rlc read {rows} live rows, the data files hold {live}")
    return vs, problems


def main():
    binary, shared = sys.argv[1], pathlib.Path(sys.argv[2])
    if not (shared / "checkpoint-tables").is_dir():
        print(f"shared checkpoint tables missing under {shared}")
        return 1 if os.environ.get("CI") == "true" else 77
    tables = [p for p in sorted((shared / "checkpoint-tables").iterdir()) if p.is_dir()]
    tables += [shared / "delta-tables" / name for name in sorted(DV_TABLES)]
    failures = 0
    for table in tables:
        # The struct-typed table is read for files only (rlc does not read struct columns).
        read_rows = table.name not in LOG_ONLY and table.name != "delta-rs__checkpoints_vacuumed"
        try:
            vs, problems = check_table(binary, table, read_rows)
        except Exception as e:  # a failing rlc run is a finding, not a crash of the test
            vs, problems = [], [str(e)]
        failures += bool(problems)
        print(("FAIL " if problems else "ok   ") + f"{table.name}: versions {vs[:1]}..{vs[-1:]}")
        for p in problems:
            print("     " + p)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
