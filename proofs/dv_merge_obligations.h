// Case 2's obligations (docs/cases.md#c-2): the shipped MergeDeletionVectors
// (impl/kernel/dv_merge.h), run on fresh symbolic DVs base, winner and loser over one bounded
// universe of rows.
//
// Concern: the claims, and the variants that must fail:
//   case2.merged_is_serial            (valid) resolved => merged == winner ∪ (loser \ base)
//                                     and merged == loser ∪ (winner \ base): the union is what
//                                     either serial order commits.
//   case2.no_row_deleted_by_both      (valid) resolved => (winner \ base) ∩ (loser \ base) = ∅.
//                                     The DV equation above cannot see this conflict: when both
//                                     sides delete row r the union is still the serial DV, but
//                                     when both rewrote r (UPDATE, MERGE) each added a new image
//                                     of it, and serially the second would have rewritten the
//                                     first's image, not r. So it is a claim of its own.
//   case2.no_guard.merged_is_serial   (refutable) the same with resolved replaced by true: the
//                                     union alone is not serial, so the guard is what the proof
//                                     rests on.
//   case2.overlap_only.merged_is_serial  (refutable) the same under the reference's overlap test
//                                     alone (no row newly deleted by both): a side that revives a
//                                     row of base breaks it, which is why the kernel also checks
//                                     base ⊆ winner and base ⊆ loser.
//   case2.never_resolves_two_additions (refutable) resolved never holds when both sides added a
//                                     row: its counterexample is a witness that the premise of
//                                     the first claim is satisfiable by a real merge.
// Each builder uses the names base, winner and loser: build each obligation in its own context.
//
// Thread-safety: builders touch only the domain's context.
#ifndef RLC_PROOFS_DV_MERGE_OBLIGATIONS_H_
#define RLC_PROOFS_DV_MERGE_OBLIGATIONS_H_

#include "proofs/obligation.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {

Obligation Case2MergedIsSerial(const Z3Domain& d);
Obligation Case2NoRowDeletedByBoth(const Z3Domain& d);
Obligation Case2WithoutGuardMergedIsSerial(const Z3Domain& d);
Obligation Case2OverlapOnlyMergedIsSerial(const Z3Domain& d);
Obligation Case2NeverResolvesTwoAdditions(const Z3Domain& d);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_DV_MERGE_OBLIGATIONS_H_
