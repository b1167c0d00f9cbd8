"""OSS Delta Spark judges rlc's baseline: every transaction of the scenario suite that ran with
every reconcile flag off, through an honest writer, and met at least one winner, is given to Delta
Spark's own transaction API (tests/engines/delta-spark, DeltaSparkJudge) on the same table: the
same read version, its reads registered as Delta's operations register them, the same winner
commit files, then its actions committed. Commit or abort, the exception class, and the version a
commit lands at must be rlc's, unless the difference is one the README documents
(tests/engines/known_differences.txt: scenario file, transaction, and why).

Usage: delta_spark_baseline_test.py RLC JUDGE_DIR [--generated N --seed S] SCENARIO_OR_DIR...
  JUDGE_DIR: tests/engines/delta-spark after scripts/install-engines.sh (target/classes and
  target/classpath.txt).
  --generated N --seed S: also the explorer's first N histories of seed S with every flag off
  (`rlc explore --runs N --seed S --flags none --write-histories DIR`).
Exit 0 when every compared transaction agrees or differs as documented; 1 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile

from engines_common import scenario_files

JAVA_OPTIONS = [
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.net=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
    "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
    "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
    "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
    "-Djdk.reflect.useDirectMethodHandle=false",
    "-Dio.netty.tryReflectionSetAccessible=true",
]


def winners_of(t):
    """The versions the transaction met: up to the one it aborted at, or before the one it took."""
    last = t["winnerVersion"] if not t["committed"] else t["version"] - 1
    return list(range(t["readVersion"] + 1, last + 1))


unsupported = []  # transactions left out: their writer lacks a feature (cases_of)


def cases_of(rlc, scenario, work):
    """Replays the scenario into `work`; returns its comparable transactions as judge cases."""
    table = os.path.join(work, "table")
    run = subprocess.run([rlc, "replay", scenario, "--export", table], capture_output=True,
                         text=True)
    if run.returncode == 2:
        raise RuntimeError(f"{scenario}: rlc replay cannot run it: {run.stderr.strip()}")
    cases = []
    with open(os.path.join(table, "_rlc", "transactions.jsonl")) as f:
        for line in f:
            t = json.loads(line)
            if not t["baseline"] or t["nothingToCommit"]:
                continue
            if t["exception"] == "DeltaUnsupportedTableFeatureException":
                # The simulated writer lacks a table feature a winner added; Delta Spark's writer
                # supports it. A fact about the writers, not about Delta's rules: not compared.
                unsupported.append(f"{os.path.basename(scenario)}:{t['name']}")
                continue
            winners = winners_of(t)
            if not winners:
                continue
            case = {k: t[k] for k in ("readVersion", "readPredicates", "readWholeTable",
                                      "readFiles", "readAppIds", "actions")}
            case.update(id=f"{os.path.basename(scenario)}:{t['name']}", table=table,
                        winners=winners)
            cases.append((case, t))
    return cases


def rlc_verdict(t):
    if t["committed"]:
        return f"commit at {t['version']}"
    return f"abort {t['exception']}"


def delta_verdict(v):
    if v["outcome"] == "commit":
        return f"commit at {v['version']}"
    if v["outcome"] == "abort":
        return f"abort {v['exception']}"
    return f"error {v.get('message', '')}"


def known_differences(path):
    known = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    key, _, why = line.partition(" ")
                    known[key] = why.strip()
    return known


def generated_histories(rlc, count, seed, work):
    folder = os.path.join(work, "generated")
    subprocess.run([rlc, "explore", "--runs", str(count), "--seed", str(seed), "--flags", "none",
                    "--write-histories", folder], check=True, capture_output=True)
    return folder


def main():
    rlc, judge_dir, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    generated = None
    if paths[:1] == ["--generated"]:
        generated, seed, paths = int(paths[1]), int(paths[3]), paths[4:]
    known = known_differences(os.path.join(os.path.dirname(__file__), "known_differences.txt"))
    classpath = open(os.path.join(judge_dir, "target", "classpath.txt")).read().strip()
    classpath = os.path.join(judge_dir, "target", "classes") + ":" + classpath
    with tempfile.TemporaryDirectory() as work:
        if generated:
            paths = paths + [generated_histories(rlc, generated, seed, work)]
        all_cases = []
        for i, scenario in enumerate(scenario_files(paths)):
            all_cases += cases_of(rlc, scenario, os.path.join(work, str(i)))
        cases_file = os.path.join(work, "cases.jsonl")
        out_file = os.path.join(work, "verdicts.jsonl")
        with open(cases_file, "w") as f:
            for case, _ in all_cases:
                f.write(json.dumps(case) + "\n")
        subprocess.run(["java", *JAVA_OPTIONS, "-cp", classpath, "rlc.engines.DeltaSparkJudge",
                        cases_file, out_file], check=True)
        verdicts = {}
        with open(out_file) as f:
            for line in f:
                v = json.loads(line)
                verdicts[v["id"]] = v
    agree = documented = 0
    failures = []
    for case, t in all_cases:
        ours, theirs = rlc_verdict(t), delta_verdict(verdicts[case["id"]])
        if ours == theirs:
            agree += 1
        elif case["id"] in known:
            documented += 1
        else:
            said = verdicts[case["id"]].get("message", "")
            failures.append(f"{case['id']} ({t['operation']}, read version {t['readVersion']}, "
                            f"winners {case['winners']}): rlc {ours}; Delta Spark {theirs}"
                            + (f" ({said[:300]})" if said else ""))
    for f in failures:
        print("DIFFERS " + f)
    print(f"{len(all_cases)} transactions compared: {agree} agree, {documented} differ as "
          f"documented, {len(failures)} differ otherwise; {len(unsupported)} left out (the "
          f"simulated writer lacks a table feature a winner added)")
    return 1 if failures or not all_cases else 0


if __name__ == "__main__":
    sys.exit(main())
