// Case 3's conservation test: do a commit's dataChange=false removes and adds hold the same rows?
//
// Concern: docs/decisions.md#case-3. The reference trusts dataChange=false alone; a writer
// that breaks the protocol (new rows under dataChange=false) would then be invisible to every
// loser's append check. Here a relocation counts as one only when it provably conserves:
//   1. every file's physical row count is known and its DV deletes at most that many rows;
//   2. the live rows removed equal the live rows added (sums over the commit: the bins of an
//      OPTIMIZE are not recorded, so rows are matched in total);
//   3. where statistics exist, each added file's min and max lie within the removed files'
//      bounds: some removed file's min is <= the added min, some removed file's max is >= the
//      added max. A column is checked when the added file has the bound and every removed file has
//      it too; otherwise that column says nothing (an unknown bound cannot refute).
// An empty relocation (nothing removed, nothing added) conserves trivially.
//
// Written over a ValueDomain (value_domain.h): the checker instantiates it with concrete values,
// the proofs with Z3 terms. C++ control flow depends only on which counts and bounds are present.
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_RELOCATION_H_
#define RLC_IMPL_KERNEL_RELOCATION_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueDomain D>
struct RelocatedFile {
  std::optional<typename D::Int> physical_rows;         // numRecords; nullopt: unknown
  typename D::Int deleted_rows;                         // the DV's cardinality (0 without a DV)
  std::map<std::string, typename D::Value> min_values;  // by column; absent: no statistic
  std::map<std::string, typename D::Value> max_values;
};

namespace internal {

// The sum of the files' live rows, with the per-file sanity of rule 1 folded into `sane`.
template <ValueDomain D>
typename D::Int LiveRows(const D& d, const std::vector<RelocatedFile<D>>& files,
                         typename D::Bool& sane) {
  typename D::Int total = d.Const(0);
  for (const RelocatedFile<D>& f : files) {
    sane = d.And(sane,
                 d.And(d.Le(d.Const(0), f.deleted_rows), d.Le(f.deleted_rows, *f.physical_rows)));
    total = d.Add(total, d.Sub(*f.physical_rows, f.deleted_rows));
  }
  return total;
}

// Rule 3 for one bound of one added file's column: some removed file's bound encloses it.
template <ValueDomain D>
typename D::Bool Enclosed(const D& d, const std::string& column, const typename D::Value& added,
                          bool is_min, const std::vector<RelocatedFile<D>>& removed) {
  typename D::Bool some = d.False();
  for (const RelocatedFile<D>& r : removed) {
    const auto& bounds = is_min ? r.min_values : r.max_values;
    auto it = bounds.find(column);
    if (it == bounds.end()) return d.True();  // a removed file without it: nothing to check
    some = d.Or(some, is_min ? d.ValueLe(it->second, added) : d.ValueLe(added, it->second));
  }
  return some;
}

}  // namespace internal

template <ValueDomain D>
typename D::Bool RelocationConservesRows(const D& d, const std::vector<RelocatedFile<D>>& removed,
                                         const std::vector<RelocatedFile<D>>& added) {
  for (const auto* side : {&removed, &added}) {
    for (const RelocatedFile<D>& f : *side) {
      if (!f.physical_rows.has_value()) return d.False();  // rule 1: unknown count
    }
  }
  typename D::Bool conserved = d.True();
  const typename D::Int removed_live = internal::LiveRows(d, removed, conserved);
  const typename D::Int added_live = internal::LiveRows(d, added, conserved);
  conserved = d.And(conserved, d.Eq(removed_live, added_live));
  for (const RelocatedFile<D>& a : added) {
    for (const auto& [column, value] : a.min_values) {
      conserved = d.And(conserved, internal::Enclosed(d, column, value, /*is_min=*/true, removed));
    }
    for (const auto& [column, value] : a.max_values) {
      conserved = d.And(conserved, internal::Enclosed(d, column, value, /*is_min=*/false, removed));
    }
  }
  return conserved;
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_RELOCATION_H_
