#!/usr/bin/env bash
# Builds and runs the benchmarks (medians of 5 repetitions) and prints each ratio against its
# baseline from the same run. Usage: bash bench/run_benchmarks.sh [--benchmark_filter=REGEX]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# A build of its own, with link-time optimization as the rlc tool has it (the test build has none).
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRLC_LTO=ON -DRLC_TESTS=OFF >/dev/null
ninja -C build-bench rlc_bench rlc_tool_alloc_bench rlc_parquet_bench
mkdir -p out
stamp=$(date +%Y%m%d-%H%M%S)
json=out/bench-$stamp.json
./build-bench/bench/rlc_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$json" --benchmark_out_format=json "$@"
python3 bench/ratios.py "$json"
# The parse, the checks and the explorer's histories again, allocating as the rlc tool does
# (tcmalloc; rlc_bench above uses the C library's malloc). Skipped when a filter leaves it nothing
# to run.
tool_json=out/bench-tool-alloc-$stamp.json
if ./build-bench/bench/rlc_tool_alloc_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
     --benchmark_out="$tool_json" --benchmark_out_format=json "$@" >/dev/null 2>&1 &&
   [ -s "$tool_json" ]; then
  python3 bench/ratios.py "$tool_json" "allocating with tcmalloc, as the rlc tool does"
fi
# Parquet rows against Arrow's own column read (the file is written once, in memory).
parquet_json=out/bench-parquet-$stamp.json
if ./build-bench/bench/rlc_parquet_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
     --benchmark_out="$parquet_json" --benchmark_out_format=json "$@" >/dev/null 2>&1 &&
   [ -s "$parquet_json" ]; then
  python3 bench/ratios.py "$parquet_json"
fi
