// WinnerSummary: what the checker needs of one winning commit (docs/formats.md#a8), read from
// its log bytes.
//
// Concern: bytes -> the winner's operation, blind-append flag, adds and removes (in file order),
// and its protocol, metadata, app-id and domain actions. A missing operation reads "UNKNOWN"; a
// missing isBlindAppend counts as not blind.
//
// A caller may have each add judged as the parse takes it (AddJudge): the check's statistics tier
// reads an add's statistics there, while their bytes are still in the cache and, for a large
// winner, on both of the parse's threads; read later, each add is a cache miss.
//
// Thread-safety: plain value. Summarizing a large winner may start a thread of its own for the
// time of the call; each pass then runs a judge of its own.
#ifndef RLC_IMPL_CONFLICT_WINNER_SUMMARY_H_
#define RLC_IMPL_CONFLICT_WINNER_SUMMARY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/actions.h"

namespace rlc::conflict {

// What a judge said of one add.
enum class AddJudgement : uint8_t { kNotJudged, kKeep, kDrop };

// Judges the adds of one pass over a winner's bytes. The pass tells it of each commitInfo as the
// parse meets one, and asks about its adds in file order, in batches some adds after their parse.
class AddJudge {
 public:
  virtual ~AddJudge() = default;
  virtual void Saw(const delta::CommitInfo& info) = 0;
  // kNotJudged where it declines to judge the add.
  virtual AddJudgement Judge(const delta::AddFile& add) = 0;
};
// Makes one judge per pass. Two passes may run at once (a large winner's halves): the maker may be
// called, and its judges run, on two threads at once, so what they share must be safe for that.
using AddJudgeMaker = std::function<std::unique_ptr<AddJudge>()>;

struct WinnerSummary {
  WinnerSummary() = default;
  WinnerSummary(WinnerSummary&&) noexcept = default;
  WinnerSummary& operator=(WinnerSummary&&) noexcept = default;
  WinnerSummary(const WinnerSummary&) = default;
  WinnerSummary& operator=(const WinnerSummary&) = default;
  // A large summary's removes are freed on a second thread while its adds are freed here, where a
  // second CPU is free: a winner of 100,000s of files is otherwise the longest step of a check
  // after its parse (each file's strings are cold by then, a cache miss apiece).
  ~WinnerSummary();

  int64_t version = 0;
  std::string operation = "UNKNOWN";
  bool is_blind_append = false;
  std::vector<delta::AddFile> added_files;
  std::vector<delta::RemoveFile> removed_files;
  // delta::PathKey of each of removed_files, taken as the parse met the path (the rules look the
  // removed paths up by it). A summary built by hand may leave it empty: then keys are computed.
  std::vector<uint64_t> removed_path_keys;
  std::optional<delta::Protocol> protocol;
  std::optional<delta::Metadata> metadata;
  std::vector<delta::Txn> app_transactions;
  std::vector<delta::DomainMetadata> domains;
  std::optional<delta::CommitInfo> commit_info;
  // Per added file, what the judge the summary was made with said of it; empty without a judge.
  std::vector<AddJudgement> add_judgements;
};

// `source` names the bytes in messages (the commit file's path). With `judge` set, each pass
// over the bytes judges its adds with a judge of its own (add_judgements).
Result<WinnerSummary> SummarizeWinner(int64_t version, std::string_view bytes,
                                      std::string_view source, const AddJudgeMaker& judge = {});
// The same summary, the bytes' two halves parsed at once (the later on a thread of its own):
// SummarizeWinner's way with a winner of 4 MiB or more where two CPUs are free. An error in
// either half is reported by one pass over the whole, so errors read as SummarizeWinner's.
Result<WinnerSummary> SummarizeWinnerInTwoHalves(int64_t version, std::string_view bytes,
                                                 std::string_view source,
                                                 const AddJudgeMaker& judge = {});
// Takes the commit's actions (moved, not copied: a winner can hold 100,000 of them).
WinnerSummary SummarizeCommit(delta::Commit commit);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_WINNER_SUMMARY_H_
