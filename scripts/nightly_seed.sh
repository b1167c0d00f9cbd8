#!/usr/bin/env bash
# The nightly campaign's seed: NIGHTLY_SEED when set (to replay a night), else the UTC date of
# DATE (default: today) as YYYYMMDD, so that every night explores other histories and the seed
# says which night it was. Every shard of one night uses the same seed (shards split one seed's
# histories). Usage: scripts/nightly_seed.sh [DATE]
set -euo pipefail
if [ -n "${NIGHTLY_SEED:-}" ]; then
  case "$NIGHTLY_SEED" in
    *[!0-9]*) echo "NIGHTLY_SEED=$NIGHTLY_SEED: expected a whole number" >&2; exit 2 ;;
  esac
  echo "$NIGHTLY_SEED"
else
  date -u -d "${1:-now}" +%Y%m%d
fi
