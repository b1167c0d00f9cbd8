"""Comparison 1 (and 4): OSS Delta Spark judges rlc's flags-off verdicts.

Every transaction a scenario run recorded (_rlc/transactions.jsonl) that ran with every reconcile
flag off, through an honest writer, and met at least one winner becomes a judge case: Delta Spark's
own transaction API (DeltaSparkJudge) starts a transaction on a copy of the table at its read
version, registers its reads as Delta's operations do, puts the same winner commit files in place
and commits its actions. Commit or abort, the exception class, and the version a commit lands at
must be rlc's, unless known_differences.txt lists the difference with its reason.
"""
import os


def winners_of(t):
    """The versions the transaction met: up to the one it aborted at, or before the one it took."""
    last = t["winnerVersion"] if not t["committed"] else t["version"] - 1
    return list(range(t["readVersion"] + 1, last + 1))


def cases_of(table, left_out):
    """The table's comparable transactions as (judge case, transaction) pairs. A transaction rlc
    aborts because its simulated writer lacks a table feature a winner added is appended to
    `left_out` instead: Delta Spark's writer has that feature, so the two judge different
    writers (a fact about writers, not about Delta's rules)."""
    cases = []
    for t in table.transactions():
        if not t["baseline"] or t["nothingToCommit"]:
            continue
        if t["exception"] == "DeltaUnsupportedTableFeatureException":
            left_out.append(f"{table.name}:{t['name']}")
            continue
        winners = winners_of(t)
        if not winners:
            continue
        case = {k: t[k] for k in ("readVersion", "readPredicates", "readWholeTable",
                                  "readFiles", "readAppIds", "actions")}
        case.update(kind="judge", id=f"{table.name}:{t['name']}", table=table.path,
                    winners=winners)
        cases.append((case, t))
    return cases


def rlc_verdict(t):
    return f"commit at {t['version']}" if t["committed"] else f"abort {t['exception']}"


def delta_verdict(v):
    if v["outcome"] == "commit":
        return f"commit at {v['version']}"
    if v["outcome"] == "abort":
        return f"abort {v['exception']}"
    return f"error {v.get('message', '')}"


def known_differences():
    """known_differences.txt: "<scenario file name>:<transaction> <why>" per line."""
    known = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "known_differences.txt")
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, why = line.partition(" ")
                known[key] = why.strip()
    return known


class Difference:
    """A transaction on which Delta Spark's verdict is not rlc's (and not a documented one)."""

    def __init__(self, case, t, ours, theirs, said):
        self.case, self.transaction, self.ours, self.theirs = case, t, ours, theirs
        self.line = (f"{case['id']} ({t['operation']}, read version {t['readVersion']}, "
                     f"winners {case['winners']}): rlc {ours}; Delta Spark {theirs}"
                     + (f" ({said[:300]})" if said else ""))


def compare(cases, answers):
    """(agreeing, documented, differences) over the cases and Delta Spark's answers."""
    known = known_differences()
    agree = documented = 0
    differences = []
    for case, t in cases:
        answer = answers[case["id"]]
        ours, theirs = rlc_verdict(t), delta_verdict(answer)
        if ours == theirs:
            agree += 1
        elif case["id"] in known:
            documented += 1
        else:
            differences.append(Difference(case, t, ours, theirs, answer.get("message", "")))
    return agree, documented, differences
