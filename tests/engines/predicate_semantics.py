#!/usr/bin/env python3
"""The predicate-semantics differential: Delta Spark and rlc answer the same predicates over the
same rows, and where Delta Spark selects a row rlc does not, rlc's exact tier could clear a file
a loser's predicate reads (docs/predicate-semantics.md).

Each case is a table of typed columns (every type rlc's row evaluator reads: byte, short,
integer, long, float, double, string, boolean, date, timestamp, timestamp_ntz), a few rows of
values at each type's edges (NULL, NaN, -0.0, infinities, the type's range, non-ASCII strings,
instants around midnight), a session time zone, and predicates drawn from rlc's language in the
spellings Spark SQL reads too: literals of every kind on either side, numeric literals of another
type than the column (integers, decimals, exponents, past 2^53), timestamps with and without a
zone, IN lists with NULLs, column against column, modulo, NOT/AND/OR.

`rlc predicates` answers every predicate on every row; Delta Spark (tests/engines/delta-spark,
DeltaSparkPredicates) answers them in the case's session zone with ANSI mode on and off. A row
Delta Spark selects in either mode that rlc answers FALSE or UNKNOWN for is unsafe: the run fails
on one. A predicate rlc refuses (does not parse or bind) is safe: the checker then treats every
file as read. Rows rlc selects and Delta Spark does not are
counted (they cost reconciles, never data).

Usage: predicate_semantics.py RLC JUDGE_DIR [--cases N] [--seed S] [--out DIR]
Exit: 0 no unexplained unsafe answer, 1 some, 2 the run could not happen (named on stderr).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

from engines_common import EngineError, run_delta_spark

TYPES = ["byte", "short", "integer", "long", "float", "double", "string", "boolean", "date",
         "timestamp", "timestamp_ntz"]
INTEGRAL = {"byte": 8, "short": 16, "integer": 32, "long": 64}
NUMERIC = set(INTEGRAL) | {"float", "double"}
ZONES = ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati", "Etc/GMT+12",
         "Europe/Berlin", "Australia/Lord_Howe"]
STRINGS = ["", "a", "ab", "abc", "B", "b", "\u00e9", "\u65e5\u672c", "\U0001F600", "a b", "Z"]
DATES = ["2024-01-31", "1970-01-01", "1969-12-31", "2024-02-29", "1900-01-01", "2100-12-31"]
# Instants around midnight UTC and local midnights west and east of it.
CLOCKS = ["2024-01-31T00:00:00", "2024-01-30T23:59:59.999999", "2024-01-31T10:00:00.123456",
          "2024-03-31T01:30:00", "2024-03-10T02:30:00", "1969-12-31T23:59:59.5", "2024-01-31T07:59:59"]


def category(t):
    if t in NUMERIC:
        return "numeric"
    return "timestamp" if t.startswith("timestamp") else t


def value(rng, t):
    """A cell: None (NULL) or the value's text in type t (rlc predicates' cell format)."""
    if rng.random() < 0.15:
        return None
    if t in INTEGRAL:
        hi = 2 ** (INTEGRAL[t] - 1) - 1
        return str(rng.choice([-1, 0, 1, 2, 3, 7, -8, hi, -hi - 1, hi - 1, 100]))
    if t in ("float", "double"):
        return rng.choice(["0.1", "-0.0", "0.0", "1.0", "2.5", "-2.5", "NaN", "Infinity",
                           "-Infinity", "1.0E10", "3.4028235E38", "1.4E-45", "16777217.0",
                           "9007199254740993"])
    if t == "string":
        return rng.choice(STRINGS)
    if t == "boolean":
        return rng.choice(["true", "false"])
    if t == "date":
        return rng.choice(DATES)
    clock = rng.choice(CLOCKS)
    if t == "timestamp_ntz":
        return clock
    return clock + rng.choice(["Z", "Z", "+05:30", "-08:00", "+14:00"])


def literal(rng, t, cells):
    """rlc-language text of a literal a predicate on a column of type t may hold."""
    if rng.random() < 0.08:
        return "NULL"
    present = [c for c in cells if c is not None]
    c = category(t)
    if c == "numeric":
        if present and rng.random() < 0.5:
            v = rng.choice(present)
            if v not in ("NaN", "Infinity", "-Infinity"):
                return v
        return rng.choice(["0", "1", "-1", "3", "2.5", "0.1", "-0.0", "1e3", "1.0E10",
                           "2147483648", "9223372036854775807", "9007199254740993",
                           "9007199254740993.0", "0.30000000000000004", "3.4028235E38",
                           "1.4E-45", "127", "128", "-129", "32768", "16777217"])
    if c == "string":
        return "'" + (rng.choice(present) if present and rng.random() < 0.5
                      else rng.choice(STRINGS)) + "'"
    if c == "boolean":
        return rng.choice(["TRUE", "FALSE"])
    if c == "date":
        return "DATE '" + rng.choice(DATES) + "'"
    clock = rng.choice(CLOCKS).replace("T", " ")
    return "TIMESTAMP '" + clock + rng.choice(["", "", "Z", "+05:30", "-08:00"]) + "'"


OPS = ["=", "!=", "<", "<=", ">", ">="]


def leaf(rng, columns, rows):
    name, t = rng.choice(columns)
    cells = [r[columns.index((name, t))] for r in rows]
    form = rng.randrange(8)
    if form == 0:
        return f"{literal(rng, t, cells)} {rng.choice(OPS)} {name}"
    if form == 1:
        items = ", ".join(literal(rng, t, cells) for _ in range(rng.randint(1, 3)))
        return f"{name} IN ({items})"
    if form == 2:
        return f"{name} IS NULL"
    if form == 3:
        return f"{name} IS NOT NULL"
    if form == 4:
        same = [n for n, u in columns if n != name and category(u) == category(t)]
        if same:
            return f"{name} {rng.choice(OPS)} {rng.choice(same)}"
    if form == 5 and t in INTEGRAL:
        return f"{name} % {rng.choice([2, 3, -3, 7])} {rng.choice(OPS)} {rng.choice([-1, 0, 1, 2])}"
    if form == 5 and t == "boolean":
        return name
    return f"{name} {rng.choice(OPS)} {literal(rng, t, cells)}"


def predicate(rng, columns, rows, depth=2):
    choice = rng.randrange(6) if depth > 0 else 0
    if choice <= 2:
        return leaf(rng, columns, rows)
    if choice == 3:
        return f"NOT ({predicate(rng, columns, rows, depth - 1)})"
    parts = [f"({predicate(rng, columns, rows, depth - 1)})" for _ in range(rng.randint(2, 3))]
    return (" AND " if choice == 4 else " OR ").join(parts)


def draw_case(rng, index):
    columns = [(f"c{i}", rng.choice(TYPES)) for i in range(rng.randint(1, 4))]
    rows = [[value(rng, t) for _, t in columns] for _ in range(rng.randint(1, 6))]
    fields = [{"name": n, "type": t, "nullable": True, "metadata": {}} for n, t in columns]
    return {
        "id": f"case-{index}",
        "schema": json.dumps({"type": "struct", "fields": fields}),
        "zone": rng.choice(ZONES),
        "rows": rows,
        "predicates": [predicate(rng, columns, rows) for _ in range(8)],
    }


def run_rlc(rlc, cases, work):
    path = os.path.join(work, "cases.jsonl")
    with open(path, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    done = subprocess.run([rlc, "predicates", path], capture_output=True, text=True)
    if done.returncode != 0:
        raise EngineError(f"rlc predicates failed (exit {done.returncode}): {done.stderr.strip()}")
    return {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}


def compare(cases, rlc_answers, spark_answers):
    """Counts, and the unsafe answers: a row Delta Spark selects that rlc does not."""
    counts = {"predicates": 0, "rows judged": 0, "agree": 0, "refused by rlc": 0,
              "rlc selects, Delta Spark does not": 0, "Delta Spark refuses, rlc answers": 0,
              "unsafe": 0}
    unsafe = []
    for c in cases:
        ours, theirs = rlc_answers[c["id"]], spark_answers[c["id"]]
        for k, text in enumerate(c["predicates"]):
            counts["predicates"] += 1
            if ours["refused"][k] is not None:
                counts["refused by rlc"] += 1
                continue
            modes = [m for m in (theirs["ansi"][k], theirs["legacy"][k]) if isinstance(m, list)]
            if not modes:
                counts["Delta Spark refuses, rlc answers"] += 1
                continue
            for r, answer in enumerate(ours["answers"][k]):
                counts["rows judged"] += 1
                selected = any(m[r] == "TRUE" for m in modes)
                if answer == "TRUE" or answer.startswith("ERROR"):
                    counts["agree" if selected else "rlc selects, Delta Spark does not"] += 1
                elif selected:
                    counts["unsafe"] += 1
                    unsafe.append({"case": c["id"], "zone": c["zone"], "schema": c["schema"],
                                   "row": c["rows"][r], "predicate": text, "rlc": answer,
                                   "deltaSpark": {"ansi": theirs["ansi"][k],
                                                  "legacy": theirs["legacy"][k]}})
                else:
                    counts["agree"] += 1
    return counts, unsafe


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rlc")
    p.add_argument("judge_dir")
    p.add_argument("--cases", type=int, default=40)
    p.add_argument("--seed", type=int, default=20261207)
    p.add_argument("--out", help="write every unsafe answer here (unsafe.jsonl)")
    a = p.parse_args()
    rng = random.Random(a.seed)
    cases = [draw_case(rng, i) for i in range(a.cases)]
    try:
        with tempfile.TemporaryDirectory() as work:
            ours = run_rlc(a.rlc, cases, work)
            theirs = run_delta_spark(a.judge_dir, cases, work,
                                     main_class="rlc.engines.DeltaSparkPredicates")
    except EngineError as e:
        print(f"predicate_semantics: {e}", file=sys.stderr)
        return 2
    counts, unsafe = compare(cases, ours, theirs)
    print(f"predicate semantics, seed {a.seed}, {a.cases} cases: " +
          ", ".join(f"{v} {k}" for k, v in counts.items()))
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "unsafe.jsonl"), "w") as f:
            for u in unsafe:
                f.write(json.dumps(u, ensure_ascii=False) + "\n")
    for u in unsafe[:10]:
        print("unsafe: " + json.dumps(u, ensure_ascii=False))
    return 1 if unsafe else 0


if __name__ == "__main__":
    sys.exit(main())
