#!/usr/bin/env bash
# `rlc predicates` (cli/predicates_command.h), the row evaluator's half of the Delta Spark
# differential: each row's answer (TRUE, FALSE, UNKNOWN) per predicate, a predicate rlc does not
# bind refused with the reason, and bad input refused with exit 2 and a message naming the file,
# the line and the field (never an answer made up for it).
# Usage: predicates_input_test.sh RLC
set -uo pipefail
rlc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

schema='{\"type\":\"struct\",\"fields\":[{\"name\":\"c0\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},{\"name\":\"t\",\"type\":\"timestamp\",\"nullable\":true,\"metadata\":{}}]}'
case_line() {  # case_line ROWS PREDICATES
  printf '{"id":"a","schema":"%s","rows":%s,"predicates":%s}\n' "$schema" "$1" "$2"
}

# Three-valued answers, a column compared with itself, a refusal naming the column.
case_line '[["1","2024-03-10T00:00:00Z"],[null,null],["-5","2024-03-09T23:00:00-01:00"]]' \
  '["c0 > 0","c0 = c0","t = TIMESTAMP '"'"'2024-03-10 00:00:00Z'"'"'","nosuch = 1"]' > "$work/good"
"$rlc" predicates "$work/good" > "$work/out" 2> "$work/err" || fail "good case: exit $?"
expected='{"id":"a","answers":[["TRUE","UNKNOWN","FALSE"],["TRUE","UNKNOWN","TRUE"],["TRUE","UNKNOWN","TRUE"],[]],"refused":[null,null,null,"InvalidArgument: predicate: column nosuch does not exist in the table schema"]}'
[ "$(cat "$work/out")" = "$expected" ] || fail "good case answered $(cat "$work/out")"

# expect_refused NAME PATTERN FILE [ANSWERED]: exit 2, the pattern on stderr, and on stdout the
# answers of the ANSWERED lines before the bad one (default none).
expect_refused() {
  "$rlc" predicates "$3" > "$work/out" 2> "$work/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, not 2"
  [ "$(wc -l < "$work/out")" -eq "${4:-0}" ] || fail "$1: answered $(head -c 200 "$work/out")"
  grep -q -- "$2" "$work/err" || fail "$1: stderr $(cat "$work/err")"
}
case_line '[["x","2024-03-10T00:00:00Z"]]' '["c0 > 0"]' > "$work/bad_integer"
expect_refused "a cell that is no integer" "bad_integer:1.rows\[0\]\[0\]: 'x' is not an integer" \
  "$work/bad_integer"
case_line '[["1","2024-03-10 00:00:00"]]' '["c0 > 0"]' > "$work/zone_less"
expect_refused "a timestamp without its zone" "zone_less:1.rows\[0\]\[1\]: .* is not a timestamp with a zone" \
  "$work/zone_less"
{ case_line '[["1",null]]' '["c0 > 0"]'; echo 'not json'; } > "$work/second_line"
expect_refused "a line that is no JSON" "second_line:2: not a JSON document" "$work/second_line" 1
echo '{"id":"a","rows":[],"predicates":[]}' > "$work/no_schema"
expect_refused "a case without its schema" "no_schema:1: expected schema, rows and predicates" \
  "$work/no_schema"
case_line '[["1"]]' '[]' > "$work/short_row"
expect_refused "a row short of a cell" "short_row:1.rows\[0\]: expected one cell per column" \
  "$work/short_row"
expect_refused "a missing file" "nonexistent: cannot be opened" "$work/nonexistent"

[ "$failures" -eq 0 ] && echo "predicates input: all checks passed"
exit "$failures"
