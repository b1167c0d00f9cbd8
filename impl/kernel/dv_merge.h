// Case 2's decision for one file both sides changed by DV: may the two DVs be unioned?
// (docs/cases.md#c-2; flag rowLevelConcurrency.enabled.)
//
// Concern: `base` is the DV the loser read the file with, `winner` the DV the winner committed,
// `loser` the DV the loser wants to commit. The loser's new deletions are loser \ base, the
// winner's winner \ base. The merge is resolved when
//   1. no row is newly deleted by both (the reference's overlap test: a same-row conflict), and
//   2. both sides only added deletions to base (base within winner and within loser). The
//      reference does not check 2; a side that revives a row would make the union undo it.
// 1 and 2 together are exactly winner ∩ loser = base, which is how the kernel tests them.
// Then merged = winner ∪ loser, which equals the serial result in either order:
// winner ∪ (loser \ base) = loser ∪ (winner \ base). proofs/ proves this for the shipped text.
//
// Written over a ValueDomain (value_domain.h).
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_DV_MERGE_H_
#define RLC_IMPL_KERNEL_DV_MERGE_H_

#include "impl/base/mutants.h"
#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueDomain D>
struct DvMerge {
  typename D::Bool resolved;
  typename D::Set merged;  // meaningful when resolved
};

template <ValueDomain D>
DvMerge<D> MergeDeletionVectors(const D& d, const typename D::Set& base,
                                const typename D::Set& winner, const typename D::Set& loser) {
  // winner ∩ loser = base: base within both (2), and nothing else in both (1). Asked together
  // with the union, so a concrete domain merges the two DVs once (bench/dv_merge_bench.cc: at
  // 10^7 rows the intersection, the equality and the union as three calls cost twice the union).
  typename D::Set merged = d.EmptySet();
  const typename D::Bool resolved = d.UnionTestingMeet(winner, loser, base, merged);
  if (RLC_MUTANT("case2-no-overlap-test")) {
    return {d.And(d.IsSubset(base, winner), d.IsSubset(base, loser)), merged};
  }
  if (RLC_MUTANT("case2-loser-dv-only")) return {resolved, loser};
  if (RLC_MUTANT("case2-winner-dv-only")) return {resolved, winner};
  return {resolved, merged};
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_DV_MERGE_H_
