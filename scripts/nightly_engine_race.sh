#!/usr/bin/env bash
# The nightly race against a real engine: rlc's processes (every flag on) and one Delta Spark
# process on one table of ROWS rows (1,000,000), SECONDS_EACH (600) per run: Case 4a (Delta
# Spark's DELETE, UPDATE and MERGE winning against rlc's OPTIMIZE), Case 2 (DML against DML),
# Case 3 (rlc's INSERT ... SELECT against Delta Spark's OPTIMIZE), Case 4b (rlc's DML losing to
# Delta Spark's OPTIMIZE, which records no composition tags: every such loser must abort), mixed,
# and mixed on a WriteSerializable table. Delta Spark reads every version at the end
# (READ_EVERY=1). Each summary in out/engine-race/<run>.json; out/engine-race/report.md tells them
# in the proposal's terms (scripts/engine_race_report.py). Needs the Delta Spark racer
# (scripts/install-engines.sh) and build/cli/rlc. Exit 1 if any run found a problem.
# Usage: bash scripts/nightly_engine_race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${ROWS:-1000000}
seconds=${SECONDS_EACH:-600}
procs=${PROCS:-2}
read_every=${READ_EVERY:-1}
seed=$(bash scripts/nightly_seed.sh)
out=out/engine-race
mkdir -p "$out"
echo "nightly engine race: seed $seed, $rows rows, $seconds s per run, $procs rlc processes (1 in case 4a)"
status=0
for run in ${RUNS:-4a 2 3 4b mixed mixed-ws}; do
  race_case=${run%-ws}
  isolation=Serializable
  if [ "$run" = mixed-ws ]; then isolation=WriteSerializable; fi
  # Case 4a: one rlc process compacting against Delta Spark's DML. A second would reconcile
  # against the first, and every OPTIMIZE commit of rlc's aborts a Delta DML in its window
  # (Delta checks a DML against every file a winner adds, dataChange or not).
  run_procs=$procs
  if [ "$run" = 4a ]; then run_procs=1; fi
  rm -rf "$out/table-$run"
  if ! build/cli/rlc race "$out/table-$run" --case "$race_case" --procs "$run_procs" \
      --seconds "$seconds" --rows "$rows" --isolation "$isolation" --seed "$seed" \
      --engine delta-spark --engine-racer tests/engines/delta_spark_racer.py \
      --engine-read-every "$read_every" --json > "$out/$run.json"; then
    status=1
    cp -r "$out/table-$run/_race" "$out/race-files-$run" || true  # journals and logs to look at
  fi
  rm -rf "$out/table-$run"
done
python3 scripts/engine_race_report.py "$out"/*.json | tee "$out/report.md"
exit $status
