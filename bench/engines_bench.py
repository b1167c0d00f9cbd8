"""rlc side by side with real Delta engines, in one run, on the same bytes.

1. The conflict check: checker_bench.cc's 100,000-action winner against its 10,000-action loser.
   rlc: BM_CheckerBaseline100kWinner's check, timed by rlc_engines_side check (in process, from the
   winner's bytes to the verdict, allocating as the rlc tool does).
   Delta Spark: DeltaSparkBench check, timed inside its JVM after warm-up: Delta's own
   ConflictChecker.checkConflicts on the loser's transaction against the winner's commit file.
   Delta reads the winner from a file (in the page cache), rlc from bytes in memory: a small
   difference in rlc's favour, next to the ratio.
2. Snapshot construction of a 1,000,000-file table read from a Parquet checkpoint plus 10 commits.
   rlc: rlc_engines_side replay (ReplayLogWithCheckpoints, what inspect, check and audit run);
   delta-rs: `DeltaTable(TABLE)`, which replays the log with its files, in this Python process
   (after one warm-up);
   Delta Spark: DeltaSparkBench snapshot (a snapshot built and its active files counted).
Medians of RUNS runs each; the ratios are what to read (these machines are noisy and differ).

Usage: .venv/bin/python bench/engines_bench.py BUILD_DIR JUDGE_DIR [RUNS]
  BUILD_DIR: a build with bench/rlc_engines_side;
  JUDGE_DIR: tests/engines/delta-spark after scripts/install-engines.sh.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "engines"))
from engines_common import JAVA_OPTIONS  # noqa: E402
from deltalake import DeltaTable  # noqa: E402


def java(judge_dir, *args):
    classpath = os.path.join(judge_dir, "target", "classes") + ":" + \
        open(os.path.join(judge_dir, "target", "classpath.txt")).read().strip()
    out = subprocess.run(["java", *JAVA_OPTIONS, "-cp", classpath, "rlc.engines.DeltaSparkBench",
                          *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def rlc_check_ms(build, runs):
    # checker_bench.cc's BM_CheckerBaseline100kWinner, timed in rlc_engines_side, which allocates
    # as the rlc tool does (tcmalloc; rlc_bench keeps the C library's malloc).
    out = subprocess.run([os.path.join(build, "bench", "rlc_engines_side"), "check", str(runs)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["checkMs"]


def timed(runs, f):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    build, judge_dir = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    side = os.path.join(build, "bench", "rlc_engines_side")
    with tempfile.TemporaryDirectory() as work:
        check_dir, snapshot_dir = os.path.join(work, "check"), os.path.join(work, "snapshot")
        subprocess.run([side, "check-fixture", check_dir], check=True)
        subprocess.run([side, "snapshot-fixture", snapshot_dir], check=True)
        table = os.path.join(snapshot_dir, "table")

        rlc_check = rlc_check_ms(build, runs)
        spark_check = java(judge_dir, "check", check_dir, str(runs))

        listed = len(DeltaTable(table).file_uris())  # its count, outside the timing
        if listed != 1_000_000:
            raise RuntimeError(f"delta-rs lists {listed} files, not 1,000,000")

        def delta_rs_snapshot():
            DeltaTable(table)  # the snapshot with its active files, loaded eagerly

        rlc_snap = json.loads(subprocess.run([side, "replay", table, str(runs)], check=True,
                                             capture_output=True, text=True).stdout)
        if rlc_snap["files"] != 1_000_000:
            raise RuntimeError(f"rlc replays {rlc_snap['files']} files, not 1,000,000")
        rlc_snap = rlc_snap["snapshotMs"]
        delta_rs_snapshot()  # warm-up
        delta_rs_snap = timed(runs, delta_rs_snapshot)
        spark_snap = java(judge_dir, "snapshot", table, str(runs))
    if spark_snap["files"] != 1_000_000:
        raise RuntimeError(f"Delta Spark counts {spark_snap['files']} files, not 1,000,000")
    print(f"conflict check, 100,000-action winner vs 10,000-action loser (medians of {runs}):")
    print(f"  rlc                       {rlc_check:10.1f} ms")
    print(f"  Delta Spark               {spark_check['checkMs']:10.1f} ms   (ConflictChecker, in "
          f"its JVM after warm-up; {spark_check['readFiles']} read files)")
    print(f"  rlc / Delta Spark         {rlc_check / spark_check['checkMs']:10.3f}   "
          f"(aim <= 0.1: at least 10x faster)")
    print(f"snapshot of a 1,000,000-file checkpointed table (medians of {runs}):")
    print(f"  rlc                       {rlc_snap:10.1f} ms")
    print(f"  delta-rs                  {delta_rs_snap:10.1f} ms")
    print(f"  Delta Spark               {spark_snap['snapshotMs']:10.1f} ms")
    print(f"  rlc / delta-rs            {rlc_snap / delta_rs_snap:10.3f}   (aim <= 0.33)")
    print(f"  rlc / Delta Spark         {rlc_snap / spark_snap['snapshotMs']:10.3f}")


if __name__ == "__main__":
    main()
