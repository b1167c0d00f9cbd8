// RewriteInputs: what the rewriting cases (2, 4a, 4b) share within one conflict check, and the
// helpers they use to rebuild actions.
//
// Concern: the read table (DVs must be writable on it: docs/cases.md#c0, the deletionVectors
// writer feature and delta.enableDeletionVectors=true), the DVs (dv_store.h), the clock for
// deletionTimestamp, and the state 4a keeps across winners (ForwardComposition): each compacted
// source's run and the DV the compaction read it with, taken from the composition tags the first
// time the source is met, so that a second winner on the same source maps through the same run.
//
// Thread-safety: one check, one thread.
#ifndef RLC_IMPL_CONFLICT_REWRITE_INPUTS_H_
#define RLC_IMPL_CONFLICT_REWRITE_INPUTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/conflict/dv_store.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/table_files.h"
#include "impl/conflict/table_view.h"
#include "impl/conflict/verdict.h"
#include "impl/delta/actions.h"
#include "impl/delta/file_key.h"
#include "impl/delta/file_table.h"
#include "impl/dv/row_bitmap.h"

namespace rlc::conflict {

// A compacted source as the compaction wrote it: positions [start, start + live) of `output`.
struct CompactedSource {
  std::string output;  // the output's decoded path
  int64_t start = 0;
  int64_t live = 0;
  dv::RowBitmap compacted;  // the DV the compaction read the source with
};

// 4a's memory of the loser's own composition: read once from its original tombstones (later
// winners rebuild them), kept for the whole check, every round of it included.
struct ForwardComposition {
  std::map<std::string, CompactedSource> sources;  // by decoded source path
  bool built = false;
};

struct RewriteInputs {
  const delta::Metadata& read_metadata;
  const delta::Protocol& read_protocol;
  DvStore& dvs;
  int64_t now_ms = 0;
  ForwardComposition& composition;
  // What the loser read, for the cases that must judge a winner's rows against it (Case 2).
  const ReadPredicateMatcher& matcher;
  const TableFiles* files;             // nullptr: no DVs, no rows
  const delta::FileTable& read_files;  // the read snapshot (decoded path -> add)
  const TableView& view;               // the table just before the winner
  DeclineLog* declines = nullptr;      // where the cases say why they left a file (may be nullptr)
};

bool DeletionVectorsWritable(const delta::Metadata& metadata, const delta::Protocol& protocol);

// "Remove from" an add (impl/delta/file_key.h), used unqualified by the cases.
using delta::RemoveFrom;

// The add with a new DV and statistics marked tightBounds=false; nullopt when its statistics do
// not parse (a rebuilt add must not carry bounds that claim to be tight) or give no numRecords
// (an add with a DV must: delta/commit_rules.h, rule 5).
std::optional<delta::AddFile> WithDeletionVector(const delta::AddFile& add,
                                                 const dv::DvDescriptor& dv);

// Drops every read file whose decoded path is in `paths`.
void DropReadFiles(const std::set<std::string>& paths, PendingTransaction& loser);

// Whether a commitInfo names a multi-dimensional clustering (a non-empty zOrderBy or clusterBy
// operation parameter): such a compaction never reconciles (docs/decisions.md#scope).
bool IsMultiDimensionalClustering(const std::optional<delta::CommitInfo>& commit_info);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_REWRITE_INPUTS_H_
