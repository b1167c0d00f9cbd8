#include "proofs/obligations.h"

#include <string>
#include <utility>

#include "proofs/case_obligations.h"
#include "proofs/dv_merge_obligations.h"
#include "proofs/remap_obligations.h"
#include "proofs/stats_obligations.h"
#include "proofs/truth_value_obligations.h"

namespace rlc::proofs {

const std::vector<RegisteredObligation>& AllObligations() {
  static const std::vector<RegisteredObligation> kAll = {
      {&Case2MergedIsSerial, kCase2Universe},
      {&Case2NoRowDeletedByBoth, kCase2Universe},
      {&Case2WithoutGuardMergedIsSerial, kCase2RefutationUniverse},
      {&Case2OverlapOnlyMergedIsSerial, kCase2RefutationUniverse},
      {&Case2NeverResolvesTwoAdditions, kCase2RefutationUniverse},
      {&RemapCarriesExactlyNewDeletions, kRemapUniverse, kLargeUniverseTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&RemapWithoutGuardCarriesExactlyNewDeletions, kRemapRefutationUniverse, kSolverTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&RemapNeverOkPastACompactedRow, kRemapRefutationUniverse, kSolverTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&RemapStaysInsideItsRun, kRemapProbeUniverse, kLargeUniverseTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&RemapIsInjective, kRemapProbeUniverse, kLargeUniverseTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&RemapPreservesOrder, kRemapOrderUniverse, kLargeUniverseTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&RemapProbePremiseSatisfiable, kRemapRefutationUniverse, kSolverTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&RemapThreeSourcesShareOneOutput, kSharedOutputUniverse, kLargeUniverseTimeoutMs,
       Layout::kThreeSourcesEveryOutputRow},
      {&RemapThreeSourcesCompositionPremiseSatisfiable, kSharedOutputUniverse, kSolverTimeoutMs,
       Layout::kThreeSourcesEveryOutputRow},
      {&RemapThreeSourcesDirect, kSharedOutputDirectUniverse, kLargeUniverseTimeoutMs,
       Layout::kThreeSourcesEveryOutputRow},
      {&RemapThreeSourcesPremiseSatisfiable, kSharedOutputDirectUniverse, kSolverTimeoutMs,
       Layout::kThreeSourcesEveryOutputRow},
      {&ReverseRemapRequiresTheCompactionsRead, kRemapUniverse, kSolverTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&TwoWinnersComposeToOneRemap, kTwoWinnersUniverse, kLargeUniverseTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&TwoWinnersPremiseSatisfiable, kRemapRefutationUniverse, kSolverTimeoutMs,
       Layout::kSourceRowsEveryOutputRow},
      {&H1EveryTouchedSourceRemapped, kSourcesUniverse},
      {&TilingCoversEachPositionOnce, kNoRows},
      {&TilingPremiseSatisfiable, kNoRows},
      {&CaptureTagsTileTheOutput, kNoRows},
      {&CapturePremiseSatisfiable, kNoRows},
      {&ExactTierKeepsEveryLiveMatch, kRowsUniverse},
      {&ExactTierPremiseSatisfiable, kRowsUniverse},
      {&OneBSeesEveryRemovedMatch, kRowsUniverse},
      {&OneBOutrightRemoveSeesEveryMatch, kRowsUniverse},
      {&OneBReAddShowsNoUnseenRow, kRowsUniverse},
      {&OneBPremiseSatisfiable, kRowsUniverse},
      {&NullFactsAdmitEveryLiveRow, kNullsUniverse},
      {&NullFactsPremiseSatisfiable, kNullsUniverse},
      {&LeafAdmitsEveryConsistentValue, kNoRows},
      {&LeafPremiseSatisfiable, kNoRows},
      {&NegationKeepsEveryRowValue, kNoRows},
      {&ConnectiveFoldKeepsEveryRowValue, kNoRows},
      {&ConnectiveRunsEveryChild, kNoRows, kSolverTimeoutMs, Layout::kChildren},
      {&NullTestKeepsEveryRowValue, kNoRows},
      {&ComparisonKeepsEveryRowValue, kNoRows},
      {&InListFoldKeepsEveryRowValue, kNoRows},
      {&InListRunsEveryItem, kNoRows, kSolverTimeoutMs, Layout::kChildren},
      {&TruthValuesPremiseSatisfiable, kNoRows},
      {&SkippingKeepsAFileAnyReadMayMatch, kNoRows},
      {&Case3ConservationKeepsRowsAndBounds, kNoRows},
      {&Case3PremiseSatisfiable, kNoRows},
  };
  return kAll;
}

std::string BoundText(int universe, Layout layout) {
  const std::string rows = "rows 0.." + std::to_string(universe - 1);
  switch (layout) {
    case Layout::kRows:
      return universe == kNoRows ? "unbounded" : rows;
    case Layout::kSourceRowsEveryOutputRow:
      return "source " + rows + ", every output row";
    case Layout::kThreeSourcesEveryOutputRow:
      return "3 sources x " + rows + ", every output row";
    case Layout::kChildren:
      return "3 children or items";
  }
  return rows;
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
