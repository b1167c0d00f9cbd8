#!/usr/bin/env bash
# A broken engine driver fails loudly, never as a skip: engines_test.py exits 2 naming what is
# missing when the Delta Spark judge is not built, and when no `java` is on PATH.
# Usage: broken_driver_test.sh PYTHON RLC JUDGE_DIR SCENARIO
set -u
py=$1 rlc=$2 judge=$3 scenario=$4
here=$(cd "$(dirname "$0")" && pwd)
expect_exit_2() {  # what, pattern, command...
  local what=$1 pattern=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q "$pattern" <<<"$out"; then
    echo "$what: expected exit 2 and '$pattern', got exit $rc:"; echo "$out" | tail -5; exit 1
  fi
}
expect_exit_2 "judge not built" "judge is not built" \
  "$py" "$here/engines_test.py" "$rlc" /nonexistent/delta-spark --judge "$scenario"
expect_exit_2 "no java" "no \`java\` on PATH" \
  env PATH=/nonexistent "$py" "$here/engines_test.py" "$rlc" "$judge" --judge "$scenario"
expect_exit_2 "nothing to compare" "nothing to compare" "$py" "$here/engines_test.py" "$rlc" "$judge"
echo "a broken driver exits 2 and says why"
