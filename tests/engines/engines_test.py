"""Real Delta engines judge rlc: one run, one JVM, every comparison of tests/engines/README.md.

Usage: engines_test.py RLC JUDGE_DIR [--read PATH...] [--judge PATH...] [--fidelity PATH...]
                       [--generated N --seed S] [--anomalies N --seed S]
  RLC        the rlc binary.
  JUDGE_DIR  tests/engines/delta-spark after scripts/install-engines.sh.
  --read     scenario files or folders whose tables delta-rs, Delta Spark, rlc and the oracle read
             at every version (table_reads.py).
  --judge    scenario files or folders whose flags-off transactions Delta Spark judges
             (baseline_judge.py).
  --fidelity scenario files or folders whose flags-off operations Delta Spark runs itself on the
             same table versions, compared file by file (operation_fidelity.py).
  --generated N  also judge the explorer's first N histories of seed S, every flag off
             (`rlc explore --flags none --write-histories`); with --fidelity-generated, Delta
             Spark runs their operations too.
  --anomalies N  also judge the baseline anomalies (histories that break the model's rules with
             every flag off, filed as Delta's own) of an N-history campaign of seed S, written
             with every flag off by `rlc explore --write-anomalies`: where Delta Spark's verdict
             differs from rlc's, the anomaly is an rlc baseline bug, not Delta's behaviour.
  --shrink N  shrink the first N differences of the baseline verdicts (default 3) with Delta
             Spark judging each candidate (shrink_difference.py), into --shrunk-out DIR
             (default ./shrunk-differences); 0 reports them as found.
Each scenario is replayed once (`rlc replay --export`) and shared by both comparisons. Exit 0 when
every table reads alike and every judged transaction agrees or differs as documented; 1 when one
does not; 2 when a driver cannot run (a missing JVM or judge is named, never skipped).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import baseline_judge
import operation_fidelity
import shrink_difference
import table_reads
from engines_common import EngineError, ExportedTable, run_delta_spark, scenario_files


def explorer_folder(rlc, options, count, seed, work, name):
    folder = os.path.join(work, name)
    run = subprocess.run([rlc, "explore", "--runs", str(count), "--seed", str(seed), *options,
                          folder], capture_output=True, text=True)
    # Exit 1: the campaign found a counterexample of the cases or a re-run that differed (rlc's
    # own findings, which rlc verify reports); its histories are judged here all the same.
    if run.returncode == 1:
        print(f"note: rlc explore {' '.join(options)} exited 1 (a finding of its own)")
    elif run.returncode != 0:
        raise EngineError(f"rlc explore {' '.join(options)} failed: {run.stderr.strip()}")
    return folder


def arguments():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("rlc")
    p.add_argument("judge_dir")
    p.add_argument("--read", nargs="+", default=[], action="extend")
    p.add_argument("--judge", nargs="+", default=[], action="extend")
    p.add_argument("--fidelity", nargs="+", default=[], action="extend")
    p.add_argument("--generated", type=int, default=0)
    p.add_argument("--anomalies", type=int, default=0)
    p.add_argument("--shrink", type=int, default=3)
    p.add_argument("--shrunk-out", default=os.path.join(os.getcwd(), "shrunk-differences"))
    p.add_argument("--fidelity-generated", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def run(a, work):
    started = time.monotonic()

    def stage(name):  # where the time goes, for CI's budget
        print(f"== {name} (at {time.monotonic() - started:.0f} s)", flush=True)
    stage("explorer campaigns")
    judge = list(scenario_files(a.judge))
    generated = []
    if a.generated:
        generated = list(scenario_files([explorer_folder(
            a.rlc, ["--flags", "none", "--write-histories"], a.generated, a.seed, work,
            "generated")]))
        judge += generated
    anomalies = []
    if a.anomalies:
        anomalies = list(scenario_files([explorer_folder(
            a.rlc, ["--jobs", "2", "--write-anomalies"], a.anomalies, a.seed, work, "anomalies")]))
        judge += anomalies
    read = list(scenario_files(a.read))
    fidelity = list(scenario_files(a.fidelity)) + (generated if a.fidelity_generated else [])
    stage("replays, exports, delta-rs and rlc reads")
    tables, reads, cases, left_out, operations = {}, [], [], [], []
    # Tables left out of every comparison, and named: see left_out_because.
    not_compared = {s: why for s in dict.fromkeys(read + judge + fidelity)
                    if (why := left_out_because(s))}
    read, judge, fidelity = ([s for s in group if s not in not_compared]
                             for group in (read, judge, fidelity))
    for i, scenario in enumerate(dict.fromkeys(read + judge + fidelity)):
        folder = os.path.join(work, str(i))
        os.makedirs(folder)
        tables[scenario] = ExportedTable(a.rlc, scenario, folder)
        if scenario in read:
            reads.append(table_reads.TableReads(a.rlc, tables[scenario], folder))
        if scenario in judge:
            cases += baseline_judge.cases_of(tables[scenario], left_out)
        if scenario in fidelity:
            operations.append(operations_of(a.rlc, tables[scenario]))
    requests = [c for c, _ in cases] + [r for t in reads for r in t.requests] + \
        [r for o in operations for r in o.requests]
    stage(f"Delta Spark: {len(requests)} requests")
    answers = run_delta_spark(a.judge_dir, requests, work) if requests else {}
    stage("comparisons")
    failed_tables = 0
    for t in reads:
        t.judge_spark(answers)
        if t.problems:
            failed_tables += 1
            print(f"FAIL {t.table.scenario}")
            for p in t.problems:
                print(f"  {p}")
    failed_operations = 0
    for o in operations:
        o.judge(answers, lambda v, o=o: table_reads.rlc_rows(a.rlc, o.table.path, v)[1])
        if o.problems:
            failed_operations += 1
            print(f"FAIL {o.table.scenario}")
            for p in o.problems:
                print(f"  {p}")
    agree, documented, failures = baseline_judge.compare(cases, answers)
    for f in failures:
        print("DIFFERS " + f.line)
    if failures and a.shrink:
        stage(f"shrinking up to {a.shrink} differences with Delta Spark judging")
        shrink_differences(a, failures[:a.shrink], scenario_of_table(tables), work)
    if read:
        print(f"real readers: {len(reads)} tables, {len(reads) - failed_tables} read alike by "
              f"delta-rs, Delta Spark, rlc inspect and the oracle at every version "
              f"({sum(t.refused_at is not None for t in reads)} of them up to the commit the "
              f"protocol forbids, which rlc refuses from there on as the scenario expects)")
    if fidelity:
        compared = sum(o.compared for o in operations)
        own = sum(o.statement_reads for o in operations)
        print(f"operation fidelity: {compared} operations of {len(operations)} tables run by "
              f"Delta Spark too ({own} of them held to the reads Delta's statement registered); "
              f"{len(operations) - failed_operations} tables alike; "
              f"{sum(o.commit_nothing for o in operations)} DML changing no row commit nothing "
              f"in both; {sum(o.merge_failures for o in operations)} MERGEs matching a row twice "
              f"fail in both")
        stricter = [m for o in operations for m in o.model_stricter]
        print(f"operation fidelity: {len(stricter)} MERGEs the model fails and Delta commits, "
              f"each as the simulator foresaw" + "".join(f"\n  {m}" for m in stricter[:5]))
    if judge:
        print(f"baseline verdicts: {len(cases)} transactions compared: {agree} agree, "
              f"{documented} differ as documented, {len(failures)} differ otherwise; "
              f"{len(left_out)} left out (the simulated writer lacks a table feature a winner "
              f"added)" + (f"; {len(anomalies)} baseline anomalies among the histories"
                           if a.anomalies else ""))
    for why in sorted(set(not_compared.values())):
        named = [os.path.basename(s) for s, w in not_compared.items() if w == why]
        print(f"{len(named)} table(s) left out of every comparison: {why}: " +
              ", ".join(named[:5]) + (" ..." if len(named) > 5 else ""))
    # A comparison asked for that compared nothing fails: it would pass vacuously.
    nothing = (read and not reads) or (judge and not cases) or \
        (fidelity and not sum(o.compared for o in operations))
    return 1 if failed_tables or failures or failed_operations or nothing else 0


def partition_types(words, value):
    """The table line's partition columns' types, in order: `partition-types T1,T2` (split at
    the commas outside parentheses: decimal(10,2) holds one), else `partition-type T` of the one
    column when partitioned."""
    if "partition-types" in value:
        types, depth, current = [], 0, ""
        for c in value["partition-types"] + ",":
            depth += {"(": 1, ")": -1}.get(c, 0)
            if c == "," and depth == 0:
                types.append(current)
                current = ""
            else:
                current += c
        return types
    return [value.get("partition-type", "long")] if "partitioned" in words else []


def left_out_because(scenario):
    """Why the scenario's table is compared with no engine, or None. A timestamp partition value
    written without a zone is a different instant to readers in different session zones
    (docs/gaps.md#g24): no two engines need agree, and rlc names no one instant. Columns of every
    other type but long and string are held to Delta Spark by the predicate differential
    (predicate_semantics.py); the table reads here compare long and string values only."""
    with open(scenario) as f:
        for line in f:
            words = line.split()
            if not words or words[0] != "table":
                continue
            value = {k: v for k, v in zip(words, words[1:])}
            types = partition_types(words, value)
            typed = any(t not in ("long", "string") for t in types)
            if value.get("value-collation", "UTF8_BINARY") != "UTF8_BINARY":
                return "a collated string, whose rows rlc reads no comparison of " \
                    "(docs/formats.md#collations)"
            if "timestamp" in types and value.get("partition-timestamps") != "zoned":
                return "timestamp partition values without a zone (docs/gaps.md#g24)"
            if typed or "column-x" in value:
                return "typed columns, every type but long and string (compared by " \
                    "predicate_semantics.py)"
            return None
    return None


def scenario_of_table(tables):
    return {t.name: scenario for scenario, t in tables.items()}


def shrink_differences(a, differences, scenario_of, work):
    """Each difference shrunk like any counterexample, Delta Spark in the loop (one JVM run per
    round), into --shrunk-out; the printed path is what `rlc scenario` and `rlc replay` take."""
    def judge(requests):
        folder = tempfile.mkdtemp(dir=work)
        return run_delta_spark(a.judge_dir, requests, folder)
    for d in differences:
        name, _, target = d.case["id"].rpartition(":")
        kinds = (shrink_difference.outcome_kind(d.ours), shrink_difference.outcome_kind(d.theirs))
        result = shrink_difference.shrink_difference(
            a.rlc, judge, scenario_of[name], target, kinds, tempfile.mkdtemp(dir=work),
            a.shrunk_out)
        if result is None:
            print(f"SHRINK {d.case['id']}: the difference did not reproduce without the "
                  f"history's expectations and comments (left as found)")
            continue
        path, before, after = result
        print(f"SHRUNK {d.case['id']}: {before} lines -> {after}: {path}")
        with open(path) as f:
            print("  " + f.read().rstrip().replace("\n", "\n  "))


def operations_of(rlc, table):
    def active_paths(version):
        return {f["path"] for f in table_reads.rlc_inspect(rlc, table.path, version)["files"]}
    columns = table_reads.rlc_inspect(rlc, table.path, 0)["columns"]
    return operation_fidelity.OperationFidelity(table, active_paths, columns)


def main():
    a = arguments()
    if not (a.read or a.judge or a.fidelity or a.generated or a.anomalies):
        print("engines_test.py: nothing to compare (give --read, --judge, --generated or "
              "--anomalies)", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory() as work:
            return run(a, work)
    except EngineError as e:
        print(f"engines_test.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
