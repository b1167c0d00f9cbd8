#!/usr/bin/env python3
"""Writes tests/scenarios/matrix/: one scenario per cell of Delta's documented conflict matrix
(docs/matrix.md#f) in both directions (each operation once the winner, once the
loser), for both isolation levels, with every reconcile flag on (the matrix with row-level
concurrency) and with none (the matrix without).

The expectations come from the documentation's text, transcribed here on their own (not from the
code under test): a cell that "cannot conflict", or conflicts "only when the same row is modified"
(the two operations below never touch a common row), expects the loser to commit; a metadata
winner expects the loser to abort (metadata changes make every concurrent write fail); every
other cell, including the ones docs/decisions.md#scope defers, accepts either outcome, and the
oracle still checks the rows, the dependency graph and the log. Run it again after changing it:
  python3 tests/support/make_matrix_scenarios.py
"""
import itertools
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "scenarios", "matrix")

# Two operations per class (the first when the class is the pair's first, the second otherwise).
# Rows 1-4 are in the first file, 5-8 in the second; the operations of different classes touch
# different rows, and none inserts a row another one reads.
OPS = {
    "insert": ["INSERT VALUES (20, 'new')", "INSERT VALUES (21, 'new2')"],
    "dml": ["DELETE WHERE id = 2", "UPDATE SET value = 'u' WHERE id = 3"],
    "merge-net-new": [
        "MERGE USING (4, 'm'), (30, 'n') ON id WHEN MATCHED THEN UPDATE SET value = 'm' WHEN NOT MATCHED THEN INSERT",
        "MERGE USING (6, 'm2'), (31, 'n2') ON id WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT",
    ],
    "optimize": ["OPTIMIZE", "OPTIMIZE"],
    "zorder": ["OPTIMIZE ZORDER BY (value)", "OPTIMIZE ZORDER BY (value)"],
    "metadata": ["SET TBLPROPERTIES (team = 'a')", "SET TBLPROPERTIES (comment = 'b')"],
}
CLASSES = list(OPS)


def documented(a, b, level, rlc):
    """The documented cell: 'cannot', 'same-row', 'can' or 'deferred'."""
    pair = {a, b}
    if "metadata" in pair:
        return "can"  # and a metadata winner fails every concurrent write
    if "zorder" in pair:
        return "cannot" if "insert" in pair else "deferred"
    if "merge-net-new" in pair:
        other = b if a == "merge-net-new" else a
        cell = documented("dml", "dml" if other == "merge-net-new" else other, level, rlc)
        return "deferred" if cell == "same-row" else cell
    if pair == {"insert"}:
        return "cannot"
    if pair == {"dml", "insert"}:
        if level == "WriteSerializable":
            return "cannot"
        return "same-row" if rlc else "can"
    if pair == {"dml"}:
        return "same-row" if rlc else "can"
    if pair == {"optimize", "insert"}:
        return "cannot"
    if pair <= {"optimize", "dml"}:
        return "cannot"
    raise ValueError((a, b))


def expectation(winner, loser, winner_op, cell, rlc):
    if winner == "metadata" and loser in ("optimize", "zorder"):
        return "commits\nexpect {loser} retries 1", ("its first attempt fails (MetadataChangedException); OPTIMIZE then "
                                                   "retries its actions, its files and the partitioning unchanged "
                                                   "(docs/baseline.md#b5)")
    if winner == "metadata":
        return "aborts MetadataChangedException", "a metadata change makes every concurrent write fail"
    if winner == loser == "optimize":
        return "any", ("both compact the same two files, so one must give way (their outputs would hold the "
                       "rows twice); the documented cell speaks of compactions that do not overlap")
    if not rlc and "optimize" in (winner, loser) and {winner, loser} & {"dml", "merge-net-new"}:
        return "any", ("documented as 'cannot conflict on DV-enabled tables' for Databricks; with every flag "
                       "off the baseline aborts as Delta OSS does (cases 4a and 4b lift it)")
    if cell in ("cannot", "same-row"):
        why = "cannot conflict" if cell == "cannot" else "conflicts only on a common row, and there is none"
        return "commits", "documented: " + why
    if cell == "deferred":
        return "any", "out of scope (docs/decisions.md#scope): counted as deferred, never a finding"
    return "any", "documented: can conflict"


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".scenario"):
            os.remove(os.path.join(OUT, old))
    count = 0
    for rlc in (True, False):
        for level in ("Serializable", "WriteSerializable"):
            for i, j in itertools.combinations_with_replacement(range(len(CLASSES)), 2):
                a, b = CLASSES[i], CLASSES[j]
                cell = documented(a, b, level, rlc)
                ops = {"A": OPS[a][0], "B": OPS[b][1]}
                classes = {"A": a, "B": b}
                for winner, loser in (("A", "B"), ("B", "A")):
                    expect, why = expectation(classes[winner], classes[loser], ops[winner], cell, rlc)
                    name = "{}-{}-{}-vs-{}-{}-wins".format("rlc" if rlc else "no-rlc", level.lower(), a, b,
                                                          "first" if winner == "A" else "second")
                    lines = [
                        "scenario matrix {}, {}, {} vs {}: {} wins; documented {}".format(
                            "with RLC" if rlc else "without RLC", level, a, b, classes[winner], cell),
                        "# Generated by tests/support/make_matrix_scenarios.py; edit that script, not this file.",
                        "table files 2 isolation " + level,
                        "rows (1, 'v1'), (2, 'v2'), (3, 'v3'), (4, 'v4'), (5, 'v5'), (6, 'v6'), (7, 'v7'), (8, 'v8')",
                        "txn A " + ops["A"],
                        "txn B " + ops["B"],
                        "flags A " + ("all" if rlc else "none"),
                        "flags B " + ("all" if rlc else "none"),
                        "A starts",
                        "B starts",
                        winner + " commits",
                        loser + " commits",
                        "expect {} commits".format(winner),
                        "# " + why,
                        "expect {} {}".format(loser, expect.format(loser=loser)),
                    ]
                    with open(os.path.join(OUT, name + ".scenario"), "w") as f:
                        f.write("\n".join(lines) + "\n")
                    count += 1
    print("wrote", count, "scenarios to", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
