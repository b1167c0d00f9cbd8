// Case 4's remap obligations (delta-rlc.md C-4a, C-4b): the shipped RemapOntoOutput
// (impl/kernel/remap.h), run on fresh symbolic DVs compacted, before, after and output_dv and
// fresh integers start, live and output_rows.
//
// Concern: the claims, and the variants that must fail. Write new = after \ before and, for
// a source row i, pos(i) = start + i - |{d in compacted : d < i}| (the spec counts the rank
// itself, not through the domain's Rank, so a wrong Rank could not hide a wrong kernel).
//   remap.carries_exactly_new_deletions  (valid) ok =>
//       (1) every i in new lands in the run, start <= pos(i) < start + live, and pos(i) is in the
//           output DV;
//       (2) the output DV keeps its initial content and holds nothing else: every member is
//           initial or pos(i) of some i in new.
//   remap.no_guard.carries_exactly_new_deletions  (refutable) the same with ok replaced by true.
//   remap.never_ok_past_a_compacted_row  (refutable) ok never holds with a new row whose rank
//       is positive: its counterexample is a witness that the premise is satisfiable by a remap
//       that actually shifts a row.
//   remap.stays_inside_its_run, remap.is_injective, remap.preserves_order  (valid) the kernel's
//       map itself, probed one row at a time: the kernel remaps after = before + {x} onto an
//       empty output DV, for two rows x1, x2 with everything else shared; what the output holds
//       is where x landed. x is a one-row set for the first two, an integer for the order claim
//       (whichever Z3 answers faster). Each probe's row lands inside the run; two distinct rows never share
//       a position; x1 < x2 lands before x2. These state what (1) and (2) imply about the map,
//       directly on the kernel's output rather than through the spec's pos(i).
//   remap.probe_premise_satisfiable  (refutable) the probes' premise, with a shifted row.
//   4a.three_sources_share_one_output  (valid) three sources of universe/3 rows each, their runs
//       passing RunsTileOutput, remapped in turn by the kernel onto one output DV: (1) and (2)
//       for all three at once, and no new rows of two sources land on one position.
//   4a.three_sources_premise_satisfiable  (refutable) all three remaps can succeed, each with a
//       new row.
// Bound: one universe serves source rows and output rows (the domain has one), and the kernel is
// called with row_index_max = universe - 1, so its own guard output_rows <= row_index_max + 1
// keeps every position it inserts inside the universe; an insertion the domain dropped would
// break (1), so the bound cannot hide one.
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
Obligation RemapThreeSourcesPremiseSatisfiable(const Z3Domain& d);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_REMAP_OBLIGATIONS_H_
