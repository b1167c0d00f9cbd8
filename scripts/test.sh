#!/usr/bin/env bash
# Builds and runs the whole test suite, the way CI does:
#   1. g++ (-O2, no debug information, -Werror, no LTO): every label (unit, property, external, house, ...),
#      benchmarks compiled;
#   2. an unoptimized coverage build of the rlc tool: the branch coverage of the reconcile cases under an
#      explorer campaign (scripts/coverage.sh; out/coverage/report.md), failing when a guard of the
#      cases was not hit both ways;
#   3. clang-14 with ASan+UBSan: the same tests again (but the engines and proof labels), plus the
#      libFuzzer targets and their smoke runs,
#      built with the mutants compiled in (-DRLC_MUTANTS=ON: none is selected unless a test selects
#      one), so that the `mutants` tests run too: each kernel mutant's proof counterexample replayed
#      against the concrete kernel, and a mutant found and reported by `rlc verify`.
# Usage: bash scripts/test.sh [-L label]   (a label restricts both ctest runs)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/compiler-cache.sh  # RLC_CACHE_ARGS, RLC_CACHE_FLAGS: one ccache for every clone

# Property tests use a fixed seed unless the caller sets RC_PARAMS (e.g. to reproduce a failure).
export RC_PARAMS=${RC_PARAMS:-"seed=20261129 max_success=200"}
jobs=$(nproc)
start=$(date +%s)
# Each stage announced with the seconds since the start, so CI logs show where the time goes.
stage() { echo "== $1 (at $(( $(date +%s) - start )) s)"; }

stage "g++ build"
# No link-time optimization and no debug information here: each costs CI minutes per object
# (debug information a third of every compile) and the tests need neither (the README's build of
# the tool and bench/ keep LTO; the sanitizer build below keeps line tables for its reports).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DRLC_LTO=OFF "${RLC_CACHE_ARGS[@]}" >/dev/null
ninja -C build -j"$jobs"
stage "g++ tests"
(cd build && ctest -j"$jobs" --output-on-failure "$@")

if [ $# -eq 0 ]; then  # the whole suite: the coverage of the cases' guards too
  stage "branch coverage of the reconcile cases"
  bash scripts/coverage.sh
fi

stage "clang-14 ASan+UBSan build (tests and fuzz targets)"
# -O1 with line tables, as the sanitizers' own documentation advises: reports name file and line,
# and the build costs two thirds of -O2 -g.
CC=clang-14 CXX=clang++-14 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCMAKE_CXX_FLAGS="$RLC_CACHE_FLAGS" \
  -DRLC_FUZZ=ON -DRLC_BENCH=OFF -DRLC_MUTANTS=ON "${RLC_CACHE_ARGS[@]}" >/dev/null
ninja -C build-asan -j"$jobs"
stage "sanitizer tests and fuzz smoke"
# The engines label (real Delta engines judging rlc's tables) ran in the g++ pass: its judges are
# other programs, which the sanitizers do not see. So did the proof label, whose time is Z3's
# search (a library the sanitizers do not instrument); the mutants label still runs the proofs'
# counterexamples here, and rlc verify (unit) its obligations.
(cd build-asan &&
  ASAN_OPTIONS=detect_leaks=1 ctest -j"$jobs" --output-on-failure -LE "engines|proof" "$@")

if [ ${#RLC_CACHE_ARGS[@]} -gt 0 ]; then  # how much the compiler cache saved this run
  ccache --show-stats 2>/dev/null | grep -E "^ *(Hits|Misses):" | sed 's/^ */ccache: /' || true
fi
echo "test.sh: all passed in $(( $(date +%s) - start )) s"
