#!/usr/bin/env bash
# What a user who mistypes gets from rlc, and what names the tool in its results: each case a
# usage error with exit 2 and a message that says what is wrong in a line a person reads, or the
# version in the places a result is kept.
#   - `rlc --version` prints the version and the commit; summary.json of explore and verify
#     carry the same string;
#   - a mistyped subcommand names the one meant;
#   - a negative or non-numeric count says so in plain words (not a 300-digit range);
#   - --runs and --seconds together are refused; --max-writers is bounded (2 to 6);
#   - `rlc verify` where there is no scenario file is a usage error, not a finding;
#   - --help gives the exit codes and the defaults.
# Usage: usage_test.sh RLC
set -uo pipefail
rlc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_usage_error NAME PATTERN COMMAND...: exit 2, stderr matching PATTERN, under 300 bytes.
expect_usage_error() {
  local name=$1 pattern=$2
  shift 2
  "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, not 2"
  grep -Eq "$pattern" "$work/err" || fail "$name: stderr lacks /$pattern/: $(head -c 400 "$work/err")"
  [ "$(wc -c < "$work/err")" -lt 300 ] || fail "$name: a $(wc -c < "$work/err")-byte message"
}

version=$("$rlc" --version) || fail "--version exits $?"
echo "$version" | grep -Eq '^rlc [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}|unknown)\)$' ||
  fail "--version prints '$version'"

expect_usage_error "mistyped subcommand" "'verfy' is not a subcommand; did you mean 'verify'\?" \
  "$rlc" verfy
expect_usage_error "unknown word" "'frobnicate' is not a subcommand \(rlc --help" "$rlc" frobnicate
expect_usage_error "negative version" "'-1' is not a whole number of at least 0" \
  "$rlc" inspect "$work" --version -1
expect_usage_error "zero runs" "'0' is not a whole number of at least 1" "$rlc" explore --runs 0
expect_usage_error "runs and seconds" "excludes" "$rlc" explore --runs 5 --seconds 3
expect_usage_error "seconds not a number" "'soon' is not a positive number of seconds" \
  "$rlc" explore --seconds soon
expect_usage_error "too many writers" "max-writers" "$rlc" explore --runs 5 --max-writers 7
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" &&
  expect_usage_error "verify without scenarios" "no \.scenario file in tests/scenarios" \
    "$rlc" verify --budget 10s --out "$work/verify")
[ ! -e "$work/verify" ] || fail "verify without scenarios still left results in $work/verify"

"$rlc" explore --runs 3 --max-writers 2 --out "$work/explore" > /dev/null ||
  fail "a 3-history campaign exits $?"
grep -q "\"rlcVersion\": *\"${version#rlc }\"" "$work/explore/summary.json" ||
  fail "summary.json does not carry '${version#rlc }': $(head -c 200 "$work/explore/summary.json")"

"$rlc" --help > "$work/help" || fail "--help exits $?"
grep -q "Exit codes: 0 success; 1 " "$work/help" || fail "--help gives no exit codes"
"$rlc" explore --help > "$work/explore-help"
grep -Eq -- "--max-writers INT:2..6=5 " "$work/explore-help" || fail "explore --help gives no default"
grep -Eq -- "--seed UINT=1 " "$work/explore-help" || fail "explore --help gives no seed default"

# Without a terminal (a CI log) a campaign says it is alive: a progress line every --heartbeat
# seconds (the first at once), none with 0.
"$rlc" explore --seconds 2.5 --heartbeat 1 --out "$work/beat" 2> "$work/beat.err" > /dev/null
beats=$(grep -c "^rlc explore: [0-9]* histories, [0-9]* violation(s)" "$work/beat.err" || true)
[ "$beats" -ge 2 ] || fail "a 2.5 s campaign without a terminal printed $beats heartbeat line(s)"
"$rlc" explore --runs 40 --heartbeat 0 --out "$work/quiet" 2> "$work/quiet.err" > /dev/null
[ ! -s "$work/quiet.err" ] || fail "--heartbeat 0 still printed: $(head -2 "$work/quiet.err")"

[ "$failures" -eq 0 ] && echo "usage: every case as expected"
exit $((failures > 0))
