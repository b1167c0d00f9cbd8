// Case 1's statistics evaluator, at its leaves (docs/formats.md#a2, docs/cases.md#c-1): the
// shipped NullFactsFromCounts and CompareWithLiteral (impl/kernel/stats_leaf.h), run on fresh
// symbolic statistics, and judged against a row the statistics are true of.
//
// Concern: the claims, and the companions that must fail:
//   case1.null_facts_admit_every_live_row  (valid) a file of `rows` physical rows (0..rows-1),
//       a set `nulls` of those holding NULL, a DV `dv`; statistics that state numRecords = rows
//       and nullCount = |nulls| when present (either may be absent). If some live row (not in
//       dv) holds NULL, may_be_null; if some live row holds a value, may_be_non_null. Whatever
//       the DV deleted: nullCount counts physical rows, so wide bounds are covered too.
//   case1.null_facts_premise_satisfiable  (refutable) the facts can rule NULL out of a file with
//       live rows and a DV.
//   case1.leaf_admits_every_consistent_value  (valid) for each operator (=, <>, <, <=, >, >=), a
//       value v the bounds admit (lower <= v when there is a lower bound; v <= upper, or v
//       starting with upper when upper may be truncated, when there is an upper bound) and any
//       literal x: if v OP x then can_be_true, else can_be_false. Strings are modelled by their
//       order (values are integers to Z3): the strings starting with upper form the interval
//       [upper, prefix_end) just above it, which is exactly what the lexicographic order gives
//       (a string above upper that does not start with upper is above every string that does);
//       x starts with upper iff it lies in that interval. Unbounded: every integer.
//   case1.leaf_premise_satisfiable  (refutable) the leaf can rule `v >= x` out under a truncated
//       upper bound: the claim above is not vacuous where truncation matters.
// Not modelled: values ValueLe cannot compare (the kernel answers "may" for them by its
// construction, tested in impl/predicate); the widening of timestamp and float bounds, done
// before the kernel (column_domain.cc, tested there). The rules above the leaves are
// truth_value_obligations.h.
//
// Thread-safety: builders touch only the domain's context.
#ifndef RLC_PROOFS_STATS_OBLIGATIONS_H_
#define RLC_PROOFS_STATS_OBLIGATIONS_H_

#include "proofs/obligation.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {

Obligation NullFactsAdmitEveryLiveRow(const Z3Domain& d);
Obligation NullFactsPremiseSatisfiable(const Z3Domain& d);
Obligation LeafAdmitsEveryConsistentValue(const Z3Domain& d);
Obligation LeafPremiseSatisfiable(const Z3Domain& d);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_STATS_OBLIGATIONS_H_
