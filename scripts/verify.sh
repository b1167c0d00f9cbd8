#!/usr/bin/env bash
# Builds rlc and runs the main job, `rlc verify`, writing its output under out/verify.
# Usage: bash scripts/verify.sh [extra rlc verify arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build rlc
out=out/verify-$(date +%Y%m%d-%H%M%S)
exec ./build/cli/rlc verify --out "$out" "$@"
