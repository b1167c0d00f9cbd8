"""Comparison 2: Delta Spark runs the simulator's operations itself, on the same table version.

For every transaction of an exported scenario that ran through an honest writer (its flags do not
matter: they act on the check, after the commit is prepared), Delta
Spark runs the same operation as SQL (`sparkSql` in
_rlc/transactions.jsonl, written by model::SparkSql) on a copy of the table at the transaction's
read version. Compared, file by file of that version:
  - what each reads: the files the statement's own Delta transaction registered as read (noted
    when it wrote its commit, ReadRecordingLogStore.java), and whether it read the whole table,
    against the simulator's read files and flag; for a transaction with reads beyond its
    statement's, or one Delta ran without an active transaction (OPTIMIZE), the files Delta's scan
    of the simulator's read predicates reads (its partition pruning and data skipping);
  - what each commits: per file it removes, whether the file is rewritten with a DV (and the DV's
    cardinality) or removed outright, and the DV the remove carries (the live one); the rows its
    new files hold, per partition; dataChange of every file action; commitInfo.isBlindAppend;
  - the rows after, where the simulator's commit landed right after its read version.
A transaction with reads beyond its operation's (a scenario's `reads` line) is not held to
Delta's isBlindAppend, which sees the statement alone; its read files are compared all the same,
its predicates given to Delta's scan. A table whose engine writes copy-on-write has Delta Spark's
DML write no DVs either (the deletionVectors.persistent settings off for that statement).
An operation the simulator commits nothing for is held to Delta doing the same: a DELETE, UPDATE
or MERGE that changes no row commits nothing; a MERGE the model fails (a target row two source
rows match) fails in Delta too with its multiple-matches error, unless the simulator foresaw that
Delta's MERGE commits it (it counts matches only over the files its scan keeps, and not for an
insert-only MERGE or a lone unconditional DELETE clause): those are counted as the model being
stricter than Delta, which can only cost the explorer a false alarm.
OPTIMIZE is held to being a relocation (dataChange=false throughout) that keeps the rows: which
files it compacts, and so whether it commits at all, is a size policy (Delta's target of 1 GB
against the simulator's rows per bin), not a rule the cases rely on.
"""
import json

# Delta's error class for a MERGE in which several source rows match one target row.
MULTIPLE_MATCHES = "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE"


def _answer(a):
    """What Delta Spark did with an operation, in a few words."""
    if a["outcome"] != "operated":
        return "fails: " + a.get("message", "")[:300]
    if a["actions"] is None:
        return "commits nothing"
    kinds = {}
    for action in a["actions"]:
        for kind in action:
            kinds[kind] = kinds.get(kind, 0) + 1
    return "commits " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))


def _stats_records(add):
    stats = add.get("stats")
    if not stats:
        return None
    return json.loads(stats).get("numRecords")


def _dv_cardinality(action):
    dv = action.get("deletionVector")
    return dv.get("cardinality") if dv else 0


def commit_shape(actions, active_paths):
    """What a commit does to the files of its read version, in terms both sides can be held to."""
    adds = [a["add"] for a in actions if "add" in a]
    removes = [a["remove"] for a in actions if "remove" in a]
    info = next((a["commitInfo"] for a in actions if "commitInfo" in a), {})
    added = {a["path"]: a for a in adds}
    files = {}
    for r in removes:
        again = added.get(r["path"])
        fate = f"DV of {_dv_cardinality(again)}" if again else "removed"
        files[r["path"]] = f"{fate}; its remove carries a DV of {_dv_cardinality(r)}"
    new_rows = {}
    for a in adds:
        if a["path"] in active_paths or a["path"] in files:
            continue
        part = json.dumps(a.get("partitionValues", {}), sort_keys=True)
        records = _stats_records(a)
        new_rows[part] = new_rows.get(part, 0) + (records if records is not None else 0)
    return {
        "files": files,
        "new rows per partition": {k: v for k, v in new_rows.items() if v},
        "dataChange": sorted({str(f.get("dataChange")) for f in adds + removes}),
        "isBlindAppend": info.get("isBlindAppend"),
    }


class OperationFidelity:
    """The operations of one exported table: requests now, comparisons once Delta answered."""

    def __init__(self, table, active_paths, columns):
        self.table = table
        self.problems = []
        self.compared = 0
        self.statement_reads = 0  # compared with what Delta's statement itself registered
        self.commit_nothing = 0  # DML that changes no row: Delta's statement commits none either
        self.merge_failures = 0  # MERGEs the model fails that Delta's MERGE fails too
        self.model_stricter = []  # MERGEs the model fails that Delta commits, as foreseen
        self.requests = []
        self._pending = {}
        for t in table.transactions():
            if not t["honestWriter"] or not t.get("sparkSql"):
                continue
            if t["nothingToCommit"] and not (t["changesNothing"] or t["operationError"]):
                continue  # an idempotent write already applied, or a writer refusing the table
            request_id = f"operate:{table.name}:{t['name']}"
            self.requests.append({
                "kind": "operate", "id": request_id, "table": table.path,
                "readVersion": t["readVersion"], "sql": t["sparkSql"],
                "readPredicates": t["readPredicates"], "readWholeTable": t["readWholeTable"],
                "extraReads": t["extraReads"], "wantRows": self._rows_compared(t),
                "copyOnWrite": t["copyOnWrite"], "columns": columns})
            self._pending[request_id] = (t, active_paths(t["readVersion"]))

    def judge(self, answers, rows_at):
        for request_id, (t, active) in self._pending.items():
            a = answers[request_id]
            what = f"{t['name']} ({t['operation']}, read version {t['readVersion']})"
            if t["nothingToCommit"]:
                self.compared += 1
                self._judge_nothing(what, t, a)
                continue
            if a["outcome"] != "operated":
                self.problems.append(f"{what}: Delta Spark cannot run `{t['sparkSql']}`: "
                                     f"{a.get('message', '')[:300]}")
                continue
            self.compared += 1
            self._compare(what, t, a, active, rows_at)

    def _judge_nothing(self, what, t, a):
        """An operation the simulator commits nothing for: a DML changing no row, which Delta
        commits only when needed, or a MERGE the model fails for a target row two source rows
        match. The model fails every such MERGE; Delta fails it only where its search for
        touched files meets the row (the simulator's `deltaMergeVerdict`), so a MERGE Delta
        commits is a documented difference when, and only when, that verdict foresaw it."""
        failed = a["outcome"] == "error" and MULTIPLE_MATCHES in a.get("message", "")
        if t["changesNothing"]:
            if a["outcome"] == "operated" and a["actions"] is None:
                self.commit_nothing += 1
            else:
                self.problems.append(f"{what}: changes no row and the simulator commits nothing; "
                                     f"Delta Spark {_answer(a)}")
            return
        verdict = t["deltaMergeVerdict"]
        if verdict == "fails" and failed:
            self.merge_failures += 1
        elif verdict.startswith("commits") and a["outcome"] == "operated":
            self.model_stricter.append(f"{what}: {verdict[len('commits: '):]}")
        else:
            self.problems.append(f"{what}: the model fails it ({t['operationError']}) and the "
                                 f"simulator foresees that Delta's MERGE {verdict}; Delta Spark "
                                 f"{_answer(a)}")

    def _compare_reads(self, what, t, a):
        statement = a.get("statementReads")
        if statement is None or t["extraReads"]:
            theirs, by = sorted(a["scanFiles"]), "Delta's scan of its read predicates reads"
        else:
            self.statement_reads += 1
            theirs, by = sorted(statement["files"]), \
                f"Delta's statement registers (predicates {statement['predicates']})"
            if t["readWholeTable"] != statement["wholeTable"]:
                self.problems.append(f"{what}: read the whole table: the simulator "
                                     f"{t['readWholeTable']}; Delta {statement['wholeTable']}")
        if sorted(t["readFiles"]) != theirs:
            self.problems.append(f"{what}: the simulator reads {sorted(t['readFiles'])} "
                                 f"(predicates {t['readPredicates']}); {by} {theirs}")

    def _compare(self, what, t, a, active, rows_at):
        self._compare_reads(what, t, a)
        optimize = t["operation"].startswith("OPTIMIZE")
        if optimize:
            self._compare_optimize(what, t, a, active, rows_at)
            return
        if a["actions"] is None:
            self.problems.append(f"{what}: Delta Spark commits nothing; the simulator commits")
            return
        ours, theirs = commit_shape(t["actions"], active), commit_shape(a["actions"], active)
        keys = list(ours)
        if t["extraReads"] and "isBlindAppend" in keys:  # its reads beyond the statement make
            keys.remove("isBlindAppend")  # it no blind append; Delta's statement alone reads none
        for k in keys:
            if ours[k] != theirs[k]:
                self.problems.append(f"{what}: {k}: the simulator {ours[k]}; Delta Spark "
                                     f"{theirs[k]}")
        self._compare_rows(what, t, a, rows_at)

    def _compare_optimize(self, what, t, a, active, rows_at):
        """Which files an OPTIMIZE compacts is a size policy (Delta's 1 GB target, the simulator's
        rows per bin), so either may compact where the other does not; what each commits must be
        a relocation (dataChange=false throughout) that keeps the rows."""
        for who, actions in (("the simulator", t["actions"]), ("Delta Spark", a["actions"])):
            flags = commit_shape(actions or [], active)["dataChange"]
            if any(f != "False" for f in flags):
                self.problems.append(f"{what}: {who}'s OPTIMIZE writes dataChange {flags}")
        if a["actions"] is not None:
            self._compare_rows(what, t, a, rows_at)

    @staticmethod
    def _rows_compared(t):
        """Rows after are compared where the simulator's commit landed right after its read."""
        return t["committed"] and t["version"] == t["readVersion"] + 1

    def _compare_rows(self, what, t, a, rows_at):
        if self._rows_compared(t):
            mine = rows_at(t["version"])
            delta = sorted((tuple(r) for r in a["rows"]), key=repr)
            if mine != delta:
                self.problems.append(f"{what}: rows after: the simulator {mine}; "
                                     f"Delta Spark {delta}")
