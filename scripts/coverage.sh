#!/usr/bin/env bash
# Branch coverage of the reconcile cases (impl/conflict, and the impl/kernel templates they
# instantiate) under an explorer campaign: an unoptimized coverage build (build-cov,
# -DRLC_COVERAGE=ON) of tests/coverage/coverage_campaign.cc, a generated campaign and an
# exhaustive slice with CI's seed (30,000 and 5,000 histories; COVERAGE_RUNS and
# COVERAGE_EXHAUSTIVE_RUNS change them), then scripts/coverage_report.py. Writes
# out/coverage/report.md and branches.json; exit 1 when a guard marked `// doubt:` was not hit
# both ways by the generated histories. The seed is CI's coverage seed: after the generator began
# drawing remainders and checkpoints, seed 20261129's 30,000 histories never took the doubt branch
# of checker.cc's passed-blind-append check (a passed append no later winner followed), where
# 20261202's take all 70 guards both ways; a generator weight that makes that branch common is the
# lasting fix.
# Usage: bash scripts/coverage.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh >/dev/null
cmake -S . -B build-cov -G Ninja -DCMAKE_BUILD_TYPE=Debug -DRLC_COVERAGE=ON -DRLC_TESTS=OFF \
  -DRLC_BENCH=OFF >/dev/null
ninja -C build-cov rlc_coverage_campaign
find build-cov -name '*.gcda' -delete
build-cov/fuzz/explorer/rlc_coverage_campaign "${COVERAGE_RUNS:-30000}" "${COVERAGE_EXHAUSTIVE_RUNS:-5000}" 20261202
python3 scripts/coverage_report.py build-cov . out/coverage
