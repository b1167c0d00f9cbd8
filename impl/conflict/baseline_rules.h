// Delta's baseline conflict rules (docs/baseline.md#b3), one function per check, each returning
// the abort it finds or nothing.
//
// Concern: the rules alone, path-keyed as in Delta (files are compared by URL-decoded path, not
// by DV). The file checks take the winner's files they must consider: the driver (checker.cc)
// passes the winner's adds and removes minus what the reconcile cases resolved or left out
// (docs/decisions.md#phase-order); with every flag off these are all of them. Choices
// where the reference leaves a gap, all on the side of aborting:
//   - metadata: any winner metaData action aborts (the strict rule 2a; Delta's allow-list resolver
//     is not reproduced);
//   - a non-blind loser that recorded no read predicate is treated as having read every
//     partition (Delta's guard: it must still conflict with every add);
//   - protocol: besides Delta's check 1, a winner whose protocol needs a writer feature the
//     loser's writer does not support aborts it (DeltaUnsupportedTableFeatureException: Delta's
//     client refuses to write a protocol it does not support). Supported: the writer features of
//     the protocol the loser read, those it declares (PendingTransaction::writer_features), and
//     the features no concurrent data commit must honour (kCommitNeutralWriterFeatures). A
//     feature such as rowTracking (every add needs a baseRowId) is none of these.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_CONFLICT_BASELINE_RULES_H_
#define RLC_IMPL_CONFLICT_BASELINE_RULES_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/conflict/isolation_level.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/verdict.h"
#include "impl/conflict/winner_summary.h"
#include "impl/delta/file_key.h"

namespace rlc::conflict {

struct RuleContext {
  const PendingTransaction& loser;
  const delta::Metadata& read_metadata;
  const delta::Protocol& read_protocol;
  IsolationLevel isolation;  // the loser's commit level
  const WinnerSummary& winner;
  const ReadPredicateMatcher& read_matcher;
};

using AddList = std::vector<const delta::AddFile*>;
using RemoveList = std::vector<const delta::RemoveFile*>;

// Writer features whose requirements concern only actions a concurrent data commit never writes
// (checkpoints, vacuum, type changes that need a metadata change anyway): a winner that adds one
// leaves the loser's commit valid as it is.
inline constexpr std::string_view kCommitNeutralWriterFeatures[] = {
    "deletionVectors", "v2Checkpoint", "vacuumProtocolCheck",  "checkpointProtection",
    "timestampNtz",    "typeWidening", "typeWidening-preview", "domainMetadata"};

// The writer features a protocol requires: its writerFeatures at writer version 7; before that,
// the features its legacy minWriterVersion stands for (2: appendOnly, invariants; 3: +
// checkConstraints; 4: + changeDataFeed, generatedColumns; 5: + columnMapping; 6: +
// identityColumns).
std::set<std::string> RequiredWriterFeatures(const delta::Protocol& protocol);

std::optional<Abort> CheckProtocol(const RuleContext& c);
std::optional<Abort> CheckMetadata(const RuleContext& c);
std::optional<Abort> CheckDomainMetadata(const RuleContext& c);
std::optional<Abort> CheckAppIds(const RuleContext& c);

// Check 5, first half (B1, B2, B4.1): does the loser's isolation level make it look at the
// winner's adds at all?
bool AddedFilesMatter(const RuleContext& c);
// Check 5, second half (B4.2-3): the first of `adds` that the loser's read should have seen.
// `every_partition`: judge each add as if the loser read every partition (a MERGE's scan, see
// checker.cc), not by its read predicates' partition values.
std::optional<Abort> FirstConflictingAdd(const RuleContext& c, const AddList& adds,
                                         bool every_partition = false);
// Check 5 whole.
std::optional<Abort> CheckAddedFiles(const RuleContext& c, const AddList& adds);

// Check 6a's overlap: the removes whose path the loser read, in order.
RemoveList RemovesOfReadFiles(const RuleContext& c, const RemoveList& removes);
// The abort check 6a raises for one remove of a read file.
Abort RemovedReadFileAbort(const RuleContext& c, const delta::RemoveFile& remove);
// Check 6b: removes exist and the loser read the whole table.
std::optional<Abort> CheckWholeTableRead(const RuleContext& c, const RemoveList& removes);
// Check 6 whole: 6a on the first overlapping remove, then 6b.
std::optional<Abort> CheckRemovedVsRead(const RuleContext& c, const RemoveList& removes);
// Check 7.
std::optional<Abort> CheckRemovedVsRemoved(const RuleContext& c, const RemoveList& removes);

// An abort by the winner of `c`: its version, operation and commitInfo as Delta prints them.
Abort MakeAbort(const RuleContext& c, ConflictKind kind, std::string reason);
// "[col=value,...]" for a partitioned table, nullopt otherwise.
std::optional<std::string> PartitionHint(const delta::StringMap& partition_values);
// A file's identity (impl/delta/file_key.h), used unqualified throughout the checker.
using delta::DecodedPath;
using delta::HasEscape;
using delta::SameDv;

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_BASELINE_RULES_H_
