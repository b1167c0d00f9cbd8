#!/usr/bin/env bash
# Every comparison with a real Delta engine, on every scenario file (the cases and the matrix):
# delta-rs reading each table at every version, and OSS Delta Spark judging each flags-off
# transaction, of those and of 200 histories the explorer generates with every flag off (a seed
# that changes daily, printed). CI's engines label runs a bounded part of this; the nightly
# workflow runs it all.
# Usage: tests/engines/run_all.sh RLC   (after scripts/install-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
rlc=$1
.venv/bin/python tests/engines/delta_rs_reads_test.py "$rlc" tests/scenarios/cases tests/scenarios/matrix
seed=${RLC_ENGINES_SEED:-$(date +%Y%m%d)}
echo "generated histories: seed $seed (RLC_ENGINES_SEED=$seed repeats them)"
.venv/bin/python tests/engines/delta_spark_baseline_test.py "$rlc" tests/engines/delta-spark \
  --generated 200 --seed "$seed" tests/scenarios/cases tests/scenarios/matrix
