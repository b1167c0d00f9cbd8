#!/usr/bin/env bash
# `rlc verify --budget` is a ceiling for the whole run: with a budget far below what the proofs
# alone take (two minutes on two cores), no stage starts work after it and no solver runs past it,
# so the run ends within seconds of it. What did not run is reported as not run (JUnit
# <skipped>, summary.json notRun, report.md's "not run" column), never as a pass or a finding,
# and the exit is 2 with a sentence saying the budget ran out.
# Usage: verify_budget_test.sh RLC SCENARIOS_DIR
set -euo pipefail
rlc=$1
scenarios=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
set +e
"$rlc" verify --budget 3s --scenarios "$scenarios" --out "$work/v" > "$work/out.txt" 2> "$work/err.txt"
code=$?
set -e
elapsed=$(( $(date +%s) - start ))
[ "$code" -eq 2 ] || { echo "exit $code, expected 2"; cat "$work/out.txt" "$work/err.txt"; exit 1; }
# The budget plus what one stage needs to notice it (a solver stopped at its timeout, a scenario
# already running, the reports written).
[ "$elapsed" -le 20 ] || { echo "a 3 s budget took $elapsed s"; exit 1; }
grep -q "ran out before" "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
python3 - "$work/v" <<'PY'
import json, re, sys
d = sys.argv[1]
summary = json.load(open(d + "/summary.json"))
assert summary["notRun"] > 0, summary
assert summary["findings"] == 0, f"not-run checks counted as findings: {summary['findings']}"
junit = open(d + "/junit.xml").read()
m = re.search(r'tests="(\d+)" failures="(\d+)" skipped="(\d+)"', junit)
assert m and int(m.group(2)) == 0 and int(m.group(3)) == summary["notRun"], m and m.groups()
assert '<skipped message="not run: the budget ran out first"/>' in junit
report = open(d + "/report.md").read()
assert "not run: the budget ran out" in report, report[:400]
assert "| not run |" in report
assert summary["schemaVersion"] == 1 and summary["findingList"] == [], summary.get("schemaVersion")
assert '<property name="rlcVersion" value="' in junit and '<property name="seed"' in junit
assert report.splitlines()[2].startswith("rlcVersion "), report.splitlines()[:3]
print(f"{summary['notRun']} of {summary['checks']} checks not run within a 3 s budget")
PY
xmllint --noout --schema "$(dirname "$0")/../support/junit.xsd" "$work/v/junit.xml"
echo "verify with --budget 3s ended in $elapsed s, exit 2"
