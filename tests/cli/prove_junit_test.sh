#!/usr/bin/env bash
# `rlc prove` and its JUnit file, which must validate against the JUnit schema CI systems read
# (tests/support/junit.xsd), on Case 2's obligations: every obligation is proved by the registry's
# own test (Registry.EveryObligationMeetsItsExpectation) and again by rlc verify's end-to-end test,
# so a third full run here would only cost CI minutes. Usage: prove_junit_test.sh RLC OUT_FILE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$1" prove --case case2 --junit "$2"
grep -q "<testcase" "$2" || { echo "the JUnit file lists no obligation"; exit 1; }
xmllint --noout --schema "$here/../support/junit.xsd" "$2"
