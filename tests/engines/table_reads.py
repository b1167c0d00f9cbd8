"""Comparison 3: real readers read every table rlc writes, at every version, as rlc does.

For an exported scenario table, three readers besides rlc's own (`rlc inspect --rows --json`,
impl/'s reader) give the live rows of each version: delta-rs (the `deltalake` package, through its
SQL engine, which applies DVs), OSS Delta Spark (its data source, in the judge's JVM) and, at the
last version, the oracle (the replay's "final rows", read on its own path). All must be equal. A
table with checkpoints is read once more, by rlc, delta-rs and Delta Spark, with its JSON before
the newest checkpoint deleted, as a log cleanup leaves it.
"""
import functools
import json
import os
import shutil
import subprocess

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


class RlcRefuses(Exception):
    """`rlc inspect` refused a version as corrupt (exit 2): a log the protocol forbids."""


@functools.lru_cache(maxsize=None)
def rlc_inspect(rlc, table, version):
    """`rlc inspect --rows --json` of a table version (read once per run)."""
    run = subprocess.run([rlc, "inspect", table, "--version", str(version), "--rows", "--json"],
                         capture_output=True, text=True)
    if run.returncode == 2:
        raise RlcRefuses(run.stderr.strip())
    run.check_returncode()
    return json.loads(run.stdout)


def rlc_rows(rlc, table, version):
    report = rlc_inspect(rlc, table, version)
    columns = report["columns"]
    rows = sorted((tuple(r["values"][c] for c in columns) for f in report["files"]
                   for r in f["rows"]), key=repr)
    return columns, rows


def delta_rs_rows(table, version, columns):
    dt = DeltaTable(table, version=version)
    select = ", ".join('"' + c + '"' for c in columns)
    batches = QueryBuilder().register("t", dt).execute(f"SELECT {select} FROM t").read_all()
    return sorted((tuple(r[c] for c in columns) for r in pa.table(batches).to_pylist()), key=repr)


def spark_rows(answer):
    if answer["outcome"] != "rows":
        raise RuntimeError(answer.get("message", "no rows"))
    return sorted((tuple(r) for r in answer["rows"]), key=repr)


class TableReads:
    """The reads of one table: rlc's and delta-rs's now, Delta Spark's requests for later."""

    def __init__(self, rlc, table, work):
        self.table = table
        self.rlc_path = rlc
        self.problems = []
        self.expected = {}  # Delta Spark request id -> (what, rlc's rows)
        self.requests = []
        self.refused_at = None  # the first version rlc refuses, if the scenario expects it
        for version in range(table.latest + 1):
            try:
                columns, ours = rlc_rows(rlc, table.path, version)
            except RlcRefuses as e:
                self._refused(version, e)
                return
            self._delta_rs(f"version {version}", table.path, version, columns, ours)
            self._ask_spark(f"version {version}", table.path, version, columns, ours)
            if version == table.latest:
                self._oracle(version, ours)
        self._without_early_json(rlc, work)

    def _refused(self, version, error):
        """A scenario whose foreign commit breaks the protocol (`expect NAME refuses`) leaves a
        log no reader can be held to; rlc must refuse it from that version on, and only then."""
        with open(self.table.scenario) as f:
            expected = any(line.startswith("expect ") and line.rstrip().endswith(" refuses")
                           for line in f)
        if not expected:
            self.problems.append(f"version {version}: rlc inspect refuses it: {error}")
            return
        self.refused_at = version
        for later in range(version + 1, self.table.latest + 1):
            try:
                rlc_inspect(self.rlc_path, self.table.path, later)
                self.problems.append(f"version {later}: rlc inspect reads it, after refusing "
                                     f"version {version}")
            except RlcRefuses:
                pass

    def _delta_rs(self, what, path, version, columns, ours):
        try:
            theirs = delta_rs_rows(path, version, columns)
        except Exception as e:  # delta-rs refusing the table is a finding, named
            self.problems.append(f"{what}: delta-rs cannot read it: {e}")
            return
        if ours != theirs:
            self.problems.append(f"{what}: rlc inspect reads {rows_text(ours)}; "
                                 f"delta-rs reads {rows_text(theirs)}")

    def _ask_spark(self, what, path, version, columns, ours):
        request_id = f"read:{self.table.name}:{len(self.requests)}"
        self.requests.append({"kind": "read", "id": request_id, "table": path,
                              "version": version, "columns": columns})
        self.expected[request_id] = (what, ours)

    def _oracle(self, version, ours):
        oracle = self.table.oracle_final_rows
        if oracle is None:
            return
        ordered = sorted(ours)  # the oracle prints rows in value order
        if (oracle == "none" and ordered) or (oracle != "none" and rows_text(ordered) != oracle):
            self.problems.append(f"version {version}: rlc inspect reads {rows_text(ordered)}; "
                                 f"the oracle reads {oracle}")

    def _without_early_json(self, rlc, work):
        log = os.path.join(self.table.path, "_delta_log")
        checkpoints = [int(n[:20]) for n in os.listdir(log) if ".checkpoint." in n]
        if not checkpoints:
            return
        newest = max(checkpoints)
        copy = os.path.join(work, "cleaned")
        shutil.copytree(self.table.path, copy)
        for n in os.listdir(os.path.join(copy, "_delta_log")):
            if n.endswith(".json") and n[:20].isdigit() and int(n[:20]) < newest:
                os.remove(os.path.join(copy, "_delta_log", n))
        latest = self.table.latest
        _, whole_log = rlc_rows(rlc, self.table.path, latest)
        columns, ours = rlc_rows(rlc, copy, latest)
        what = f"without the JSON before version {newest}, version {latest}"
        if ours != whole_log:
            self.problems.append(f"{what}: rlc inspect reads {rows_text(ours)}, "
                                 f"{rows_text(whole_log)} through the whole log")
        self._delta_rs(what, copy, latest, columns, ours)
        self._ask_spark(what, copy, latest, columns, ours)

    def judge_spark(self, answers):
        """Adds a problem for each Delta Spark read that differs from rlc's."""
        for request_id, (what, ours) in self.expected.items():
            try:
                theirs = spark_rows(answers[request_id])
            except RuntimeError as e:
                self.problems.append(f"{what}: Delta Spark cannot read it: {e}")
                continue
            if ours != theirs:
                self.problems.append(f"{what}: rlc inspect reads {rows_text(ours)}; "
                                     f"Delta Spark reads {rows_text(theirs)}")
