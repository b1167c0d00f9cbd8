#!/usr/bin/env bash
# In a -DRLC_MUTANTS=ON build: with a known mutant selected (Case 2 keeps only the loser's DV),
# `rlc verify` must report a finding, its report must name the case (its reconcile event) and show
# the wrong rows (the diff against the serial result), and the replay command it prints must
# reproduce the failure. Usage: verify_mutant_test.sh RLC_BINARY SCENARIOS_DIR
set -euo pipefail
rlc=$1
scenarios=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RLC_MUTANT=case2-loser-dv-only
if "$rlc" verify --proofs case2 --out "$work/out" --scenarios "$scenarios" --explore-runs 3000 > "$work/log.txt" 2>&1; then
  echo "rlc verify passed with the mutant selected"; exit 1
fi
grep -q "delta.rowLevelConcurrency.deletionVectorsMerged" "$work/out/report.md" || { echo "the report does not name Case 2"; exit 1; }
grep -q 'class="diff"' "$work/out/report.html" || { echo "the HTML report shows no row diff"; exit 1; }
grep -Eq '<span class="(add|del)">[+-] \(' "$work/out/report.html" || { echo "the row diff is empty"; exit 1; }
# junit.xml, with its failures, as CI systems read it.
xmllint --noout --schema "$(dirname "$0")/../support/junit.xsd" "$work/out/junit.xml"
grep -q '<failure message=' "$work/out/junit.xml" || { echo "junit.xml records no failure"; exit 1; }
# The proof that refutes the mutant, with its decoded counterexample.
grep -q "^## Finding: proof case2.merged_is_serial" "$work/out/report.md" || { echo "the report names no refuting proof"; exit 1; }
grep -q "^| winner | {" "$work/out/report.md" || { echo "the proof finding shows no decoded inputs"; exit 1; }
grep -q '<table class="model">' "$work/out/report.html" || { echo "the HTML report shows no decoded model"; exit 1; }
grep -q "<h3>Table before</h3>" "$work/out/report.html" || { echo "the HTML report shows no table before"; exit 1; }
# Each counterexample has a folder: its history, its report and the Delta table its replay wrote.
# (No `| head -1` under pipefail: a writer cut off by head fails the pipeline by SIGPIPE.)
folders=("$work"/out/counterexamples/counterexample-*/)
folder=${folders[0]}
[ -s "$folder/history.scenario" ] && [ -s "$folder/report.txt" ] || { echo "the counterexample folder is incomplete"; exit 1; }
[ -s "$folder/table/_delta_log/00000000000000000000.json" ] || { echo "the counterexample's table was not exported"; exit 1; }
"$rlc" inspect "$folder/table" > /dev/null || { echo "the exported table does not open"; exit 1; }
# A failing scenario file replays from the copy saved with its table, not from the input.
grep -Eq 'rlc replay [^ <]*/counterexamples/scenario-[^ <]*/history\.scenario' "$work/out/report.md" ||
  { echo "a failing scenario's replay does not name its saved history.scenario"; exit 1; }
# Provenance: the version and seed in the report, the JUnit properties and summary.json.
grep -q "^rlcVersion [0-9].* · seed " "$work/out/report.md" || { echo "report.md names no version and seed"; exit 1; }
grep -q '<property name="rlcVersion" value="' "$work/out/junit.xml" || { echo "junit.xml carries no version"; exit 1; }
python3 - "$work/out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["schemaVersion"] == 1, s.get("schemaVersion")
assert s["findingList"] and len(s["findingList"]) == s["findings"], (s["findings"], s["findingList"][:2])
assert all(f["message"] for f in s["findingList"]), "a finding without its message"
PY
replay=$(grep -m 1 -o 'rlc replay [^ <]*counterexample-[^ <]*\.scenario' "$work/out/report.md" || true)
[ -n "$replay" ] || { echo "no replay command in the report"; exit 1; }
file=${replay#rlc replay }
if "$rlc" replay "$file" > "$work/replay.txt" 2>&1; then
  echo "the replay did not reproduce the failure"; exit 1
fi
grep -q "wrong data\|forbidden dependency cycle" "$work/replay.txt" || { echo "the replay failed for another reason"; cat "$work/replay.txt"; exit 1; }
unset RLC_MUTANT
"$rlc" replay "$file" > /dev/null || { echo "without the mutant the replayed history must pass"; exit 1; }
echo "the mutant is reported, its rows shown, and its replay reproduces it"
