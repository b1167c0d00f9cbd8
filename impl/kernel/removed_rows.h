// Row-set decisions of Case 1's exact tier and of 1b, the delete/read refinement.
//
// Concern: what a winner's file does to the rows a loser's predicates select, in DV positions.
// `matching` is the set of physical row positions of one data file whose values satisfy the
// loser's read predicates (read by the caller; a row it cannot evaluate counts as matching). A DV
// is the set of positions it deletes.
//   - FileMayHoldMatchingRow: a live row (not in the DV) matches. Case 1's exact tier keeps an
//     added file exactly when this holds.
//   - ReAddShowsNoUnseenRow: a winner's add of the same path as its own remove (a DV update)
//     shows the loser no row it did not see: the new DV contains the DV the path had in the
//     loser's read snapshot and the one the winner removed. 1b then drops it from the append
//     check: rows the loser saw cannot be phantoms. Containing the removed DV alone is not
//     enough: the removed version may come from an earlier winner the loser never saw.
//   - RemovedRowsMayMatch: some row the winner removed from the file matches. The removed rows
//     are the ones live before (outside `pre_dv`) and not live after: in `post_dv` when the winner
//     re-added the path, every row when it removed the file outright. A post-image that revives a
//     row (post_dv not a superset of pre_dv) is outside what this reasoning covers: it counts as
//     a match (the reference's sum assumed the superset without checking, its G11 hazard:
//     docs/gaps.md#g11).
//     Decided per file; the checker never nets files against each other.
//
// Written over a ValueDomain (value_domain.h).
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_REMOVED_ROWS_H_
#define RLC_IMPL_KERNEL_REMOVED_ROWS_H_

#include <optional>
#include "impl/base/mutants.h"

#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueDomain D>
typename D::Bool FileMayHoldMatchingRow(const D& d, const typename D::Set& dv,
                                        const typename D::Set& matching) {
  if (RLC_MUTANT("exact-tier-deleted-rows")) return d.Not(d.IsEmpty(d.Intersect(matching, dv)));
  return d.Not(d.IsEmpty(d.Difference(matching, dv)));
}

template <ValueDomain D>
typename D::Bool ReAddShowsNoUnseenRow(const D& d, const typename D::Set& read_dv,
                                       const typename D::Set& pre_dv,
                                       const typename D::Set& post_dv) {
  return d.And(d.IsSubset(read_dv, post_dv), d.IsSubset(pre_dv, post_dv));
}

template <ValueDomain D>
typename D::Bool RemovedRowsMayMatch(const D& d, const typename D::Set& pre_dv,
                                     const std::optional<typename D::Set>& post_dv,
                                     const typename D::Set& matching) {
  if (!post_dv.has_value()) {
    if (RLC_MUTANT("1b-outright-remove-ignored")) return d.False();
    return d.Not(d.IsEmpty(d.Difference(matching, pre_dv)));
  }
  const typename D::Bool revives = d.Not(d.IsSubset(pre_dv, *post_dv));
  const typename D::Set newly_deleted = d.Difference(*post_dv, pre_dv);
  return d.Or(revives, d.Not(d.IsEmpty(d.Intersect(newly_deleted, matching))));
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_REMOVED_ROWS_H_
