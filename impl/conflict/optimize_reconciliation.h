// Case 4: reconcile an OPTIMIZE with a DML that deleted rows of the files it compacted, by carrying
// the deletions onto the compacted output through the composition the OPTIMIZE recorded on its
// tombstones (docs/cases.md#c-4a, docs/cases.md#c-4b, docs/formats.md#d and
// docs/decisions.md#composition-tags).
//
// Concern:
//   - CompactedSources: a compaction commit's sources whose composition tags parse, name an
//     output of the same commit, and tile that output (kernel/tiling.h: every source of the output
//     tagged, runs contiguous from 0, live rows summing to the output's numRecords). Tags are a
//     writer's claims: each source's sourceNumPhysicalRecords must equal the numRecords of the
//     version the table holds (table_view.h; a tombstone the table cannot vouch for breaks its
//     output), and where rows can be read, the output's rows at [start, start + live) must be the
//     source's live rows in order. Where rows cannot be read, counts that tile are trusted. An
//     output without numRecords, or any source of it untagged or refuted, leaves all its sources
//     out.
//   - ResolveOptimizeConflicts (4a, flag optimize.conflictReconciliation.enabled; the OPTIMIZE is
//     the loser): for each source the winner updated by DV, the rows it newly deleted are remapped
//     onto the output (kernel/remap.h). All shared sources must succeed, else nothing changes and
//     the file checks abort as Delta does. Then each changed output gets a new DV file and wide
//     statistics (dataChange stays false); each source's tombstone becomes "remove from" the
//     winner's add (dataChange=false), untagged, and so do the tags of every other source of the
//     same output (a half-tagged output must not reach the log). The runs are kept across
//     winners (RewriteInputs), so a second winner on the same source composes (the reference
//     aborts: G4, docs/gaps.md#g4). A winner whose DV adds no row to a source resolves it without
//     touching the output (the reference aborts: G16, docs/gaps.md#g16).
//     Event delta.optimize.conflictReconciliation.remapped {winningCommitVersion,
//     resolvedSources, outputsRemapped, winningOperation}.
//   - ResolveReverseOptimizeConflicts (4b, flag optimize.conflictReconciliation.reverse.enabled;
//     the OPTIMIZE is the winner): only a pure compaction (every remove tagged onto one of its
//     adds, every add an output, no add with dataChange=true, no ZORDER/CLUSTER BY, every output
//     tiled). The loser's DV updates of compacted sources are remapped onto the outputs; the loser
//     must have read each source with the very DV the OPTIMIZE compacted, and every compacted
//     source it touched must be remapped (H1, docs/cases.md#h1). Its actions then drop its adds
//     and removes of remapped sources and gain, per changed output, "remove from" the winner's
//     output (dataChange=true) and the output with the new DV (dataChange=true, wide
//     statistics). All compacted sources and all outputs join the skip-list; the sources leave
//     the read files. Event delta.optimize.conflictReconciliation.reverseRemapped
//     {winningCommitVersion, remappedSources, outputsRemapped, winningOperation}.
// A compaction named multi-dimensional (zOrderBy / clusterBy) never reconciles. Nothing runs
// unless DVs are writable on the read table. Any DV that cannot be read or written: no reconcile.
//
// Thread-safety: one check, one thread.
#ifndef RLC_IMPL_CONFLICT_OPTIMIZE_RECONCILIATION_H_
#define RLC_IMPL_CONFLICT_OPTIMIZE_RECONCILIATION_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/rewrite_inputs.h"
#include "impl/conflict/verdict.h"
#include "impl/conflict/winner_summary.h"

namespace rlc::conflict {

// What CompactedSources checks tags against.
struct CompositionInputs {
  DvStore& dvs;
  const TableView& view;    // the table the compaction read: its sources' active versions
  const TableFiles* files;  // rows, to verify each run where they can be read; nullptr: counts only
  const delta::Metadata& read_metadata;
};

// By decoded source path. `outputs`: the commit's adds by decoded path.
std::map<std::string, CompactedSource> CompactedSources(
    const std::vector<const delta::RemoveFile*>& removes,
    const std::map<std::string, const delta::AddFile*>& outputs, const CompositionInputs& in);

// REQUIRES: the loser's optimize.conflictReconciliation.enabled flag is on.
// ResolveOptimizeConflicts (4a): declared with the other rewriting cases,
// impl/conflict/case_catalogue.h.

// REQUIRES: the loser's optimize.conflictReconciliation.reverse.enabled flag is on.
// ResolveReverseOptimizeConflicts (4b): declared there too.

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_OPTIMIZE_RECONCILIATION_H_
