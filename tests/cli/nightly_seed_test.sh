#!/usr/bin/env bash
# The nightly workflow must not repeat one campaign every night: its seed comes from
# scripts/nightly_seed.sh (the date, or NIGHTLY_SEED to replay a night), reaches every verify
# shard, and no `--seed` in the workflow is a fixed number.
# Usage: nightly_seed_test.sh REPO_ROOT
set -euo pipefail
root=$1
seed="$root/scripts/nightly_seed.sh"
a=$(bash "$seed" 2026-12-01)
b=$(bash "$seed" 2026-12-02)
[ "$a" = 20261201 ] && [ "$b" = 20261202 ] || { echo "seeds for two nights: $a $b"; exit 1; }
[ "$(NIGHTLY_SEED=77 bash "$seed" 2026-12-01)" = 77 ] || { echo "NIGHTLY_SEED not honoured"; exit 1; }
if NIGHTLY_SEED=x7 bash "$seed" 2> /dev/null; then echo "a seed that is not a number accepted"; exit 1; fi
workflow="$root/.github/workflows/nightly.yml"
if grep -En -- '--seed [0-9]+' "$workflow"; then echo "a fixed seed in $workflow"; exit 1; fi
grep -q -- '--seed ${{ needs.seed.outputs.seed }}' "$workflow" || { echo "the shards do not get the night's seed"; exit 1; }
grep -q 'scripts/nightly_seed.sh' "$workflow" || { echo "the workflow does not pick its seed"; exit 1; }
echo "each night has its own seed; every shard gets it"
