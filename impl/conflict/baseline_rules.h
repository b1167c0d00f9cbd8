// Delta's baseline conflict rules (delta-rlc.md B3), one function per check, each returning the
// abort it finds or nothing.
//
// Concern: the rules alone, path-keyed as in Delta (files are compared by URL-decoded path, not
// by DV), each consulting the per-winner skip-list the reconcile cases fill. Choices where the
// reference leaves a gap, all on the side of aborting:
//   - metadata: any winner metaData action aborts (the strict rule 2a; Delta's allow-list resolver
//     is not reproduced);
//   - a non-blind loser that recorded no read predicate is treated as having read every
//     partition (Delta's guard: it must still conflict with every add).
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_CONFLICT_BASELINE_RULES_H_
#define RLC_IMPL_CONFLICT_BASELINE_RULES_H_

#include <optional>
#include <set>
#include <string>

#include "impl/conflict/isolation_level.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/verdict.h"
#include "impl/conflict/winner_summary.h"

namespace rlc::conflict {

struct RuleContext {
  const PendingTransaction& loser;
  const delta::Metadata& read_metadata;
  const delta::Protocol& read_protocol;
  IsolationLevel isolation;          // the loser's commit level
  const WinnerSummary& winner;
  const std::set<std::string>& resolved_paths;  // decoded paths the cases reconciled
  const ReadPredicateMatcher& read_matcher;
};

std::optional<Abort> CheckProtocol(const RuleContext& c);
std::optional<Abort> CheckMetadata(const RuleContext& c);
std::optional<Abort> CheckDomainMetadata(const RuleContext& c);
std::optional<Abort> CheckAppIds(const RuleContext& c);
std::optional<Abort> CheckAddedFiles(const RuleContext& c);
std::optional<Abort> CheckRemovedVsRead(const RuleContext& c);
std::optional<Abort> CheckRemovedVsRemoved(const RuleContext& c);

// "[col=value,...]" for a partitioned table, nullopt otherwise.
std::optional<std::string> PartitionHint(const delta::StringMap& partition_values);
// The path with %XX escapes decoded (the raw path when it does not decode).
std::string DecodedPath(const std::string& path);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_BASELINE_RULES_H_
