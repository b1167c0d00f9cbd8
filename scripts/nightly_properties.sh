#!/usr/bin/env bash
# The nightly run of the property tests that hold rlc's readings of Delta's types together: the
# tier-agreement properties (tests/property/tier_agreement_property_test.cc) at 100 times CI's
# count, on the night's seed (scripts/nightly_seed.sh), so that every night draws other tables.
# A failure prints rapidcheck's RC_PARAMS="reproduce=..." line to replay it.
# Usage: scripts/nightly_properties.sh [BUILD_DIR]   (default: build; needs rlc_property_tests)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
seed=$(bash "$here/nightly_seed.sh")
binary="$build/tests/rlc_property_tests"
if [ ! -x "$binary" ]; then
  echo "$binary: not built (ninja -C $build rlc_property_tests)" >&2
  exit 2
fi
echo "tier agreement: seed $seed, 20000 tables per property"
RC_PARAMS="seed=$seed max_success=20000" "$binary" --gtest_filter='TierAgreementProperty.*'
