#!/usr/bin/env bash
# Errors for programs (cli/json_error.h): with --json, a command refused on bad input or a usage
# error exits 2 with its message on stderr as before and one JSON object on stdout, whose
# schemaVersion, command, kind and message a program can branch on; without --json stdout stays
# empty; a command that succeeds prints its result and no error object.
# Usage: json_errors_test.sh RLC PYTHON
set -uo pipefail
rlc=$1
python=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_json_error NAME COMMAND KIND MESSAGE_PATTERN ARGS...: exit 2, text on stderr, and on
# stdout one error object of that command and kind whose message matches the pattern.
expect_json_error() {
  local name=$1 command=$2 kind=$3 pattern=$4
  shift 4
  "$rlc" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, not 2"
  [ -s "$work/err" ] || fail "$name: nothing on stderr"
  "$python" - "$work/out" "$command" "$kind" "$pattern" <<'PY' || fail "$name: $(head -c 400 "$work/out")"
import json, re, sys
text = open(sys.argv[1]).read()
j = json.loads(text)  # one document, nothing else
e = j["error"]
assert j["schemaVersion"] == 1, j
assert e["command"] == sys.argv[2], e
assert e["kind"] == sys.argv[3], e
assert e["exitCode"] == 2, e
assert re.search(sys.argv[4], e["message"]), e
assert e["lines"] and e["lines"][0].endswith(e["message"]), e
PY
}

mkdir -p "$work/empty"
expect_json_error "no log" inspect NotFound "$work/empty" inspect "$work/empty" --json
expect_json_error "no transaction file" check NotFound "missing\.json" \
  check "$work/empty" --txn "$work/missing.json" --json
# A refusal that carries no status code: a read predicate naming no column of the table.
mkdir -p "$work/one/_delta_log"
cat > "$work/one/_delta_log/00000000000000000000.json" <<'LOG'
{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}
{"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{},"createdTime":0}}
LOG
echo '{"readVersion": 0, "readPredicates": ["nosuch = 1"], "actions": []}' > "$work/txn.json"
expect_json_error "a predicate that does not bind" check Input "read predicate 'nosuch = 1'" \
  check "$work/one" --txn "$work/txn.json" --json
mkdir -p "$work/t/_delta_log"
printf '{"commitInfo":{}}\n{"add":{"path":' > "$work/t/_delta_log/00000000000000000000.json"
expect_json_error "a torn commit" audit Corrupt "00000000000000000000\.json" \
  audit "$work/t" --json
expect_json_error "a negative version" inspect Usage "'-1' is not a whole number" \
  inspect "$work/t" --version -1 --json

# Without --json: the same refusal, text on stderr only.
"$rlc" inspect "$work/empty" > "$work/out" 2> "$work/err"
[ $? -eq 2 ] && [ ! -s "$work/out" ] && [ -s "$work/err" ] ||
  fail "without --json stdout holds: $(head -c 200 "$work/out")"

# A command that succeeds prints its own result, and no error object.
"$rlc" scenario "$(dirname "$0")/../scenarios/cases" --json > "$work/out" 2> /dev/null
"$python" -c 'import json,sys; j=json.load(open(sys.argv[1])); assert "error" not in j, j' \
  "$work/out" || fail "a passing scenario run printed: $(head -c 200 "$work/out")"

[ "$failures" -eq 0 ] && echo "json errors: every case as expected"
exit $((failures > 0))
