"""shrink_difference.py against stand-in judges (no JVM): the shrinking itself, with rlc's real
replay, on a history whose rlc verdicts are known from Delta's rules (a blind INSERT commits past
any DML; tests/scenarios/cases holds the same rule in Delta's words).

Usage: shrink_difference_test.py RLC
"""
import os
import sys
import tempfile

from shrink_difference import Shrinker, shrink_difference, split_rows

# A blind INSERT (A) meets three winners; rlc commits it (a blind append conflicts with no DML).
HISTORY = """scenario a blind INSERT past three DML winners
# A comment, which the shrinking drops.
table files 2 isolation Serializable
rows (1, 'v1'), (2, 'v2'), (3, 'a, (b)'), (4, 'v4'), (5, 'v5'), (6, 'v6')
txn A INSERT VALUES (10, 'v10')
txn B DELETE WHERE id = 1
txn C UPDATE SET value = 'u' WHERE id = 5
txn D DELETE WHERE id = 6
flags A none
A starts
B starts
B commits
C starts
C commits
D starts
D commits
A commits
expect A commits
"""


def always_abort(requests):
    """A judge that aborts every transaction: every reduction that keeps A judged (a winner met)
    keeps the difference."""
    return {r["id"]: {"id": r["id"], "outcome": "abort", "exception": "ConcurrentAppendException"}
            for r in requests}


def abort_class_by_winners(requests):
    """A judge whose exception depends on how many winners A met: the difference 'commit against
    ConcurrentAppendException' holds only with two winners or more."""
    return {r["id"]: {"id": r["id"], "outcome": "abort",
                      "exception": "ConcurrentAppendException" if len(r["winners"]) >= 2
                      else "ConcurrentDeleteReadException"} for r in requests}


def agreeing(requests):
    return {r["id"]: {"id": r["id"], "outcome": "commit", "version": 0} for r in requests}


def shrunk(rlc, judge, work, kinds=("commit", "abort ConcurrentAppendException")):
    path = os.path.join(work, "history.scenario")
    with open(path, "w") as f:
        f.write(HISTORY)
    return shrink_difference(rlc, judge, path, "A", kinds, os.path.join(work, "shrinking"),
                             os.path.join(work, "out"))


def body(path):
    """The shrunk file's lines less its header and comments."""
    with open(path) as f:
        return [l for l in f.read().splitlines() if not l.startswith(("#", "scenario "))]


def check(failures, what, got, want):
    if got != want:
        failures.append(f"{what}:\n  got  {got}\n  want {want}")


def main():
    rlc = sys.argv[1]
    failures = []
    check(failures, "rows split with quotes", split_rows("(1, 'a, (b)'), (2, NULL)"),
          ["(1, 'a, (b)')", "(2, NULL)"])
    with tempfile.TemporaryDirectory() as work:
        result = shrunk(rlc, always_abort, work)
        # One winner is all the difference needs (A judged at all); the greedy order drops B,
        # then C; D's row 6 is the one row D deletes, so it stays; A's own lines stay.
        check(failures, "shrunk to one winner", result and body(result[0]), [
            "table files 2 isolation Serializable",
            "rows (6, 'v6')",
            "txn A INSERT VALUES (10, 'v10')",
            "txn D DELETE WHERE id = 6",
            "A starts",
            "D starts",
            "D commits",
            "A commits",
            "expect A aborts ConcurrentAppendException",
        ])
        check(failures, "sizes reported", result and result[1:], (18, 10))
    with tempfile.TemporaryDirectory() as work:
        result = shrunk(rlc, abort_class_by_winners, work)
        txns = [l.split()[1] for l in body(result[0]) if l.startswith("txn ")] if result else None
        # The same difference needs two winners: one of B, C, D may go, not two.
        check(failures, "kept two winners for the same difference", txns and len(txns), 3)
    with tempfile.TemporaryDirectory() as work:
        check(failures, "a judge that agrees: nothing to shrink", shrunk(rlc, agreeing, work),
              None)
    with tempfile.TemporaryDirectory() as work:
        # The wrong kind of difference (Delta's exception not the one observed) never reproduces.
        check(failures, "another difference is not this one",
              shrunk(rlc, always_abort, work, ("commit", "abort ConcurrentDeleteReadException")),
              None)
    with tempfile.TemporaryDirectory() as work:
        s = Shrinker(rlc, always_abort, work)
        s.shrink(HISTORY, "h.scenario", "A", ("commit", "abort ConcurrentAppendException"))
        # Every round one judge call (one JVM run with Delta Spark), however many candidates.
        check(failures, "rounds counted", s.rounds > 1 and s.tried > s.rounds, True)
    for f in failures:
        print("FAIL " + f)
    print(f"shrink_difference_test: {len(failures)} check(s) failed" if failures
          else "shrink_difference_test: every check holds")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
