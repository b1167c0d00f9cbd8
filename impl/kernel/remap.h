// Case 4's remap: carry deletions made on a compacted source onto the compaction's output
// (docs/cases.md#c-4a, docs/cases.md#c-4b, docs/formats.md#d3; flags
// optimize.conflictReconciliation.enabled and .reverse.enabled).
//
// Concern: where a source's row landed. The compaction read the source with DV `compacted` and
// wrote its live rows, in physical order, contiguously at output positions
// [run.start, run.start + run.live). Source row i (not in `compacted`) therefore sits at
//   run.start + i - |{d in compacted : d < i}|            (its rank among the live rows).
// A remap carries the rows newly deleted on the source (after \ before) onto the output DV:
//   - Forward (4a, the compaction is the loser): before = the DV the winner replaced (the
//     compaction's own read DV for the first winner, the previous winner's DV for later ones: this
//     is how two successive winners compose), after = the winner's DV.
//   - Reverse (4b, the DML is the loser): before = the DV the loser read the source with, which
//     must equal `compacted` (rows deleted on one side only would otherwise be lost or revived),
//     after = the DV the loser wants to commit.
// Guards (any failure: ok is false and the caller reconciles nothing):
//   1. 0 <= start, 0 <= live, start + live <= output_rows (the output's numRecords), and
//      output_rows - 1 is a row index (<= row_index_max);
//   2. compacted within before within after: no row comes back;
//   3. every newly deleted row lies in the run: its rank is in [0, live). (It was live when the
//      compaction read it: guard 2 puts `compacted` inside `before`.)
// The loop visits only newly deleted rows, in ascending order, and ranks them with one cursor over
// `compacted`: a remap costs O(|compacted| + deleted rows * log), not O(rows).
//
// Also here, the H1 rule of 4b (docs/cases.md#h1): every compacted source the loser touched (by
// a remove or any add of its path) must be among those it remapped; sources are numbered by the
// caller.
//
// Written over a ValueDomain (value_domain.h).
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_REMAP_H_
#define RLC_IMPL_KERNEL_REMAP_H_

#include <cstdint>
#include "impl/base/mutants.h"

#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueDomain D>
struct SourceRun {
  typename D::Int start;  // rowOffsetInTarget
  typename D::Int live;   // sourceNumPhysicalRecords - |compacted|
};

// Adds the newly deleted rows to output_dv (in place); returns whether every guard held. When it
// returns false, output_dv may hold partial additions: the caller discards it.
template <ValueDomain D>
typename D::Bool RemapOntoOutput(const D& d, const SourceRun<D>& run,
                                 const typename D::Int& output_rows, int64_t row_index_max,
                                 const typename D::Set& compacted, const typename D::Set& before,
                                 const typename D::Set& after, typename D::Set& output_dv) {
  typename D::Bool ok = d.And(d.Le(d.Const(0), run.start), d.Le(d.Const(0), run.live));
  ok = d.And(ok, d.Le(d.Add(run.start, run.live), output_rows));
  ok = d.And(ok, d.Le(output_rows, d.Add(d.Const(row_index_max), d.Const(1))));
  ok = d.And(ok, d.IsSubset(compacted, before));
  // before ⊆ after, asked with the difference so that a concrete domain merges the two once.
  typename D::Set newly_deleted = d.EmptySet();
  ok = d.And(ok, d.DifferenceTestingSubset(after, before, newly_deleted));
  const auto compacted_below = d.Ranker(compacted);
  d.ForEachMember(newly_deleted, [&](const typename D::Int& row, const typename D::Bool& present) {
    typename D::Int rank = d.Sub(row, compacted_below.Below(row));
    if (RLC_MUTANT("remap-rank-off-by-one")) rank = d.Add(rank, d.Const(1));
    if (RLC_MUTANT("remap-ignores-compacted-dv")) rank = row;
    // A row in `compacted` cannot be newly deleted once compacted ⊆ before holds (proofs/ shows
    // the guard implies it), so only the run's bounds remain to check.
    const typename D::Bool lands = d.And(d.Le(d.Const(0), rank), d.Lt(rank, run.live));
    ok = d.And(ok, d.Implies(present, lands));
    d.InsertWhen(output_dv, d.Add(run.start, rank), d.And(present, d.And(lands, ok)));
  });
  return ok;
}

// 4b: the loser must have read the source exactly as the compaction did.
template <ValueDomain D>
typename D::Bool ReverseRemapOntoOutput(const D& d, const SourceRun<D>& run,
                                        const typename D::Int& output_rows, int64_t row_index_max,
                                        const typename D::Set& compacted,
                                        const typename D::Set& loser_read,
                                        const typename D::Set& loser_new,
                                        typename D::Set& output_dv) {
  const typename D::Bool same_read = d.IsSubset(loser_read, compacted);
  return d.And(same_read, RemapOntoOutput(d, run, output_rows, row_index_max, compacted, loser_read,
                                          loser_new, output_dv));
}

// H1 (4b): `touched` and `remapped` hold source numbers.
template <ValueDomain D>
typename D::Bool EveryTouchedSourceRemapped(const D& d, const typename D::Set& touched,
                                            const typename D::Set& remapped) {
  if (RLC_MUTANT("4b-no-h1")) return d.True();
  return d.IsSubset(touched, remapped);
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_REMAP_H_
