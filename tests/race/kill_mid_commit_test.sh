#!/usr/bin/env bash
# Killing a racing process (SIGKILL, at whatever point of its loop it is: preparing, writing data
# or DV files, or linking its commit into place) loses nothing that was committed: every version in
# the log is a journaled transaction, no process was told it committed a version that holds
# another, the oracle and the audit find nothing, and what the dead process wrote without
# committing is only unreferenced files. Several kill times, so that some land mid-commit.
# Usage: kill_mid_commit_test.sh RLC_BINARY
set -euo pipefail
rlc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ms in 700 1300 2100; do
  "$rlc" race "$work/t$ms" --case mixed --procs 3 --seconds 4 --seed "$ms" --kill-after-ms "$ms" --json > "$work/s$ms.json"
  python3 - "$work/s$ms.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["processes"][0]["killed"], "process 0 was not killed"
assert s["lostCommits"] == 0, s["lostCommits"]
assert s["duplicatedRows"] == 0, s["duplicatedRows"]
assert s["problems"] == [], s["problems"]
assert s["rowsCheck"] == "holds", s["rowsCheck"]
print("killed after", sys.argv[1], ":", s["versions"], "versions,", s["unreferencedFiles"], "unreferenced files, nothing lost")
PY
done
