#!/usr/bin/env bash
# The nightly race: 4 processes for 10 minutes per case (override with PROCS and SECONDS), each
# summary written to out/race/<case>.json and printed. Exit 1 if any case found a problem or never
# reconciled. Usage: bash scripts/nightly_race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
procs=${PROCS:-4}
seconds=${SECONDS_EACH:-600}
mkdir -p out/race
status=0
for race_case in 2 3 1 4a 4b mixed; do
  rm -rf "out/race/table-$race_case"
  if ! build/cli/rlc race "out/race/table-$race_case" --case "$race_case" --procs "$procs" --seconds "$seconds" \
      --seed 20261129 --json > "out/race/$race_case.json"; then
    status=1
  fi
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(sys.argv[2], s['versions'], 'versions,', s['caseReconciles'], 'reconciles,', s['lostCommits'], 'lost,', s['duplicatedRows'], 'duplicated, rows', s['rowsCheck'], ', problems', len(s['problems']))" "out/race/$race_case.json" "$race_case"
  rm -rf "out/race/table-$race_case"
done
exit $status
