#include "impl/conflict/winner_summary.h"

#include <exception>
#include <system_error>
#include <thread>

#include "impl/base/cpus.h"
#include "impl/base/limits.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/file_key.h"

namespace rlc::conflict {

namespace {

// A commitInfo as the summary takes it: the last one wins, and an operation it does not name
// leaves the one taken before.
void TakeCommitInfo(const delta::CommitInfo& info, WinnerSummary& w) {
  w.commit_info = info;
  if (info.operation.has_value()) w.operation = *info.operation;
  w.is_blind_append = info.is_blind_append.value_or(false);
}

// Moves the action into its place; a remove's path key is taken here, while the parse that
// just made the action has its path at hand.
void Take(delta::Action& a, WinnerSummary& w) {
  {
    if (auto* add = std::get_if<delta::AddFile>(&a)) {
      w.added_files.push_back(std::move(*add));
    } else if (auto* remove = std::get_if<delta::RemoveFile>(&a)) {
      w.removed_path_keys.push_back(delta::PathKey(remove->path));
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
      TakeCommitInfo(*info, w);
    }
  }
}

template <typename T>
void MoveAppend(std::vector<T>& from, std::vector<T>& to) {
  to.reserve(to.size() + from.size());  // exactly: the first half's reserve often holds it
  for (T& x : from) to.push_back(std::move(x));
  from.clear();  // moved-from: nothing left to free, so no thread to free it
}

// The summary of a commit's later lines appended to that of its first: as if each later action
// had been taken after the first's, in file order. `names_operation`: some later commitInfo
// named its operation (the last named one is the summary's, even where a later one names none).
void Append(WinnerSummary&& later, bool names_operation, WinnerSummary& w) {
  MoveAppend(later.added_files, w.added_files);
  MoveAppend(later.removed_files, w.removed_files);
  MoveAppend(later.removed_path_keys, w.removed_path_keys);
  MoveAppend(later.app_transactions, w.app_transactions);
  MoveAppend(later.domains, w.domains);
  if (later.protocol.has_value()) w.protocol = std::move(later.protocol);
  if (later.metadata.has_value()) w.metadata = std::move(later.metadata);
  if (later.commit_info.has_value()) {
    w.commit_info = std::move(later.commit_info);
    w.is_blind_append = later.is_blind_append;
  }
  if (names_operation) w.operation = std::move(later.operation);
  w.add_judgements.insert(w.add_judgements.end(), later.add_judgements.begin(),
                          later.add_judgements.end());
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

// What a pass saw besides its summary: what appending it to another needs.
struct PassFacts {
  size_t actions = 0;
  bool names_operation = false;  // some commitInfo named its operation
};

// A pass judges its adds in batches of this many: a batch (about 100 KB) is still in the cache when
// it is judged, and parse and judge each run a loop of their own. Judged one by one as parsed,
// the two evicted each other's code and branch history: no faster than judging after the parse.
constexpr size_t kJudgeBatch = 128;

// Judges the adds taken since the last batch.
void JudgeTheRest(AddJudge& judge, WinnerSummary& w) {
  for (size_t i = w.add_judgements.size(); i < w.added_files.size(); ++i)
    w.add_judgements.push_back(judge.Judge(w.added_files[i]));
}

// One pass over the bytes, each action moved from the parser into its place (its adds judged in
// batches where `make_judge` is set). `*facts` (if set) says what else it saw.
Result<WinnerSummary> SummarizeInOnePass(int64_t version, std::string_view bytes,
                                         std::string_view source, const AddJudgeMaker& make_judge,
                                         PassFacts* facts = nullptr) {
  WinnerSummary w;
  w.version = version;
  const std::unique_ptr<AddJudge> judge = make_judge ? make_judge() : nullptr;
  // Adds and removes reserved for as many as the commit has lines (pages never written are never
  // touched) and moved once, from the parser into their place.
  const auto reserve = [&](size_t lines) {
    w.added_files.reserve(lines);
    w.removed_files.reserve(lines);
    w.removed_path_keys.reserve(lines);
    if (judge != nullptr) w.add_judgements.reserve(lines);
  };
  RLC_RETURN_IF_ERROR(
      delta::ForEachCommitAction(bytes, version, source, reserve, [&](delta::Action&& a) {
        if (facts != nullptr) ++facts->actions;
        if (const auto* info = std::get_if<delta::CommitInfo>(&a)) {
          if (facts != nullptr && info->operation.has_value()) facts->names_operation = true;
          if (judge != nullptr) judge->Saw(*info);
        }
        Take(a, w);
        if (judge != nullptr && w.added_files.size() - w.add_judgements.size() >= kJudgeBatch)
          JudgeTheRest(*judge, w);
        return Status::Ok();
      }));
  if (judge != nullptr) JudgeTheRest(*judge, w);
  return w;
}

// The same summary from two halves of the bytes summarized at once, split after a newline: the
// later half on its own thread (taking its removes' path keys while their paths are at hand),
// then appended to the first's in file order. Any error in either half returns nullopt, and the
// caller's one pass reports it as it always has (its line and byte in the whole file, the limits
// counted over all of it).
std::optional<WinnerSummary> SummarizeInTwoHalves(int64_t version, std::string_view bytes,
                                                  std::string_view source,
                                                  const AddJudgeMaker& judge) {
  const size_t newline = bytes.find('\n', bytes.size() / 2);
  if (newline == std::string_view::npos || newline + 1 >= bytes.size()) return std::nullopt;
  const std::string_view first = bytes.substr(0, newline + 1);
  const std::string_view later = bytes.substr(newline + 1);
  Result<WinnerSummary> later_summary = WinnerSummary{};
  PassFacts later_facts;
  std::exception_ptr later_failed;
  std::thread summarize_later;
  try {
    summarize_later = std::thread([&] {
      try {
        later_summary = SummarizeInOnePass(version, later, source, judge, &later_facts);
      } catch (...) {
        later_failed = std::current_exception();  // rethrown below, as one pass would throw
      }
    });
  } catch (const std::system_error&) {
    return std::nullopt;  // no thread to be had: one pass it is
  }
  PassFacts first_facts;
  Result<WinnerSummary> w = WinnerSummary{};
  try {
    w = SummarizeInOnePass(version, first, source, judge, &first_facts);
  } catch (...) {
    summarize_later.join();  // never leave it running on the caller's bytes
    throw;
  }
  summarize_later.join();
  if (later_failed) std::rethrow_exception(later_failed);
  if (!w.ok() || !later_summary.ok()) return std::nullopt;
  if (first_facts.actions + later_facts.actions > kActionsPerCommitMax) return std::nullopt;
  Append(std::move(*later_summary), later_facts.names_operation, *w);
  return std::move(*w);
}

}  // namespace

Result<WinnerSummary> SummarizeWinnerInTwoHalves(int64_t version, std::string_view bytes,
                                                 std::string_view source,
                                                 const AddJudgeMaker& judge) {
  if (std::optional<WinnerSummary> w = SummarizeInTwoHalves(version, bytes, source, judge))
    return std::move(*w);
  return SummarizeInOnePass(version, bytes, source, judge);
}

Result<WinnerSummary> SummarizeWinner(int64_t version, std::string_view bytes,
                                      std::string_view source, const AddJudgeMaker& judge) {
  // A large winner is the check's longest step: where a second CPU is free, its two halves are
  // parsed at once (bench/README.md). Below this size a thread is not worth starting.
  constexpr size_t kTwoHalvesBytesMin = size_t{4} << 20;
  if (bytes.size() >= kTwoHalvesBytesMin && CpusAvailable() >= 2)
    return SummarizeWinnerInTwoHalves(version, bytes, source, judge);
  return SummarizeInOnePass(version, bytes, source, judge);
}

}  // namespace rlc::conflict
