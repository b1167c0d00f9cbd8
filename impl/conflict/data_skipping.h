// Case 1, conflict-time data skipping, and 1b, the delete/read refinement: which of a winner's
// files provably hold no row the loser's reads select.
//
// Concern: docs/cases.md#c-1 and docs/cases.md#c-1b, with docs/decisions.md#case-1.
//   - SkipAddedFiles (flag conflictDetection.dataSkipping.enabled): the statistics tier keeps an
//     add unless its statistics prove that no read predicate matches (kernel/file_skipping.h:
//     whole-table read, no read predicate, an unbound predicate or missing statistics keep it);
//     then, with conflictDetection.dataSkipping.valueExact.enabled, the exact tier reads each
//     survivor's rows (DV applied) and drops the survivors with no live matching row
//     (kernel/removed_rows.h). Neither tier drops an add for a MERGE loser, which counts its
//     matches over every row of the files its scan keeps (docs/cases.md#c-1-merge). The exact
//     tier keeps every survivor when their total size exceeds valueExact.maxBytes (> 0), and
//     keeps a file it cannot read (no row reader, a DV that does not load, a row count that
//     disagrees with numRecords). Unlike the reference, survivors are
//     judged one by one (a match in one file does not keep the others). When any add is dropped,
//     the event delta.conflictDetection.dataSkipping.filesSkipped carries {candidateFiles,
//     skippedFiles}.
//   - 1b (both flags on), added-files arm: ReAddsWithoutNewRows marks the winner's adds of a path
//     it also removes whose DV contains the removed DV (a DV update: no row comes back) and the
//     DV the path had in the read snapshot (no row the loser did not see). The reference drops
//     every same-path re-add; a path an earlier winner added after the read (a blind append,
//     never checked under WriteSerializable) would carry that winner's rows past the check.
//   - 1b, removed-vs-read arm: FirstRemovedFileThatMayMatch judges each overlapping remove on its
//     own: no removed row matches when the pre-image's statistics prove no row of the file
//     matches, or when the rows read show no removed row matching (kernel/removed_rows.h). Files
//     are never netted against each other (gap G11: docs/gaps.md#g11). The pre-image is the
//     removed version as the check's view holds it (table_view.h): its statistics and partition
//     values, not the remove's; a remove the view cannot vouch for may match.
// Nothing here writes; every doubt answers "may match".
//
// The statistics tier judges each add on its own, so it can judge them as the winner is parsed
// (StatisticsJudge): there each add's statistics are still in the cache, and a large winner's two
// halves are parsed, and judged, on two threads. SkipAddedFiles takes those answers and judges
// only the adds the parse did not.
//
// Thread-safety: stateless functions; TableFiles is called from the calling thread. The judges
// StatisticsJudge makes share only the immutable matcher and loser, and one atomic flag.
#ifndef RLC_IMPL_CONFLICT_DATA_SKIPPING_H_
#define RLC_IMPL_CONFLICT_DATA_SKIPPING_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/table_files.h"
#include "impl/conflict/table_view.h"
#include "impl/conflict/verdict.h"
#include "impl/conflict/winner_summary.h"
#include "impl/delta/file_table.h"

namespace rlc::conflict {

struct SkippingInputs {
  const PendingTransaction& loser;
  const delta::Metadata& read_metadata;
  const ReadPredicateMatcher& matcher;
  const TableFiles* files;             // nullptr: no DVs, no rows
  const delta::FileTable& read_files;  // the read snapshot (decoded path -> add)
  const TableView& view;               // the table just before the winner
  DeclineLog* declines = nullptr;      // where the tiers say why they kept a file (may be nullptr)
};

// The statistics tier as SummarizeWinner's judge of a winner's adds (winner_summary.h); empty
// where the tier reads no statistics (the flag off, a MERGE loser, a whole-table read, no bound
// read predicate). `skip_blind_appends`: the check will not look at a blind append's adds, so no
// add is judged once a commitInfo says isBlindAppend (the tier judges them if asked after all).
// `in` must outlive the summary's making.
AddJudgeMaker StatisticsJudge(const SkippingInputs& in, bool skip_blind_appends);

// REQUIRES: the loser's dataSkipping flag is on; `candidates` are among winner.added_files, and
// winner.add_judgements (if any) were made by StatisticsJudge for this loser and matcher.
AddList SkipAddedFiles(const SkippingInputs& in, const WinnerSummary& winner,
                       const AddList& candidates, std::vector<Event>& events);

// Per winner add index: true for a same-path re-add that brings no row back.
std::vector<bool> ReAddsWithoutNewRows(const SkippingInputs& in, const WinnerSummary& winner);

// Whether 1b may judge the overlap at all: both flags on, the loser did not read the whole table
// and recorded at least one read predicate, every one bound.
bool DeleteReadRefinementApplies(const SkippingInputs& in);

// The first of `overlap` (the winner's removes of files the loser read) some of whose removed
// rows may match the loser's reads; nullptr when none may.
// REQUIRES: DeleteReadRefinementApplies(in).
const delta::RemoveFile* FirstRemovedFileThatMayMatch(const SkippingInputs& in,
                                                      const WinnerSummary& winner,
                                                      const RemoveList& overlap);

// Case 2's question before it merges a DV update of a file (row_level_concurrency.h): may some row
// the winner newly deleted there (in `winner_dv`, not in `base`) and the loser did not delete
// itself (not in `loser_dv`: a row both deleted is the DV-merge kernel's to refuse) be one the
// loser's reads selected? Then the loser read a row the winner deleted, and must abort as Delta's
// removed-vs-read check would. Answered like 1b's removed rows: no such row, or statistics of the
// pre-image (`pre_stats`, bounding every physical row) that no read predicate can match, or those
// rows read and none matching, say no; a whole-table read, a loser without bound read predicates,
// rows that cannot be read, say may. Needs neither Case 1 flag: the merge itself depends on it.
bool WinnerDeletedRowsMayMatch(const SkippingInputs& in, const std::string& path,
                               const dv::RowBitmap& base, const dv::RowBitmap& winner_dv,
                               const dv::RowBitmap& loser_dv,
                               const std::optional<delta::StatsJson>& pre_stats,
                               const delta::StringMap& partition_values);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_DATA_SKIPPING_H_
