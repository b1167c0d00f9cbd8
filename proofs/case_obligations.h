// Obligations for the kernels beyond Case 2 and the single remap (dv_merge_obligations.h,
// remap_obligations.h): the tiling check, the capture gate, the H1 rule, Case 1's exact tier and
// 1b, Case 1's combination across reads, two successive winners on one source, and the reverse
// remap, and Case 3's conservation test. Each states its claim over the shipped kernel run on fresh
// Z3 inputs; each proof has a companion that must be refutable (its premise is satisfiable), so
// none holds vacuously. The rules: docs/cases.md (H1: docs/cases.md#h1),
// docs/decisions.md#composition-tags.
//
// Integer-only claims (tiling, capture) are unbounded: Z3 decides them over all integers. Claims
// over DVs are bounded by the universe printed in their statement.
//
// Thread-safety: as z3_domain.h.
#ifndef RLC_PROOFS_CASE_OBLIGATIONS_H_
#define RLC_PROOFS_CASE_OBLIGATIONS_H_

#include "proofs/obligation.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {

Obligation TilingCoversEachPositionOnce(const Z3Domain& d);
Obligation TilingPremiseSatisfiable(const Z3Domain& d);
Obligation CaptureTagsTileTheOutput(const Z3Domain& d);
Obligation CapturePremiseSatisfiable(const Z3Domain& d);
Obligation H1EveryTouchedSourceRemapped(const Z3Domain& d);
Obligation ExactTierKeepsEveryLiveMatch(const Z3Domain& d);
Obligation ExactTierPremiseSatisfiable(const Z3Domain& d);
Obligation OneBSeesEveryRemovedMatch(const Z3Domain& d);
Obligation OneBOutrightRemoveSeesEveryMatch(const Z3Domain& d);
Obligation OneBReAddShowsNoUnseenRow(const Z3Domain& d);
Obligation OneBPremiseSatisfiable(const Z3Domain& d);
Obligation SkippingKeepsAFileAnyReadMayMatch(const Z3Domain& d);
Obligation TwoWinnersComposeToOneRemap(const Z3Domain& d);
Obligation TwoWinnersPremiseSatisfiable(const Z3Domain& d);
Obligation ReverseRemapRequiresTheCompactionsRead(const Z3Domain& d);
Obligation Case3ConservationKeepsRowsAndBounds(const Z3Domain& d);
Obligation Case3PremiseSatisfiable(const Z3Domain& d);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_CASE_OBLIGATIONS_H_
