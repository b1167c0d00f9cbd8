// Case 3, no-data-change exclusion (flag conflictDetection.excludeNoDataChangeFiles.enabled):
// which of a winner's dataChange=false files leave the file checks.
//
// Concern: docs/cases.md#c-3 as docs/decisions.md#case-3 tightens it. The reference trusts
// dataChange=false; here a dataChange=false add leaves the added-files check only when
//   (a) its (path, DV uniqueId) was active in the loser's read snapshot and no earlier winner
//       removed it (a statistics-only re-add: the same rows), or
//   (b) the commit's dataChange=false adds and removes conserve live rows in every partition
//       (kernel/relocation.h per partition value: counts and, where statistics exist, bounds; a
//       "relocation" that moves rows into another partition changes what that partition holds).
// Otherwise it counts as changed data: a lone dataChange=false add of a new path conflicts. The
// winner's dataChange=false removes leave removed-vs-read (both the path overlap and the
// whole-table trigger) only for an append-only loser (no remove, no add carrying a DV), and,
// stricter than both references, only when (b) holds: a dataChange=false remove that drops live
// rows is a delete. Removed-vs-removed is unchanged. No event (as in the reference).
//
// A removed file's row count, bounds and partition come from its active version in the check's
// view (table_view.h), never from the remove alone; a DV's size from its descriptor's cardinality.
// Anything missing, unparsable or disagreeing makes (b) fail, which only costs the exclusion.
// Where the files' rows can be read (and their size is within valueExact.maxBytes), (b) also
// requires the live rows removed and added in each partition to be the same rows (as multisets of
// values): counts and bounds cannot tell a relocation from an UPDATE written as dataChange=false,
// rows can. Where they cannot be read, (b) trusts counts and bounds.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_CONFLICT_NO_DATA_CHANGE_H_
#define RLC_IMPL_CONFLICT_NO_DATA_CHANGE_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/table_files.h"
#include "impl/conflict/table_view.h"
#include "impl/conflict/verdict.h"
#include "impl/conflict/winner_summary.h"
#include "impl/delta/actions.h"
#include "impl/delta/file_table.h"

namespace rlc::conflict {

struct NoDataChangeExclusion {
  std::vector<bool> add_left_out;           // per winner.added_files index
  bool removes_left_out = false;            // the dataChange=false removes leave removed-vs-read
  bool conserved = false;                   // (b) held for the commit's relocation
  std::vector<std::string> relocated_from;  // the relocation's removed paths
  std::vector<std::string> relocated_to;    // its added paths (left out under (b))
};

struct NoDataChangeInputs {
  const PendingTransaction& loser;
  const delta::FileTable& read_files;  // the read snapshot, by decoded path
  const std::set<std::string>&
      removed_since_read;   // delta::Snapshot::LogicalKey of what earlier winners removed
  const TableView& view;    // the table just before the winner
  const TableFiles* files;  // rows and DVs; nullptr: counts and bounds only
  const delta::Metadata& read_metadata;
  DeclineLog* declines = nullptr;  // where Case 3 says why it counted a file (may be nullptr)
};

NoDataChangeExclusion ExcludeNoDataChangeFiles(const WinnerSummary& winner,
                                               const NoDataChangeInputs& in);

// After the loser passed a winner whose relocation left removed-vs-read: the rows the loser read
// in a relocated file now live in the relocation's outputs (which ones is not recorded), so every
// output joins the loser's read files when any source was read (or the whole table was). Without
// this, a later winner deleting a relocated row the loser read would meet no read file.
void FollowRelocatedReads(const NoDataChangeExclusion& exclusion, PendingTransaction& loser);

// No remove, and no add carrying a DV (docs/cases.md#c-3).
bool IsAppendOnly(const PendingTransaction& loser);

// The read snapshot's add for exactly this (decoded path, DV), or nullptr.
const delta::AddFile* ActiveAtRead(const delta::FileTable& read_files,
                                   const std::string& decoded_path,
                                   const std::optional<dv::DvDescriptor>& dv);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_NO_DATA_CHANGE_H_
