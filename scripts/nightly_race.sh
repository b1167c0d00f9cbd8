#!/usr/bin/env bash
# The nightly race: 4 processes for 10 minutes per case (override with PROCS and SECONDS_EACH),
# each on a Serializable table, then the mixed case again on a WriteSerializable one; each summary
# written to out/race/<run>.json and printed. Exit 1 if any run found a problem or never
# reconciled. Usage: bash scripts/nightly_race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
procs=${PROCS:-4}
seconds=${SECONDS_EACH:-600}
mkdir -p out/race
status=0
for run in 2 3 1 4a 4b mixed mixed-ws; do
  race_case=${run%-ws}
  isolation=Serializable
  if [ "$run" = mixed-ws ]; then isolation=WriteSerializable; fi
  rm -rf "out/race/table-$run"
  if ! build/cli/rlc race "out/race/table-$run" --case "$race_case" --procs "$procs" --seconds "$seconds" \
      --isolation "$isolation" --seed 20261129 --json > "out/race/$run.json"; then
    status=1
  fi
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(sys.argv[2], s['isolation'], s['versions'], 'versions,', s['caseReconciles'], 'reconciles,', s['lostCommits'], 'lost,', s['duplicatedRows'], 'duplicated, rows', s['rowsCheck'], ', problems', len(s['problems']))" "out/race/$run.json" "$run"
  rm -rf "out/race/table-$run"
done
exit $status
