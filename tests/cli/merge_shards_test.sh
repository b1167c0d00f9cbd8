#!/usr/bin/env bash
# The nightly merge of `rlc verify` shards (scripts/merge_verify_shards.py), on shard folders
# written here by hand: two shards of one run merge into one junit.xml (both suites, the counts
# summed) and one report.md (each shard's row, the finding of shard 1 headed with its shard, the
# merged campaign); a missing shard, a shard twice and a shard of another seed are refused with
# exit 2 naming them.
# Usage: merge_shards_test.sh SCRIPT PYTHON
set -uo pipefail
script=$1
python=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# shard DIR INDEX SEED FINDINGS: one shard's --out folder.
shard() {
  local dir=$1 index=$2 seed=$3 findings=$4
  mkdir -p "$dir"
  cat > "$dir/summary.json" <<JSON
{"schemaVersion":1,"rlcVersion":"0.1.0 (commit abcdefabcdef)","seed":$seed,"shard":"$index/2",
 "checks":3,"findings":$findings,"notRun":0}
JSON
  local failure=""
  [ "$findings" -eq 0 ] || failure='<failure message="wrong rows">detail</failure>'
  cat > "$dir/junit.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="rlc verify" tests="3" failures="$findings" skipped="0">
  <testcase classname="scenario" name="a$index" time="0.1"/>
  <testcase classname="scenario" name="b$index" time="0.1"/>
  <testcase classname="explore" name="campaign" time="1.0">$failure</testcase>
</testsuite>
XML
  {
    echo "# rlc verify"
    echo
    echo "| stage | checks | findings | not run |"
    if [ "$findings" -ne 0 ]; then
      echo
      echo "## Finding: explore history-$index"
      echo
      echo "rows differ in shard $index"
    fi
    echo
    echo "## Explorer campaign"
    echo
    echo "shard $index's own campaign"
  } > "$dir/report.md"
}

shard "$work/s0" 0 7 0
shard "$work/s1" 1 7 1
echo "histories 200, violations 1" > "$work/campaign.txt"
"$python" "$script" "$work/out" "$work/s1" "$work/s0" --campaign "$work/campaign.txt" \
  > "$work/stdout" 2> "$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "a merge with one finding exits $rc, not 1: $(cat "$work/stderr")"
"$python" - "$work/out/junit.xml" <<'PY' || fail "junit.xml: $(head -c 600 "$work/out/junit.xml")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("6", "1", "0"), root.attrib
names = [s.get("name") for s in root]
assert names == ["rlc verify (shard 0/2)", "rlc verify (shard 1/2)"], names
assert [c.get("name") for c in root[1]] == ["a1", "b1", "campaign"]
PY
report=$(cat "$work/out/report.md")
for want in "# rlc verify, 2 shards merged" "seed 7" "1 finding(s)." "| 0/2 | 3 | 0 | 0 |" \
    "| 1/2 | 3 | 1 | 0 |" "## Shard 1/2: Finding: explore history-1" "rows differ in shard 1" \
    "## Explorer campaign, merged" "histories 200, violations 1"; do
  grep -qF -- "$want" <<< "$report" || fail "report.md lacks '$want'"
done
grep -qF "shard 0's own campaign" <<< "$report" && fail "report.md repeats a shard's own campaign"

# expect_refusal NAME PATTERN DIR...: exit 2, stderr naming what is wrong, nothing written.
expect_refusal() {
  local name=$1 pattern=$2
  shift 2
  rm -rf "$work/refused"
  "$python" "$script" "$work/refused" "$@" > /dev/null 2> "$work/stderr"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, not 2"
  grep -Eq "$pattern" "$work/stderr" || fail "$name: stderr '$(cat "$work/stderr")'"
  [ ! -e "$work/refused" ] || fail "$name: still wrote $work/refused"
}
expect_refusal "missing shard" "missing shard\(s\) 1/2" "$work/s0"
cp -r "$work/s0" "$work/s0-again"
expect_refusal "duplicated shard" "shard 0/2 twice" "$work/s0" "$work/s0-again" "$work/s1"
shard "$work/other" 1 8 0
expect_refusal "another night's shard" "seed 8, but .* has 7" "$work/s0" "$work/other"
rm "$work/s1/junit.xml"
expect_refusal "a shard without junit.xml" "s1/junit.xml" "$work/s0" "$work/s1"

[ "$failures" -eq 0 ] && echo "merge of shards: every case as expected"
exit $((failures > 0))
