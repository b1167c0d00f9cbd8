"""What the engine comparisons share: the scenario files an argument list names, a scenario's table
written out by rlc, and one run of the Delta Spark program (tests/engines/delta-spark)."""
import json
import os
import subprocess

# Spark 4 on Java 17 needs these modules opened to it.
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


class EngineError(Exception):
    """A driver that cannot run (no JVM, the judge not built, rlc refusing a scenario)."""


def scenario_files(args):
    """Each argument as is, or, for a folder, the .scenario files in it in name order."""
    for a in args:
        if os.path.isdir(a):
            for name in sorted(os.listdir(a)):
                if name.endswith(".scenario"):
                    yield os.path.join(a, name)
        else:
            yield a


class ExportedTable:
    """A scenario replayed into a directory table by `rlc replay FILE --export DIR`: Parquet data
    files, DVs, checkpoints where the scenario asks, and _rlc/transactions.jsonl."""

    def __init__(self, rlc, scenario, work):
        self.scenario = scenario
        self.name = os.path.basename(scenario)
        self.path = os.path.join(work, "table")
        replay = subprocess.run([rlc, "replay", scenario, "--export", self.path],
                                capture_output=True, text=True)
        if replay.returncode == 2:
            raise EngineError(f"{scenario}: rlc replay cannot run it: {replay.stderr.strip()}")
        oracle = [l[len("  final rows: "):] for l in replay.stdout.splitlines()
                  if l.startswith("  final rows: ")]
        self.oracle_final_rows = oracle[0] if oracle else None
        log = os.path.join(self.path, "_delta_log")
        self.latest = max(int(n[:20]) for n in os.listdir(log)
                          if n.endswith(".json") and n[:20].isdigit())

    def transactions(self):
        with open(os.path.join(self.path, "_rlc", "transactions.jsonl")) as f:
            return [json.loads(line) for line in f if line.strip()]


def run_delta_spark(judge_dir, requests, work, main_class="rlc.engines.DeltaSparkJudge"):
    """Answers every request (judge cases and reads) in one JVM; returns {id: answer}.
    `main_class`: the program of tests/engines/delta-spark that answers them."""
    classpath_file = os.path.join(judge_dir, "target", "classpath.txt")
    if not os.path.exists(classpath_file):
        raise EngineError(f"the Delta Spark judge is not built ({classpath_file} is missing): "
                          "run scripts/install-engines.sh")
    classpath = os.path.join(judge_dir, "target", "classes") + ":" + \
        open(classpath_file).read().strip()
    requests_file = os.path.join(work, "requests.jsonl")
    answers_file = os.path.join(work, "answers.jsonl")
    with open(requests_file, "w") as f:
        for r in requests:
            f.write(json.dumps(r) + "\n")
    try:
        subprocess.run(["java", *JAVA_OPTIONS, "-cp", classpath, main_class,
                        requests_file, answers_file], check=True)
    except FileNotFoundError as e:
        raise EngineError("no `java` on PATH: Delta Spark needs Java 17 "
                          "(scripts/install-deps.sh installs it)") from e
    except subprocess.CalledProcessError as e:
        raise EngineError(f"the Delta Spark judge failed (exit {e.returncode})") from e
    answers = {}
    with open(answers_file) as f:
        for line in f:
            a = json.loads(line)
            answers[a["id"]] = a
    missing = [r["id"] for r in requests if r["id"] not in answers]
    if missing:
        raise EngineError(f"the Delta Spark judge answered no verdict for {missing[:3]}")
    return answers
