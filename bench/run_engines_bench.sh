#!/usr/bin/env bash
# rlc side by side with Delta Spark and delta-rs on the same bytes (bench/engines_bench.py): the
# conflict check of a 100,000-action winner against a 10,000-action loser, and the snapshot of a
# 1,000,000-file checkpointed table. Builds the benchmarks as bench/run_benchmarks.sh does (LTO,
# build-bench/), then prints medians of 5 runs and the ratios. A few minutes; not part of CI.
# Usage: bash bench/run_engines_bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRLC_LTO=ON -DRLC_TESTS=OFF >/dev/null
ninja -C build-bench rlc_engines_side
.venv/bin/python bench/engines_bench.py build-bench tests/engines/delta-spark "${1:-5}"
