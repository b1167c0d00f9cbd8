// The case catalogue: one row per reconcile switch, the one list every layer derives from.
//
// Concern: what names a case to each layer: the flag key a transaction sets (Delta's spelling,
// docs/decisions.md#names), the field of Flags it switches, the event its reconcile reports,
// the mutants that break it (impl/base/mutants.h), the name prefixes of its proof obligations
// (proofs/) and the file-name prefix of its scenarios (tests/scenarios/cases). Flags' parsing and
// printing, "every flag on", the explorer's flag subsets and the scenario keyword `all` are
// generated from these rows; tests hold each row against the mutant list, the obligations and
// the scenario folder, so a row cannot name what does not exist. A case that rewrites the loser
// names its function here too; the checker runs those, per winner, in the catalogue's order
// (Case 2, 4a, 4b), before the file checks (docs/cases.md#phase-order).
//
// Order: a case's row number is its bit in a flag subset (Flags::Subset) and its place in a
// generated flag draw; append new cases, never reorder.
//
// Thread-safety: constant data.
#ifndef RLC_IMPL_CONFLICT_CASE_CATALOGUE_H_
#define RLC_IMPL_CONFLICT_CASE_CATALOGUE_H_

#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/conflict/flags.h"
#include "impl/conflict/verdict.h"

namespace rlc::conflict {

// The events the cases report (Delta's names, verbatim).
inline constexpr char kFilesSkippedEvent[] = "delta.conflictDetection.dataSkipping.filesSkipped";
inline constexpr char kDeletionVectorsMergedEvent[] =
    "delta.rowLevelConcurrency.deletionVectorsMerged";
inline constexpr char kRemappedEvent[] = "delta.optimize.conflictReconciliation.remapped";
inline constexpr char kReverseRemappedEvent[] =
    "delta.optimize.conflictReconciliation.reverseRemapped";

struct PendingTransaction;
struct RewriteInputs;
struct WinnerSummary;

// What a rewriting case did against one winner, which the checker applies in one place: the paths
// it reconciled (the winner's skip-list: the file checks leave them out) and the events it
// reports. The loser itself it rebased in place (its actions and read files); on doubt it changes
// nothing and resolves nothing.
struct CaseResolution {
  std::set<std::string> resolved;
  std::vector<Event> events;
};

using RewritingCase = CaseResolution (*)(const WinnerSummary& winner, RewriteInputs& in,
                                         PendingTransaction& loser);
CaseResolution ResolveRowLevelConflicts(const WinnerSummary& winner, RewriteInputs& in,
                                        PendingTransaction& loser);
CaseResolution ResolveOptimizeConflicts(const WinnerSummary& winner, RewriteInputs& in,
                                        PendingTransaction& loser);
CaseResolution ResolveReverseOptimizeConflicts(const WinnerSummary& winner, RewriteInputs& in,
                                               PendingTransaction& loser);

struct CaseEntry {
  std::string_view id;                        // "2", "3", "1", "1-exact", "4a", "4b"
  std::string_view title;                     // one line, for reports and --help
  std::string_view flag;                      // the short key (without kFlagPrefix)
  bool Flags::*member;                        // the switch in a transaction's Flags
  std::string_view event;                     // what its reconcile reports; empty: none
  std::span<const std::string_view> mutants;  // mutant names (impl/base/mutants.h)
  std::span<const std::string_view> proofs;   // obligation name prefixes (proofs/)
  std::string_view scenario_prefix;           // tests/scenarios/cases/<prefix>*.scenario
  RewritingCase rewrite;                      // nullptr: a case of the file checks (3, 1)
};

namespace catalogue_rows {
inline constexpr std::string_view kCase2Mutants[] = {"case2-no-overlap-test", "case2-loser-dv-only",
                                                     "case2-winner-dv-only", "case2-forgets-reads"};
inline constexpr std::string_view kCase3Mutants[] = {
    "case3-excludes-every-remove", "case3-reads-not-followed", "case3-trusts-counts"};
inline constexpr std::string_view kCase1Mutants[] = {
    "data-skipping-ge-off-by-one", "data-skipping-or-first-disjunct", "data-skipping-nulls-ignored",
    "data-skipping-partition-ignored"};
inline constexpr std::string_view kExactMutants[] = {
    "exact-tier-deleted-rows", "1b-outright-remove-ignored", "removed-stats-from-remove"};
inline constexpr std::string_view kCase4aMutants[] = {
    "remap-rank-off-by-one", "remap-ignores-compacted-dv",      "4a-drops-output-dv",
    "capture-records-plan",  "4a-rebuilt-tombstone-keeps-tags", "tags-trusted-beyond-tiling"};
inline constexpr std::string_view kCase4bMutants[] = {"4b-drops-deletes", "4b-no-h1"};

inline constexpr std::string_view kCase2Proofs[] = {"case2."};
inline constexpr std::string_view kCase3Proofs[] = {"case3."};
inline constexpr std::string_view kCase1Proofs[] = {"case1."};
inline constexpr std::string_view kExactProofs[] = {"case1.exact", "1b."};
inline constexpr std::string_view kCase4aProofs[] = {"4a.", "remap.", "capture.", "tiling."};
inline constexpr std::string_view kCase4bProofs[] = {"4b."};
}  // namespace catalogue_rows

inline constexpr CaseEntry kCases[] = {
    {"2", "Case 2: DML and DML on disjoint rows of one file (the two DVs unioned)",
     kRowLevelConcurrencyFlag, &Flags::row_level_concurrency, kDeletionVectorsMergedEvent,
     catalogue_rows::kCase2Mutants, catalogue_rows::kCase2Proofs, "case2_",
     &ResolveRowLevelConflicts},
    {"3", "Case 3: relocations (dataChange=false) left out of the append check",
     kExcludeNoDataChangeFlag, &Flags::exclude_no_data_change_files, "",
     catalogue_rows::kCase3Mutants, catalogue_rows::kCase3Proofs, "case3_", nullptr},
    {"1", "Case 1, statistics tier: the winner's added files filtered by the loser's reads",
     kDataSkippingFlag, &Flags::data_skipping, kFilesSkippedEvent, catalogue_rows::kCase1Mutants,
     catalogue_rows::kCase1Proofs, "case1_", nullptr},
    {"1-exact", "Case 1, exact tier and 1b: the same judged on rows, and removed files row by row",
     kValueExactFlag, &Flags::value_exact, kFilesSkippedEvent, catalogue_rows::kExactMutants,
     catalogue_rows::kExactProofs, "case1b_", nullptr},
    {"4a", "Case 4a: an OPTIMIZE losing to a DML remaps the DML's deletions forward",
     kOptimizeReconcileFlag, &Flags::optimize_reconcile, kRemappedEvent,
     catalogue_rows::kCase4aMutants, catalogue_rows::kCase4aProofs, "case4a_",
     &ResolveOptimizeConflicts},
    {"4b", "Case 4b: a DML losing to an OPTIMIZE remaps its deletions onto the output",
     kOptimizeReconcileReverseFlag, &Flags::optimize_reconcile_reverse, kReverseRemappedEvent,
     catalogue_rows::kCase4bMutants, catalogue_rows::kCase4bProofs, "case4b_",
     &ResolveReverseOptimizeConflicts},
};

// Mutants of the checker's own wiring, which belong to no single case.
inline constexpr std::string_view kCheckerMutants[] = {"winner-feature-passes",
                                                       "recheck-forgets-first-check"};

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_CASE_CATALOGUE_H_
