// The case catalogue: one row per reconcile switch, the one list every layer derives from.
//
// Concern: what names a case to each layer: the flag key a transaction sets (Delta's spelling,
// docs/decisions.md#names), its bit in Flags (CaseId), the event its reconcile reports,
// the mutants that break it (the one list of mutants: impl/base/mutants.h is only the switch),
// the name prefixes of its proof obligations
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

// A mutant (impl/base/mutants.h): a site reads RLC_MUTANT(name) in a mutants build.
struct MutantEntry {
  std::string_view name;
  std::string_view what;  // what it breaks
  bool in_kernel;         // it sits in impl/kernel/, where the proofs run it too
};

// The cases, in the catalogue's order: a case's value is its row in kCases and its bit in Flags.
enum class CaseId : uint8_t {
  kRowLevelConcurrency,       // Case 2
  kExcludeNoDataChange,       // Case 3
  kDataSkipping,              // Case 1, statistics tier
  kValueExact,                // Case 1, exact tier and 1b
  kOptimizeReconcile,         // Case 4a (and capture)
  kOptimizeReconcileReverse,  // Case 4b (and capture)
};

struct CaseEntry {
  CaseId case_id;                            // its switch in a transaction's Flags
  std::string_view id;                       // "2", "3", "1", "1-exact", "4a", "4b"
  std::string_view title;                    // one line, for reports and --help
  std::string_view flag;                     // the short key (without kFlagPrefix)
  std::string_view event;                    // what its reconcile reports; empty: none
  std::span<const MutantEntry> mutants;      // the deliberate bugs that break it
  std::span<const std::string_view> proofs;  // obligation name prefixes (proofs/)
  std::string_view scenario_prefix;          // tests/scenarios/cases/<prefix>*.scenario
  RewritingCase rewrite;                     // nullptr: a case of the file checks (3, 1)
};

namespace catalogue_rows {
inline constexpr MutantEntry kCase2Mutants[] = {
    {"case2-no-overlap-test", "Case 2: the DVs are unioned even when both deleted a row", true},
    {"case2-loser-dv-only", "Case 2: the merged DV is the loser's alone", true},
    {"case2-winner-dv-only", "Case 2: the merged DV is the winner's alone", true},
    {"case2-forgets-reads",
     "Case 2: a merged file leaves the loser's reads, its winner's new deletions never judged "
     "against them",
     false},
};
inline constexpr MutantEntry kCase3Mutants[] = {
    {"case3-excludes-every-remove",
     "Case 3: every remove of a winner leaves removed-vs-read, not only dataChange=false ones",
     false},
    {"case3-reads-not-followed",
     "Case 3: the loser's reads do not move onto a relocation's outputs", false},
    {"case3-trusts-counts",
     "Case 3: a relocation conserves on counts and bounds over the whole commit (no partition, no "
     "rows)",
     false},
    {"case3-readd-ignores-partition",
     "Case 3: a dataChange=false re-add of a file the loser read passes as statistics-only though "
     "its partition values move the file's rows",
     false},
    {"case3-move-keeps-its-old-partition",
     "Case 3: a dataChange=false re-add of an active path under other partition values, with no "
     "remove, takes no rows out of the partition the path held",
     false},
    {"case3-readd-checks-first-partition-column",
     "Case 3: a dataChange=false re-add is held to the read file's first partition value only, so "
     "a move between leaves of one `part` passes as statistics-only",
     false},
};
inline constexpr MutantEntry kCase1Mutants[] = {
    {"data-skipping-ge-off-by-one",
     "Case 1 statistics: `col >= x` ruled out for a file whose maximum is x", true},
    {"data-skipping-or-first-disjunct",
     "Case 1 statistics: an OR is judged by its first disjunct only", true},
    {"data-skipping-nulls-ignored",
     "Case 1 statistics: `col IS NULL` never holds, whatever nullCount says", true},
    {"data-skipping-partition-ignored",
     "Case 1 statistics: a predicate on the partition column rules every file out", false},
    {"collated-string-read-as-binary",
     "Case 1 rows: a UTF8_LCASE string column is read as a plain string, so its rows are compared "
     "by bytes ('V3' <> 'v3') where Spark compares them in lowercase",
     false},
    {"float-statistic-read-as-double",
     "Case 1 statistics: a float column's bound is read as the double of its digits (\"1.1\"), "
     "not as the float they name (1.100000023841858), so it falls short of the float's value",
     false},
    {"case1-skips-for-merge",
     "Case 1: a MERGE loser's adds are judged by its predicates alone, though it counts its "
     "matches over every row of the files it scans",
     false},
};
inline constexpr MutantEntry kExactMutants[] = {
    {"merge-scan-pruned-by-partition",
     "1b: once a case carries a MERGE loser whose conditions name a data column, the winner's "
     "new rows in other partitions still pass by partition, though its scan counted matches "
     "there",
     false},
    {"exact-tier-deleted-rows",
     "Case 1 exact tier: the DV's deleted rows are searched instead of the live ones", true},
    {"1b-outright-remove-ignored",
     "1b: a file the winner removed outright never holds a matching row", true},
    {"1b-readd-ignores-partition",
     "1b: a DV-update re-add under other partition values than the loser saw is taken to bring "
     "no new row (its rows moved partition)",
     false},
    {"removed-stats-from-remove",
     "1b, Case 2, Case 3: a removed file's statistics are the remover's own, not its active add's",
     false},
    {"partition-timestamp-read-as-utc",
     "Case 1 and its exact tier, 1b, Case 2: a timestamp partition value written without a zone "
     "(in the writer's session zone) is read as one instant, its wall clock taken as UTC",
     false},
};
inline constexpr MutantEntry kCase4aMutants[] = {
    {"remap-rank-off-by-one", "Case 4: a deleted row lands one position too far", true},
    {"remap-ignores-compacted-dv",
     "Case 4: the rank does not skip the rows the compaction read as deleted", true},
    {"4a-drops-output-dv",
     "4a: the OPTIMIZE commits without carrying the winner's deletions onto its output", false},
    {"capture-records-plan",
     "capture: the runs are recorded from the bin's plan, not from the rows the writer wrote",
     false},
    {"4a-rebuilt-tombstone-keeps-tags",
     "4a: a tombstone rebuilt from the winner's add keeps its composition tags", false},
    {"tags-trusted-beyond-tiling",
     "Case 4: composition tags that tile their output are trusted: counts and rows never checked",
     false},
};
inline constexpr MutantEntry kCase4bMutants[] = {
    {"4b-drops-deletes",
     "4b: the DML's deletions on compacted sources are dropped instead of remapped", false},
    {"4b-no-h1", "4b: a compacted source the DML touched but did not remap is let through", true},
};

inline constexpr std::string_view kCase2Proofs[] = {"case2."};
inline constexpr std::string_view kCase3Proofs[] = {"case3."};
inline constexpr std::string_view kCase1Proofs[] = {"case1."};
inline constexpr std::string_view kExactProofs[] = {"case1.exact", "1b."};
inline constexpr std::string_view kCase4aProofs[] = {"4a.", "remap.", "capture.", "tiling."};
inline constexpr std::string_view kCase4bProofs[] = {"4b."};
}  // namespace catalogue_rows

inline constexpr CaseEntry kCases[] = {
    {CaseId::kRowLevelConcurrency, "2",
     "Case 2: DML and DML on disjoint rows of one file (the two DVs unioned)",
     kRowLevelConcurrencyFlag, kDeletionVectorsMergedEvent, catalogue_rows::kCase2Mutants,
     catalogue_rows::kCase2Proofs, "case2_", &ResolveRowLevelConflicts},
    {CaseId::kExcludeNoDataChange, "3",
     "Case 3: relocations (dataChange=false) left out of the append check",
     kExcludeNoDataChangeFlag, "", catalogue_rows::kCase3Mutants, catalogue_rows::kCase3Proofs,
     "case3_", nullptr},
    {CaseId::kDataSkipping, "1",
     "Case 1, statistics tier: the winner's added files filtered by the loser's reads",
     kDataSkippingFlag, kFilesSkippedEvent, catalogue_rows::kCase1Mutants,
     catalogue_rows::kCase1Proofs, "case1_", nullptr},
    {CaseId::kValueExact, "1-exact",
     "Case 1, exact tier and 1b: the same judged on rows, and removed files row by row",
     kValueExactFlag, kFilesSkippedEvent, catalogue_rows::kExactMutants,
     catalogue_rows::kExactProofs, "case1b_", nullptr},
    {CaseId::kOptimizeReconcile, "4a",
     "Case 4a: an OPTIMIZE losing to a DML remaps the DML's deletions forward",
     kOptimizeReconcileFlag, kRemappedEvent, catalogue_rows::kCase4aMutants,
     catalogue_rows::kCase4aProofs, "case4a_", &ResolveOptimizeConflicts},
    {CaseId::kOptimizeReconcileReverse, "4b",
     "Case 4b: a DML losing to an OPTIMIZE remaps its deletions onto the output",
     kOptimizeReconcileReverseFlag, kReverseRemappedEvent, catalogue_rows::kCase4bMutants,
     catalogue_rows::kCase4bProofs, "case4b_", &ResolveReverseOptimizeConflicts},
};

// Mutants of the checker's own wiring, which belong to no single case.
inline constexpr MutantEntry kCheckerMutants[] = {
    {"winner-feature-passes",
     "protocol: a winner's writer feature the loser's writer does not support passes the check",
     false},
    {"recheck-forgets-first-check",
     "retry: a rebased loser that loses again is checked from the version checked, as a new read",
     false},
    {"moved-file-removal-passes",
     "a winner's re-add of a file the loser removes or read, under other partition values, "
     "passes: the loser's remove takes the moved rows out, or its read misses that they left",
     false},
    {"table-change-does-not-follow-an-append",
     "WriteSerializable: a winner that changes only the protocol, metadata, domains or an "
     "application's transaction is taken to have read nothing, so a passed blind append stays "
     "movable past it",
     false},
    {"blind-append-claim-with-re-add-passes",
     "WriteSerializable: a winner's isBlindAppend is taken although its commit re-adds a path "
     "the table holds or removes a file (the log refutes the claim)",
     false},
    {"check-judges-refused-commit",
     "one reading: a winner that log replay refuses (a path added twice, two active versions) is "
     "judged by the check instead of refused",
     false},
    {"passed-append-trusts-read-version",
     "WriteSerializable: a passed blind append stays movable past a later winner whose "
     "commitInfo.readVersion claims it read before the append",
     false},
    // With every flag off the explorer files its wrong rows as Delta's own (a baseline anomaly):
    // Delta Spark's verdict on those finds it (tests/engines/baseline_mutant_test.sh); the
    // explorer, through the cases that lean on the baseline's checks.
    {"baseline-forgets-read-files",
     "baseline: a winner's remove of a file the loser read is not judged (Delta: "
     "ConcurrentDeleteReadException)",
     false},
};

// Every mutant: each row's in the catalogue's order, then the checker's.
std::vector<MutantEntry> AllMutants();
// The mutant named `name`, or nullptr.
const MutantEntry* FindMutant(std::string_view name);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_CASE_CATALOGUE_H_
