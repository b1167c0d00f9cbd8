// Case 4's remap obligations (docs/cases.md#c-4a, docs/cases.md#c-4b): the shipped RemapOntoOutput
// (impl/kernel/remap.h), run on fresh symbolic source DVs compacted, before and after (rows
// 0..universe-1), a fresh unbounded output DV, and fresh integers start, live and output_rows,
// with the production row_index_max.
//
// Concern: the claims, and the variants that must fail. Write new = after \ before and, for
// a source row i, pos(i) = start + i - |{d in compacted : d < i}| (the spec counts the rank
// itself, not through the domain's Rank, so a wrong Rank could not hide a wrong kernel). q is a
// free output row: a valid claim about q holds for every row.
//   remap.carries_exactly_new_deletions  (valid) ok =>
//       (1) every i in new lands in the run, start <= pos(i) < start + live, on a row index
//           (0 <= pos(i) <= kRowIndexMax: the unbounded output set would accept any integer),
//           and pos(i) is in the output DV;
//       (2) the output DV keeps its initial content at q and holds q only if it was initial or
//           pos(i) = q for some i in new.
//   remap.no_guard.carries_exactly_new_deletions  (refutable) the same with ok replaced by true.
//   remap.never_ok_past_a_compacted_row  (refutable) ok never holds with a new row whose rank
//       is positive: its counterexample is a witness that the premise is satisfiable by a remap
//       that actually shifts a row.
//   remap.stays_inside_its_run, remap.is_injective, remap.preserves_order  (valid) the kernel's
//       map itself, probed one row at a time: the kernel remaps after = Insert(before, x) onto an
//       empty output DV, for two rows x1, x2 with everything else shared; what the output holds
//       is where x landed. Every row an image holds lies inside the run; two distinct rows share
//       no row; x1 < x2 lands before x2. These state what (1) and (2) imply about the map,
//       directly on the kernel's output rather than through the spec's pos(i).
//   remap.probe_premise_satisfiable  (refutable) the probes' premise, with a shifted row.
//   4a.three_sources_share_one_output  (valid) three sources of universe rows each, their runs
//       passing RunsTileOutput, remapped in turn onto one output DV, each remap as (1) and (2)
//       state of the kernel (assumed at the rows the claim reads; carries_exactly proves them for
//       every initial DV and row): (1) for all three on the final DV, (2) at q, and no new rows
//       of two sources land on q.
//   4a.three_sources_composition_premise_satisfiable  (refutable) those assumptions, with tiled
//       runs and a new row in each source, can all hold.
//   4a.three_sources_direct  (valid) the same claim with the kernel run on all three sources.
//   4a.three_sources_premise_satisfiable  (refutable) the kernel's three remaps can succeed,
//       each with a new row.
// Counterexamples show an unbounded DV over its first rows (counterexample.h).
// Each builder uses fixed input names: build each obligation in its own context.
//
// Thread-safety: builders touch only the domain's context.
#ifndef RLC_PROOFS_REMAP_OBLIGATIONS_H_
#define RLC_PROOFS_REMAP_OBLIGATIONS_H_

#include "proofs/obligation.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {

Obligation RemapCarriesExactlyNewDeletions(const Z3Domain& d);
Obligation RemapWithoutGuardCarriesExactlyNewDeletions(const Z3Domain& d);
Obligation RemapNeverOkPastACompactedRow(const Z3Domain& d);
Obligation RemapStaysInsideItsRun(const Z3Domain& d);
Obligation RemapIsInjective(const Z3Domain& d);
Obligation RemapPreservesOrder(const Z3Domain& d);
Obligation RemapProbePremiseSatisfiable(const Z3Domain& d);
Obligation RemapThreeSourcesShareOneOutput(const Z3Domain& d);
Obligation RemapThreeSourcesCompositionPremiseSatisfiable(const Z3Domain& d);
Obligation RemapThreeSourcesDirect(const Z3Domain& d);
Obligation RemapThreeSourcesPremiseSatisfiable(const Z3Domain& d);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_REMAP_OBLIGATIONS_H_
