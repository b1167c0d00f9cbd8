#!/usr/bin/env bash
# Runs one libFuzzer target on a scratch copy of its seed corpus, with its .options (max_len,
# dict). The source corpus (fuzz/corpus/<name>) is never written; new inputs go to
# <build>/fuzz/campaign/<name>/corpus, crashes to <build>/fuzz/campaign/<name>/.
#
#   fuzz/run_campaign.sh <build-dir> <name> [libFuzzer flags...]
#   fuzz/run_campaign.sh build-fuzz commit_line -runs=1000000 -seed=1
#
# Set KEEP=1 to continue from an existing campaign corpus instead of starting from the seeds.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 <build-dir> <name> [libFuzzer flags...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
name=$2
shift 2
fuzz_dir=$(cd "$(dirname "$0")" && pwd)
binary=$build/fuzz/${name}_fuzzer
options=$fuzz_dir/targets/${name}_fuzzer.options
work=$build/fuzz/campaign/$name

max_len=$(sed -n 's/^max_len *= *//p' "$options")
flags=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
dict=$(sed -n 's/^dict *= *//p' "$options")
if [ -n "$dict" ]; then flags+=(-dict="$fuzz_dir/targets/$dict"); fi

if [ "${KEEP:-0}" != 1 ] || [ ! -d "$work/corpus" ]; then
  rm -rf "$work/corpus"
  mkdir -p "$work/corpus"
  cp -R "$fuzz_dir/corpus/$name/." "$work/corpus/"
fi
cd "$work"
exec "$binary" corpus -artifact_prefix="$work/" "${flags[@]}" "$@"
