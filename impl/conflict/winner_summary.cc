#include "impl/conflict/winner_summary.h"

#include <system_error>
#include <thread>

#include "impl/base/cpus.h"
#include "impl/base/limits.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/file_key.h"

namespace rlc::conflict {

namespace {

// Moves the action into its place. A remove's path key is `*key` when given (taken on the
// thread that parsed it), else taken here.
void Take(delta::Action& a, WinnerSummary& w, const uint64_t* key = nullptr) {
  {
    if (auto* add = std::get_if<delta::AddFile>(&a)) {
      w.added_files.push_back(std::move(*add));
    } else if (auto* remove = std::get_if<delta::RemoveFile>(&a)) {
      w.removed_path_keys.push_back(key != nullptr ? *key : delta::PathKey(remove->path));
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

WinnerSummary::~WinnerSummary() {
  constexpr size_t kFreeInTwoMin = 20000;  // files of each kind; below this a thread costs more
  if (added_files.size() < kFreeInTwoMin || removed_files.size() < kFreeInTwoMin ||
      CpusAvailable() < 2)
    return;
  std::vector<delta::RemoveFile> removes = std::move(removed_files);
  try {
    std::thread free_removes([&removes] { std::vector<delta::RemoveFile>().swap(removes); });
    std::vector<delta::AddFile>().swap(added_files);
    free_removes.join();
  } catch (const std::system_error&) {
    // no thread to be had: `removes` is freed as it goes out of scope
  }
}

WinnerSummary SummarizeCommit(delta::Commit commit) {
  WinnerSummary w;
  w.version = commit.version;
  for (delta::Action& a : commit.actions) Take(a, w);
  return w;
}

namespace {

// One pass over the bytes, each action moved from the parser into its place. `*actions` (if
// set) counts them.
Result<WinnerSummary> SummarizeInOnePass(int64_t version, std::string_view bytes,
                                         std::string_view source, size_t* actions = nullptr) {
  WinnerSummary w;
  w.version = version;
  // Adds and removes reserved for as many as the commit has lines (pages never written are never
  // touched) and moved once, from the parser into their place.
  const auto reserve = [&](size_t lines) {
    w.added_files.reserve(lines);
    w.removed_files.reserve(lines);
    w.removed_path_keys.reserve(lines);
  };
  RLC_RETURN_IF_ERROR(
      delta::ForEachCommitAction(bytes, version, source, reserve, [&](delta::Action&& a) {
        Take(a, w);
        if (actions != nullptr) ++*actions;
        return Status::Ok();
      }));
  return w;
}

// The same summary from two halves of the bytes parsed at once, split after a newline: the
// later half on its own thread into a commit whose actions are then taken, in file order, after
// the first half's. Any error in either half returns nullopt, and the caller's one pass reports
// it as it always has (its line and byte in the whole file, the limits counted over all of it).
std::optional<WinnerSummary> SummarizeInTwoHalves(int64_t version, std::string_view bytes,
                                                  std::string_view source) {
  const size_t newline = bytes.find('\n', bytes.size() / 2);
  if (newline == std::string_view::npos || newline + 1 >= bytes.size()) return std::nullopt;
  const std::string_view first = bytes.substr(0, newline + 1);
  const std::string_view later = bytes.substr(newline + 1);
  Result<delta::Commit> later_commit = delta::Commit{};
  std::vector<uint64_t> later_keys;  // of the later half's removes, in order
  std::thread parse_later;
  try {
    parse_later = std::thread([&] {
      later_commit = delta::ParseCommit(later, version, source);
      if (!later_commit.ok()) return;
      for (const delta::Action& a : later_commit->actions) {  // while its paths are at hand
        if (const auto* remove = std::get_if<delta::RemoveFile>(&a))
          later_keys.push_back(delta::PathKey(remove->path));
      }
    });
  } catch (const std::system_error&) {
    return std::nullopt;  // no thread to be had: one pass it is
  }
  size_t first_actions = 0;
  Result<WinnerSummary> w = SummarizeInOnePass(version, first, source, &first_actions);
  parse_later.join();
  if (!w.ok() || !later_commit.ok()) return std::nullopt;
  std::vector<delta::Action>& actions = later_commit->actions;
  if (first_actions + actions.size() > kActionsPerCommitMax) return std::nullopt;
  // Room for exactly the later adds and removes (the first half's reserve often holds them: no
  // move of the first half's again).
  size_t adds = 0, removes = 0;
  for (const delta::Action& a : actions) {
    adds += std::holds_alternative<delta::AddFile>(a) ? 1 : 0;
    removes += std::holds_alternative<delta::RemoveFile>(a) ? 1 : 0;
  }
  w->added_files.reserve(w->added_files.size() + adds);
  w->removed_files.reserve(w->removed_files.size() + removes);
  w->removed_path_keys.reserve(w->removed_path_keys.size() + removes);
  const uint64_t* key = later_keys.data();
  for (delta::Action& a : actions)
    Take(a, *w, std::holds_alternative<delta::RemoveFile>(a) ? key++ : nullptr);
  return std::move(*w);
}

}  // namespace

Result<WinnerSummary> SummarizeWinnerInTwoHalves(int64_t version, std::string_view bytes,
                                                 std::string_view source) {
  if (std::optional<WinnerSummary> w = SummarizeInTwoHalves(version, bytes, source))
    return std::move(*w);
  return SummarizeInOnePass(version, bytes, source);
}

Result<WinnerSummary> SummarizeWinner(int64_t version, std::string_view bytes,
                                      std::string_view source) {
  // A large winner is the check's longest step: where a second CPU is free, its two halves are
  // parsed at once (bench/README.md). Below this size a thread is not worth starting.
  constexpr size_t kTwoHalvesBytesMin = size_t{4} << 20;
  if (bytes.size() >= kTwoHalvesBytesMin && CpusAvailable() >= 2)
    return SummarizeWinnerInTwoHalves(version, bytes, source);
  return SummarizeInOnePass(version, bytes, source);
}

}  // namespace rlc::conflict
