#include "impl/conflict/checker.h"

#include <set>

#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/isolation_level.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/winner_summary.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"

namespace rlc::conflict {
namespace {

// The reconcile cases plug in here, per winner, before the file checks: they may rebase the
// loser and add the paths they resolved to the skip-list. None runs with every flag off.
std::optional<Abort> RunReconcileCases(const RuleContext&, PendingTransaction&, std::set<std::string>&,
                                       std::vector<Event>&) {
  return std::nullopt;
}

std::optional<Abort> CheckOneWinner(const RuleContext& context, PendingTransaction& loser,
                                    std::vector<Event>& events) {
  using Rule = std::optional<Abort> (*)(const RuleContext&);
  for (Rule rule : {CheckProtocol, CheckMetadata, CheckDomainMetadata, CheckAppIds}) {
    if (auto abort = rule(context)) return abort;
  }
  std::set<std::string> resolved;
  if (auto abort = RunReconcileCases(context, loser, resolved, events)) return abort;
  const RuleContext with_skip_list{loser, context.read_metadata, context.read_protocol, context.isolation,
                             context.winner, resolved, context.read_matcher};
  for (Rule rule : {CheckAddedFiles, CheckRemovedVsRead, CheckRemovedVsRemoved}) {
    if (auto abort = rule(with_skip_list)) return abort;
  }
  return std::nullopt;
}

}  // namespace

Result<Verdict> CheckConflicts(const PendingTransaction& loser, const ReadTable& read_table,
                               const std::vector<WinningCommit>& winners) {
  RLC_ASSIGN_OR_RETURN(IsolationLevel table_level, TableIsolationLevel(read_table.metadata));
  PendingTransaction current = loser;
  const IsolationLevel isolation = CommitIsolationLevel(table_level, loser);
  const ReadPredicateMatcher matcher(loser.read_predicates, read_table.metadata);
  Verdict verdict;
  verdict.checked_through_version = loser.read_version;
  int64_t expected_version = loser.read_version + 1;
  for (const WinningCommit& w : winners) {
    if (w.version != expected_version) {
      return Status::InvalidArgument("winning commits must be consecutive: expected version " +
                                     std::to_string(expected_version) + ", got " + std::to_string(w.version));
    }
    ++expected_version;
    RLC_ASSIGN_OR_RETURN(WinnerSummary winner, SummarizeWinner(w.version, w.bytes, w.source));
    const RuleContext context{current, read_table.metadata, read_table.protocol, isolation, winner, {}, matcher};
    verdict.checked_through_version = w.version;
    if (auto abort = CheckOneWinner(context, current, verdict.events)) {
      verdict.abort = std::move(abort);
      return verdict;
    }
  }
  verdict.actions = std::move(current.actions);
  return verdict;
}

Result<Verdict> CheckConflictsAgainstLog(const storage::Storage& storage, std::string_view table_root,
                                         const PendingTransaction& loser) {
  RLC_ASSIGN_OR_RETURN(delta::Snapshot snapshot, delta::ReplayLog(storage, table_root, loser.read_version));
  if (!snapshot.metadata.has_value() || !snapshot.protocol.has_value()) {
    return Status::Corrupt(delta::LogDir(table_root) + ": version " + std::to_string(loser.read_version) +
                           " has no metaData or protocol");
  }
  RLC_ASSIGN_OR_RETURN(delta::LogListing listing, delta::ListLog(storage, table_root));
  std::vector<WinningCommit> winners;
  for (int64_t v : listing.commit_versions) {
    if (v <= loser.read_version) continue;
    const std::string path = delta::LogDir(table_root) + "/" + delta::CommitFileName(v);
    RLC_ASSIGN_OR_RETURN(std::string bytes, storage.ReadFile(path));
    winners.push_back({v, std::move(bytes), path});
  }
  return CheckConflicts(loser, ReadTable{*snapshot.metadata, *snapshot.protocol}, winners);
}

}  // namespace rlc::conflict
