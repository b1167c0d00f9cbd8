#include "impl/conflict/winner_summary.h"

#include "impl/delta/commit_parser.h"

namespace rlc::conflict {

namespace {

void Take(delta::Action& a, WinnerSummary& w) {
  {
    if (auto* add = std::get_if<delta::AddFile>(&a)) {
      w.added_files.push_back(std::move(*add));
    } else if (auto* remove = std::get_if<delta::RemoveFile>(&a)) {
      w.removed_files.push_back(std::move(*remove));
    } else if (const auto* protocol = std::get_if<delta::Protocol>(&a)) {
      w.protocol = *protocol;
    } else if (const auto* metadata = std::get_if<delta::Metadata>(&a)) {
      w.metadata = *metadata;
    } else if (const auto* txn = std::get_if<delta::Txn>(&a)) {
      w.app_transactions.push_back(*txn);
    } else if (const auto* domain = std::get_if<delta::DomainMetadata>(&a)) {
      w.domains.push_back(*domain);
    } else if (const auto* info = std::get_if<delta::CommitInfo>(&a)) {
      w.commit_info = *info;
      if (info->operation.has_value()) w.operation = *info->operation;
      w.is_blind_append = info->is_blind_append.value_or(false);
    }
  }
}

}  // namespace

WinnerSummary SummarizeCommit(delta::Commit commit) {
  WinnerSummary w;
  w.version = commit.version;
  for (delta::Action& a : commit.actions) Take(a, w);
  return w;
}

Result<WinnerSummary> SummarizeWinner(int64_t version, std::string_view bytes,
                                      std::string_view source) {
  WinnerSummary w;
  w.version = version;
  // Adds and removes reserved for as many as the commit has lines (pages never written are never
  // touched) and moved once, from the parser into their place.
  const auto reserve = [&](size_t lines) {
    w.added_files.reserve(lines);
    w.removed_files.reserve(lines);
  };
  RLC_RETURN_IF_ERROR(
      delta::ForEachCommitAction(bytes, version, source, reserve, [&](delta::Action&& a) {
        Take(a, w);
        return Status::Ok();
      }));
  return w;
}

}  // namespace rlc::conflict
