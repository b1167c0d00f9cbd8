#!/usr/bin/env python3
"""One Delta Spark racer of `rlc race --engine delta-spark` (--engine-racer this file): runs
rlc.engines.DeltaSparkRacer with the arguments rlc gives it (`race TABLE RACE_DIR PROC` or
`read TABLE OUT`), in place of this process, so that rlc's SIGKILL reaches the JVM itself.
Exits 2 naming what is missing when the racer is not built or there is no `java`."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engines_common import JAVA_OPTIONS  # noqa: E402


def main():
    judge_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "delta-spark")
    classpath_file = os.path.join(judge_dir, "target", "classpath.txt")
    if not os.path.exists(classpath_file):
        print(f"delta_spark_racer: the Delta Spark racer is not built ({classpath_file} is "
              "missing): run scripts/install-engines.sh", file=sys.stderr)
        return 2
    java = shutil.which("java")
    if java is None:
        print("delta_spark_racer: no `java` on PATH: Delta Spark needs Java 17 "
              "(scripts/install-deps.sh installs it)", file=sys.stderr)
        return 2
    classpath = os.path.join(judge_dir, "target", "classes") + ":" + \
        open(classpath_file).read().strip()
    # Enough heap for a million-row table's OPTIMIZE and reads, in local mode.
    os.execv(java, [java, "-Xmx3g", *JAVA_OPTIONS, "-cp", classpath,
                    "rlc.engines.DeltaSparkRacer", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
