#!/usr/bin/env bash
# Shows that check_layering.sh can fail: each broken tree below must be rejected with the rule
# named, and a clean tree accepted.
set -u
checker="$(cd "$(dirname "$0")" && pwd)/check_layering.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

make_tree() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree/impl/dv" "$work/tree/model/graph" "$work/tree/proofs" "$work/tree/fuzz" "$work/tree/cli"
  printf '// Contract.\n#include "impl/base/status.h"\n' > "$work/tree/impl/dv/a.h"
  printf '// Contract.\n#include <vector>\n' > "$work/tree/model/graph/g.h"
}

expect() {  # expect <ok|fail> <pattern> <description>
  out=$("$checker" "$work/tree" 2>&1)
  code=$?
  if [ "$1" = ok ] && [ $code -ne 0 ]; then
    echo "FAIL: $3: clean tree rejected: $out"; failures=$((failures + 1))
  elif [ "$1" = fail ] && { [ $code -eq 0 ] || ! grep -q -- "$2" <<<"$out"; }; then
    echo "FAIL: $3: expected a rejection naming '$2', got ($code): $out"; failures=$((failures + 1))
  else
    echo "ok: $3"
  fi
}

make_tree; expect ok "" "a clean tree passes"
make_tree; printf '// C.\n#include "impl/dv/z85.h"\n' > "$work/tree/model/graph/bad.h"
expect fail "model/ must not include" "model/ including impl/"
make_tree; printf '// C.\n#include "cli/inspect.h"\n' > "$work/tree/impl/dv/bad.cc"
expect fail "impl/ must not include" "impl/ including cli/"
make_tree; mkdir -p "$work/tree/fuzz/oracle"; printf '#include "impl/delta/log.h"\n' > "$work/tree/fuzz/oracle/bad.cc"
expect fail "fuzz/oracle/ must not include impl/" "the oracle including impl/"
make_tree; printf '#include <parquet/arrow/reader.h>\n' > "$work/tree/cli/bad.cc"
expect fail "Arrow outside impl/parquet" "cli/ including Arrow"
make_tree; mkdir -p "$work/tree/impl/parquet"; printf '// C.\n#include <arrow/api.h>\n' > "$work/tree/impl/parquet/bad.h"
expect fail "Arrow outside impl/parquet" "an impl/parquet/ header including Arrow"
make_tree; mkdir -p "$work/tree/impl/parquet"; printf '#include <arrow/api.h>\n' > "$work/tree/impl/parquet/rows.cc"
expect ok "" "impl/parquet/ sources including Arrow"
make_tree; printf '#include "impl/conflict/checker.h"\n' > "$work/tree/proofs/bad.cc"
expect fail "proofs/ may include only" "proofs/ including impl/conflict/"
make_tree; printf '#include "impl/kernel/remap.h"\n#include "impl/base/status.h"\n' > "$work/tree/proofs/ok.cc"
expect ok "" "proofs/ including impl/kernel/ and impl/base/"
make_tree; mkdir -p "$work/tree/impl/kernel"; printf '#include "impl/dv/row_bitmap.h"\n' > "$work/tree/impl/kernel/bad.h"
expect fail "impl/kernel/ may include only" "a kernel including impl/dv/"
make_tree; printf '#include <z3++.h>\n' > "$work/tree/fuzz/bad.cc"
expect fail "z3 outside proofs/" "Z3 outside proofs/"
make_tree; printf 'void F() { throw 1; }\n' > "$work/tree/impl/dv/bad.cc"
expect fail "throw in impl/" "a throw in impl/"
make_tree; printf '#pragma once\n// late comment\n' > "$work/tree/impl/dv/bad.h"
expect fail "contract comment" "a header without its contract comment"
make_tree; mkdir -p "$work/tree/tests/baseline"; printf '#include "impl/conflict/checker.h"\n' > "$work/tree/tests/baseline/bad.cc"
expect fail "tests/baseline/ must not include the checker" "the independent baseline including the checker"
make_tree; printf '// C.\n#include <CLI/CLI.hpp>\n' > "$work/tree/model/graph/bad.h"
expect fail "heavy header" "CLI11 in a model header"

[ $failures -eq 0 ] && echo "layering self-test: all cases behave" && exit 0
exit 1
