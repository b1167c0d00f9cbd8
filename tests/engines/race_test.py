#!/usr/bin/env python3
"""`rlc race --engine delta-spark` in CTest (label engines): a 60-second mixed race on a
100,000-row table, rlc's processes against one Delta Spark process; rlc's process 0 is killed with
SIGKILL halfway and the Delta Spark process 50 seconds in (mid-statement, often mid-commit), while
the others go on. Passes when rlc race finds no
problem (every version a journaled transaction, no lost commit, the oracle's (a)-(c), rlc audit,
checkpoints read alike, Delta Spark's read of every tenth version and the last equal to the
oracle's), Delta Spark really raced (it ran statements, and it and rlc met: a Delta Spark abort
against an rlc winner or an rlc reconcile or abort against a Delta Spark winner), and nothing is
duplicated. Before the race, two refusals: no racer command, and a racer that dies at once.

Usage: race_test.py RLC [SECONDS] [ROWS]"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RACER = os.path.join(HERE, "delta_spark_racer.py")


def refusals(rlc, work):
    no_racer = subprocess.run([rlc, "race", os.path.join(work, "a"), "--engine", "delta-spark",
                               "--rows", "1000", "--seconds", "1"], capture_output=True, text=True)
    assert no_racer.returncode == 2, (no_racer.returncode, no_racer.stderr)
    assert "--engine-racer" in no_racer.stderr, no_racer.stderr
    dead = subprocess.run([rlc, "race", os.path.join(work, "b"), "--engine", "delta-spark",
                           "--engine-racer", "/bin/false", "--rows", "1000", "--seconds", "1"],
                          capture_output=True, text=True)
    assert dead.returncode != 0, dead.stdout
    assert "before it was ready" in dead.stderr and "engine-" in dead.stderr, dead.stderr
    print("refusals: no racer (exit 2), a racer that dies at once (named, with its log)")


def met(summary):
    """How often the two engines met: Delta Spark's aborts against rlc's winners, and rlc's
    aborts and reconciles against Delta Spark's."""
    n = 0
    for winner, counts in summary["byWinningOperation"].items():
        for key, count in counts.items():
            engine_loses = key.startswith("aborts ") and winner.startswith("rlc ")
            rlc_loses = winner.startswith("delta-spark ")
            if engine_loses or rlc_loses:
                n += count
    return n


def main():
    rlc = sys.argv[1]
    seconds = sys.argv[2] if len(sys.argv) > 2 else "60"
    rows = sys.argv[3] if len(sys.argv) > 3 else "100000"
    with tempfile.TemporaryDirectory() as work:
        refusals(rlc, work)
        table = os.path.join(work, "table")
        kill_ms = str(int(float(seconds) * 1000 * 5 / 6))
        kill_rlc_ms = str(int(float(seconds) * 1000 / 2))
        run = subprocess.run([rlc, "race", table, "--case", "mixed", "--seconds", seconds,
                              "--rows", rows, "--seed", "26", "--engine", "delta-spark",
                              "--engine-racer", RACER, "--engine-read-every", "10",
                              "--kill-engine-after-ms", kill_ms, "--kill-after-ms", kill_rlc_ms,
                              "--json"],
                             capture_output=True, text=True)
        print(run.stderr, file=sys.stderr)
        s = json.loads(run.stdout)
        print(json.dumps(s, indent=1))
        assert run.returncode == 0, (run.returncode, s["problems"])
        spark = [p for p in s["processes"] if p["engine"] == "delta-spark"]
        assert len(spark) == 1 and spark[0]["killed"], spark
        rlc_procs = [p for p in s["processes"] if p["engine"] == "rlc"]
        assert rlc_procs[0]["killed"] and not any(p["killed"] for p in rlc_procs[1:]), rlc_procs
        assert spark[0]["attempts"] >= 2, spark
        assert met(s) >= 1, s["byWinningOperation"]
        assert s["engineReadVersions"] >= 2 and s["engineReadDifferences"] == 0, s
        assert s["lostCommits"] == 0 and s["duplicatedRows"] == 0 and s["duplicatedKeys"] == 0, s
        assert s["rowsCheck"] == "holds", s["rowsCheck"]
        print(f"race against Delta Spark: {s['versions']} versions, Delta Spark "
              f"{spark[0]['attempts']} statements ({spark[0]['commits']} commits, aborts "
              f"{spark[0]['aborts']}), met {met(s)} times, {s['engineReadVersions']} versions "
              "read alike, nothing lost or duplicated")


if __name__ == "__main__":
    main()
