// Case 2, same-file DV merge (flag rowLevelConcurrency.enabled): a loser and a winner that both
// changed one file's DV commit together when they deleted different rows (docs/cases.md#c-2).
//
// Concern: find the shared files (the winner's DV updates, i.e. adds with a DV of a path it also
// removed, that the loser also removed and re-added with a DV), decide each with the kernel
// (kernel/dv_merge.h), and rebase the loser: its add gets the union as a new DV file, dataChange
// =true and tightBounds=false; its remove becomes "remove from" the winner's add (the file the
// loser now replaces). Resolved paths join the per-winner skip-list and stay among the loser's
// read files; the event delta.rowLevelConcurrency.deletionVectorsMerged carries
// {winningCommitVersion, resolvedPaths, winningOperation}.
// Beyond the reference, a file is also left unresolved when the winner's remove names another DV
// than the loser read (the two did not start from the same rows), when either side revived a
// row (the kernel's only-added guard), when the loser's DV update is written dataChange=false (a
// deletion passed off as a relocation), when the version both removed is not the one the check's
// view holds, and when a row the winner newly deleted may be one the loser read (the loser's
// read set stays as it was: the file is not dropped from it). A file whose DVs cannot be read or
// written stays unresolved on its own; the others still resolve. Nothing runs unless DVs are
// writable on the read table.
//
// Thread-safety: one check, one thread.
#ifndef RLC_IMPL_CONFLICT_ROW_LEVEL_CONCURRENCY_H_
#define RLC_IMPL_CONFLICT_ROW_LEVEL_CONCURRENCY_H_

#include <set>
#include <string>
#include <vector>

#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/rewrite_inputs.h"
#include "impl/conflict/verdict.h"
#include "impl/conflict/winner_summary.h"

namespace rlc::conflict {

// REQUIRES: the loser's rowLevelConcurrency flag is on.
// ResolveRowLevelConflicts: declared with the other rewriting cases,
// impl/conflict/case_catalogue.h.

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_ROW_LEVEL_CONCURRENCY_H_
