#!/usr/bin/env bash
# Keeps the architecture's arrows true (docs/style.md#folder-layout): fails, naming file and line,
# when a folder includes what it must not, when a header lacks its contract comment, or when
# impl/ throws.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || exit 2
status=0
fail() { echo "layering: $*"; status=1; }

src() { find "$@" -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) 2>/dev/null; }

# impl/ depends on nothing of ours outside impl/, and never on Z3.
while IFS= read -r hit; do fail "impl/ must not include this: $hit"; done < <(
  src impl | xargs -r grep -nE '#include[[:space:]]*[<"](model|proofs|fuzz|cli|tests|bench)/|#include[[:space:]]*<z3' )
# model/ stands alone.
while IFS= read -r hit; do fail "model/ must not include this: $hit"; done < <(
  src model | xargs -r grep -nE '#include[[:space:]]*[<"](impl|proofs|fuzz|cli|tests|bench)/' )
# proofs/ and fuzz/ never depend on cli/.
while IFS= read -r hit; do fail "proofs/ and fuzz/ must not include cli/: $hit"; done < <(
  src proofs fuzz | xargs -r grep -nE '#include[[:space:]]*"cli/' )
# The independent baseline must not lean on the checker it is compared with
# (docs/decisions.md#independence).
while IFS= read -r hit; do fail "tests/baseline/ must not include the checker: $hit"; done < <(
  src tests/baseline | xargs -r grep -nE '#include[[:space:]]*"impl/(conflict|predicate)/' )
# The oracle is a second opinion: it reads tables and judges rows with code of its own.
while IFS= read -r hit; do fail "fuzz/oracle/ must not include impl/: $hit"; done < <(
  src fuzz/oracle | xargs -r grep -nE '#include[[:space:]]*"impl/' )
# The proofs see the kernels they prove and the base they stand on, nothing else of impl/ (their
# tests may replay a counterexample through the production domain).
while IFS= read -r hit; do fail "proofs/ may include only impl/kernel/ and impl/base/: $hit"; done < <(
  src proofs | grep -v '_test\.cc$' | xargs -r grep -nE '#include[[:space:]]*"impl/' | grep -vE '"impl/(kernel|base)/' )
# Kernels include the standard library, each other and the mutant switch alone.
while IFS= read -r hit; do fail "impl/kernel/ may include only std, impl/kernel/ and impl/base/mutants.h: $hit"; done < <(
  src impl/kernel | xargs -r grep -nE '#include[[:space:]]*"' | grep -vE '"impl/kernel/|"impl/base/mutants\.h"' )
# Z3 only in proofs/.
while IFS= read -r hit; do fail "z3 outside proofs/: $hit"; done < <(
  src impl model fuzz cli tests bench | xargs -r grep -nE '#include[[:space:]]*<z3' )
# Arrow and Parquet only in impl/parquet/, and never in its headers (docs/decisions.md#arrow);
# the oracle's own Parquet reader reads through Parquet C++ on a path of its own; the Parquet
# benchmark measures against Arrow itself.
while IFS= read -r hit; do fail "Arrow outside impl/parquet/*.cc: $hit"; done < <(
  src impl model proofs fuzz cli bench | grep -vE '^(impl/parquet/[^/]*|fuzz/oracle/reference_parquet|bench/parquet_[a-z_]*_bench)\.cc$' |
    xargs -r grep -nE '#include[[:space:]]*<(arrow|parquet)/' )
# Kernels are pure: no CRoaring, JSON or I/O headers under impl/kernel/.
while IFS= read -r hit; do fail "impl/kernel/ must stay free of libraries and I/O: $hit"; done < <(
  src impl/kernel | xargs -r grep -nE '#include[[:space:]]*<(roaring|simdjson|nlohmann|fstream|iostream|cstdio|filesystem)' )
# Heavy headers stay out of headers of impl/ and model/.
while IFS= read -r hit; do fail "heavy header in a widely included header: $hit"; done < <(
  find impl model -name '*.h' 2>/dev/null | xargs -r grep -nE '#include[[:space:]]*<(CLI/|rapidcheck|boost/graph/graphviz|nlohmann)' )
# No exceptions thrown across impl/.
while IFS= read -r hit; do fail "throw in impl/: $hit"; done < <(
  src impl | grep -v '_test\.cc$' | xargs -r grep -nE '(^|[^_[:alnum:]])throw[[:space:]]' )
# Every header opens with its contract comment.
while IFS= read -r header; do
  first=$(grep -m1 -vE '^[[:space:]]*$' "$header")
  case "$first" in
    //*) ;;
    *) fail "$header: the first lines must be the header's contract comment" ;;
  esac
done < <(find impl model proofs fuzz cli -name '*.h' 2>/dev/null)

if [ $status -eq 0 ]; then echo "layering: ok"; fi
exit $status
