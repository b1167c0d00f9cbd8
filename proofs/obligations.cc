#include "proofs/obligations.h"

#include <utility>

#include "proofs/case_obligations.h"
#include "proofs/dv_merge_obligations.h"
#include "proofs/remap_obligations.h"
#include "proofs/stats_obligations.h"

namespace rlc::proofs {

const std::vector<RegisteredObligation>& AllObligations() {
  static const std::vector<RegisteredObligation> kAll = {
      {&Case2MergedIsSerial, kCase2Universe},
      {&Case2NoRowDeletedByBoth, kCase2Universe},
      {&Case2WithoutGuardMergedIsSerial, kCase2RefutationUniverse},
      {&Case2OverlapOnlyMergedIsSerial, kCase2RefutationUniverse},
      {&Case2NeverResolvesTwoAdditions, kCase2RefutationUniverse},
      {&RemapCarriesExactlyNewDeletions, kRemapUniverse, kLargeUniverseTimeoutMs},
      {&RemapWithoutGuardCarriesExactlyNewDeletions, kRemapRefutationUniverse},
      {&RemapNeverOkPastACompactedRow, kRemapRefutationUniverse},
      {&RemapStaysInsideItsRun, kRemapProbeUniverse, kLargeUniverseTimeoutMs},
      {&RemapIsInjective, kRemapProbeUniverse, kLargeUniverseTimeoutMs},
      {&RemapPreservesOrder, kRemapOrderUniverse},
      {&RemapProbePremiseSatisfiable, kRemapRefutationUniverse},
      {&RemapThreeSourcesShareOneOutput, kSharedOutputUniverse},
      {&RemapThreeSourcesPremiseSatisfiable, kSharedOutputUniverse},
      {&ReverseRemapRequiresTheCompactionsRead, kRemapUniverse},
      {&TwoWinnersComposeToOneRemap, kTwoWinnersUniverse, kLargeUniverseTimeoutMs},
      {&TwoWinnersPremiseSatisfiable, kRemapRefutationUniverse},
      {&H1EveryTouchedSourceRemapped, kSourcesUniverse},
      {&TilingCoversEachPositionOnce, kNoRows},
      {&TilingPremiseSatisfiable, kNoRows},
      {&CaptureTagsTileTheOutput, kNoRows},
      {&CapturePremiseSatisfiable, kNoRows},
      {&ExactTierKeepsEveryLiveMatch, kRowsUniverse},
      {&ExactTierPremiseSatisfiable, kRowsUniverse},
      {&OneBSeesEveryRemovedMatch, kRowsUniverse},
      {&OneBOutrightRemoveSeesEveryMatch, kRowsUniverse},
      {&OneBPremiseSatisfiable, kRowsUniverse},
      {&NullFactsAdmitEveryLiveRow, kNullsUniverse},
      {&NullFactsPremiseSatisfiable, kNullsUniverse},
      {&LeafAdmitsEveryConsistentValue, kNoRows},
      {&LeafPremiseSatisfiable, kNoRows},
      {&SkippingKeepsAFileAnyReadMayMatch, kNoRows},
      {&Case3ConservationKeepsRowsAndBounds, kNoRows},
      {&Case3PremiseSatisfiable, kNoRows},
  };
  return kAll;
}

ObligationRun RunObligation(const RegisteredObligation& entry) {
  z3::context context;
  const Z3Domain domain(context, entry.universe);
  const Obligation obligation = entry.build(domain);
  ProofResult result = Check(obligation, entry.timeout_ms);
  const bool met = MetExpectation(obligation, result);
  return {obligation.expectation, obligation.statement, std::move(result), met};
}

}  // namespace rlc::proofs
