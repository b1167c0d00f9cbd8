#!/usr/bin/env bash
# Builds and runs the benchmarks (medians of 5 repetitions) and prints each ratio against its
# baseline from the same run. Usage: bash bench/run_benchmarks.sh [--benchmark_filter=REGEX]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build rlc_bench
mkdir -p out
json=out/bench-$(date +%Y%m%d-%H%M%S).json
./build/bench/rlc_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$json" --benchmark_out_format=json "$@"
python3 bench/ratios.py "$json"
