// Case 1's statistics evaluator above its leaves (docs/formats.md#a2, docs/cases.md#c-1): the
// shipped combination rules of impl/kernel/truth_values.h (NOT, AND/OR, IS [NOT] NULL,
// comparison, IN), run on fresh symbolic answers of their parts and judged against one row's SQL
// truth value.
//
// Concern: the claims, and the companion that must fail. A row's value of a condition is True,
// False or Unknown (two Bools, never both). An answer `covers` a value when the value is one the
// answer says the condition may take: True => can_be_true, False => can_be_false, Unknown =>
// can_be_unknown. Each claim is one step of a structural induction over the predicate: if every
// part's answer covers the row's value of that part, the combination's answer covers the row's
// value of the whole. The leaves' answers are proved by stats_obligations.h (null facts, and the
// comparison kernel's `=`, which the IN items use), so a file the evaluator rules out holds no
// live row on which the predicate is True, whatever the predicate's shape.
//   case1.negation_keeps_every_row_value  (valid) NOT.
//   case1.connective_fold_keeps_every_row_value  (valid) AND and OR over any number of children,
//       by induction over the fold: an invariant relating the fold's state to the Kleene AND/OR
//       of the children so far holds at BeginConnective, is kept by StepConnective for any child
//       whose answer covers its value, and makes FinishConnective's answer cover the result.
//   case1.connective_runs_every_child  (valid) Connective itself (its loop) on three children,
//       AND and OR.
//   case1.null_test_keeps_every_row_value  (valid) IS NULL and IS NOT NULL from null facts that
//       cover the row (a NULL row => may_be_null; a value => may_be_non_null).
//   case1.comparison_keeps_every_row_value  (valid) `a OP b`: null facts of both sides, and a leaf
//       answer that covers the comparison of the two non-NULL values.
//   case1.in_list_fold_keeps_every_row_value  (valid) IN over any number of items, by induction
//       over the fold as for the connectives; each non-NULL item's facts cover the row (v = x =>
//       may_equal; all_equal => v = x, for a non-NULL v).
//   case1.in_list_runs_every_item  (valid) InList itself on three items, each NULL or not.
//   case1.truth_values_premise_satisfiable  (refutable) every premise above can hold while the
//       answers rule values out: an AND that cannot be True, an OR that cannot be False, an IN
//       that cannot be True, IS NULL that cannot be True.
// Unbounded: no rows or sets, every Bool; the direct runs are bounded by their child count.
//
// Thread-safety: builders touch only the domain's context.
#ifndef RLC_PROOFS_TRUTH_VALUE_OBLIGATIONS_H_
#define RLC_PROOFS_TRUTH_VALUE_OBLIGATIONS_H_

#include "proofs/obligation.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {

Obligation NegationKeepsEveryRowValue(const Z3Domain& d);
Obligation ConnectiveFoldKeepsEveryRowValue(const Z3Domain& d);
Obligation ConnectiveRunsEveryChild(const Z3Domain& d);
Obligation NullTestKeepsEveryRowValue(const Z3Domain& d);
Obligation ComparisonKeepsEveryRowValue(const Z3Domain& d);
Obligation InListFoldKeepsEveryRowValue(const Z3Domain& d);
Obligation InListRunsEveryItem(const Z3Domain& d);
Obligation TruthValuesPremiseSatisfiable(const Z3Domain& d);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_TRUTH_VALUE_OBLIGATIONS_H_
