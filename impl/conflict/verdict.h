// Verdict: what the conflict checker decides for a loser. An abort is a verdict, not an error.
//
// Concern: the closed set of Delta's concurrent-modification exceptions, named verbatim; the
// winner that caused an abort (version, operation); the path or partition; and a reason a person
// can read. A commit carries the loser's (possibly rebased) actions and the reconcile events.
//
// Thread-safety: plain values.
#ifndef RLC_IMPL_CONFLICT_VERDICT_H_
#define RLC_IMPL_CONFLICT_VERDICT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "impl/delta/actions.h"

namespace rlc::conflict {

enum class ConflictKind {
  kProtocolChanged,
  kMetadataChanged,
  kConcurrentTransaction,
  kConcurrentAppend,
  kConcurrentDeleteRead,
  kConcurrentDeleteDelete,
  kUnsupportedTableFeature,  // the winner's protocol needs a writer feature the loser's writer
                             // lacks
};

// "ProtocolChangedException", ..., as Delta names them.
std::string ExceptionName(ConflictKind kind);

// Delta's error class ("DELTA_CONCURRENT_APPEND", ...) and SQL state ("2D521", ...) for the kind.
std::string DeltaErrorClass(ConflictKind kind);
std::string DeltaSqlState(ConflictKind kind);

struct Abort {
  ConflictKind kind = ConflictKind::kConcurrentAppend;
  int64_t winner_version = 0;
  std::string winner_operation;          // commitInfo.operation, "UNKNOWN" when absent
  std::optional<std::string> path;       // the file that conflicted, when one did
  std::optional<std::string> partition;  // "[col=value,...]" for a partitioned table
  std::string reason;                    // one sentence
  // What Delta's message names in its place: the partition ("partition [a=1, b=x]" or "the root
  // of the table") a ConcurrentAppendException found files added to; the file ("<path> in
  // partition [...]", or the path alone after a whole-table read) of a delete conflict.
  std::string delta_subject;
  // Delta's advice for an append conflict with a winner that only added files and did not say
  // whether it was a blind append (an older writer); empty: "Please try the operation again."
  std::string delta_retry_advice;
  // The winner's commitInfo as Delta prints it after "Conflicting commit: ": its JSON, with the
  // commit's version first. Absent when the winner wrote no commitInfo.
  std::optional<std::string> conflicting_commit;
};

// A reconcile event with Delta's name (e.g. delta.rowLevelConcurrency.deletionVectorsMerged).
struct Event {
  std::string name;
  int64_t winner_version = 0;
  std::map<std::string, std::string> data;
};

// A case that met a file it might have reconciled and left it to Delta's rules, and why: what a
// reviewer reads to learn why a conflict stood (rlc check prints them). One per file and doubt.
struct Decline {
  std::string case_id;  // "1a", "1b", "2", "3", "4a", "4b" (case_catalogue.h)
  int64_t winner_version = 0;
  std::string path;    // the file (decoded); empty when the case declined the winner as a whole
  std::string reason;  // one phrase, naming what could not be read or did not hold
  friend bool operator==(const Decline&, const Decline&) = default;
};
using DeclineLog = std::vector<Decline>;

// Records a decline where a log is kept (nullptr: nobody asked).
inline void Declined(DeclineLog* log, std::string case_id, int64_t winner_version, std::string path,
                     std::string reason) {
  if (log != nullptr)
    log->push_back({std::move(case_id), winner_version, std::move(path), std::move(reason)});
}

struct Verdict {
  std::optional<Abort> abort;           // set: the loser must abort
  std::vector<delta::Action> actions;   // the loser's actions to commit (rebased when a case ran)
  std::vector<std::string> read_files;  // the loser's read files after the cases moved them, for a
                                        // later check against newer winners
  std::vector<Event> events;
  DeclineLog declines;                  // in the order the cases met them
  int64_t checked_through_version = 0;  // the last winner checked

  bool commits() const { return !abort.has_value(); }
};

// "ConcurrentAppendException at version 7 (DELETE): <reason> [path ...]"
std::string Describe(const Abort& abort);

// The message Delta's own conflict checker raises for this abort, in Delta's words: the error
// class in brackets, the exception and its sentence, the "Conflicting commit" block and the
// pointer to Delta's documentation, one per line. (A writer-feature refusal is not a conflict:
// it has no conflicting-commit block.)
std::string DeltaErrorMessage(const Abort& abort);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_VERDICT_H_
