#!/usr/bin/env bash
# Builds the Delta Spark judge (tests/engines/delta-spark: OSS Delta Spark with Apache Spark,
# pinned in its pom.xml) and writes its classpath (target/classpath.txt) for
# tests/engines/engines_test.py. Maven fetches from Maven Central only what ~/.m2
# lacks, so a second clone on the same machine downloads nothing. Idempotent: a judge built from
# the same pom and sources (a stamp of their hash) is left alone.
set -euo pipefail
cd "$(dirname "$0")/../tests/engines/delta-spark"
stamp=target/rlc-judge.sha256
want=$(cat pom.xml $(find src -type f | sort) | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -s target/classpath.txt ]; then
  echo "install-engines: the Delta Spark judge is built"
  exit 0
fi
mvn -q -B -Dstyle.color=never compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
echo "$want" > "$stamp"
echo "install-engines: built the Delta Spark judge"
