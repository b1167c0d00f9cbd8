#!/usr/bin/env bash
# Every comparison with a real Delta engine, on every scenario file (the cases and the matrix):
# delta-rs and OSS Delta Spark reading each table at every version; Delta Spark running each honest
# operation itself (compared file by file) and judging each flags-off transaction, of those, of 200
# histories the explorer generates with every flag off, and of the baseline anomalies a
# 200,000-history campaign files as Delta's own (a seed that changes daily, printed); and Delta
# Spark's answers to 2,000 predicate cases against rlc's (predicate_semantics.py). CI's engines
# label runs a bounded part of this; the nightly workflow runs it all.
# Usage: tests/engines/run_all.sh RLC   (after scripts/install-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
rlc=$1
seed=${RLC_ENGINES_SEED:-$(date +%Y%m%d)}
echo "generated histories and campaign: seed $seed (RLC_ENGINES_SEED=$seed repeats them)"
.venv/bin/python tests/engines/engines_test.py "$rlc" tests/engines/delta-spark \
  --read tests/scenarios/cases tests/scenarios/matrix \
  --judge tests/scenarios/cases tests/scenarios/matrix \
  --fidelity tests/scenarios/cases tests/scenarios/matrix \
  --generated 200 --fidelity-generated --anomalies 200000 --seed "$seed"
# The predicate-semantics differential at scale: Delta Spark's and rlc's answers to 2,000 cases.
.venv/bin/python tests/engines/predicate_semantics.py "$rlc" tests/engines/delta-spark \
  --cases 2000 --seed "$seed" --out out/predicate-semantics
